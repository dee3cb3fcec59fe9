#!/usr/bin/env python3
"""Generates the per-kind fidelity corpus: texts that mix Chinese with one kind of content each
(other scripts, tabs, missing glyphs, kaomoji, combining marks, emoji sequences, URLs, characters
no face maps, keycaps, flags, variation selectors, format characters, ...), as
JSON Lines in the peers harness's input format (`measure.py`, `feedlayout measure`).

    python3 scripts/fidelity_corpus.py --seed 7 --count 60 > corpus.jsonl

Each record's id is `KIND-NNN-wWIDTH-sSIZE`; every text is written at each width and size given.
Standard library only; the same seed gives the same bytes.
"""
import argparse
import json
import random

HAN = list("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严")
CJK_PUNCT = list("，。、：；！？")

HANGUL = ["안녕하세요", "감사합니다", "한국어", "오늘", "날씨가", "좋네요", "사랑해", "친구", "학교에", "갑니다",
          "서울", "맛있는", "음식", "주말에", "영화를", "봤어요", "정말", "재미있다", "커피", "한잔"]
KANA = ["ありがとう", "こんにちは", "すごい", "かわいい", "テキスト", "ラーメン", "カメラ", "ゲーム", "さようなら",
        "おはよう", "ちょっと", "だいじょうぶ", "アニメ", "コーヒー", "ニュース", "です", "ます", "ください", "ね", "よ"]
KANA_HAN = ["日本語の", "東京に", "行きます", "今日は", "天気が", "新しい", "映画を", "見ました", "友達と", "食べる"]
CYRILLIC = ["Привет", "мир", "спасибо", "Москва", "хорошо", "сегодня", "погода", "Россия", "книга", "дом"]
GREEK = ["Ελληνικά", "καλημέρα", "ευχαριστώ", "Αθήνα", "θάλασσα", "αλφα", "βήτα", "γάμμα", "λόγος", "φως"]
THAI = ["สวัสดี", "ครับ", "ขอบคุณ", "ประเทศไทย", "กรุงเทพ", "อาหาร", "อร่อย", "มาก", "วันนี้", "อากาศ", "ดีมาก",
        "ภาษาไทย", "โรงเรียน", "มหาวิทยาลัย", "ความรัก", "เพื่อน", "ไปเที่ยว", "ทะเล", "๑๒๓", "ค่ะ", "นะ", "ที่", "และ"]
LAO = ["ສະບາຍດີ", "ຂອບໃຈ", "ລາວ", "ພາສາລາວ", "ວຽງຈັນ", "ເຂົ້າ", "ນ້ຳ"]
KHMER = ["សួស្តី", "អរគុណ", "ភាសាខ្មែរ", "កម្ពុជា", "ភ្នំពេញ", "ស្រលាញ់"]
MYANMAR = ["မင်္ဂလာပါ", "ကျေးဇူးတင်ပါတယ်", "မြန်မာ", "ရန်ကုန်", "စာ", "နေကောင်းလား"]
ARABIC = ["مرحبا", "شكرا", "العالم", "السلام", "عليكم", "كتاب", "مدينة", "جميل", "١٢٣", "اليوم"]
HEBREW = ["שלום", "עולם", "תודה", "ירושלים", "בוקר", "טוב", "ספר", "אהבה", "מים", "חג"]
LATIN_EXT = ["Paweł", "Łódź", "Kraków", "Dvořák", "Ærøskøbing", "façade", "naïve", "Ōsaka", "Şişli", "Zürich", "crème", "Đà Nẵng"]
KAOMOJI = ["(๑•̀ㅂ•́)و✧", "⁄(⁄ ⁄•⁄ω⁄•⁄ ⁄)⁄", "(｡･ω･｡)", "ヽ(✿ﾟ▽ﾟ)ノ", "(╯°□°）╯︵ ┻━┻", "¯\\_(ツ)_/¯", "(=^･ω･^=)",
           "( ͡° ͜ʖ ͡°)", "• ̀ω•́ )✧", "(ಥ_ಥ)", "ʕ•ᴥ•ʔ", "(´・ω・`)", "٩(๑❛ᴗ❛๑)۶", "(っ˘ω˘ς )", "⊙﹏⊙", "Σ(ﾟдﾟ;)"]
