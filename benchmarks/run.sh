#!/usr/bin/env bash
# Runs the FeedLayout benchmark suite in release mode (ordo-one/package-benchmark) and writes
#   results/latest.json   every figure with its input, unit, target and verdict, the machine, the load
#   results/latest.md     the same as Markdown tables (also copied into README.md between its markers)
#   results/raw/          the harness's percentiles (one TSV per benchmark and metric), the facts each
#                         benchmark recorded, the console log
#
#   bash run.sh                          the whole suite (about 15 minutes on 2 cores)
#   bash run.sh --filter 'Table.*'       a subset: regular expressions on benchmark names (repeatable)
#   bash run.sh --skip 'Memory.*'        everything but a subset
# A subset writes its own latest.* (figures of benchmarks that did not run are listed as not run).
# A whole run also appends one line to results/history.jsonl (history.py: when, where, the commit,
# every figure).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
raw=results/raw
rm -rf "$raw"
mkdir -p "$raw"
export FEEDLAYOUT_BENCH_FACTS="$here/$raw/facts.jsonl"
: > "$FEEDLAYOUT_BENCH_FACTS"

machine() {  # $1 = before|after
  python3 - "$1" "$raw/machine.json" <<'PY'
import json, os, platform, subprocess, sys, time
phase, path = sys.argv[1], sys.argv[2]
info = json.load(open(path)) if os.path.exists(path) else {}
load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"] * 3
if phase == "before":
    model = "unknown"
    if os.path.exists("/proc/cpuinfo"):
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    info.update(nproc=os.cpu_count(), cpu=model, kernel=platform.release(),
                memoryGiB=round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
                swift=swift[0] if swift else "unknown",
                started=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), loadBefore=load)
else:
    info.update(finished=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), loadAfter=load)
json.dump(info, open(path, "w"), indent=2)
PY
}

machine before
echo "bench: $(python3 -c 'import json;m=json.load(open("'"$raw"'/machine.json"));print(m["nproc"],"cores,",m["cpu"],", load",*m["loadBefore"])')"
swift package --disable-sandbox --allow-writing-to-package-directory benchmark \
  --format histogramPercentiles --path "$raw" --no-progress "$@" 2>&1 | tee "$raw/harness.log"
status=${PIPESTATUS[0]}
machine after
if [ "$status" -ne 0 ]; then
  echo "bench: the harness failed (exit $status); see $raw/harness.log" >&2
  exit "$status"
fi
python3 report.py "$raw" results README.md
[ $# -gt 0 ] || python3 history.py results/latest.json results/history.jsonl
