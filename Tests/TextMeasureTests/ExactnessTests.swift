@testable import TextMeasure
import UnicodeText
import XCTest
import _LayoutTestSupport

/// The production path (per-character advances for CJK, words shaped apart and cached) against
/// HarfBuzz shaping every run of the paragraph whole.
final class ExactnessTests: XCTestCase {
    static let mixed = [
        "今天天气很好😀，我们去#公园#散步 @小明 http://t.cn/RPusQ8P [微笑] 1,234.56元",
        "AVATAR Type WAVE, “quoted” ‘text’ — dashes —— and … ellipses; fi fl ffi ligatures.",
        "「引号」《书名》（括号）【方括号】、顿号。句号！感叹？问号：冒号；分号",
        "ひらがなとカタカナ、漢字のまじった日本語の文。한국어 문장도 있습니다.",
        "👨‍👩‍👧‍👦 family, 👍🏽 skin tone, 🇨🇳🇺🇸 flags, 1️⃣ keycap, ❤️ heart, ☀ sun",
        "Mixed 中文 and English words, numbers 2026-11-22 12:30, prices ¥99.9 and 50%.",
    ]

    private func compare(_ texts: [String], sizes: [Double], widths: [Double], file: StaticString = #filePath, line: UInt = #line)
        throws -> (lines: Int, worst: Double)
    {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        let fast = TextMeasurer(fonts: fonts)
        let reference = TextMeasurer(fonts: fonts, retainGlyphs: false, cacheBudgetBytes: 1 << 20, shapesWholeRuns: true)
        var worst = 0.0, lines = 0
        for t in texts {
            for size in sizes {
                let text = AttributedText(t, size: size)
                let p = fast.prepare(text)
                let r = reference.prepare(text)
                XCTAssertEqual(p.clusterCount, r.clusterCount, file: file, line: line)
                guard p.clusterCount == r.clusterCount else { continue }
                for w in widths {
                    for l in p.layout(LayoutOptions(width: w)).lines {
                        var a = 0.0, b = 0.0, contentA = 0.0, contentB = 0.0
                        for c in l.clusters {
                            a += p.advance(ofCluster: c)
                            b += r.advance(ofCluster: c)
                            if !p.isHanging(c) { contentA = a; contentB = b }
                        }
                        worst = max(worst, abs(contentA - contentB))
                        lines += 1
                        XCTAssertEqual(contentA, contentB, accuracy: 0.01, "\(t.prefix(40)) at \(size) pt, width \(w)", file: file, line: line)
                    }
                }
            }
        }
        return (lines, worst)
    }

    /// A text's natural width at a size, from the shared measurer.
    private func naturalWidth() throws -> (String, Double) -> Double {
        let m = try Shared.requireMeasurer()
        return { s, size in m.prepare(AttributedText(s, size: size)).naturalWidth }
    }

    /// Runs whose language Pango derives from their script (Hangul → ko, kana → ja, Cyrillic → ru,
    /// Greek → el, Hebrew → he, Arabic → ar), characters only the fallback face maps, marks the
    /// text face lacks and code points no face maps.
    static let derived = [
        "안녕하세요 감사합니다，오늘 날씨가 좋네요。中文한국어 문장 123!",
        "テスト日本語のテキスト、ありがとう。ラーメン「カメラ」ゲーム！",
        "Привет мир, спасибо! Ελληνικά καλημέρα ευχαριστώ Αθήνα",
        "שלום עולם תודה，مرحبا بالعالم شكرا 中文",
        "：Paweł Łódź Dvořák ⁄(⁄ ⁄•⁄ω⁄•⁄ ⁄)⁄ • ̀ω•́ )✧ ( ͡° ͜ʖ ͡°) a ̈b",
        "私有\u{F8FF}区\u{E000}和\u{F0000}未分配\u{0378}的码位 x\u{1}y สวัสดีครับ",
        "مدينة ١٢٣ ١٢٣ 农 ٩(๑❛ᴗ❛๑)۶ 头 و✧ 加 x\u{336}y\u{336} 解 ที่ 中",
    ]

    func testDerivedLanguagesAndFallbacksMatchWholeRunShaping() throws {
        let r = try compare(Self.derived, sizes: [14, 15, 16, 17], widths: [120, 320, 355, 414])
        XCTAssertGreaterThan(r.lines, 50)
    }

    /// Widths Pango 1.50 gives on the same fonts (peers harness): a Hangul run shaped with the ko
    /// language (its `locl` widens the space), and hex boxes for code points no face maps.
    func testDerivedLanguageAndHexBoxesMatchPango() throws {
        let width = try naturalWidth()
        XCTAssertEqual(width("안녕하세요 감사합니다", 15), 142.1982, accuracy: 0.01)
        XCTAssertEqual(width("x\u{F8FF}y", 16), 29.79, accuracy: 0.01)
        XCTAssertEqual(width("x\u{F0000}y", 16), 35.1865, accuracy: 0.01)
        XCTAssertEqual(width("中\u{F8FF}\u{F8FF}文", 16), 58.9727, accuracy: 0.01)
        XCTAssertEqual(width("ł ł", 16), 14.1797, accuracy: 0.01)  // DejaVu Sans, its space too
        XCTAssertEqual(width("a ł", 16), 12.5918 + 4.5469, accuracy: 0.01)  // the space in the text face
        XCTAssertEqual(width("a\u{200B}b", 16), 18.8955, accuracy: 0.01)  // default-ignorable: no box
    }

    /// Widths and heights Pango 1.50 gives on the same fonts (peers harness, 16 px) for characters
    /// no face maps. One HarfBuzz draws from its canonical decomposition in the text face (CJK
    /// compatibility ideographs) is a glyph of that face, not a hex box. Either is drawn from the
    /// text face ranked after every face: it joins an item of the text face before it in its run,
    /// and the spaces after it stay there; where it starts an item (a paragraph's start, after a
    /// tab, another face, an emoji run, or where its script starts a run) they move to the next
    /// item's face (DejaVu Sans's or the emoji face's wider space). And the spaces after a
    /// cluster split between the text face and the emoji face.
    func testCharactersNoFaceMapsJoinOrStartTheirItemAsInPango() throws {
        let m = try Shared.requireMeasurer()
        let cases: [(text: String, pango: Double, height: Double)] = [
            ("\u{FA76}", 16, 23.168),
            ("\u{FA76}\u{20A1}", 26.1797, 23.168),
            ("\u{FA76} \u{20A1}", 31.2656, 23.168),
            ("中\u{FA76} \u{20A1}", 45.7637, 23.168),
            ("\u{2F8A6}中", 32, 23.168),
            ("a\u{20B7} \u{20A1}", 36.2578, 23.168),
            ("\u{20B7} \u{20A1}", 28.752, 18.625),
            (" \u{20B7} \u{20A1}", 32.3359, 23.168),
            ("\t\u{20B7} \u{20A1}", 57.4238, 23.168),
            ("a\t \u{20B7} \u{20A1}", 59.5059, 23.168),
            ("😀 \u{20B7} ✔", 76.8359, 23.168),
            ("1\u{915} \u{20A1}", 36.1299, 23.168),
            ("中\u{915} ✔", 69.3301, 23.168),
            ("ა\u{20B7} \u{20A1}", 36.877, 18.625),
            ("1\u{1D7FF} א", 43.5439, 23.168),
            // A keycap mark without U+FE0F is drawn from the emoji face in an ordinary run: a
            // space after it stays in its item where the next character starts another script
            // run or an emoji run, and moves to the text face's item in the same run.
            ("中9\u{20E3} a", 73.7314, 23.168),
            ("9\u{20E3} #\u{FE0F}\u{20E3}", 68.6455, 23.168),
            ("9\u{20E3} a", 41.3936, 23.168),
            // U+034F chooses a face (DejaVu Sans maps it) though it is default-ignorable: the
            // space after it joins its item.
            ("中\u{34F} \u{20A1}", 31.2656, 23.168),
            // A regional indicator without its pair is no emoji presentation: an item apart,
            // shaped apart from the flags before it (5 glyphs, not the 4 of one shaping).
            ("\u{1F1E6}\u{1F1EF}\u{1F1F5}\u{1F1E9}\u{1F1EA}\u{1F1E9}\u{1F1EA}", 99.6094, 18.75),
            ("\u{1F44D}\u{1F3FB}\u{1F3FF}中", 55.8438, 23.168),
            // A box's item ends with its paragraph.
            ("\u{FA7C}\n\u{F903} \u{20A1}", 29.7637, 46.3359),
            // Paired brackets: a closing one without its opening one empties the stack; one opened
            // before the paragraph had a script takes the script of its run once known.
            ("k『】魋』…", 88.832, 23.168),
            ("(中a)…", 51.8242, 23.168),
            // Pango's pairs, not BidiBrackets.txt's: after each pair the dash is back in the Han
            // run, full width; the Tibetan marks pair with nothing, the dash stays Cyrillic.
            ("文〔т〕—", 72.2236, 23.168),
            ("文«т»—", 55.5518, 23.168),
            ("文⟨т⟩—", 52.708, 23.168),
            ("文<т>—", 57.9834, 23.168),
            ("文｢т｣—", 56.2236, 23.168),
            ("文\u{F3A}т\u{F3B}—", 65.5, 23.168),
        ]
        for c in cases {
            // (The widest line's width and the height, at a width every line fits.)
            let l = m.prepare(AttributedText(c.text, size: 16)).layout(LayoutOptions(width: 1000))
            let scalars = c.text.unicodeScalars.map { String($0.value, radix: 16) }
            XCTAssertEqual(l.size.width, c.pango, accuracy: 0.01, "\(scalars)")
            XCTAssertEqual(l.size.height, c.height, accuracy: 0.01, "\(scalars)")
        }
        // A skin tone without its base is a cluster of its own to Pango: a line breaks between two.
        let tones = m.prepare(AttributedText("置\u{1F3FF}\u{1F3FF}", size: 16)).layout(LayoutOptions(width: 40))
        XCTAssertEqual(tones.lines.map(\.range.lowerBound), [0, 3])
        for (line, pango) in zip(tones.lines, [35.9219, 19.9219]) { XCTAssertEqual(line.width, pango, accuracy: 0.01) }
        XCTAssertEqual(CanonicalDecomposition.pair(0xFA76)?.first, 0x52C7)
        XCTAssertEqual(CanonicalDecomposition.pair(0xD55C)?.first, 0xD558)  // 한 → 하 + ᆫ
        XCTAssertNil(CanonicalDecomposition.pair(0x4E2D))
    }

    /// Widths Pango 1.50 gives on the same fonts (logical widths, `scripts/pango_line_widths.py`)
    /// for a space after a character only DejaVu Sans maps: the space keeps DejaVu's width while
    /// it stays in that character's item, and takes the text face's when it has a bidi run of its
    /// own. And a missing base with missing marks: one box per code point, the last one counted
    /// at a line end too.
    func testSpacesAcrossBidiLevelsAndBoxClustersMatchPango() throws {
        let width = try naturalWidth()
        let cases: [(text: String, size: Double, pango: Double)] = [
            // Between Arabic numbers (AN): a level below them, the text face's space.
            ("مدينة ١٢٣ ١٢٣", 16, 95.0605),
            ("١٢٣ 农", 16, 45.3652),
            // Right-to-left letters before Han: in a right-to-left paragraph the spaces keep the
            // letters' level and item (DejaVu); in a left-to-right one they have a run of their own.
            ("！טוב מים 农厂", 16, 107.2188),
            ("كتابُ 加", 16, 53.4688),
            ("农מים 农厂", 16, 76.6465),
            // An extended Arabic-Indic digit after left-to-right text is L (W7); a neutral takes
            // the level of what follows: the space stays in DejaVu.
            ("٩(๑❛ᴗ❛๑)۶ 头", 16, 96.1641),
            ("و✧ 加", 16, 42.2188),
            // A cluster split between faces is in the script of its base: the space stays in the
            // Latin run, in DejaVu with the mark.
            ("x\u{336}y\u{336} 解", 16, 37.3896),
            // A space that starts a paragraph joins the item of the character after it.
            (" \u{308}细步", 16, 37.0859),
            (" ł中", 16, 25.6328),
            // ที่: a missing base and two missing marks, three boxes, at the end of the line.
            ("中ที่", 15, 52.9336),
            ("中ที่", 16, 56.459),
        ]
        for c in cases {
            XCTAssertEqual(width(c.text, c.size), c.pango, accuracy: 0.01, "\(c.text) at \(c.size) pt")
        }
    }

    func testMixedScriptsMatchWholeRunShaping() throws {
        let r = try compare(Self.mixed, sizes: [14, 15, 16, 17], widths: [320, 355, 414])
        XCTAssertGreaterThan(r.lines, 50)
    }

    /// The per-character path and word shaping proven on every text of the real corpus.
    func testCorpusMatchesWholeRunShaping() throws {
        guard let texts = Shared.corpusTexts else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        XCTAssertGreaterThan(texts.count, 300)
        let r = try compare(texts, sizes: [15, 17], widths: [320, 355, 414])
        XCTAssertGreaterThan(r.lines, 1000)
        print("exactness on the corpus: \(r.lines) lines, worst |difference| \(r.worst) pt")
    }

    /// Every code point on the per-character path except the ideographs (which no lookup of Noto
    /// Sans CJK touches: `testIdeographsAreInert`), in both faces, between neighbours of every
    /// kind: all of ASCII, the punctuation the kerning lookup touches, brackets, quotes, dashes,
    /// kana, Latin-1, an ideograph, an emoji, a space. Each text is measured both ways and every
    /// cluster boundary must be at the same offset.
    func testPathCodePointsNextToEveryKindOfNeighbour() throws {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        let fast = TextMeasurer(fonts: fonts)
        let reference = TextMeasurer(fonts: fonts, retainGlyphs: false, cacheBudgetBytes: 1 << 20, shapesWholeRuns: true)
        var neighbours = (0x21...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        neighbours += ["，", "。", "、", "．", "「", "」", "【", "】", "“", "”", "‘", "’", "—", "…", "·", "字", "か", "カ", "ー", "é", "Ａ", "😀", " "]
        var checked = 0
        for (weight, table) in [(FontWeight.regular, fonts.simplePrimary), (.bold, fonts.simpleBold)] {
            for cp in 0..<0x10000 where SimpleAdvanceTable.isOnPath(table.entry(UInt16(cp))) {
                if (0x3400...0x9FFF).contains(cp) || (0xF900...0xFAFF).contains(cp) { continue }
                let c = String(UnicodeScalar(UInt32(cp))!)
                var text = ""
                for n in neighbours { text += n + c + n + c + c }
                let attributed = AttributedText(text, size: 15, weight: weight)
                let p = fast.prepare(attributed)
                let r = reference.prepare(attributed)
                XCTAssertEqual(p.clusterCount, r.clusterCount, "U+\(String(cp, radix: 16))")
                guard p.clusterCount == r.clusterCount else { continue }
                var a = 0.0, b = 0.0
                for i in 0..<p.clusterCount {
                    a += p.advance(ofCluster: i)
                    b += r.advance(ofCluster: i)
                    if abs(a - b) > 0.001 {
                        XCTFail("U+\(String(cp, radix: 16)) (\(weight)): cluster \(i) of \(text.prefix(40))…: \(a) against \(b)")
                        break
                    }
                }
                checked += 1
            }
        }
        // The ASCII, Latin-1, general punctuation, kana and fullwidth code points Noto Sans CJK
        // leaves untouched, in two faces.
        XCTAssertGreaterThan(checked, 500)
        print("per-character path: \(checked) code points checked next to \(neighbours.count) neighbours")
    }

    /// No lookup of the engine's shaping plans touches a CJK ideograph in either text face, so
    /// every ideograph is on the per-character path.
    func testIdeographsAreInert() throws {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        for table in [fonts.simplePrimary, fonts.simpleBold] {
            var onPath = 0, mapped = 0
            for cp in 0x4E00...0x9FFF {
                let e = table.entry(UInt16(cp))
                if e != 0 { mapped += 1 }
                if SimpleAdvanceTable.isOnPath(e) && e < SimpleAdvanceTable.needsPlainNeighbours { onPath += 1 }
            }
            XCTAssertGreaterThan(mapped, 20_900)  // the block, but for its last few code points
            XCTAssertEqual(onPath, mapped)
        }
        // The four punctuation marks the kerning lookup touches need plain neighbours.
        for cp: UInt16 in [0x3001, 0x3002, 0xFF0C, 0xFF0E] {
            XCTAssertGreaterThanOrEqual(fonts.simplePrimary.entry(cp), SimpleAdvanceTable.needsPlainNeighbours)
            XCTAssertTrue(SimpleAdvanceTable.isOnPath(fonts.simplePrimary.entry(cp)))
        }
        // Brackets are plain neighbours, never on the path; letters that kern are off it.
        XCTAssertEqual(fonts.simplePrimary.entry(0x300C), SimpleAdvanceTable.plainOnly)
        XCTAssertEqual(fonts.simplePrimary.entry(0x41), 0)
    }

    /// Words of printable ASCII and Chinese punctuation measured from the face's tables
    /// (`KernedAlphabet`) against HarfBuzz shaping the same word, in both text faces and the three
    /// plans the path serves (Latin runs, Han runs, which digits and punctuation after Chinese
    /// take, and Common runs, a paragraph without a strong script):
    /// every ordered pair of ASCII characters, every pair of a punctuation character with an
    /// ASCII or punctuation character, and 3 000 random words per table (a third of them with
    /// punctuation). Advances and line-end corrections must be equal in font units; words the
    /// path refuses (a ligature could form, a character is off the path) are counted.
    func testAsciiWordsMatchShaping() throws {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        let buffer = ShapingBuffer()
        var rng = SplitMix64(seed: 2026)
        var measured = 0, refused = 0
        for slot in [FontSlot.primary, .bold] {
            let file = fonts.file(slot)
            for script in [UnicodeScript.latin, .han, .common] {
                let table = try XCTUnwrap(fonts.kernedAlphabet(slot, script), "\(slot) \(script.code): no ASCII table")
                var words: [[UInt16]] = []
                let ascii = Array(UInt16(0x21)...0x7E)
                let punctuation = KernedAlphabet.extraUnits
                for a in ascii { for b in ascii { words.append([a, b]) } }
                for p in punctuation {
                    for b in ascii + punctuation { words.append([p, b]) }
                    for a in ascii { words.append([a, p]) }
                }
                for w in 0..<3_000 {
                    let n = 1 + Int(rng.next() % 12)
                    words.append((0..<n).map { _ in
                        w % 3 == 0 && rng.next() % 3 == 0
                            ? punctuation[Int(rng.next() % UInt64(punctuation.count))] : UInt16(0x21 + rng.next() % 94)
                    })
                }
                var advances: [Int32] = []
                var shaped: [ShapedGlyph] = []
                for w in words {
                    advances = [Int32](repeating: 0, count: 2 * w.count)
                    let ok = w.withUnsafeBufferPointer { word in
                        advances.withUnsafeMutableBufferPointer { table.measure(word, writingInto: $0.baseAddress!) }
                    }
                    guard ok else {
                        refused += 1
                        continue
                    }
                    measured += 1
                    shaped.removeAll()
                    w.withUnsafeBufferPointer { buffer.shape($0, start: 0, end: $0.count, font: file, script: script, into: &shaped) }
                    XCTAssertEqual(shaped.count, w.count, "\(String(decoding: w, as: UTF16.self))")
                    guard shaped.count == w.count else { continue }
                    for (i, g) in shaped.enumerated() {
                        let correction = file.advance(ofGlyph: g.glyph) - g.xAdvance
                        if g.xAdvance != advances[i] || correction != advances[w.count + i] || g.glyph != table.glyph(of: w[i]) {
                            XCTFail("\(slot) \(script.code) \"\(String(decoding: w, as: UTF16.self))\" character \(i): advance \(advances[i]) against \(g.xAdvance)")
                            break
                        }
                    }
                }
            }
        }
        // Pairs that start a ligature (fi, fl, ff…) are refused, and punctuation a substitution
        // touches; nearly everything else is measured.
        XCTAssertGreaterThan(measured, 4 * 60_000)
        XCTAssertGreaterThan(refused, 0)
        print("ASCII and punctuation words: \(measured) measured from the tables and equal to shaping, \(refused) refused")
    }
}

