#!/usr/bin/env python3
"""Joins the harness's JMH export with the facts each benchmark recorded into the suite's results.

    python3 report.py RAW_DIR RESULTS_DIR [README]

RAW_DIR holds *.histogram.percentiles.tsv (ordo-one/package-benchmark: one file per benchmark and
metric, wall clock in nanoseconds per iteration),
facts.jsonl (one line per benchmark: input, unit, work per iteration, extra figures) and
machine.json. Writes RESULTS_DIR/latest.json and RESULTS_DIR/latest.md; with README, replaces the
text between `<!-- results:begin -->` and `<!-- results:end -->` in it with latest.md.

Every figure is derived from the median (p50) iteration; a figure's "verdict" is "met", "missed"
or "" when the issue sets no target for it.
"""
import glob
import json
import os
import re
import sys

raw, out = sys.argv[1], sys.argv[2]
readme = sys.argv[3] if len(sys.argv) > 3 else None

machine = json.load(open(os.path.join(raw, "machine.json")))
facts = {}
calls = {}
for line in open(os.path.join(raw, "facts.jsonl")):
    if line.strip():
        f = json.loads(line)
        facts[f["name"]] = f
        calls[f["name"]] = calls.get(f["name"], 0) + 1

harness = {}
# <baseline>.<target>.<name, spaces as _>.<metric>.histogram.percentiles.tsv: "Percentile<TAB>header",
# then "p<TAB>value" for p = 0...100, in nanoseconds, counts and bytes (units fixed by the suite).
for path in glob.glob(os.path.join(raw, "*.histogram.percentiles.tsv")):
    base = os.path.basename(path)[: -len(".histogram.percentiles.tsv")]
    stem, metric = base.rsplit(".", 1)
    name = stem.split(".", 2)[2]
    values = {}
    for line in open(path).read().splitlines()[1:]:
        p, v = line.split("\t")
        values[int(p)] = float(v)
    h = harness.setdefault(name, {})
    if metric == "wallClock":
        h["wallClockMicrosP50"] = values[50] / 1e3
        h["wallClockMicrosMin"] = values[0] / 1e3
        h["wallClockMicrosMax"] = values[100] / 1e3
    elif metric == "mallocCountTotal":
        h["mallocsP50"] = values[50]
    elif metric == "peakMemoryResident":
        h["peakResidentBytesP50"] = values[50]


def key(name):
    return name.replace(" ", "_")


def run_of(name):
    """(facts, harness) of a benchmark, or None when it did not run or was skipped."""
    f, h = facts.get(name), harness.get(key(name))
    if f is None or h is None or f["unit"] == "skipped" or not h["wallClockMicrosP50"]:
        return None
    return f, h


def seconds_per_unit(name):
    r = run_of(name)
    if r is None:
        return None
    f, h = r
    return h["wallClockMicrosP50"] * 1e-6 / f["perIteration"]


figures = []


def figure(group, label, name, value, unit, target=None, better="lower", note="", naive=None, digits=1):
    """Adds a figure; `target` is a number compared with `value` (≤ for better=lower, ≥ otherwise)."""
    r = run_of(name) if name else None
    entry = {"group": group, "figure": label, "benchmark": name, "unit": unit,
             "input": r[0]["input"] if r else (facts.get(name, {}).get("input") if name else None)}
    if value is None:
        reason = facts.get(name, {}).get("note") if name in facts else "not run"
        entry.update(value=None, verdict="not run", note=reason or "not run")
    else:
        entry.update(value=round(value, digits), note=note)
        if target is not None:
            ok = value <= target if better == "lower" else value >= target
            entry.update(target=target, better=better, verdict="met" if ok else "missed")
        else:
            entry.update(verdict="")
    if naive is not None:
        entry["vsNaive"] = round(naive, 1)
    figures.append(entry)


def ns_per(name):
    s = seconds_per_unit(name)
    return None if s is None else s * 1e9


