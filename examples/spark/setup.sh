#!/usr/bin/env bash
# Idempotent set-up of the Spark example: Java 17 or later (Spark 4's runtime), Python's venv, and
# a virtual environment .venv-spark/ in the checkout holding the pyspark of requirements.txt.
# Re-running installs nothing and takes about a second. Not root, or not Debian: prints what to
# install by hand and exits 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/.venv-spark"
requirements="$root/examples/spark/requirements.txt"
python=${PYTHON:-python3}

can_apt() { [ -r /etc/debian_version ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; }
apt_updated=""
apt_install() {
  echo "spark setup: installing $*" >&2
  if [ -z "$apt_updated" ]; then apt-get update -q >&2; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >&2
}

java_major() {
  command -v java >/dev/null 2>&1 || { echo 0; return; }
  java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}

major=$(java_major)
if [ "${major:-0}" -lt 17 ]; then
  if can_apt; then
    apt_install openjdk-17-jre-headless
  else
    echo "spark setup: Spark 4 needs Java 17 or later; install it by hand, e.g." >&2
    echo "  sudo apt-get install -y --no-install-recommends openjdk-17-jre-headless" >&2
    exit 1
  fi
fi

command -v "$python" >/dev/null 2>&1 || { echo "spark setup: no $python (Python 3.10 or later)" >&2; exit 1; }
pinned=$(sed -n 's/^pyspark==//p' "$requirements")
if [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$pinned" <<'PY' 2>/dev/null; then
import sys, pyspark
sys.exit(0 if pyspark.__version__ == sys.argv[1] else 1)
PY
  exit 0
fi

# Debian's python3 makes venvs only with python3-venv (ensurepip) installed.
if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
  if can_apt; then
    apt_install python3-venv
  else
    echo "spark setup: $python cannot create a virtual environment; install it by hand, e.g." >&2
    echo "  sudo apt-get install -y --no-install-recommends python3-venv" >&2
    exit 1
  fi
fi
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
echo "spark setup: installing $(tr '\n' ' ' < "$requirements")into ${venv#"$root"/} (PyPI)" >&2
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements" >&2
