#!/usr/bin/env bash
# Builds the DocC documentation of the six library products (swift-docc-plugin), one archive per
# module, into .build/docs/<Module>.doccarchive, and fails on any DocC warning (an unresolved
# symbol link, an undocumented or misnamed parameter in a `- Parameters:` list).
#
#   bash scripts/docs.sh                      every library module (make docs)
#   bash scripts/docs.sh TableLayout ...      some of them
#
# The archives hold a static site: serve one with any file server, e.g.
#   python3 -m http.server -d .build/docs/TableLayout.doccarchive   # then open /documentation/tablelayout
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
SWIFT=${SWIFT:-swift}
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(StatusModel TextMeasure CellLayout TableLayout FrameExport FeedPipeline)
out=.build/docs
mkdir -p "$out"
for m in "${modules[@]}"; do rm -rf "${out:?}/$m.doccarchive"; done
args=()
for m in "${modules[@]}"; do args+=(--target "$m"); done
log=$(mktemp "${TMPDIR:-/tmp}/feedlayout-docs.XXXXXX")
trap 'rm -f "$log"' EXIT
start=$(date +%s)
set +e
"$SWIFT" package --allow-writing-to-directory "$out" generate-documentation "${args[@]}" \
  --output-path "$out" --transform-for-static-hosting --disable-indexing > "$log" 2>&1
status=$?
set -e
# DocC's diagnostics start their line with "warning:"; the compiler's, printed while the modules
# are built for their symbol graphs, start with the source path (reported, not failed on here:
# `make test` builds the same code).
warnings=$(grep -c "^warning:" "$log" || true)
compiler=$(grep -c "^/.*: warning:" "$log" || true)
if [ "$status" -ne 0 ] || [ "$warnings" -ne 0 ]; then
  cat "$log" >&2
  echo "docs: FAILED: exit $status, $warnings DocC warnings" >&2
  exit 1
fi
if [ "$compiler" -ne 0 ]; then
  grep "^/.*: warning:" "$log" | sort -u >&2
  echo "docs: note: the build of the modules printed the compiler warnings above" >&2
fi
for m in "${modules[@]}"; do
  [ -d "$out/$m.doccarchive" ] || { cat "$log" >&2; echo "docs: FAILED: $out/$m.doccarchive was not written" >&2; exit 1; }
done
echo "docs: ${modules[*]}: no warnings, $(( $(date +%s) - start )) s; archives in $out/" >&2
