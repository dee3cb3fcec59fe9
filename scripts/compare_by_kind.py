#!/usr/bin/env python3
"""Compares two measure.py-format outputs (an engine's and Pango's) per kind of text: the kind is
an id's prefix up to its first digit group (`hangul-007-w320-s15` -> `hangul`). Prints a Markdown
table: texts, identical line breaks, lines whose widths agree within 0.05 px where breaks agree,
texts whose heights agree within 0.05 px where breaks agree (Pango rounds each line's height to
1/1024 px, so a long text may differ by a few hundredths).

    python3 scripts/compare_by_kind.py engine.jsonl pango.jsonl [--by-width] [--show KIND]
"""
import argparse
import json
import re
from collections import defaultdict


def load(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line:
            r = json.loads(line)
            out[r["id"]] = r
    return out


def kind_of(rid, by_width):
    m = re.match(r"(.+?)-\d+(?:-w(\d+))?", rid)
    kind = m.group(1) if m else rid
    return f"{kind} @{m.group(2)}" if by_width and m and m.group(2) else kind


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("pango")
    ap.add_argument("--by-width", action="store_true")
    ap.add_argument("--show", help="print the differing ids of this kind")
    args = ap.parse_args()
    a, b = load(args.engine), load(args.pango)
    stats = defaultdict(lambda: [0, 0, 0, 0, 0.0, 0])
    for rid, rb in b.items():
        ra = a.get(rid)
        if ra is None:
            continue
        for k in [kind_of(rid, args.by_width), "all"]:
            s = stats[k]
            s[0] += 1
            same = ra["line_breaks"] == rb["line_breaks"]
            if same:
                s[1] += 1
                for wa, wb in zip(ra["line_widths"], rb["line_widths"]):
                    s[2] += 1
                    d = abs(wa - wb)
                    s[3] += d <= 0.05
                    s[4] = max(s[4], d)
                s[5] += abs(ra["height"] - rb["height"]) <= 0.05
            elif args.show and k == args.show:
                print(rid, ra["line_breaks"], rb["line_breaks"])
    print("| kind | texts | identical line breaks | line widths within 0.05 px | largest width difference | heights within 0.05 px |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for k in sorted(stats, key=lambda k: (k == "all", k)):
        n, same, lines, close, worst, heights = stats[k]
        print(f"| {k} | {n} | {same} ({100 * same / n:.1f} %) | {close}/{lines} | {worst:.3f} px | {heights}/{same} |")


if __name__ == "__main__":
    main()