COMBINING = [" \u0300", "•\u0301", " \u0308", "o\u0302", "e\u0301\u0323", "•\u0300ω•\u0301", "a\u030A", " \u20DD", "x\u0336y\u0336"]
FRACTION = ["⁄", "1⁄2", "3⁄4", "⁄(⁄", "⁄ ⁄", "a⁄b"]
EMOJI = ["😀", "👍🏻", "👨‍👩‍👧‍👦", "🇨🇳", "🇯🇵", "1️⃣", "#️⃣", "❤️", "☀️", "✌️", "©️", "™️", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👩🏽‍💻", "🤷‍♂️", "😂😂😂",
         "🐱", "⭐", "✨", "🎉", "👀", "☺", "♥", "✔"]
FULLWIDTH = ["ＡＢＣ", "１２３", "（注）", "＃话题＃", "～", "！！", "？？", "＠用户", "％", "ｗｗｗ", "＜＞", "｛｝"]
URLS = ["https://example.com/path?a=1&b=two#frag", "http://t.cn/RzX9abc", "https://m.weibo.cn/status/4871234567890123?sudaref=login",
        "www.example.org/search?q=%E4%B8%AD%E6%96%87&lang=zh", "https://a.b.c/d/e/f/g.html?x=y&z=%20w", "ftp://files.example.net/pub/file_v2.tar.gz"]
NUMBERS = ["1,234,567", "3.1415926535", "12 345 678", "1.000.000,50", "2024-11-25", "13:45:09", "+86 138-0013-8000",
           "¥1,999.00", "$12,345.67", "99.9%", "1e-10", "0x7FFFFFFF", "6222 0202 0000 1234 567"]
TABS = ["\t", "a\tb", "名字\t年龄", "\t\t", "1.\t", "x\t中文", "\t中文", "a\tb\tc", " \t", "表格\t\t数据", "Price:\t¥12",
        "😀\t", "Paweł\tok", "第一列\t第二列\t第三列"]
# Hard breaks, separators and spaces next to what decides their face: Han, Latin, emoji, a letter
# only DejaVu Sans maps (Georgian), Arabic, and hex boxes (Thai).
SEPARATORS = ["\u2028", "\u2029", "\r", "\r\n", "\x0b", "\x0c", "\x85", "\u2002", "\u3000", "\u200b", "\u00a0",
              " \u2028", " \u2029", "😀 ", "😀\u2028", "😀\n", "ა\n", "ა\t", "ა\u2002ა", "\u2028ა", "ب\u2028 ",
              "ก\u2028ก", "กข\n", "\u2028\u2028", "a \u2002\tb", "\t  \n", "x\u200b\u2028y"]
# Every space separator, alone or two together, between neighbours of every face (Georgian and
# Arabic in DejaVu Sans, Latin, digits, emoji, a box), tabs and line separators.
SPACES = ["\u3000", "\u2002", "\u2003", "\u2009", "\u200a", "\u205f", "\u202f", "\u2007", "\u2008", "\u00a0", " "]
SPACE_NEIGHBOURS = ["ა", "ب", "a", "1", "١", "😀", "✔", "ก", "\t", "\u2028", ""]
# Marks on letters of another face than the mark's (the text face maps U+0301, U+0308 and
# U+030C; DejaVu Sans Georgian, Armenian, Arabic and Hebrew), on boxes, and alone (at the start
# of a text: HarfBuzz's dotted circle).
MARKED = ["ս\u0301", "ა\u0308", "ბ\u030c", "ש\u05b8", "ל\u0301", "ب\u064e", "ب\u0301", "д\u0301", "ɛ\u0301",
          "ก\u0e31", "ข\u0301", "क\u093f", "\u0301", "\u0308", "\u030c", "\u05b8", "\u0e31"]
# A paragraph of Hebrew or Arabic, as a status in those languages is written: numbers (with
# terminators and separators), Latin words with punctuation, symbols and emoji among the words.
RTL_INSERTS = ["2024", "12", "12%", "3.5", "$20", "١٢٣", "۱۴", "user,", "hello.", "OK", "(test)", "@user", "#tag", "v1.2",
               "iPhone", "✔", "❤", "😀", "🇮🇱", "!", ":", "،", "-", "中文", "؟", "؛ hello", "ـ"]
# Paragraphs without a strong script, as statuses have them: dividers, numbers, quotes, emoji and
# symbols on a line of their own (shaped in no script), sometimes after a right-to-left paragraph
# (whose direction they take).
NEUTRAL = ["——", "————————", "———", "～～～", "======", "······", "……", "\"", "'", "“”", "!!!", "？？？", "1.", "(2)",
           "2024-11-29", "12:30", "¥99", "99%", "666", "10万+", "18:00—20:00", "1—2", "😀😀", "👍🏻 ✔", "✔ 12", "→ ★", "— 12 ✔"]
