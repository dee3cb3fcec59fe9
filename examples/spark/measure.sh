#!/usr/bin/env bash
# What the Spark job costs per status next to the single-process export, on generated feeds:
#
#   examples/spark/measure.sh [COUNT...]      (default: 2000 20000 60000; partitions: 6)
#
# For each count: the single process (`feedlayout layout --format jsonl --threads 1`) and the job
# on local[2] (`--task-threads 1`), each once, with wall time and CPU time (user + system of the
# whole process tree: the JVM, Python workers and feedlayout processes; cputime.py). CPU time is what a
# cluster bills and what a busy machine distorts least; the job's fixed cost (JVM, Spark context,
# shipping the fonts) is the intercept across counts, its cost per status the slope.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bash scripts/setup.sh
bash examples/spark/setup.sh
swift build -c release --product feedlayout >&2
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(2000 20000 60000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cputime="python3 examples/spark/cputime.py"  # wall, user, system of a whole process tree
printf '%8s  %22s  %44s\n' "statuses" "single process, 1 core" "Spark local[2], 6 partitions"
printf '%8s  %10s %11s  %10s %11s %9s %11s\n' "" "wall s" "CPU s" "wall s" "CPU s" "passes s" "st/s/core"
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
t = json.loads(sys.argv[4])["seconds"]
passes = t["heights"] + t["frames"]
print(f"{n:8d}  {sw:10.2f} {su + ss:11.2f}  {kw:10.2f} {ku + ks:11.2f} {passes:9.2f} {n / passes / 2:11.0f}")
with open(sys.argv[5], "a") as f:
    f.write(f"{n} {su + ss} {ku + ks}\n")
PY
done
# Cost per status: the slope of CPU time between the smallest and the largest feed.
python3 - "$tmp/rows" <<'PY'
import sys
rows = sorted(tuple(map(float, l.split())) for l in open(sys.argv[1]))
if len(rows) >= 2:
    (n0, s0, k0), (n1, s1, k1) = rows[0], rows[-1]
    single, spark = (s1 - s0) / (n1 - n0), (k1 - k0) / (n1 - n0)
    print(f"CPU per status: single process {single * 1e6:.0f} µs ({1 / single:.0f} statuses/s per core), "
          f"Spark job {spark * 1e6:.0f} µs ({1 / spark:.0f} statuses/s per core), engine overhead "
          f"{(spark - single) * 1e6:.0f} µs; fixed cost of a job {k0 - spark * n0:.1f} s CPU")
PY
