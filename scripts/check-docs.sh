#!/usr/bin/env bash
# Keeps the repository's documents references (run by `make test`):
#   1. no tracked text file reads as a work log (numbered sittings or passes of work, who did
#      what): history belongs in git, not in the product's files. The patterns are narrow on
#      purpose: rounding, round trips and tmux's "new-session" pass;
#   2. every test that docs/hardening.md cites as holding a bound exists in Tests/.
# The patterns are checked first against samples that must and must not match, so the check
# cannot pass by matching nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

ordinal='first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|previous|earlier|later|last|next|this|that|same|another'
patterns=(
  "\\b($ordinal) (work )?sessions?\\b"
  "\\bsessions? of work\\b"
  "\\b(fuzz|fuzzing|review|work) rounds?\\b"
  "\\brounds? [0-9]+\\b"
  "\\b($ordinal) rounds?\\b"
  "\\bin (several|many|two|three|four|five) rounds\\b"
  "\\b(tried|measured) and (reverted|left)\\b"
  "\\b(on|in) this branch\\b"
  "\\bafter merging\\b"
  "\\b(engineer|CEO|reviewer)s?\\b"
  "\\b(I|we) (tried|reverted|decided)\\b"
  "\\bits owner is\\b"
)
regex=$(IFS='|'; echo "${patterns[*]}")

fail=0
# Samples that must match, assembled from their words so that this file carries none of them.
s=session r=round
must_match=("the fifth $s" "tried in the sixth $s" "fuzzing $r 11" "${r}s 5-11" "in several ${r}s" "Tried and reverted"
            "runs on this branch" "the engineer in")
must_pass=("rounded to the nearest pixel" "a round trip through the writer" "tmux new-session -d -s t"
           "round(x * scale) / scale" "the session's terminal" "a fresh 80x24 session")
for s in "${must_match[@]}"; do
  grep -qiE "$regex" <<< "$s" || { echo "check-docs: the patterns miss \"$s\"" >&2; fail=1; }
done
for s in "${must_pass[@]}"; do
  if grep -qiE "$regex" <<< "$s"; then echo "check-docs: the patterns flag \"$s\"" >&2; fail=1; fi
done

# 1. Work-log words in tracked text files (this script holds the patterns and their samples).
hits=$(git ls-files -z -- . ':!scripts/check-docs.sh' | xargs -0 grep -I -n -i -E "$regex" -- 2>/dev/null || true)
if [ -n "$hits" ]; then
  echo "$hits" >&2
  echo "check-docs: FAILED: the lines above read as a work log (sittings, passes of work, who did what);" \
       "describe the product instead (history belongs in git)" >&2
  fail=1
fi

# 2. Tests cited by docs/hardening.md.
missing=$(python3 - <<'PY'
import glob, re
doc = open("docs/hardening.md", encoding="utf-8").read()
names = set(re.findall(r"`(?:[A-Za-z]+\.)?(test[A-Za-z0-9]+)`", doc))
classes = set(re.findall(r"`([A-Z][A-Za-z]*Tests)[`.]", doc))
source = "".join(open(f, encoding="utf-8").read() for f in glob.glob("Tests/**/*.swift", recursive=True))
for n in sorted(names):
    if not re.search(rf"func {n}\b", source):
        print(f"test {n}")
for c in sorted(classes):
    if not re.search(rf"class {c}\b", source) and not glob.glob(f"Tests/{c}"):
        print(f"test class or target {c}")
if len(names) < 20:
    print(f"only {len(names)} test names found: the citation pattern no longer matches the document")
PY
)
if [ -n "$missing" ]; then
  echo "$missing" | sed 's/^/check-docs: docs\/hardening.md cites a missing /' >&2
  fail=1
fi

if [ $fail -ne 0 ]; then echo "check-docs: FAILED" >&2; exit 1; fi
echo "check-docs: passed ($(git ls-files | wc -l) files; ${#patterns[@]} patterns)" >&2