PUA = ["\uf8ff", "\ue000", "\ue123", "\U000F0000", "\u0378", "\u0001", "\U0010FFFD", "\U000E0001", "\u2065", "\ufff0"]


# Kinds drawn from their own generator (`--seed` and the kind's name), so that adding one leaves the
# texts of the others as they were. Characters no face maps (Indic, Ethiopic, Sinhala, Tibetan,
# Mongolian letters, some symbols) next to digits, spaces, emoji and DejaVu Sans's letters; CJK
# compatibility ideographs (drawn from their decomposition); keycaps with and without U+FE0F;
# regional indicators in pairs and alone; skin tones, doubled too; text and emoji presentation
# selectors and ideographic variation sequences; symbols of the astral planes and the BMP; format
# characters, bidi controls and U+034F.
UNMAPPED = ["नमस्ते", "हिन्दी", "क्षत्रिय", "বাংলা", "ভাষা", "தமிழ்", "வணக்கம்", "ሰላም", "ኢትዮጵያ", "සිංහල",
            "ශ්‍රී", "བོད་ཡིག", "ᠮᠣᠩᠭᠣᠯ", "ߒߞߏ", "ꆈꌠ", "₷", "₾", "𝟿"]
UNMAPPED_NEIGHBOURS = ["", " ", "  ", "1", "a", "ა", "₡", "😀", "✔", "	", "(", "։"]
COMPAT = [chr(c) for c in list(range(0xF900, 0xF910)) + list(range(0xFA30, 0xFA40)) + list(range(0xFA70, 0xFA90))
          + [0x2F800, 0x2F8A6, 0x2F9DE, 0x2FA1C]]
KEYCAPS = ["1️⃣", "#️⃣", "*️⃣", "9⃣", "0⃣", "#⃣", "🔟", "5️⃣ ", "9⃣ a", "9⃣ #️⃣"]
INDICATORS = [chr(0x1F1E6 + i) for i in range(26)]
SKIN = ["👍🏻", "👋🏿", "🙏🏽", "💪🏼", "👍🏻🏿", "🏻", "🏿🏿", "👩🏽‍💻", "🧑🏿‍🤝‍🧑🏻", "✌🏾", "☝🏼"]
SELECTORS = ["☺︎", "☺️", "♥︎", "♥️", "⚠", "⚠️", "✌︎", "葛󠄀", "辻󠄀",
             "a️", "中︎", "❤", "❤️", "©", "©️", "↔️", "1️"]
SYMBOLS = ["𝐀𝐁𝐂", "𝒪", "𝕐", "𝔄", "𝟘𝟙", "₹", "₺", "₿", "€", "→⇒⇔", "⌘", "─┼┤", "⠁⠃⠉", "♔♕", "∑∫√", "℃", "№",
           "Ⅻ", "①②", "㊗", "🀄", "♩♪", "𝄞"]
FORMAT = ["​", "‌", "‍", "⁠", "­", "͏", "⁦a⁩", "‮x‬", "‎",
          "‏", "؜", "﻿", "a͏ b", "中͏ "]

MORE_KINDS = {
    "unmapped": lambda r: r.choice(UNMAPPED_NEIGHBOURS) + joined(r, UNMAPPED, 1, 2, r.choice(["", " "]))
    + r.choice(UNMAPPED_NEIGHBOURS),
    "compat-ideographs": lambda r: joined(r, COMPAT, 1, 4) + r.choice(["", " ", " ₡", "，"]),
    "keycaps": lambda r: joined(r, KEYCAPS, 1, 3, r.choice(["", " "])),
    "regional-indicators": lambda r: joined(r, INDICATORS, 1, 7) + r.choice(["", " ", "中"]),
    "skin-tones": lambda r: joined(r, SKIN, 1, 3, r.choice(["", " "])),
    "presentation-selectors": lambda r: joined(r, SELECTORS, 1, 3, r.choice(["", " "])),
    "symbols": lambda r: joined(r, SYMBOLS, 1, 3, r.choice(["", " "])),
    "format-characters": lambda r: joined(r, FORMAT, 1, 3, r.choice(["", " ", "a"])),
}


def han(rng, lo, hi):
    return "".join(rng.choice(HAN) for _ in range(rng.randint(lo, hi)))


def spaced(rng, words, lo, hi):
    return " ".join(rng.choice(words) for _ in range(rng.randint(lo, hi)))


def joined(rng, words, lo, hi, sep=""):
    return sep.join(rng.choice(words) for _ in range(rng.randint(lo, hi)))