def per_second(name):
    s = seconds_per_unit(name)
    return None if s is None else 1 / s


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def extra(name, k):
    f = facts.get(name)
    return None if f is None or f["unit"] == "skipped" else f["extra"].get(k)


# Text
naive_text = ns_per("Text naive")
for case, label, target in [("Text cold", "cold (every cache fresh each pass)", 100),
                            ("Text warm", "warm (every cache kept: prepared texts found by content)", 20),
                            ("Text warm words", "warm words (shaped words kept, texts prepared again)", None),
                            ("Text relayout 355→320", "relayout of prepared text at 320 pt", 5)]:
    v = ns_per(case)
    figure("Text (15 pt at 355 pt)", label, case, v, "ns/char", target, "lower", naive=ratio(naive_text, v), digits=2)
figure("Text (15 pt at 355 pt)", "single-line label (singleLineSize)", "Text label singleLineSize",
       ns_per("Text label singleLineSize"), "ns/char", digits=2)
figure("Text (15 pt at 355 pt)", "naive baseline (word cache emptied before every text)", "Text naive", naive_text,
       "ns/char", digits=2)
load = seconds_per_unit("Fonts load")
figure("Text (15 pt at 355 pt)", "loading the fonts (FontSet.load, once per process)", "Fonts load",
       None if load is None else load * 1e3, "ms", digits=1)

# Cells, one core
for style in ["weibo", "classic"]:
    for inp in ["corpus", "generated"]:
        naive = per_second(f"Cells {style} naive {inp}")
        # The targets are the corpus's, and cold on the generated feed.
        corpus = inp == "corpus"
        for mode, label, target in [("cold", "cold (new engine, text caches emptied)", 150_000 if corpus else 120_000),
                                    ("warm", "warm (prepared cells found by content, arranged again)", 600_000 if corpus else None),
                                    ("warm texts", "warm texts (new engine: cells prepared again from cached shaped words)",
                                     200_000 if corpus else None)]:
            name = f"Cells {style} {mode} {inp}"
            v = per_second(name)
            figure(f"Cells, one core ({inp})", f"{style} {label}", name, v, "cells/s",
                   target if style == "weibo" else None, "higher", naive=ratio(v, naive), digits=0)
        # Allocations of a cold cell: the harness's malloc count of a pass over its cells.
        name = f"Cells {style} cold {inp}"
        r = run_of(name)
        mallocs = r[1].get("mallocsP50") if r else None
        figure(f"Cells, one core ({inp})", f"{style} allocations per cold cell", name,
               None if mallocs is None else mallocs / r[0]["perIteration"], "mallocs/cell",
               12 if style == "weibo" and corpus else None, "lower", digits=1)
        name = f"Cells {style} naive {inp}"
        figure(f"Cells, one core ({inp})", f"{style} naive baseline", name, naive, "cells/s", digits=0)
        name = f"Cells {style} cached {inp}"
        cached = per_second(name)
        figure(f"Cells, one core ({inp})", f"{style} height request served from the feed engine's cache", name, cached,
               "cells/s", naive=ratio(cached, naive), digits=0)
        warm = per_second(f"Cells {style} warm {inp}")
        # Context without a target: the naive baseline shares the engine's per-character path.
        figure(f"Cells, one core ({inp})", f"{style} warm ÷ naive (recomputing every cell)", None, ratio(warm, naive), "×",
               None, "higher", digits=1)
        figure(f"Cells, one core ({inp})", f"{style} cached ÷ naive (height request answered from the cache)", None,
               ratio(cached, naive), "×", None, "higher", digits=1)

# Relative times (a `now`): time lines shared by content
name = "Cells weibo cold corpus relative times"
v = per_second(name)
r = ratio(v, per_second("Cells weibo cold corpus"))
figure("Cells, one core (corpus)", "weibo cold, times relative to a `now` (time lines shared)", name, v, "cells/s",
       None, "higher", note="" if r is None else f"{r:.2f} × the absolute-times cold figure of the same run", digits=0)

