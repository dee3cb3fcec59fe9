#!/usr/bin/env python3
"""End-to-end figures of the jobs users run, measured on the built `feedlayout` in one run.

    python3 benchmarks/pipeline.py                 # 100 000 generated statuses (seed 5)
    python3 benchmarks/pipeline.py --million       # also the peak RSS of a 1 000 000-status export
    python3 benchmarks/pipeline.py --reps 5

Each repetition runs, back to back: orjson parsing the JSON Lines file line by line (the
reference of the targets), `feedlayout validate`, and `feedlayout layout --format jsonl` on one
thread and on every core, writing to /dev/null through standard output; then `layout` on every
core of the first 20 000 statuses as an XML property list and as JSON Lines. Figures are medians; the
ratios are taken within the run, so a change of the machine's load between runs does not enter
them. Writes results/pipeline.json and prints the Markdown table that README.md carries between
its pipeline markers (updated with --write-readme).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BINARY = os.path.join(ROOT, ".build", "release", "feedlayout")
WORK = os.path.join(HERE, "results", "pipeline-inputs")


def run(args, stdout=subprocess.DEVNULL):
    """Wall seconds of a child process (its output discarded)."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=stdout, stderr=subprocess.PIPE)
    _, err = proc.communicate()
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"pipeline.py: {' '.join(args)} failed ({proc.returncode}): {err.decode(errors='replace')}")
    return wall


