#!/usr/bin/env bash
# The Spark export in one command: sets up (project, Java, pyspark venv; idempotent), builds the
# release feedlayout, then runs feedlayout_spark.py with the arguments given, e.g.
#
#   examples/spark/run.sh FEED.jsonl --output-dir PARTS --output FRAMES.jsonl --partitions 8
#
# Arguments are feedlayout_spark.py's (--help lists them); the default master is local[2].
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bash "$root/scripts/setup.sh"
bash "$root/examples/spark/setup.sh"
(cd "$root" && swift build -c release --product feedlayout >&2)
exec "$root/.venv-spark/bin/python" "$root/examples/spark/feedlayout_spark.py" "$@"
