#!/usr/bin/env bash
# Builds a small package that depends on FeedLayout's library products by path, in a temporary
# directory, runs it, and checks what it prints against the command line's output:
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
mkdir -p "$work/app/Sources/app"

cat > "$work/app/Package.swift" <<EOF
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "app",
    dependencies: [.package(name: "FeedLayout", path: "$root")],
    targets: [
        .executableTarget(
            name: "app",
            dependencies: [
                .product(name: "StatusModel", package: "FeedLayout"),
                .product(name: "TextMeasure", package: "FeedLayout"),
                .product(name: "CellLayout", package: "FeedLayout"),
                .product(name: "TableLayout", package: "FeedLayout"),
                .product(name: "FrameExport", package: "FeedLayout"),
            ])
    ]
)
EOF

cat > "$work/app/Sources/app/main.swift" <<'EOF'
import CellLayout
import Foundation
import FrameExport
import StatusModel
import TableLayout
import TextMeasure

// app FONTS_DIR|default FILE... : the frames of FILE... laid out as one feed at 375 pt, as JSON.
let args = CommandLine.arguments
do {
    let fonts = args[1] == "default" ? try FontSet.loadDefault() : try FontSet.load(directory: URL(fileURLWithPath: args[1]))
    let feed = try FeedLoader.load(contentsOf: args.dropFirst(2).map { URL(fileURLWithPath: $0) }).feed
    let engine = FeedEngine(cellEngine: CellLayoutEngine(measurer: TextMeasurer(fonts: fonts)))
    let layout = try engine.layout(feed.statuses, options: FeedOptions(width: 375), retainCells: true)
    FileHandle.standardOutput.write(Data(try FrameExport.data(layout, header: FrameExportHeader(fonts: fonts))))
} catch {
    FileHandle.standardError.write(Data("app: \(error)\n".utf8))
    exit(1)
}
EOF

echo "test-dependent-package: building a dependent package in $work (path dependency)" >&2
start=$(date +%s)
(cd "$work/app" && "$SWIFT" build --product app --scratch-path "$work/build" 2>&1) > "$work/build.log" || {
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

app="$work/build/debug/app"
corpus="$root/Fixtures"
a="$corpus/feed.plist"
b="$corpus/StatusInfo.plist"
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
