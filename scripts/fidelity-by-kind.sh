#!/usr/bin/env bash
# Per-kind comparison with Pango (peers harness, ../shared/tools/peers or $PEERS): generates the
# fidelity corpus (scripts/fidelity_corpus.py) and the real corpus texts at 16 px, lays them out
# with ENGINE_COMMAND (e.g. ".build/release/feedlayout measure") and with Pango, and prints the
# per-kind tables. Pango's line widths are logical (scripts/pango_line_widths.py): the sum of the
# line's advances without its hanging white space, as the engine's. Outputs go to $OUT (default: a
# temporary directory), never to the repository.
#
#   bash scripts/fidelity-by-kind.sh ".build/release/feedlayout measure" [--seed 7] [--count 60]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
engine=$1; shift
seed=7 count=60
while [ $# -gt 0 ]; do
  case $1 in --seed) seed=$2; shift 2;; --count) count=$2; shift 2;; *) echo "unknown option $1" >&2; exit 2;; esac
done
peers=${PEERS:-$root/../shared/tools/peers}
corpus=${CORPUS:-$root/../shared/corpus/yykit-weibo}
out=${OUT:-$(mktemp -d -t fidelity-XXXXXX)}
mkdir -p "$out"
# A corpus identical to the one already in $OUT keeps its Pango results.
python3 "$root/scripts/fidelity_corpus.py" --seed "$seed" --count "$count" >"$out/kinds.new"
python3 "$root/scripts/fidelity_corpus.py" --real "$corpus" --sizes 16 >"$out/real.new"
for set in kinds real; do
  if cmp -s "$out/$set.new" "$out/$set.jsonl"; then rm "$out/$set.new"; else mv "$out/$set.new" "$out/$set.jsonl"; fi
done
for set in kinds real; do
  $engine "$out/$set.jsonl" >"$out/$set.engine.jsonl"
  pango=$out/$set.pango-widths.jsonl
  [ -s "$pango" ] && [ "$pango" -nt "$out/$set.jsonl" ] && [ "$pango" -nt "$root/scripts/pango_line_widths.py" ] ||
    "$peers/.venv/bin/python" "$root/scripts/pango_line_widths.py" "$peers" "$out/$set.jsonl" -o "$pango"
done
echo "### kinds (seed $seed, $count texts per kind, widths 320/355/414, 15 and 16 px)"
python3 "$root/scripts/compare_by_kind.py" "$out/kinds.engine.jsonl" "$out/kinds.pango-widths.jsonl"
echo "### real corpus texts, 16 px, per width"
python3 "$root/scripts/compare_by_kind.py" "$out/real.engine.jsonl" "$out/real.pango-widths.jsonl" --by-width
echo "outputs in $out"
