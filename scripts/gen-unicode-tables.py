#!/usr/bin/env python3
"""Generate Sources/UnicodeText/Generated/UnicodeTables.swift from the Unicode Character Database.

Usage (from the package root):

    python3 scripts/gen-unicode-tables.py [UCD_DIR]

UCD_DIR defaults to /usr/share/unicode (Debian's `unicode-data` package). Only the standard
library is used. The output is deterministic: running the script twice gives the same file.

Design
------
Every code point gets one packed 32-bit property value (layout below, mirrored by
`PackedProperties` in Sources/UnicodeText/PackedProperties.swift). There are only a few hundred
distinct packed values, so the table has three levels:

    values[ stage2[ stage1[cp >> SHIFT] * BLOCK + (cp & (BLOCK - 1)) ] ]

stage1 holds one UInt16 block number per BLOCK code points, stage2 holds the deduplicated blocks
of UInt8 indexes into `values` (there are fewer than 256 distinct values). The three arrays are emitted as base-64 string literals that the
Swift side decodes once, on first use, so the compiler never sees a huge array literal.

Packed value layout (bit ranges, low bit first):
     0..5   Line_Break class as listed (LineBreakClass raw value)
     6..11  Line_Break class after UAX #14 LB1 (AI, SG, XX -> AL; SA -> CM if gc=Mn|Mc else AL; CJ -> NS)
    12..15  Grapheme_Cluster_Break (GraphemeBreakProperty raw value)
    16..18  East_Asian_Width (EastAsianWidth raw value)
    19      Extended_Pictographic
    20      Emoji
    21      Emoji_Presentation
    22      Emoji_Modifier
    23      Emoji_Modifier_Base
    24      Emoji_Component
    25      Regional_Indicator
    26      Extended_Pictographic and gc=Cn (UAX #14 LB30b)
    27      zero terminal columns (gc Mn, Me, Cf except U+00AD, Cc, Zl, Zp; Hangul jamo V and T)
    28      East_Asian_Width is F, W or H (UAX #14 LB30)
"""

import base64
import os
import re
import sys

UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "UnicodeText", "Generated", "UnicodeTables.swift")
DECOMPOSITIONS_OUT = os.path.join(os.path.dirname(OUT), "Decompositions.swift")
N = 0x110000

LB_CLASSES = ("BK CR LF CM NL SG WJ ZW GL SP ZWJ B2 BA BB HY CB CL CP EX IN NS OP QU IS NU PO PR SY "
              "AI AL CJ EB EM H2 H3 HL ID JL JV JT RI SA XX").split()
GB_VALUES = {
    "Other": 0, "CR": 1, "LF": 2, "Control": 3, "Extend": 4, "ZWJ": 5, "Regional_Indicator": 6,
    "Prepend": 7, "SpacingMark": 8, "L": 9, "V": 10, "T": 11, "LV": 12, "LVT": 13,
}
EAW_VALUES = {"N": 0, "A": 1, "H": 2, "F": 3, "Na": 4, "W": 5}
EMOJI_BITS = {
    "Extended_Pictographic": 19, "Emoji": 20, "Emoji_Presentation": 21, "Emoji_Modifier": 22,
    "Emoji_Modifier_Base": 23, "Emoji_Component": 24,
}
BIT_RI, BIT_EXTPICT_CN, BIT_ZERO_WIDTH, BIT_FWH = 25, 26, 27, 28


def read_ranges(relpath):
    """Yields (first, last, value) for each data line of a UCD file."""
    path = os.path.join(UCD, relpath)
    with open(path, encoding="utf-8") as f:
        for line in f:
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            fields = [x.strip() for x in data.split(";")]
            cps = fields[0].split("..")
            first = int(cps[0], 16)
            last = int(cps[-1], 16)
            yield first, last, fields[1]


def file_version(relpath):
    with open(os.path.join(UCD, relpath), encoding="utf-8") as f:
        first = f.readline()
    m = re.search(r"-(\d+\.\d+\.\d+)\.txt", first)
    return m.group(1) if m else "unknown"


