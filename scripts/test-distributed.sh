#!/usr/bin/env bash
# The distributed export's test: the Spark job of examples/spark on a local cluster (local[2],
# feedlayout --threads 1 a task) must write exactly the bytes of the single-process export.
#
#   1. JSON Lines: 20 000 generated statuses, with blank, whitespace-only and CRLF lines and no
#      final newline, in at least 6 partitions; the part files, concatenated, against
#      `feedlayout layout FEED --format jsonl`.
#   2. JSON document: 16 statuses in at least 24 partitions, so some hold one status and some
#      none; the merged document (merge_json.py) against `feedlayout layout FEED --format json`.
#
# Also prints the throughput of both (statuses/s per core). Runs set-up first (idempotent).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
bash examples/spark/setup.sh
swift build -c release --product feedlayout
bin=.build/release/feedlayout
python=.venv-spark/bin/python
job=examples/spark/feedlayout_spark.py

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
check() {  # check NAME EXPECTED ACTUAL
  if cmp -s "$2" "$3"; then
    echo "PASS $1 ($(wc -c < "$3") bytes identical)"
    passed=$((passed + 1))
  else
    echo "FAIL $1: $(cmp "$2" "$3" 2>&1 | head -n 1)"
    failed=$((failed + 1))
  fi
}
now() { date +%s.%N; }

# A feed whose lines test the partition boundaries: blank and whitespace-only lines (no row),
# CRLF line ends (Spark strips the CR, feedlayout reads it as whitespace), no final newline.
"$bin" generate --count 20000 --seed 27 --format jsonl -o "$tmp/plain.jsonl"
python3 - "$tmp/plain.jsonl" "$tmp/feed.jsonl" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
out = []
for i, line in enumerate(lines):
    if i % 997 == 0:
        out.append(b"")
    if i % 1499 == 0:
        out.append(b" \t ")
    out.append(line + (b"\r" if i % 2003 == 0 else b""))
open(sys.argv[2], "wb").write(b"\n".join(out))
PY

# 1. JSON Lines.
t0=$(now)
"$bin" layout "$tmp/feed.jsonl" --format jsonl --threads 1 -o "$tmp/single.jsonl"
t1=$(now)
single_s=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$t0" "$t1")
"$python" "$job" "$tmp/feed.jsonl" --output-dir "$tmp/parts" --output "$tmp/spark.jsonl" --partitions 6 \
  2> "$tmp/spark.log" || { cat "$tmp/spark.log"; exit 1; }
summary=$(tail -n 1 "$tmp/spark.log")
parts=$(ls "$tmp/parts" | grep -c '^part-')
[ "$parts" -ge 6 ] || { echo "FAIL expected at least 6 partitions, got $parts"; failed=$((failed + 1)); }
check "jsonl: 20000 statuses in $parts partitions, concatenated" "$tmp/single.jsonl" "$tmp/spark.jsonl"
python3 - "$summary" "$single_s" <<'PY'
import json, sys
s, single = json.loads(sys.argv[1]), float(sys.argv[2])
t, n = s["seconds"], s["rows"]
passes = t["heights"] + t["frames"]
print(f"single process, 1 thread: {single:.2f} s, {n / single:.0f} statuses/s per core")
print(f"Spark local[2]: heights {t['heights']:.2f} s + frames {t['frames']:.2f} s = {passes:.2f} s on 2 cores, "
      f"{n / passes / 2:.0f} statuses/s per core; Spark start {t['sparkStart']:.2f} s, total {t['total']:.2f} s")
PY

# 2. JSON document, with empty partitions.
head -n 16 "$tmp/plain.jsonl" > "$tmp/small.jsonl"
"$bin" layout "$tmp/small.jsonl" --format json --threads 1 -o "$tmp/single.json"
"$python" "$job" "$tmp/small.jsonl" --format json --output-dir "$tmp/parts-json" --output "$tmp/spark.json" \
  --partitions 24 2> "$tmp/spark-json.log" || { cat "$tmp/spark-json.log"; exit 1; }
empty=$(tail -n 1 "$tmp/spark-json.log" | python3 -c 'import json, sys; print(json.load(sys.stdin)["emptyPartitions"])')
[ "$empty" -gt 0 ] || { echo "FAIL expected empty partitions in the JSON run"; failed=$((failed + 1)); }
check "json: 16 statuses in $(ls "$tmp/parts-json" | grep -c '^part-') partitions ($empty empty), merged" \
  "$tmp/single.json" "$tmp/spark.json"

echo "test-distributed: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
