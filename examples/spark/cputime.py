#!/usr/bin/env python3
"""Runs a command and prints "WALL USER SYSTEM" (seconds) of its whole process tree on stderr.

`time` counts only the descendants that were waited for; pyspark leaves the JVM (and the JVM its
Python workers) to exit on their own, so their CPU would be missed. This wrapper makes itself a
child subreaper (Linux prctl PR_SET_CHILD_SUBREAPER): orphaned descendants are re-parented to it
and it reaps every one of them, so getrusage(RUSAGE_CHILDREN) holds the CPU of the whole tree.

  cputime.py OUT_FILE CMD [ARG...]     exit code: the command's
"""
import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main():
    out_file, argv = sys.argv[1], sys.argv[2:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit(f"cputime: prctl failed (errno {ctypes.get_errno()})")
    start = time.monotonic()
    proc = subprocess.Popen(argv)
    code = proc.wait()
    wall = time.monotonic() - start
    # Orphans of the tree (a JVM, its workers) are ours now: wait until none is left.
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out_file, "w") as f:
        f.write(f"{wall:.3f} {usage.ru_utime:.3f} {usage.ru_stime:.3f}\n")
    sys.exit(code)


if __name__ == "__main__":
    main()