# Where a cold cell's time goes (paired passes in one process)
bd = "Cells weibo cold breakdown corpus"
budget = 1e6 / 150_000
group = "Cells, one core (corpus): a cold cell's parts"
for part, label, note in [
        ("cold", "weibo cold cell (prepare + arrange)", f"{budget:.2f} µs per cell at the 150 000 cells/s target"),
        ("texts", "text engine: the cold pass's prepare and singleLineSize calls, replayed", None),
        ("warm", "arranging: the warm pass (prepared cell found by content, frames built)", None),
        ("rest", "the rest: status-text parsing, attributed texts, label cache, pictures, cell cache", None)]:
    v = extra(bd, f"{part}Micros") if run_of(bd) else None
    share = extra(bd, f"{part}Share") if run_of(bd) else None
    figure(group, label, bd, v, "µs/cell", digits=2,
           note=note or (None if share is None else f"{share * 100:.0f} % of the cold cell (median of the iterations' ratios)"))

# Parallel
for mode in ["cold", "warm"]:
    one = per_second(f"Feed weibo {mode} 1 thread")
    many = per_second(f"Feed weibo {mode} all cores")
    figure("Feed engine, generated feed", f"weibo {mode}, 1 thread", f"Feed weibo {mode} 1 thread", one, "cells/s", digits=0)
    figure("Feed engine, generated feed", f"weibo {mode}, all {machine.get('nproc')} cores", f"Feed weibo {mode} all cores",
           many, "cells/s", digits=0)
    figure("Feed engine, generated feed", f"speedup {mode} ({machine.get('nproc')} cores ÷ 1 thread)", None,
           ratio(many, one), "×", 1.7 if machine.get("nproc") == 2 else None, "higher", digits=2,
           note="the target is for 2 cores")
paired = "Feed weibo speedup paired"
figure("Feed engine, generated feed",
       f"speedup warm, paired passes in one process ({machine.get('nproc')} cores ÷ 1 thread, median of pairs)", paired,
       extra(paired, "medianRatio") if run_of(paired) else None, "×", 1.7 if machine.get("nproc") == 2 else None,
       "higher", digits=2, note="the target is for 2 cores")
for threads, label in [("1 thread", "1 thread"), ("all cores", "all cores")]:
    name = f"Feed relayout 320→414 {threads}"
    figure("Feed engine, generated feed", f"relayout 320→414 of a layout holding its prepared cells, {label}", name,
           per_second(name), "rows/s", 1_000_000 if threads == "1 thread" else None, "higher", digits=0)
for threads, label in [("1 thread", "1 thread"), ("all cores", "all cores")]:
    name = f"Feed width change 320→414 {threads}"
    figure("Feed engine, generated feed", f"width change 320→414 from the prepared-cell cache (looked up by content), {label}",
           name, per_second(name), "rows/s", None, "higher", digits=0)

# Table
for name, label, target in [("Table visible-range query", "visible-range query (812 pt)", 1000),
                            ("Table point lookup", "point lookup", 1000),
                            ("Table height change", "one height change", 2000),
                            ("Table insert middle", "insert in the middle", 5000),
                            ("Table delete middle", "delete in the middle", 5000),
                            ("Table append 20-row page", "append a 20-row page", None)]:
    figure("Table, 1 000 000 rows", label, name, ns_per(name), "ns", target, "lower", digits=0)
figure("Table, 1 000 000 rows", "build from heights", "Table build 1M rows", ns_per("Table build 1M rows"), "ns/row",
       digits=1)

# Memory
figure("Memory", "resident bytes per row (TableGeometry.residentBytes)", "Table build 1M rows",
       extra("Table build 1M rows", "bytesPerRow") if run_of("Table build 1M rows") else None, "B/row", 64, "lower",
       digits=1)