def fill(arr, first, last, value):
    for cp in range(first, last + 1):
        arr[cp] = value


def main():
    version = file_version("LineBreak.txt")
    for rel in ("auxiliary/GraphemeBreakProperty.txt", "EastAsianWidth.txt", "extracted/DerivedGeneralCategory.txt"):
        if file_version(rel) != version:
            sys.exit(f"version mismatch: {rel} is {file_version(rel)}, LineBreak.txt is {version}")

    # General category (default Cn, per the @missing line of DerivedGeneralCategory.txt).
    gc = ["Cn"] * N
    for first, last, value in read_ranges("extracted/DerivedGeneralCategory.txt"):
        fill(gc, first, last, value)

    # Line_Break with the defaults documented in LineBreak.txt for unlisted code points.
    lb_index = {name: i for i, name in enumerate(LB_CLASSES)}
    lb = [lb_index["XX"]] * N
    for first, last in ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FFFD),
                        (0x30000, 0x3FFFD), (0x1F000, 0x1FAFF), (0x1FC00, 0x1FFFD)):
        fill(lb, first, last, lb_index["ID"])
    fill(lb, 0x20A0, 0x20CF, lb_index["PR"])
    for first, last, value in read_ranges("LineBreak.txt"):
        fill(lb, first, last, lb_index[value])

    gcb = [0] * N
    for first, last, value in read_ranges("auxiliary/GraphemeBreakProperty.txt"):
        fill(gcb, first, last, GB_VALUES[value])

    # East_Asian_Width with the documented defaults (N, and W for the CJK ideograph areas).
    eaw = [EAW_VALUES["N"]] * N
    for first, last in ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FFFD),
                        (0x30000, 0x3FFFD)):
        fill(eaw, first, last, EAW_VALUES["W"])
    for first, last, value in read_ranges("EastAsianWidth.txt"):
        fill(eaw, first, last, EAW_VALUES[value])

    bits = [0] * N
    for first, last, value in read_ranges("emoji/emoji-data.txt"):
        if value in EMOJI_BITS:
            bit = 1 << EMOJI_BITS[value]
            for cp in range(first, last + 1):
                bits[cp] |= bit

    # The Swift side folds Extended_Pictographic into the grapheme class as an extra value of
    # Other (TextBreaks.swift, GB.pict), which is exact only while every pictographic is Other.
    pict_bit = 1 << EMOJI_BITS["Extended_Pictographic"]
    for cp in range(N):
        if bits[cp] & pict_bit and gcb[cp] != GB_VALUES["Other"]:
            sys.exit(f"U+{cp:04X} is Extended_Pictographic but not Grapheme_Cluster_Break=Other")

    resolved_of = {}
    for name, i in lb_index.items():
        resolved_of[i] = lb_index[{"AI": "AL", "SG": "AL", "XX": "AL", "CJ": "NS"}.get(name, name)]

    packed = [0] * N
    for cp in range(N):
        c = lb[cp]
        r = resolved_of[c]
        if LB_CLASSES[c] == "SA":
            r = lb_index["CM"] if gc[cp] in ("Mn", "Mc") else lb_index["AL"]
        v = c | (r << 6) | (gcb[cp] << 12) | (eaw[cp] << 16) | bits[cp]
        if gcb[cp] == GB_VALUES["Regional_Indicator"]:
            v |= 1 << BIT_RI
        if (bits[cp] >> EMOJI_BITS["Extended_Pictographic"]) & 1 and gc[cp] == "Cn":
            v |= 1 << BIT_EXTPICT_CN
        zero = gc[cp] in ("Mn", "Me", "Cf", "Cc", "Zl", "Zp") and cp != 0x00AD
        if gcb[cp] in (GB_VALUES["V"], GB_VALUES["T"]):
            zero = True
        if zero:
            v |= 1 << BIT_ZERO_WIDTH
        if eaw[cp] in (EAW_VALUES["F"], EAW_VALUES["W"], EAW_VALUES["H"]):
            v |= 1 << BIT_FWH
        packed[cp] = v

    values = sorted(set(packed))
    if len(values) > 0x100:
        sys.exit("more than 256 distinct packed values: widen stage2 to UInt16 here and in PackedProperties.swift")
    value_index = {v: i for i, v in enumerate(values)}

    shift = 7
    block = 1 << shift
    blocks = {}
    stage1 = []
    stage2 = []
    for start in range(0, N, block):
        key = tuple(value_index[v] for v in packed[start:start + block])
        if key not in blocks:
            blocks[key] = len(blocks)
            stage2.extend(key)
        stage1.append(blocks[key])

    def b64(words, size):
        raw = b"".join(w.to_bytes(size, "little") for w in words)
        text = base64.b64encode(raw).decode("ascii")
        return "\n".join(text[i:i + 100] for i in range(0, len(text), 100))

    with open(OUT, "w", encoding="utf-8") as f:
        f.write(f"""// GENERATED FILE, DO NOT EDIT.
// Generated by `python3 scripts/gen-unicode-tables.py` from the Unicode Character Database {version}
// (Debian 12 `unicode-data`, /usr/share/unicode): LineBreak.txt, auxiliary/GraphemeBreakProperty.txt,
// EastAsianWidth.txt, emoji/emoji-data.txt, extracted/DerivedGeneralCategory.txt.
// Layout: see the script's docstring and PackedProperties.swift.
// {len(values)} distinct packed values, {len(blocks)} distinct blocks of {block} code points.

enum GeneratedTables {{
    static let unicodeVersion = "{version}"
    static let blockShift = {shift}
    static let stage1Count = {len(stage1)}
    static let stage2Count = {len(stage2)}
    static let valueCount = {len(values)}

    /// stage1: one little-endian UInt16 block number per {block} code points.
    static let stage1Base64 = \"\"\"
{b64(stage1, 2)}
\"\"\"

    /// stage2: deduplicated blocks of UInt8 indexes into `values`.
    static let stage2Base64 = \"\"\"
{b64(stage2, 1)}
\"\"\"

    /// values: the distinct packed property values, little-endian UInt32.
    static let valuesBase64 = \"\"\"
{b64(values, 4)}
\"\"\"
}}
""")
    print(f"wrote {OUT}: {len(values)} values, {len(blocks)} blocks, "
          f"{len(stage1) * 2 + len(stage2) + len(values) * 4} bytes of tables")
    write_decompositions(version, b64)


