#!/usr/bin/env python3
"""The frame export of a JSON Lines feed as an Apache Spark job.

Spark cuts the feed into partitions at line boundaries (sc.textFile) and runs `feedlayout` on each
partition's lines, fed on standard input, in two passes:

1. heights: `feedlayout heights - --input-format jsonl` gives each partition's row count and
   height in device pixels (the format is forced: a partition may be a single line, or none);
2. on the driver, prefix sums of those totals give partition k its row origin R_k (rows before it)
   and y origin Y_k (their height in pixels / scale, points);
3. frames: `feedlayout layout - --row-origin R_k --y-origin Y_k` writes partition k's rows exactly
   as the whole feed's export writes them.

Spark saves each partition's output as one part file, in partition order. For JSON Lines the part
files concatenate into `feedlayout layout FEED --format jsonl`, byte for byte; for the JSON
document form they merge by merge_json.py. The binary, fonts.json and the font files reach the
executors through SparkContext.addFile; every task checks the fonts' sha256 against fonts.json
before it runs (once per Python worker).

  python examples/spark/feedlayout_spark.py FEED.jsonl --output-dir PARTS [--output FILE] \\
      [--partitions N] [--master local[2]] [--width 375 --scale 2 ...]

On a cluster, submit the same file with spark-submit (the --master given there wins) and give an
--output-dir every executor can write (HDFS, S3, a shared mount); --output needs the part files
on the driver's own filesystem.
"""
import argparse
import functools
import json
import os
import sys
import time
from urllib.parse import urlparse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from merge_json import MergeError, merge_documents  # noqa: E402
from partition_tasks import font_files, frames_partition, heights_partition, verify_fonts  # noqa: E402


def local_path(uri):
    """The local filesystem path of a path or file: URI, or None for another scheme."""
    parsed = urlparse(uri)
    if parsed.scheme in ("", "file"):
        return parsed.path if parsed.scheme else os.path.abspath(uri)
    return None


def part_files(directory):
    """Spark's part files of directory, in partition order."""
    parts = [n for n in os.listdir(directory) if n.startswith("part-")]
    return [os.path.join(directory, n) for n in sorted(parts, key=lambda n: int(n[5:].split(".")[0]))]


def collect_single_file(parts_dir, output, fmt):
    """Concatenates (JSON Lines) or merges (JSON) the part files into output."""
    parts = part_files(parts_dir)
    tmp = output + ".tmp"
    with open(tmp, "wb") as out:
        if fmt == "jsonl":
            for path in parts:
                with open(path, "rb") as f:
                    while block := f.read(1 << 20):
                        out.write(block)
        else:
            def docs():
                for path in parts:
                    with open(path, "rb") as f:
                        yield path, f.read()

            merge_documents(docs(), out)
    os.replace(tmp, output)