figure("Memory", "RSS growth per row while building", "Table build 1M rows",
       extra("Table build 1M rows", "rssDeltaBytesPerRow") if run_of("Table build 1M rows") else None, "B/row", digits=1,
       note="VmRSS before and after the first build (includes allocator slack)")
hwm = extra("Memory full layout 100k", "vmHWMBytes") if run_of("Memory full layout 100k") else None
before = extra("Memory full layout 100k", "vmHWMBeforeLayoutBytes")
figure("Memory", "peak RSS (VmHWM), full layout of 100 000 statuses, cells retained", "Memory full layout 100k",
       None if hwm is None else hwm / 2**20, "MiB", digits=0,
       note=None if before is None else f"VmHWM before the layout (inputs and fonts loaded): {before / 2**20:.0f} MiB")
b = "Memory cache budgets 100k"
if run_of(b):
    parts = []
    ok = True
    for cache in ["word", "layout", "prepared"]:
        used, budget = extra(b, f"{cache}CacheBytes"), extra(b, f"{cache}CacheBudget")
        ev = extra(b, f"{cache}CacheEvictions")
        ok = ok and used <= budget
        kept_not = extra(b, f"{cache}CacheNotKept") if cache != "word" else None
        more = f", {kept_not:.0f} not kept" if kept_not else ""
        parts.append(f"{cache} {used / 2**20:.2f} of {budget / 2**20:.0f} MiB ({ev:.0f} evictions{more})")
    entry = {"group": "Memory", "figure": "cache byte budgets respected under pressure", "benchmark": b,
             "input": facts[b]["input"], "unit": "", "value": "yes" if ok else "no", "target": "yes",
             "verdict": "met" if ok else "missed", "note": "; ".join(parts)}
    figures.append(entry)
else:
    figure("Memory", "cache byte budgets respected under pressure", b, None, "")

# Export
for name, label, target in [("Export JSON", "JSON", 500), ("Export JSON Lines", "JSON Lines", 500)]:
    s = seconds_per_unit(name)
    figure("Export", f"{label} encoding, one core", name, None if s is None else 1 / s / 1e6, "MB/s", target, "higher", digits=1)

# Loader
for name, label, target in [
    ("Loader JSON Lines", "JSON Lines (generated)", 300), ("Loader Weibo JSON", "Weibo API JSON (corpus)", 300),
    ("Loader XML plist", "XML property list (generated)", 100),
]:
    s = seconds_per_unit(name)
    figure("Loader", f"{label}, one core", name, None if s is None else 1 / s / 1e6, "MB/s", target, "higher", digits=1)

# Raw harness table
benchmarks = []
for name in sorted(set(facts) | {n.replace("_", " ") for n in harness}):
    f, h = facts.get(name), harness.get(key(name))
    benchmarks.append({"name": name, "input": f and f["input"], "unit": f and f["unit"],
                       "perIteration": f and f["perIteration"], "extra": f and f.get("extra"), "note": f and f.get("note"),
                       "calls": calls.get(name, 0), **(h or {})})

missed = [f"{x['group']}: {x['figure']}" for x in figures if x.get("verdict") == "missed"]
not_run = [f"{x['group']}: {x['figure']}" for x in figures if x.get("verdict") == "not run"]
os.makedirs(out, exist_ok=True)
json.dump({"schemaVersion": 1, "machine": machine, "figures": figures, "missed": missed, "notRun": not_run,
           "benchmarks": benchmarks}, open(os.path.join(out, "latest.json"), "w"), indent=2, ensure_ascii=False)


def fmt(v, unit):
    if v is None:
        return "—"
    if isinstance(v, str):
        return v
    if abs(v) >= 1000:
        s = f"{v:,.0f}".replace(",", " ")
    elif abs(v) >= 100:
        s = f"{v:.0f}"
    elif abs(v) >= 10:
        s = f"{v:.1f}"
    else:
        s = f"{v:.2f}"
    return f"{s} {unit}".strip()