def child_rss(args):
    """Peak RSS in MiB of one run of `args` (its own process, output discarded)."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.execv(args[0], args)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"pipeline.py: {' '.join(args)} failed ({status})")
    return usage.ru_maxrss / 1024


def orjson_parse(path):
    import orjson
    start = time.perf_counter()
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if line.strip():
                orjson.loads(line)
                n += 1
    return time.perf_counter() - start, n


def generate(count, seed, form="jsonl"):
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, f"generated-{count}-seed{seed}.{form}")
    if not os.path.exists(path):
        run([BINARY, "generate", "--count", str(count), "--seed", str(seed), "--format", form, "-o", path])
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--million", action="store_true", help="also measure the peak RSS of a 1 000 000-status export")
    ap.add_argument("--write-readme", action="store_true", help="replace the table between README.md's pipeline markers")
    a = ap.parse_args()
    if not os.path.exists(BINARY):
        sys.exit("pipeline.py: build the CLI first: swift build -c release --product feedlayout")
    try:
        import orjson  # noqa: F401
    except ImportError:
        sys.exit("pipeline.py: needs orjson for the reference figure: python3 -m pip install orjson")
    cores = os.cpu_count() or 1
    feed = generate(100_000, 5)
    size = os.path.getsize(feed)
    # The same 20 000 statuses as an XML property list and as JSON Lines: the plist job's cost
    # over the JSON Lines job's (a plist is held whole in memory, so a smaller feed).
    plist, plistLines = generate(20_000, 5, "plist"), generate(20_000, 5, "jsonl")
    samples = {k: [] for k in ("orjson", "validate", "layout1", "layoutN", "plist", "plistLines")}
    statuses = 0
    load_before = open("/proc/loadavg").read().split()[:3]
    for _ in range(a.reps):
        t, statuses = orjson_parse(feed)
        samples["orjson"].append(t)
        samples["validate"].append(run([BINARY, "validate", feed]))
        base = [BINARY, "layout", feed, "--width", "375", "--format", "jsonl"]
        samples["layout1"].append(run(base + ["--threads", "1"]))
        samples["layoutN"].append(run(base + ["--threads", str(cores)]))
        for key, path in (("plist", plist), ("plistLines", plistLines)):
            samples[key].append(run([BINARY, "layout", path, "--width", "375", "--format", "jsonl", "--threads", str(cores)]))
    med = {k: statistics.median(v) for k, v in samples.items()}
    rss = child_rss([BINARY, "layout", feed, "--width", "375", "--format", "jsonl"])
    figures = {
        "input": f"feedlayout generate --count 100000 --seed 5 --format jsonl ({size / 1e6:.1f} MB, {statuses} statuses)",
        "cores": cores,
        "loadBefore": load_before,
        "loadAfter": open("/proc/loadavg").read().split()[:3],
        "reps": a.reps,
        "orjsonSeconds": med["orjson"],
        "validateSeconds": med["validate"],
        "layoutOneThreadSeconds": med["layout1"],
        "layoutAllCoresSeconds": med["layoutN"],
        "speedup": med["layout1"] / med["layoutN"],
        "layoutOverOrjson": med["layoutN"] / med["orjson"],
        "validateOverOrjson": med["validate"] / med["orjson"],
        "peakRSSMiB": rss,
        "plistSeconds": med["plist"],
        "plistJSONLinesSeconds": med["plistLines"],
        "plistOverJSONLines": med["plist"] / med["plistLines"],
        "samples": samples,
    }
    if a.million:
        big = generate(1_000_000, 5)
        figures["peakRSSMillionMiB"] = child_rss([BINARY, "layout", big, "--width", "375", "--format", "jsonl"])
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "pipeline.json"), "w") as f:
        json.dump(figures, f, indent=2)
        f.write("\n")
    table = markdown(figures)
    print(table)
    if a.write_readme:
        readme = os.path.join(HERE, "README.md")
        text = open(readme).read()
        begin, end = "<!-- pipeline:begin -->", "<!-- pipeline:end -->"
        if begin in text and end in text:
            head, rest = text.split(begin, 1)
            _, tail = rest.split(end, 1)
            open(readme, "w").write(head + begin + "\n" + table + "\n" + end + tail)


def markdown(f):
    def verdict(ok):
        return "met" if ok else "**MISSED**"
    rows = [
        ("orjson, parse line by line (reference)", f"{f['orjsonSeconds']:.2f} s", "", ""),
        ("`feedlayout validate`", f"{f['validateSeconds']:.2f} s", "≤ orjson", verdict(f["validateOverOrjson"] <= 1)),
        ("`feedlayout layout --format jsonl`, 1 thread", f"{f['layoutOneThreadSeconds']:.2f} s", "", ""),
        (f"`feedlayout layout --format jsonl`, {f['cores']} threads", f"{f['layoutAllCoresSeconds']:.2f} s", "≤ 1.5 s",
         verdict(f["layoutAllCoresSeconds"] <= 1.5)),
        ("export ÷ orjson (same run)", f"{f['layoutOverOrjson']:.2f} ×", "≤ 3.5 ×", verdict(f["layoutOverOrjson"] <= 3.5)),
        (f"export speedup, {f['cores']} threads ÷ 1", f"{f['speedup']:.2f} ×", "≥ 1.7 ×", verdict(f["speedup"] >= 1.7)),
        ("peak RSS of the export", f"{f['peakRSSMiB']:.0f} MiB", "≤ 200 MiB", verdict(f["peakRSSMiB"] <= 200)),
        (f"`feedlayout layout --format jsonl` of the first 20 000 as an XML property list, {f['cores']} threads",
         f"{f['plistSeconds']:.2f} s", "", ""),
        ("the same ÷ the same 20 000 as JSON Lines", f"{f['plistOverJSONLines']:.2f} ×", "≤ 1.5 ×",
         verdict(f["plistOverJSONLines"] <= 1.5)),
    ]
    if "peakRSSMillionMiB" in f:
        rows.append(("peak RSS, 1 000 000 statuses", f"{f['peakRSSMillionMiB']:.0f} MiB", "≤ 200 MiB",
                     verdict(f["peakRSSMillionMiB"] <= 200)))
    out = [f"Input: {f['input']}; {f['cores']} cores; load {' '.join(f['loadBefore'])} before, "
           f"{' '.join(f['loadAfter'])} after; medians of {f['reps']} runs.", "",
           "| Job | Measured | Target | Verdict |", "| --- | ---: | ---: | --- |"]
    out += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    return "\n".join(out)


if __name__ == "__main__":
    main()