# Each kind: a function giving one piece of that kind; texts alternate Chinese and pieces.
KINDS = {
    "hangul": lambda r: spaced(r, HANGUL, 1, 6),
    "kana": lambda r: joined(r, KANA, 1, 5),
    "kana-han": lambda r: joined(r, KANA + KANA_HAN, 2, 6),
    "cyrillic": lambda r: spaced(r, CYRILLIC, 1, 6),
    "greek": lambda r: spaced(r, GREEK, 1, 5),
    "thai": lambda r: joined(r, THAI, 1, 4),
    "thai-spaced": lambda r: spaced(r, THAI, 2, 6),
    "lao": lambda r: joined(r, LAO, 1, 4),
    "khmer": lambda r: joined(r, KHMER, 1, 3),
    "myanmar": lambda r: joined(r, MYANMAR, 1, 3),
    "arabic": lambda r: spaced(r, ARABIC, 1, 5),
    "hebrew": lambda r: spaced(r, HEBREW, 1, 5),
    "latin-ext": lambda r: r.choice(["：", " ", "@", ""]) + spaced(r, LATIN_EXT, 1, 3),
    "tabs": lambda r: r.choice(TABS),
    "missing": lambda r: joined(r, PUA, 1, 3),
    "kaomoji": lambda r: r.choice(KAOMOJI),
    "combining": lambda r: r.choice(COMBINING),
    "fraction-slash": lambda r: r.choice(FRACTION),
    "emoji": lambda r: joined(r, EMOJI, 1, 4),
    "fullwidth": lambda r: r.choice(FULLWIDTH),
    "url": lambda r: r.choice([" ", ""]) + r.choice(URLS) + r.choice([" ", ""]),
    "numbers": lambda r: r.choice(NUMBERS),
    "separators": lambda r: joined(r, SEPARATORS, 1, 3),
    "spaces": lambda r: r.choice(SPACE_NEIGHBOURS) + joined(r, SPACES, 1, 2) + r.choice(SPACE_NEIGHBOURS),
    "marks": lambda r: joined(r, MARKED, 1, 3),
    "rtl-paragraph": lambda r: "\n" + " ".join(
        r.choice(RTL_INSERTS) if r.random() < 0.4 else r.choice(words)
        for words in [r.choice([HEBREW, ARABIC])] for _ in range(r.randint(3, 9))) + "\n",
    "neutral-paragraph": lambda r: "\n" + (r.choice(HEBREW + ARABIC) + "\n" if r.random() < 0.25 else "") + " ".join(
        r.choice(NEUTRAL) for _ in range(r.randint(1, 3))) + r.choice(["\n", "\r\n", "\u2029"]),
}


def text_of(rng, kinds, table=KINDS):
    parts = []
    for _ in range(rng.randint(2, 9)):
        parts.append(han(rng, 0, 14))
        if rng.random() < 0.4:
            parts.append(rng.choice(CJK_PUNCT))
        parts.append(table[rng.choice(kinds)](rng))
        if rng.random() < 0.3:
            parts.append(rng.choice(["", " ", "！", "。", "\n"]))
    return "".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=60, help="texts per kind (and for the mixed kind)")
    ap.add_argument("--widths", default="320 355 414")
    ap.add_argument("--sizes", default="15 16")
    ap.add_argument("--real", metavar="DIR", help="instead: the status and retweet texts of DIR/weibo_*.json")
    args = ap.parse_args()
    if args.real:
        import glob, os
        texts = []
        for path in sorted(glob.glob(os.path.join(args.real, "weibo_*.json"))):
            for s in json.load(open(path, encoding="utf-8"))["statuses"]:
                for t in [s.get("text"), (s.get("retweeted_status") or {}).get("text")]:
                    if t:
                        texts.append((f"real-{len(texts):03d}", t))
        emit(texts, args)
        return
    rng = random.Random(args.seed)
    names = list(KINDS)
    texts = []
    for kind in names + ["mixed"]:
        for i in range(args.count):
            kinds = rng.sample(names, 3) if kind == "mixed" else [kind]
            texts.append((f"{kind}-{i:03d}", text_of(rng, kinds)))
    for kind in MORE_KINDS:
        more = random.Random(f"{args.seed}-{kind}")
        for i in range(args.count):
            texts.append((f"{kind}-{i:03d}", text_of(more, [kind], MORE_KINDS)))
    emit(texts, args)


def emit(texts, args):
    for size in args.sizes.split():
        for width in args.widths.split():
            for tid, text in texts:
                print(json.dumps({"id": f"{tid}-w{width}-s{size}", "text": text, "font_size": float(size),
                                  "width": float(width)}, ensure_ascii=False))


if __name__ == "__main__":
    main()
