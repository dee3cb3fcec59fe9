#!/usr/bin/env python3
"""Pango's line breaks and logical line widths, in the peers harness's JSON Lines format.

The harness's `measure.py --engine pango` takes a line's width as the x of the trailing edge of
its last character that is not white space (`pango_layout_line_index_to_x`). That is a visual
position, and two kinds of line make it something other than the advance width of the line's
characters:

- right-to-left text: the last character in logical order is not the rightmost one;
- a line that ends in a code point that is not a cursor position (a mark, a spacing mark) in a
  cluster of its own. Pango shapes with HarfBuzz's cluster level MONOTONE_CHARACTERS, so a
  missing base and its missing marks (Thai, Khmer, Myanmar: one hex box per code point) are one
  cluster each, and `pango_glyph_string_index_to_x_full` answers the start of a cluster that
  holds no cursor position: the last box is left out.

This script lays each text out with the harness's Pango set-up (same fonts, options and
attributes; imported from measure.py) and reports, per line, the sum of the advances of the
line's runs (`pango_layout_line_get_extents`, logical width) less the advances of the white
space that hangs at its end (the harness's set of it, less VT and NEL, which Pango draws),
each measured between the leading and trailing edges of that character. Both terms are sums of glyph advances in logical order, as the engine's line width
is. Line breaks, heights and the output format are the harness's.

    $PEERS/.venv/bin/python scripts/pango_line_widths.py $PEERS IN.jsonl -o OUT.jsonl
"""
import argparse
import json
import os
import sys


def is_white(c, trailing):
    """The harness's trailing white space, less VT and NEL: Pango 1.50 breaks no line at them
    and draws them as hex boxes (it hangs FF, a space to GLib's `g_unichar_isspace`)."""
    return c in trailing and c not in "\x0b\x85"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("peers", help="the peers harness directory (holds measure.py and fonts/)")
    ap.add_argument("input")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    sys.path.insert(0, args.peers)
    import measure  # the harness: its Pango engine set-up and helpers

    engine = measure.PangoEngine(os.path.join(args.peers, "fonts"))
    scale = engine.P.SCALE
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    for rec in measure.read_records(args.input, 15.0, 355.0):
        text = rec["text"]
        layout = engine._layout(rec)
        height = layout.get_extents()[1].height / scale
        u16 = measure.utf16_offsets(text)
        char_to_byte, b = [], 0
        for c in text:
            char_to_byte.append(b)
            b += len(c.encode("utf-8"))
        char_to_byte.append(b)
        byte_to_char = {byte: i for i, byte in enumerate(char_to_byte)}
        starts, widths = [], []
        for line in layout.get_lines_readonly():
            cs = byte_to_char[line.start_index]
            ce = byte_to_char[line.start_index + line.length]
            starts.append(u16[cs])
            # The white space that hangs: the harness's, but for VT and NEL (`is_white`).
            last = ce - 1
            while last >= cs and is_white(text[last], measure.TRAILING_WS):
                last -= 1
            if last < cs:
                widths.append(0.0)
                continue
            width = line.get_extents()[1].width
            for k in range(last + 1, ce):
                # White space is a cluster and a cursor position of its own: its two edges.
                width -= abs(line.index_to_x(char_to_byte[k], True) - line.index_to_x(char_to_byte[k], False))
            widths.append(width / scale)
        record = dict(id=rec["id"], engine="pango", height=round(height, 4),
                      width_used=round(max(widths, default=0.0), 4), line_count=len(starts),
                      line_breaks=starts, line_widths=[round(w, 4) for w in widths], offset_unit="utf16")
        out.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