def parse_args(argv):
    p = argparse.ArgumentParser(description="Export a JSON Lines feed's frames with Apache Spark and feedlayout.")
    p.add_argument("input", help="the feed, JSON Lines (a path, or a URI Spark reads)")
    p.add_argument("--output-dir", required=True, help="where Spark writes one part file per partition (must not exist)")
    p.add_argument("--output", help="also write the single file (concatenation or merge) here; needs a local --output-dir")
    p.add_argument("--format", choices=["jsonl", "json"], default="jsonl")
    p.add_argument("--partitions", type=int, default=4, help="at least this many partitions (Spark's minPartitions)")
    p.add_argument("--master", default="local[2]", help="Spark master when not set by spark-submit")
    p.add_argument("--task-threads", type=int, default=1, help="feedlayout --threads per task, and spark.task.cpus")
    p.add_argument("--feedlayout", default=os.path.join(ROOT, ".build", "release", "feedlayout"))
    p.add_argument("--fonts", default=os.environ.get("FEEDLAYOUT_FONTS") or os.path.join(ROOT, "Fonts"),
                   help="directory of fonts.json and the fonts (default: $FEEDLAYOUT_FONTS, else the checkout's Fonts/)")
    p.add_argument("--width", type=float, default=375)
    p.add_argument("--scale", type=int, choices=[1, 2, 3], default=2)
    p.add_argument("--style", default="weibo")
    p.add_argument("--max-lines", type=int, default=0)
    p.add_argument("--now", help="reference time of relative dates (seconds since 1970)")
    p.add_argument("--skip-invalid", action="store_true")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    started = time.monotonic()
    if args.output and local_path(args.output_dir) is None:
        sys.exit("feedlayout_spark: --output needs --output-dir on the local filesystem")
    if not os.access(args.feedlayout, os.X_OK):
        sys.exit(f"feedlayout_spark: no feedlayout binary at {args.feedlayout} (swift build -c release --product feedlayout)")
    verify_fonts(args.fonts)  # fail here, not in every task, when the driver's fonts are wrong

    # The options both passes share: each one changes heights, so both must see the same. The
    # input format is forced: a partition of one line would otherwise read as a JSON document.
    common = ["--input-format", "jsonl", "--width", repr(args.width), "--scale", str(args.scale), "--style", args.style,
              "--max-lines", str(args.max_lines), "--threads", str(args.task_threads)]
    if args.now is not None:
        common += ["--now", args.now]
    if args.skip_invalid:
        common += ["--skip-invalid"]

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark import SparkConf, SparkContext

    conf = (SparkConf().setAppName("feedlayout-export")
            .setIfMissing("spark.master", args.master)
            .set("spark.task.cpus", str(args.task_threads))
            .setIfMissing("spark.ui.enabled", "false")
            .setIfMissing("spark.ui.showConsoleProgress", "false"))
    if conf.get("spark.master").startswith("local"):
        # A local run listens on the loopback interface only. Its input has no better place to
        # be read from, so a task never waits for one (spark.locality.wait, 3 s by default).
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        conf.setIfMissing("spark.driver.host", "127.0.0.1").setIfMissing("spark.driver.bindAddress", "127.0.0.1")
        conf.setIfMissing("spark.locality.wait", "0")
    sc = SparkContext(conf=conf)
    sc.setLogLevel("WARN")
    try:
        sc.addPyFile(os.path.join(HERE, "partition_tasks.py"))
        sc.addFile(os.path.abspath(args.feedlayout))
        for name, _ in font_files(args.fonts):
            sc.addFile(os.path.abspath(os.path.join(args.fonts, name)))
        spark_ready = time.monotonic()

        cpu = (sc.accumulator(0.0), sc.accumulator(0.0))  # feedlayout, Python workers
        input_uri = args.input if local_path(args.input) is None else "file://" + local_path(args.input)
        lines = sc.textFile(input_uri, minPartitions=args.partitions)

        # Pass 1: heights, then the origins on the driver.
        totals = sorted(lines.mapPartitionsWithIndex(functools.partial(heights_partition, common, cpu)).collect())
        if [t[0] for t in totals] != list(range(lines.getNumPartitions())):
            raise RuntimeError("the heights pass did not return one total per partition")
        origins, rows_before, pixels_before = [], 0, 0
        for _, rows, pixels in totals:
            origins.append((rows, rows_before, repr(pixels_before / args.scale)))
            rows_before += rows
            pixels_before += pixels
        if rows_before == 0:
            raise RuntimeError(f"{args.input}: no status in the feed")
        heights_done = time.monotonic()

        # Pass 2: frames, saved as one part file per partition, in partition order.
        frames = lines.mapPartitionsWithIndex(functools.partial(frames_partition, common, cpu, args.format, origins))
        frames.saveAsTextFile(args.output_dir)
        frames_done = time.monotonic()
    finally:
        sc.stop()

    if args.output:
        collect_single_file(local_path(args.output_dir), args.output, args.format)
    done = time.monotonic()
    summary = {
        "rows": rows_before, "heightPixels": pixels_before, "partitions": len(totals),
        "emptyPartitions": sum(1 for t in totals if t[1] == 0),
        "seconds": {"sparkStart": round(spark_ready - started, 3), "heights": round(heights_done - spark_ready, 3),
                    "frames": round(frames_done - heights_done, 3), "output": round(done - frames_done, 3),
                    "total": round(done - started, 3)},
        "cpuSeconds": {"feedlayout": round(cpu[0].value, 3), "pythonWorkers": round(cpu[1].value, 3)},
    }
    print(json.dumps(summary), file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except MergeError as e:
        sys.exit(f"feedlayout_spark: {e}")
