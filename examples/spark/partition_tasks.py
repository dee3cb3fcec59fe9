"""The executor side of feedlayout_spark.py: what a Spark task runs on its partition.

A module of its own, shipped to the executors with SparkContext.addPyFile, so a reused Python
worker keeps its state between tasks (the fonts it has already checked).

Each task adds its CPU time to two accumulators: its feedlayout processes' and its Python
worker's own. Spark's worker daemon ignores SIGCHLD, so a worker's CPU never reaches the rusage
of the processes above it: without these, the job's cost could not be measured from outside.
"""
import hashlib
import json
import os
import resource
import subprocess
import threading

# --- Fonts --------------------------------------------------------------------------------------

def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def font_files(fonts_dir):
    """fonts.json and the files it lists, each with the sha256 the manifest pins (None: itself)."""
    with open(os.path.join(fonts_dir, "fonts.json"), "rb") as f:
        manifest = json.load(f)
    return [("fonts.json", None)] + [(e["file"], e["sha256"]) for e in manifest["fonts"]]


_verified = {}


def verify_fonts(fonts_dir):
    """Checks every font of fonts_dir/fonts.json against its sha256; raises on a mismatch.

    A result is kept per (file, size, mtime), so a reused Python worker hashes each font once.
    """
    for name, want in font_files(fonts_dir):
        if want is None:
            continue
        path = os.path.join(fonts_dir, name)
        st = os.stat(path)
        key = (path, st.st_size, st.st_mtime_ns)
        if _verified.get(key) != want:
            got = sha256_file(path)
            if got != want:
                raise RuntimeError(f"{path}: sha256 {got} does not match fonts.json's {want}")
            _verified[key] = want


# --- Running feedlayout on a partition ----------------------------------------------------------

def run_on_lines(argv, lines):
    """Runs argv with the partition's lines on standard input; yields its output lines (str,
    without "\\n"). Raises with the tool's standard error when it exits non-zero."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    errors = []
    failure = []

    def feed():
        try:
            for line in lines:
                proc.stdin.write(line.encode("utf-8"))
                proc.stdin.write(b"\n")
        except BrokenPipeError:
            pass  # the tool stopped reading: its exit code and stderr say why
        except BaseException as e:  # reading the partition failed: report it, not a broken pipe
            failure.append(e)
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass

    def drain():
        errors.append(proc.stderr.read())

    writer = threading.Thread(target=feed, daemon=True)
    reader = threading.Thread(target=drain, daemon=True)
    writer.start()
    reader.start()
    for out in proc.stdout:
        yield out.rstrip(b"\n").decode("utf-8")
    proc.wait()
    writer.join()
    reader.join()
    if failure:
        raise failure[0]
    if proc.returncode != 0:
        message = b"".join(errors).decode("utf-8", "replace").strip()
        raise RuntimeError(f"{' '.join(argv[:2])} exited with {proc.returncode}: {message}")


def tool_paths():
    """The feedlayout binary and the fonts directory shipped to this executor by addFile."""
    from pyspark import SparkFiles

    root = SparkFiles.getRootDirectory()
    return os.path.join(root, "feedlayout"), root


def cpu_seconds():
    """(this process's CPU time, its waited-for children's) in seconds."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def add_cpu(accumulators, start):
    """Adds the CPU time since `start` (a cpu_seconds() value) to (feedlayout, worker) accumulators."""
    own, children = cpu_seconds()
    accumulators[0].add(children - start[1])
    accumulators[1].add(own - start[0])


def heights_partition(common, cpu, index, lines):
    """Pass 1 on partition `index`: yields (index, rows, heightPixels). Bind `common` (the
    options both passes share) and `cpu` (two accumulators, see the module's comment) with
    functools.partial for mapPartitionsWithIndex."""
    start = cpu_seconds()
    binary, fonts = tool_paths()
    verify_fonts(fonts)
    out = list(run_on_lines([binary, "heights", "-", "--fonts", fonts] + common, lines))
    if len(out) != 1:
        raise RuntimeError(f"partition {index}: expected one line from feedlayout heights, got {len(out)}")
    totals = json.loads(out[0])
    add_cpu(cpu, start)
    yield (index, totals["rows"], totals["heightPixels"])


def frames_partition(common, cpu, fmt, origins, index, lines):
    """Pass 2 on partition `index`: yields its output lines. `origins[index]` is (rows counted by
    pass 1, row origin, y origin as a string of points)."""
    start = cpu_seconds()
    rows, row_origin, y_origin = origins[index]
    binary, fonts = tool_paths()
    verify_fonts(fonts)
    argv = [binary, "layout", "-", "--fonts", fonts, "--format", fmt,
            "--row-origin", str(row_origin), "--y-origin", y_origin] + common
    written = 0
    for line in run_on_lines(argv, lines):
        written += 1
        yield line
    # JSON Lines: one line a row. The check ties the two passes together: a partition whose rows
    # changed between them would shift every row below it.
    if fmt == "jsonl" and written != rows:
        raise RuntimeError(f"partition {index}: {written} rows written, {rows} counted by the heights pass")
    add_cpu(cpu, start)
