#!/usr/bin/env bash
# Idempotent set-up for FeedLayout on Debian 12: installs the Debian packages the build, the tests
# and the demo need when they are missing, then links the pinned fonts of Fonts/fonts.json into
# Fonts/ and checks each sha256. Re-running installs nothing and takes well under a second.
#
#   scripts/setup.sh                   everything (build, tests, demo)
#   scripts/setup.sh --fonts-from DIR  take the font files from DIR instead of Debian packages
#   scripts/setup.sh --fonts-to DIR     also copy fonts.json and the checked fonts into DIR, for a
#                                       program using the library (FontSet.load(directory: DIR))
#
# Not root, or not Debian: prints exactly what to install by hand and exits 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

PACKAGES=(pkg-config libfreetype-dev libharfbuzz-dev libpng-dev libcairo2-dev libthai-dev libfribidi-dev fonts-noto-cjk
          fonts-noto-color-emoji fonts-dejavu-core unicode-data tmux libjemalloc-dev)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
else
  missing=("${PACKAGES[@]}")
fi

if [ ${#missing[@]} -gt 0 ]; then
  if [ -r /etc/debian_version ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
  else
    echo "setup: these packages are missing and this script cannot install them (needs root on Debian 12):" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    echo "On another system install the equivalents: FreeType 2 and HarfBuzz development files, libpng, cairo," >&2
    echo "pkg-config, tmux, the Unicode Character Database (LineBreakTest.txt, GraphemeBreakTest.txt), and the" >&2
    echo "fonts listed in Fonts/fonts.json (Noto Sans CJK 20220127, Noto Color Emoji 2.042, DejaVu Sans 2.37), then run" >&2
    echo "  scripts/setup.sh --fonts-from DIR   # DIR holds the font files" >&2
    exit 1
  fi
fi

# Fonts: link each manifest entry from its Debian package (or --fonts-from DIR) and check sha256.
fonts_from=""
fonts_to=""
while [ $# -gt 0 ]; do
  case "$1" in
    --fonts-from) fonts_from=${2:?--fonts-from needs a directory}; shift 2 ;;
    --fonts-to) fonts_to=${2:?--fonts-to needs a directory}; shift 2 ;;
    *) echo "setup: unknown argument $1 (use --fonts-from DIR, --fonts-to DIR)" >&2; exit 2 ;;
  esac
done
python3 - "$root/Fonts" "$fonts_from" <<'PY'
import hashlib, json, os, subprocess, sys
fonts_dir, fonts_from = sys.argv[1], sys.argv[2]
manifest = json.load(open(os.path.join(fonts_dir, "fonts.json")))
stamp = os.path.join(fonts_dir, ".verified")
def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
def source(entry):
    if fonts_from:
        return os.path.join(fonts_from, entry["file"])
    out = subprocess.run(["dpkg", "-L", entry["package"]], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.endswith("/" + entry["file"]):
            return line
    sys.exit(f"setup: {entry['file']} not found in Debian package {entry['package']}")
# A stamp of (file, size, mtime) per font skips re-hashing on every run.
try:
    known = json.load(open(stamp))
except Exception:
    known = {}
verified = {}
for entry in manifest["fonts"]:
    dest = os.path.join(fonts_dir, entry["file"])
    if not os.path.exists(dest):
        src = source(entry)
        if os.path.lexists(dest):
            os.remove(dest)
        os.symlink(src, dest)
    st = os.stat(dest)
    key = f"{st.st_size}:{st.st_mtime_ns}:{entry['sha256']}"
    if known.get(entry["file"]) != key:
        digest = sha256(dest)
        if digest != entry["sha256"]:
            sys.exit(f"setup: {dest}: sha256 {digest} does not match the manifest's {entry['sha256']} "
                     f"({entry['package']} {entry['packageVersion']} is the pinned source)")
    verified[entry["file"]] = key
json.dump(verified, open(stamp, "w"))
PY

# --fonts-to DIR: the manifest and the verified font files (copies, not links), so that DIR is a
# fonts directory of its own. Files already there with the same size are kept.
if [ -n "$fonts_to" ]; then
  python3 - "$root/Fonts" "$fonts_to" <<'PY'
import json, os, shutil, sys
src, dest = sys.argv[1], sys.argv[2]
os.makedirs(dest, exist_ok=True)
manifest = json.load(open(os.path.join(src, "fonts.json")))
for name in ["fonts.json"] + [e["file"] for e in manifest["fonts"]]:
    a, b = os.path.join(src, name), os.path.join(dest, name)
    if os.path.exists(b) and os.path.getsize(b) == os.path.getsize(a) and name != "fonts.json":
        continue
    tmp = b + ".part"
    shutil.copyfile(a, tmp)
    os.replace(tmp, b)
print(f"setup: fonts for FontSet.load(directory:) are in {os.path.abspath(dest)}", file=sys.stderr)
PY
fi
