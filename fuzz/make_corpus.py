#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into fuzz/Corpus/<target>/ (run from the repository root).

Seeds are small: a few valid statuses cut from Fixtures/, the small invalid fixtures and hand-written
hostile cases. Re-running overwrites the seeds with the same bytes.
"""
import json, os, plistlib, shutil, struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "Corpus")
INVALID = os.path.join(ROOT, "Fixtures", "invalid")


def write(target, name, data):
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(OUT, target, name), "wb") as f:
        f.write(data)


def invalid(name):
    with open(os.path.join(INVALID, name), "rb") as f:
        return f.read()


with open(os.path.join(ROOT, "Fixtures", "StatusInfo.plist"), "rb") as f:
    classic = plistlib.load(f)[:2]
with open(os.path.join(ROOT, "Fixtures", "feed.plist"), "rb") as f:
    model = plistlib.load(f)["statuses"]
# The smallest statuses with a retweet, pictures or a card, to keep seeds small.
model = sorted(model, key=lambda s: len(json.dumps(s, ensure_ascii=False)))
small = model[:2] + [s for s in model if "retweeted_status" in s][:1]

# Seeds named regress-* are inputs the fuzzers found (docs/hardening.md, findings), and hostile-*
# ones are hand-made hostile inputs (some written below, others kept in the corpus as they are):
# neither is removed.
for d in ["ClassicPlist", "ModelPlist", "WeiboJSON", "JSONLines", "Detect", "Text", "Cell"]:
    folder = os.path.join(OUT, "Fuzz" + d)
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        if not name.startswith(("regress-", "hostile-")):
            os.remove(os.path.join(folder, name))

# Classic plist.
write("FuzzClassicPlist", "two.plist", plistlib.dumps(classic, fmt=plistlib.FMT_XML))
write("FuzzClassicPlist", "two-binary.plist", plistlib.dumps(classic, fmt=plistlib.FMT_BINARY))
for n in ["classic-id-not-number.plist", "classic-missing-username.plist", "bad-plist.plist"]:
    write("FuzzClassicPlist", n, invalid(n))

# Full-model plist.
write("FuzzModelPlist", "small.plist", plistlib.dumps({"statuses": small}, fmt=plistlib.FMT_XML))
write("FuzzModelPlist", "small-binary.plist", plistlib.dumps({"statuses": small[:1]}, fmt=plistlib.FMT_BINARY))
write("FuzzModelPlist", "wrong-root-plist.plist", invalid("wrong-root-plist.plist"))
write("FuzzModelPlist", "deep.plist", '<?xml version="1.0"?><plist version="1.0">' + "<array>" * 140 + "</array>" * 140 + "</plist>")

# Weibo JSON.
write("FuzzWeiboJSON", "small.json", json.dumps({"statuses": small}, ensure_ascii=False))
write("FuzzWeiboJSON", "array.json", json.dumps(small[:1]))
for n in ["missing-user.json", "bad-date.json", "negative-count.json", "truncated.json", "invalid-utf8.json", "utf16-bom.json"]:
    write("FuzzWeiboJSON", n, invalid(n))
write("FuzzWeiboJSON", "deep.json", "[" * 140 + "]" * 140)
lone = dict(small[0], text="lone \\ud800 surrogate \\u0000 nul")
write("FuzzWeiboJSON", "lone-surrogate.json", json.dumps([lone]).replace("\\\\u", "\\u"))

# JSON Lines.
write("FuzzJSONLines", "three.jsonl", "\n".join(json.dumps(s, ensure_ascii=False) for s in small) + "\n")
for n in ["bad-line3.jsonl", "missing-id-line2.jsonl", "wrong-root-line2.jsonl"]:
    write("FuzzJSONLines", n, invalid(n))
write("FuzzJSONLines", "blank-lines.jsonl", "\n\n" + json.dumps(small[0]) + "\r\n\n")

# Detection: the first byte picks the file name (0 .json, 1 .jsonl, 2 .plist, 3 .ndjson, 4 none).
write("FuzzDetect", "json", b"\x00" + json.dumps(small[:1]).encode())
write("FuzzDetect", "jsonl", b"\x01" + ("\n".join(json.dumps(s) for s in small[:2]) + "\n").encode())
write("FuzzDetect", "object-no-ext", b"\x04" + (json.dumps(small[0]) + "\n" + json.dumps(small[1])).encode())
write("FuzzDetect", "plist", b"\x02" + plistlib.dumps(classic[:1], fmt=plistlib.FMT_XML))
write("FuzzDetect", "bplist", b"\x02" + plistlib.dumps({"statuses": small[:1]}, fmt=plistlib.FMT_BINARY))
write("FuzzDetect", "bom", b"\x00\xef\xbb\xbf  " + json.dumps({"statuses": []}).encode())
write("FuzzDetect", "garbage", b"\x04" + invalid("garbage.bin")[:64])


# Text: 21 parameter bytes (see TextTarget.run), then the text.
def text_params(width, max_lines=0, flags=0, grid=17.0, sizes=(17, 14, 30), obj=20.0, mode=0):
    def dbl(v, lo, hi, selector=0):
        return bytes([selector]) + struct.pack("<H", int(round((v - lo) / (hi - lo) * 65535)))
    out = dbl(width, 0, 800) + bytes([max_lines, flags]) + dbl(grid, 1, 40)
    for s in sizes:
        out += dbl(s, 1, 60)
    return out + dbl(obj, 0, 40) + bytes([mode])


write("FuzzText", "latin", text_params(300) + b"The quick brown fox jumps over the lazy dog. AV Wa To. " * 3)
write("FuzzText", "cjk-runs", text_params(200, 3, 2) + "今天天气很好，我们去公园散步吧。\x1e加粗的文字\x1e@用户名 #话题#".encode())
write("FuzzText", "emoji-objects", text_params(150, 0, 4) + "家庭 👨‍👩‍👧‍👦 旗 🇨🇳 肤色 👍🏽 \x1d 表情 \x1d\x1d end".encode())
write("FuzzText", "bidi-marks", text_params(120, 2, 9) + "abc \u202eשלום עולם\u202c مرحبا e\u0301\u0301\u0301 Z\u0335\u0336\u0337 \u2066x\u2069".encode())
write("FuzzText", "char-wrap", text_params(60, 0, 1) + "WAVE To Yo Ta 天天天天 ffi fl".encode())
write("FuzzText", "no-break-spaces", text_params(30, 0, 1) + "x\u00a0 ab\u00a0\u00a0 ทดสอบ\u2007ภาษา 中\u202f。\n12ไทย\u00a0".encode())
write("FuzzText", "zero-width-items", text_params(46, 0, 1) + "中中中 \u200f中中 ab \u0308 \u061c中 \u180e \u0e31中\u200f".encode())
write("FuzzText", "utf16", text_params(250, 0, 0, mode=1) + "lone \ud800 high".encode("utf-16-le", "surrogatepass"))
write("FuzzText", "newlines", text_params(100, 0, 6) + b"\n\n\r\n\x0b\x0c\xc2\x85\xe2\x80\xa8 \t  \n")
write("FuzzText", "hostile-width", bytes([252, 0, 0]) + text_params(10)[3:] + b"NaN width text")


# Cell: 12 parameter bytes (see CellTarget.run), then fields split by 0x1F.
def cell_params(width=375, scale=2, max_lines=0, flags=0, counts=0, seed=7, mode=0, created=5):
    # width = 240 + steps / scale (CellTarget.run)
    return (struct.pack("<H", int((width - 240) * scale)) + bytes([scale - 1, max_lines]) + struct.pack("<H", flags)
            + bytes([counts]) + struct.pack("<H", seed) + bytes([mode]) + struct.pack("<H", created) + b"\x00")


def fields(*fs):
    return "\x1f".join(fs).encode()


write("FuzzCell", "plain", cell_params() + fields("今天天气不错 @朋友 去看看 #周末# http://t.cn/A [微笑]", "用户名", "微博 weibo.com"))
write("FuzzCell", "pictures", cell_params(414, 3, 4, 0x2000 | 0x10, 0x09) + fields("九张图" * 20, "Name", "iPhone"))
write("FuzzCell", "retweet-card", cell_params(320, 2, 6, 0x1 | 0x2 | 0x4, 0x30) + fields("转发", "A", "", "原微博 @someone 的内容 " * 5, "", "视频标题", "描述"))
write("FuzzCell", "tag-title", cell_params(600, 1, 0, 0x8002, 0x01) + fields("text", "n", "s", "", "地点", "卡片", "desc", "热门", "话题", "链接标题"))
write("FuzzCell", "deleted", cell_params(240, 2, 1, 0x1000) + fields("", "", ""))
print("seeds written to", OUT)
