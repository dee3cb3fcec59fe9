#!/usr/bin/env bash
# What the Spark job costs per status next to the single-process export, on generated feeds:
#
#   examples/spark/measure.sh [COUNT...]      (6 partitions)
#
# For each count: the single process (`feedlayout layout --format jsonl --threads 1`) and the job
# on local[2] (`--task-threads 1`), each once, with wall time and CPU time. The job's CPU is that of
# its process tree (the driver and the JVM, by cputime.py) plus what its tasks report (their
# Python workers and feedlayout processes, which Spark's worker daemon never lets reach the
# tree's rusage). CPU time is what a cluster bills and what a busy machine distorts least; the
# job's fixed cost (JVM, Spark context, shipping the fonts) is the intercept across counts, its
# cost per status the slope. Default counts: 20000 200000.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bash scripts/setup.sh
bash examples/spark/setup.sh
swift build -c release --product feedlayout >&2
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(20000 200000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cputime="python3 examples/spark/cputime.py"  # wall, user, system of a whole process tree
printf '%8s  %19s  %55s\n' "statuses" "single process" "Spark local[2], 6 partitions"
printf '%8s  %8s %10s  %8s %10s %12s %9s %11s\n' "" "wall s" "CPU s" "wall s" "CPU s" "feedlayout" "passes s" "st/s/core"
for n in "${counts[@]}"; do
  feed="$tmp/feed-$n.jsonl"
  .build/release/feedlayout generate --count "$n" --seed 27 --format jsonl -o "$feed"
  $cputime "$tmp/single.time" .build/release/feedlayout layout "$feed" --format jsonl --threads 1 -o "$tmp/single.jsonl"
  rm -rf "$tmp/parts"
  $cputime "$tmp/spark.time" .venv-spark/bin/python examples/spark/feedlayout_spark.py "$feed" \
    --output-dir "$tmp/parts" --output "$tmp/spark.jsonl" --partitions 6 2> "$tmp/spark.log" \
    || { cat "$tmp/spark.log"; exit 1; }
  cmp -s "$tmp/single.jsonl" "$tmp/spark.jsonl" || { echo "measure: outputs differ at $n statuses" >&2; exit 1; }
  python3 - "$n" "$(cat "$tmp/single.time")" "$(cat "$tmp/spark.time")" "$(tail -n 1 "$tmp/spark.log")" "$tmp/rows" <<'PY'
import json, sys
n = int(sys.argv[1])
sw, su, ss = map(float, sys.argv[2].split())
kw, ku, ks = map(float, sys.argv[3].split())
summary = json.loads(sys.argv[4])
t, cpu = summary["seconds"], summary["cpuSeconds"]
# The tree's rusage holds the driver and the JVM; the workers' and feedlayout's come from the
# job's accumulators (Spark's worker daemon ignores SIGCHLD, so they never reach the tree's).
tool = cpu["feedlayout"]
total = ku + ks + tool + cpu["pythonWorkers"]
passes = t["heights"] + t["frames"]
print(f"{n:8d}  {sw:8.2f} {su + ss:10.2f}  {kw:8.2f} {total:10.2f} {tool:12.2f} {passes:9.2f} {n / passes / 2:11.0f}")
with open(sys.argv[5], "a") as f:
    f.write(f"{n} {su + ss} {total} {tool}\n")
PY
done
# Cost per status: the slope of CPU time between the smallest and the largest feed.
python3 - "$tmp/rows" <<'PY'
import sys
rows = sorted(tuple(map(float, l.split())) for l in open(sys.argv[1]))
if len(rows) >= 2:
    (n0, s0, k0, f0), (n1, s1, k1, f1) = rows[0], rows[-1]
    single, spark, tool = ((b - a) / (n1 - n0) for a, b in ((s0, s1), (k0, k1), (f0, f1)))
    print(f"CPU per status: single process {single * 1e6:.0f} µs ({1 / single:.0f} statuses/s per core); "
          f"Spark job {spark * 1e6:.0f} µs ({1 / spark:.0f} statuses/s per core), of which feedlayout's two passes "
          f"{tool * 1e6:.0f} µs and Spark with its Python workers {(spark - tool) * 1e6:.0f} µs; "
          f"fixed cost of a job {k0 - spark * n0:.1f} s CPU")
PY
