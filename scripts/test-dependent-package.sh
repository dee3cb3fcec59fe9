#!/usr/bin/env bash
# Builds a small package that depends on FeedLayout's library products by path, in a temporary
# directory, runs it, and checks what it prints against the command line's output:
#   - the README's library example, its Package.swift and its code taken verbatim from README.md
#     (the swift blocks between the example-manifest and example markers), run on
#     Fixtures/feed.plist: the rows it prints for a y range are those of `feedlayout query`, and
#     its frames.json and frames.jsonl are byte-identical to `feedlayout layout` (JSON, JSON Lines);
#   - fonts loaded without any command-line help (FontSet.load(directory:) from a directory made
#     by `scripts/setup.sh --fonts-to DIR`, and FontSet.loadDefault() finding the package's Fonts/);
#   - several files loaded into one feed (FeedLoader.load(contentsOf: [URL]));
#   - the frame export's header built from the FontSet (FrameExportHeader(fonts:));
#   - a missing fonts directory fails with an error that names no command-line flag;
#   - which modules the dependent build compiled (swift-argument-parser should not be among them).
# Run by `make test`. Needs swift on the PATH; skips (exit 0, with a message) without it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
SWIFT=${SWIFT:-swift}
if ! command -v "$SWIFT" >/dev/null 2>&1; then
  echo "test-dependent-package: SKIPPED: $SWIFT is not on the PATH" >&2
  exit 0
fi
feedlayout=${FEEDLAYOUT_BIN:-$root/.build/debug/feedlayout}
[ -x "$feedlayout" ] || { echo "test-dependent-package: $feedlayout missing; run swift build first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/feedlayout-dependent.XXXXXX")
[ -n "${KEEP_DEPENDENT:-}" ] || trap 'rm -rf "$work"' EXIT
# The README's manifest depends on `.package(path: "../FeedLayout")`: a link of that name next to
# the package makes the line work as written.
ln -s "$root" "$work/FeedLayout"
mkdir -p "$work/app/Sources/app" "$work/app/Sources/checks"

# The fenced swift block between README.md's markers $1:begin and $1:end.
readme_block() {
  python3 - "$root/README.md" "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
name = re.escape(sys.argv[2])
m = re.search(rf"<!-- {name}:begin -->\n```swift\n(.*?)```\n<!-- {name}:end -->", text, re.S)
if not m:
    sys.exit(f"test-dependent-package: README.md has no swift block between its {sys.argv[2]} markers")
sys.stdout.write(m.group(1))
PY
}
readme_block example-manifest > "$work/app/Package.swift"
readme_block example > "$work/app/Sources/app/main.swift"

# A second target for the checks below, appended to the README's manifest.
cat >> "$work/app/Package.swift" <<'EOF'

package.targets.append(
    .executableTarget(
        name: "checks",
        dependencies: [
            .product(name: "StatusModel", package: "FeedLayout"),
            .product(name: "TextMeasure", package: "FeedLayout"),
            .product(name: "CellLayout", package: "FeedLayout"),
            .product(name: "TableLayout", package: "FeedLayout"),
            .product(name: "FrameExport", package: "FeedLayout"),
        ]))
EOF

cat > "$work/app/Sources/checks/main.swift" <<'EOF'
import CellLayout
import Foundation
import FrameExport
import StatusModel
import TableLayout
import TextMeasure

// checks FONTS_DIR|default FILE... : the frames of FILE... laid out as one feed at 375 pt, as JSON.
let args = CommandLine.arguments
do {
    let fonts = args[1] == "default" ? try FontSet.loadDefault() : try FontSet.load(directory: URL(fileURLWithPath: args[1]))
    let feed = try FeedLoader.load(contentsOf: args.dropFirst(2).map { URL(fileURLWithPath: $0) }).feed
    let engine = FeedEngine(cellEngine: CellLayoutEngine(measurer: TextMeasurer(fonts: fonts)))
    let layout = try engine.layout(feed.statuses, options: FeedOptions(width: 375), retainCells: true)
    FileHandle.standardOutput.write(Data(try FrameExport.data(layout, header: FrameExportHeader(fonts: fonts))))
} catch {
    FileHandle.standardError.write(Data("checks: \(error)\n".utf8))
    exit(1)
}
EOF

echo "test-dependent-package: building a dependent package in $work (path dependency)" >&2
start=$(date +%s)
(cd "$work/app" && "$SWIFT" build --scratch-path "$work/build" 2>&1) > "$work/build.log" || {
  cat "$work/build.log" >&2
  echo "test-dependent-package: FAILED: the dependent package does not build" >&2
  exit 1
}
echo "test-dependent-package: built in $(( $(date +%s) - start )) s" >&2

