#!/usr/bin/env python3
"""Appends one line per full benchmark run to results/history.jsonl.

    python3 history.py results/latest.json results/history.jsonl [COMMIT]

The line holds when and where the run happened (start, end, cores, processor, Swift, load before
and after), the commit of the code measured (COMMIT, default `git rev-parse --short HEAD`; a
trailing "+" when the work tree had changes) and every measured figure as
"Group: figure" -> [value, unit, verdict]. Figures that did not run are left out. run.sh calls it
after a run without --filter or --skip. Lines older than this script were taken from the
committed results/latest.json of each full run: their "commit" is null and "recordedIn" names
the commit that recorded them.
"""
import json
import subprocess
import sys


def line(latest, commit):
    m = latest["machine"]
    figures = {}
    for f in latest["figures"]:
        if f.get("verdict") == "not run" or f.get("value") is None:
            continue
        figures[f"{f['group']}: {f['figure']}"] = [f["value"], f["unit"], f.get("verdict") or None]
    return {"started": m.get("started"), "finished": m.get("finished"), "commit": commit,
            "cores": m.get("nproc"), "cpu": m.get("cpu"), "swift": m.get("swift"),
            "loadBefore": m.get("loadBefore"), "loadAfter": m.get("loadAfter"), "figures": figures}


def head_commit():
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
        return rev + ("+" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


if __name__ == "__main__":
    latest = json.load(open(sys.argv[1]))
    commit = sys.argv[3] if len(sys.argv) > 3 else head_commit()
    with open(sys.argv[2], "a") as out:
        out.write(json.dumps(line(latest, commit), ensure_ascii=False, sort_keys=False) + "\n")
