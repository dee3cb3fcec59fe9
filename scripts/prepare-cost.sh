#!/usr/bin/env bash
# Instructions per UTF-16 unit of the measurer's `prepare`, per kind of text and for the corpus's
# status and retweet texts, counted by callgrind as docs/text-engine.md ("What preparing costs per
# character") describes: each set is measured after one text of every kind (the warm-up), minus
# the count for the warm-up alone, so the one-time work (tables built at first use) is left out.
# Prints a Markdown table per kind (the allocator's part apart: it moves with the allocator's
# state), then the corpus's instructions by part. Outputs go to $OUT
# (default: a temporary directory), never to the repository.
#
#   bash scripts/prepare-cost.sh ".build/release/feedlayout" [--seed 7] [--count 200] [--kinds "url tabs"]
#
# Needs valgrind (Debian: apt-get install valgrind). The counts depend little on the machine but
# move with the allocator's state (docs/text-engine.md gives the spread).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
engine=$1; shift
seed=7 count=200
kinds="fullwidth url numbers tabs latin-ext missing hangul greek kana-han combining kaomoji emoji thai"
while [ $# -gt 0 ]; do
  case $1 in
    --seed) seed=$2; shift 2;; --count) count=$2; shift 2;; --kinds) kinds=$2; shift 2;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null ||
  { echo "prepare-cost: valgrind is not installed (Debian: apt-get install valgrind)" >&2; exit 1; }
corpus=${CORPUS:-$root/../shared/corpus/yykit-weibo}
out=${OUT:-$(mktemp -d -t prepare-cost-XXXXXX)}
mkdir -p "$out"
python3 "$root/scripts/fidelity_corpus.py" --seed "$seed" --count "$count" >"$out/kinds.jsonl"
have_corpus=0
if [ -d "$corpus" ]; then
  python3 "$root/scripts/fidelity_corpus.py" --real "$corpus" --sizes 15 >"$out/real.jsonl"
  have_corpus=1
else
  echo "prepare-cost: no corpus at $corpus: the corpus row is left out" >&2
fi
# The sets: texts at width 320 and 15 px; the warm-up, the first text of each kind (ids renamed,
# so that no id repeats in a file).
python3 - "$out" "$have_corpus" <<'PY'
import json, sys
out, have_corpus = sys.argv[1], sys.argv[2] == "1"
kinds = {}
for line in open(f"{out}/kinds.jsonl", encoding="utf-8"):
    d = json.loads(line)
    if d["id"].endswith("-w320-s15"):
        kinds.setdefault(d["id"].rsplit("-", 3)[0], []).append(d)
warm = [dict(v[0], id="warm-" + v[0]["id"]) for v in kinds.values()]
sets = dict(kinds)
if have_corpus:
    sets["corpus"] = [d for d in map(json.loads, open(f"{out}/real.jsonl", encoding="utf-8")) if d["width"] == 320]
def write(path, texts):
    with open(path, "w", encoding="utf-8") as f:
        for d in texts:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
write(f"{out}/set-warm.jsonl", warm)
for name, texts in sets.items():
    write(f"{out}/set-{name}.jsonl", warm + texts)
    with open(f"{out}/units-{name}", "w") as f:
        f.write(str(sum(len(d["text"].encode("utf-16-le")) // 2 for d in texts)))
PY
# The measurer's internal `prepare` (TextMeasurer.prepare(_:_:_:_:), PerCharacterPath.swift).
symbol='*TextMeasure0A8MeasurerC7prepare*PrepareBuffers*'
count_set() {
  valgrind --tool=callgrind --toggle-collect="$symbol" --callgrind-out-file="$out/$1.cg" \
    "$engine" measure "$out/set-$1.jsonl" >/dev/null 2>"$out/$1.log"
}
count_set warm
sets=$kinds
[ "$have_corpus" = 1 ] && sets="corpus $sets"
for name in $sets; do
  [ -s "$out/set-$name.jsonl" ] || { echo "prepare-cost: no kind $name" >&2; exit 2; }
  count_set "$name"
done
python3 - "$out" $sets <<'PY'
import re, subprocess, sys
out, names = sys.argv[1], sys.argv[2:]
def functions(name):
    text = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", f"{out}/{name}.cg"],
                          capture_output=True, text=True, check=True).stdout
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$", line)
        if m and "PROGRAM TOTALS" not in m.group(2):
            yield int(m.group(1).replace(",", "")), m.group(2)
# Each function's own instructions count in the first part its name (source file and function)
# matches, as in docs/text-engine.md.
parts = [
    ("HarfBuzz: words neither on the tables nor in the word cache", r"libharfbuzz|CCalls\.swift|ShapingBuffer"),
    ("UAX #14 and UAX #29 analysis (`UnicodeText`)", r"/UnicodeText/"),
    ("the scan for Thai letters and the spacing marks Pango joins", r"ThaiBreaks|libthai"),
    ("allocation, copying and reference counting",
     r"jemalloc|je_|malloc|free|pthread_mutex|swift_retain|swift_release|swift_bridgeObject|memcpy|memmove|memset"
     r"|ValueWitness|swift_array|ArrayBuffer|_ContiguousArray|swift_allocObject|swift_dealloc|swift_slowAlloc|RefCount"),
    ("words: ASCII and punctuation tables, word cache lookups and inserts", r"WordMeasuring|WordCache|KernedAlphabet|measureWord"),
]
loop = "the cluster loop: itemization, script resolution, per-character tables, appending clusters"
def by_part(name):
    totals = {}
    for n, function in functions(name):
        part = next((p for p, pattern in parts if re.search(pattern, function)), loop)
        totals[part] = totals.get(part, 0) + n
    return totals
warm = by_part("warm")
# The allocation part moves with the allocator's state (what the files measured before left it),
# by tens of instructions per unit from one build or file to the next: it is given apart.
alloc = parts[3][0]
print("| kind | units | instructions per unit, allocation left out | allocation |\n| --- | ---: | ---: | ---: |")
corpus_parts = None
for name in names:
    totals = by_part(name)
    units = int(open(f"{out}/units-{name}").read())
    diff = {p: totals.get(p, 0) - warm.get(p, 0) for p in set(totals) | set(warm)}
    rest = sum(v for p, v in diff.items() if p != alloc)
    print(f"| {name} | {units} | {round(rest / units)} | {round(diff.get(alloc, 0) / units)} |")
    if name == "corpus":
        corpus_parts = (diff, units)
if corpus_parts:
    diff, units = corpus_parts
    print("\n| part (corpus) | instructions per UTF-16 unit |\n| --- | ---: |")
    for part in [loop] + [p for p, _ in reversed(parts)]:
        print(f"| {part} | {round(diff.get(part, 0) / units)} |")
    print(f"| total | {round(sum(diff.values()) / units)} |")
PY
echo "outputs in $out"