def target_text(x):
    t = x.get("target")
    if t is None:
        return ""
    if isinstance(t, str):
        return t
    return ("≤ " if x.get("better") == "lower" else "≥ ") + fmt(t, x["unit"])


m = machine
lines = [
    f"Run {m.get('started')} → {m.get('finished')} on {m.get('nproc')} cores ({m.get('cpu')}), "
    f"{m.get('memoryGiB')} GiB, {m.get('swift')}; load average {' '.join(m.get('loadBefore', []))} before, "
    f"{' '.join(m.get('loadAfter', []))} after (1, 5, 15 min). The machine is shared: figures are medians of the "
    f"passes and move with the load.",
    "",
    "| Group | Figure | Measured | Target | Verdict | vs naive |",
    "| --- | --- | ---: | ---: | --- | ---: |",
]
for x in figures:
    verdict = {"met": "met", "missed": "**MISSED**", "not run": "not run", "": ""}[x["verdict"]]
    vs = f"{x['vsNaive']}×" if x.get("vsNaive") is not None else ""
    value = fmt(x["value"], x["unit"]) if x["verdict"] != "not run" else "—"
    lines.append(f"| {x['group']} | {x['figure']} | {value} | {target_text(x)} | {verdict} | {vs} |")
lines += ["", "Missed targets: " + ("; ".join(missed) if missed else "none") + "."]
if not_run:
    lines += ["", f"Not run in this run: {len(not_run)} figures (marked in the table)."]
notes = [f"- {x['group']}, {x['figure']}: {x['note']}" for x in figures if x.get("note") and x["verdict"] != "not run"]
if notes:
    lines += ["", "Notes:", *notes]
lines += ["", "Per benchmark (harness percentiles of the measured iterations; calls include the warm-up; mallocs and peak RSS per iteration from the malloc interposer and the OS):", "",
          "| Benchmark | Input | Work per iteration | Calls | Wall clock p50 (min–max) | Mallocs p50 | Peak RSS p50 |",
          "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
for b in benchmarks:
    if not b.get("wallClockMicrosP50"):
        lines.append(f"| {b['name']} | {b['input'] or ''} | | {b['calls']} | not run | | |")
        continue
    def t(us):
        return f"{us / 1e6:.3f} s" if us >= 1e5 else f"{us:,.1f} µs".replace(",", " ")
    wall_s = f"{t(b['wallClockMicrosP50'])} ({t(b['wallClockMicrosMin'])}–{t(b['wallClockMicrosMax'])})"
    mallocs = b.get("mallocsP50")
    rss = b.get("peakResidentBytesP50")
    units = {"query": "queries"}.get(b["unit"], b["unit"] + "s")
    work = f"{b['perIteration']:,} {units}".replace(",", " ")
    mallocs_s = "" if mallocs is None else f"{mallocs:,.0f}".replace(",", " ")
    rss_s = "" if rss is None else f"{rss / 2**20:,.0f} MiB".replace(",", " ")
    lines.append(f"| {b['name']} | {b['input']} | {work} | {b['calls']} | {wall_s} | {mallocs_s} | {rss_s} |")
md = "\n".join(lines) + "\n"
open(os.path.join(out, "latest.md"), "w").write(md)

if readme and os.path.exists(readme):
    # The README gets the figures that ran; the per-benchmark harness table stays in latest.md.
    head = md.split("\nPer benchmark")[0]
    readme_md = "\n".join(l for l in head.splitlines() if "| not run |" not in l).rstrip("\n") + "\n"
    readme_md = readme_md.replace("(marked in the table)", "(listed in results/latest.md)")
    readme_md += "\nPer benchmark (harness percentiles, mallocs, peak RSS): [`results/latest.md`](results/latest.md).\n"
    text = open(readme).read()
    new = re.sub(r"(<!-- results:begin -->\n).*?(<!-- results:end -->)", lambda m_: m_.group(1) + readme_md + m_.group(2),
                 text, flags=re.S)
    open(readme, "w").write(new)
print(md)
