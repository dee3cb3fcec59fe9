#!/usr/bin/env python3
"""Merges the JSON documents of a partitioned export into the whole feed's document.

Each partition k of a feed was exported with

    feedlayout layout PART_k --format json --row-origin R_k --y-origin Y_k

(R_k and Y_k from the heights pass, see feedlayout_spark.py). Such a document is laid out by
FrameStream in three pieces:

    head   {"schemaVersion":...,"sections":[{"section":0,"header":[...],"rows":[
    rows   "\\n" row ",\\n" row ... "\\n"          (nothing at all when the partition has no row)
    tail   ],"footer":[...]}],"rowCount":N,"rowRange":[A,B],"contentHeight":H}\\n

The head depends only on the options and the fonts, so every partition's is the same. The rows
carry their feed-wide row index and y. The tail's footer, rowCount and contentHeight are running
totals that already count the rows above the partition, so the last partition's are the whole
feed's; its rowRange is [0, R_k + n_k] (no --rows given), so the merged rowRange runs from the
first partition's start to the last one's end.

The merge works on bytes, never re-encoding a number: head of the first document, the rows of
every document in order (joined by ",\\n", framed by "\\n" when there is at least one), tail of the
last document with rowRange[0] taken from the first. The result is byte-identical to

    feedlayout layout WHOLE --format json

Usage: merge_json.py PART.json... -o WHOLE.json    (documents in partition order; empty files,
                                                   the output of an empty partition, are skipped)
"""
import argparse
import re
import sys

ROWS_OPEN = b'"rows":['
TAIL_OPEN = b'],"footer":'
ROW_RANGE = re.compile(rb',"rowRange":\[(\d+),(\d+)\],"contentHeight":')


class MergeError(Exception):
    pass


def split_document(doc: bytes, name: str):
    """(head, rows, tail) of one partition's document; rows without their framing newlines."""
    # The first '"rows":[' is the section's: a string value cannot hold it (its quotes would be
    # escaped), and every key before it is one of the header's.
    start = doc.find(ROWS_OPEN)
    # The last '],"footer":' is the section's: what follows it is the footer rect and the totals.
    end = doc.rfind(TAIL_OPEN)
    if start < 0 or end < start + len(ROWS_OPEN) or not doc.endswith(b"}\n"):
        raise MergeError(f"{name}: not a single-layout document of `feedlayout layout --format json`")
    head = doc[: start + len(ROWS_OPEN)]
    rows = doc[start + len(ROWS_OPEN) : end]
    tail = doc[end:]
    if rows:
        if not (rows.startswith(b"\n") and rows.endswith(b"\n")):
            raise MergeError(f"{name}: the rows array is not one row per line")
        rows = rows[1:-1]
    return head, rows, tail


def merge_documents(docs, out):
    """Writes the merge of `docs` ((name, bytes) in partition order) to the binary stream `out`.

    Returns the number of documents merged. Only one document is held at a time besides the
    first one's head and rowRange start.
    """
    head = None
    first_start = None
    last_tail = None
    wrote_row = False
    count = 0
    for name, doc in docs:
        if not doc:
            continue
        h, rows, tail = split_document(doc, name)
        m = ROW_RANGE.search(tail)
        if not m:
            raise MergeError(f"{name}: no rowRange in the document's totals")
        if head is None:
            head, first_start = h, m.group(1)
            out.write(head)
        elif h != head:
            raise MergeError(f"{name}: its head (options, fonts) differs from the first partition's")
        if rows:
            out.write(b",\n" if wrote_row else b"\n")
            out.write(rows)
            wrote_row = True
        last_tail = tail
        count += 1
    if head is None:
        raise MergeError("no document to merge (every partition is empty)")
    if wrote_row:
        out.write(b"\n")
    m = ROW_RANGE.search(last_tail)
    out.write(last_tail[: m.start(1)] + first_start + last_tail[m.end(1) :])
    return count


def main(argv=None):
    parser = argparse.ArgumentParser(description="Merge partitioned `feedlayout layout --format json` documents.")
    parser.add_argument("parts", nargs="+", help="the partitions' documents, in partition order")
    parser.add_argument("-o", "--output", required=True, help="the merged document (- for standard output)")
    args = parser.parse_args(argv)

    def read_all():
        for path in args.parts:
            with open(path, "rb") as f:
                yield path, f.read()

    try:
        if args.output == "-":
            merge_documents(read_all(), sys.stdout.buffer)
        else:
            with open(args.output, "wb") as out:
                merge_documents(read_all(), out)
    except MergeError as e:
        print(f"merge_json: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