fail=0
check() { if eval "$2"; then echo "  ok: $1" >&2; else echo "  FAILED: $1" >&2; fail=1; fi; }

# What the dependent build compiled and fetched.
# (SwiftPM makes a NAME.build directory for every target of the graph; only compiled ones hold objects.)
compiled() { for d in "$work/build/debug"/*.build; do if ls "$d"/*.o >/dev/null 2>&1; then basename "$d" .build; fi; done | sort | tr '\n' ' '; }
modules=$(compiled)
echo "test-dependent-package: modules compiled: $modules" >&2
check "swift-argument-parser is not compiled" '! ls "$work/build/debug/ArgumentParser.build/"*.o >/dev/null 2>&1'
fetched=$(ls "$work/build/checkouts" 2>/dev/null | tr '\n' ' ')
echo "test-dependent-package: packages fetched: ${fetched:-none}" >&2

corpus="$root/Fixtures"
a="$corpus/feed.plist"
b="$corpus/StatusInfo.plist"

# The README's example, run from an empty directory (it writes frames.json and frames.jsonl there).
mkdir "$work/run"
(cd "$work/run" && "$work/build/debug/app" "$a") > "$work/example.txt"
cat "$work/example.txt" >&2
"$feedlayout" query "$a" --width 375 --y 1000:1812 > "$work/query.tsv"
"$feedlayout" layout "$a" --width 375 > "$work/cli-one.json"
"$feedlayout" layout "$a" --width 375 --format jsonl > "$work/cli-one.jsonl"
same_rows() {
  python3 - "$work/example.txt" "$work/query.tsv" <<'PY'
import re, sys
printed = [(int(r), int(i), float(y), float(h))
           for r, i, y, h in re.findall(r"^row (\d+): id (\d+), y ([\d.]+), height ([\d.]+),", open(sys.argv[1]).read(), re.M)]
lines = open(sys.argv[2]).read().splitlines()[1:]
queried = [(int(r), int(i), float(y), float(h)) for _, r, i, y, h in (l.split("\t") for l in lines)]
sys.exit(0 if printed and printed == queried else 1)
PY
}
check "README example: the rows of 1000..<1812 are those of feedlayout query" 'same_rows'
same_total() {
  python3 - "$work/example.txt" "$work/cli-one.json" <<'PY'
import json, re, sys
m = re.match(r"(\d+) rows, ([\d.]+) pt$", open(sys.argv[1]).readline().strip())
d = json.load(open(sys.argv[2]))
sys.exit(0 if m and (int(m[1]), float(m[2])) == (d["rowCount"], float(d["contentHeight"])) else 1)
PY
}
check "README example: the row count and height are those of feedlayout layout" 'same_total'
check "README example: frames.json is byte-identical to feedlayout layout" 'cmp -s "$work/run/frames.json" "$work/cli-one.json"'
check "README example: frames.jsonl (FrameExportJob) is byte-identical to feedlayout layout --format jsonl" \
  'cmp -s "$work/run/frames.jsonl" "$work/cli-one.jsonl"'

app="$work/build/debug/checks"
"$root/scripts/setup.sh" --fonts-to "$work/fonts" 2>/dev/null
"$app" "$work/fonts" "$a" "$b" > "$work/app.json"
"$feedlayout" layout "$a" "$b" --width 375 > "$work/cli.json"
check "two files, fonts from --fonts-to DIR: the same bytes as feedlayout layout" 'cmp -s "$work/app.json" "$work/cli.json"'
check "the export names the fonts of the manifest" 'grep -q "NotoSansCJK-Regular.ttc" "$work/app.json"'
(cd "$work" && "$app" default "$a" "$b" > "$work/default.json")
check "FontSet.loadDefault() finds the package's fonts from another directory" 'cmp -s "$work/default.json" "$work/cli.json"'

set +e
(cd "$work" && "$app" "$work/no-fonts" "$a") > /dev/null 2> "$work/err.txt"
rc=$?
set -e
check "a missing fonts directory fails" '[ $rc -ne 0 ]'
check "its error names the manifest path" 'grep -q "no-fonts/fonts.json" "$work/err.txt"'
check "its error names no command-line flag" '! grep -q -- "--fonts DIR\b\|pass --" "$work/err.txt"'
cat "$work/err.txt" >&2

if [ $fail -ne 0 ]; then echo "test-dependent-package: FAILED" >&2; exit 1; fi
echo "test-dependent-package: passed" >&2
