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
warnings=$(grep -c "warning:" "$log" || true)
if [ "$status" -ne 0 ] || [ "$warnings" -ne 0 ]; then
  cat "$log" >&2
  echo "docs: FAILED: exit $status, $warnings warnings" >&2
  exit 1
fi
for m in "${modules[@]}"; do
  [ -d "$out/$m.doccarchive" ] || { cat "$log" >&2; echo "docs: FAILED: $out/$m.doccarchive was not written" >&2; exit 1; }
done
echo "docs: ${modules[*]}: no warnings, $(( $(date +%s) - start )) s; archives in $out/" >&2