def write_decompositions(version, b64):
    """Canonical decompositions (UnicodeData.txt field 5 without a <tag>): one (code point, first,
    second) triple of little-endian UInt32 per entry, second 0 for a singleton, sorted by code point.
    Hangul syllables are decomposed by arithmetic on the Swift side."""
    triples = []
    with open(os.path.join(UCD, "UnicodeData.txt"), encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            if fields[5] and not fields[5].startswith("<"):
                parts = [int(x, 16) for x in fields[5].split()]
                if len(parts) > 2:
                    sys.exit(f"canonical decomposition of {fields[0]} has {len(parts)} parts")
                triples.append((int(fields[0], 16), parts[0], parts[1] if len(parts) > 1 else 0))
    triples.sort()
    words = [w for t in triples for w in t]
    with open(DECOMPOSITIONS_OUT, "w", encoding="utf-8") as f:
        f.write(f"""// GENERATED FILE, DO NOT EDIT.
// Generated by `python3 scripts/gen-unicode-tables.py` from the Unicode Character Database {version}
// (Debian 12 `unicode-data`, /usr/share/unicode): UnicodeData.txt, field 5 without a tag.
// {len(triples)} canonical decompositions: (code point, first, second) as little-endian UInt32,
// second 0 for a singleton, sorted by code point. Hangul syllables are decomposed by arithmetic.

enum GeneratedDecompositions {{
    static let count = {len(triples)}

    static let triplesBase64 = \"\"\"
{b64(words, 4)}
\"\"\"
}}
""")
    print(f"wrote {DECOMPOSITIONS_OUT}: {len(triples)} decompositions")


if __name__ == "__main__":
    main()
