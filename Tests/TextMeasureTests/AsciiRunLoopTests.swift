@testable import TextMeasure
import FeedLayoutSupport
import XCTest
import _LayoutTestSupport

/// The short paths of printable ASCII and spaces (`TextMeasurer.asciiRunLoop`: the tight loop
/// that joins runs of printable ASCII to the pending word, and the path of a space or a word's
/// first character after the text face) against the general steps every character takes
/// without them: the prepared texts must be equal record for record (clusters, fonts, break
/// flags, line-end corrections).
final class AsciiRunLoopTests: XCTestCase {
    /// Pieces a text is drawn from: ASCII letters, digits and punctuation (the loop's input),
    /// brackets and spaces (where it stops), characters that extend the one before (combining
    /// marks, ZWJ, variation selectors, a keycap), and the neighbours of Chinese feeds.
    static let pieces: [String] = [
        "a", "Z", "word", "weibo.com", "12:30", "15-11-24", "3.14", "-", "_", "@", "#", "/", ":", ",", ".", "!", "'",
        "\"", "~", "(", ")", "[", "]", "{", "}", " ", "  ", "\t", "\n", "\u{301}", "\u{200D}", "\u{FE0F}", "\u{20E3}",
        "中", "文字", "，", "。", "「", "」", "😀", "👍🏽", "ア", "한", "é", "Ω", "ـ", "\u{FFFC}", "x\u{336}", "1\u{FE0F}\u{20E3}",
        // Where a space may take another bidi level or script plan, or a word another script.
        "12 ", "$5 ", " 中", "한 a", "a 한", "\u{5D0}", " \u{627}", "\u{301}", "\u{3000}", "\u{2066}", "\u{1F600} ",
        "\u{E000}", "\u{FF10}", " \u{301}",
        // Punctuation and symbols past ASCII (`isPlainPunctuation`), brackets and quotes among them.
        "“", "”", "‘", "…", "——", "·", "【", "】", "《", "》", "『", "』", "〔", "（", "）", "！", "：", "«", "»", "×", "©",
        "‼", "⁉", "〜", "〰", "〽", "々", "〸", "‐", "•", "¡", "ÿ", "\u{AD}", "\u{302A}", "｡", "＄",
    ]

    private func measurers() throws -> (loop: TextMeasurer, steps: TextMeasurer) {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        return (
            TextMeasurer(fonts: fonts, retainGlyphs: false, cacheBudgetBytes: 1 << 20, shapesWholeRuns: false),
            TextMeasurer(fonts: fonts, retainGlyphs: false, cacheBudgetBytes: 1 << 20, shapesWholeRuns: false, asciiRunLoop: false)
        )
    }

    /// Random texts of the pieces, in one run and split into runs of other sizes and weights
    /// (the loop must stop at a run's end).
    func testLoopChangesNothing() throws {
        let (loop, steps) = try measurers()
        var rng = SplitMix64(seed: 25)
        var asciiUnits = 0
        for k in 0..<1_500 {
            let n = 1 + Int(rng.next() % 24)
            let parts = (0..<n).map { _ in Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }
            var text = AttributedText("", attributes: TextAttributes(size: 15))
            for (j, part) in parts.enumerated() {
                let split = k % 3 == 0 && j % 4 == 3
                let attributes =
                    split
                    ? TextAttributes(size: j % 8 == 3 ? 17 : 15, weight: j % 8 == 7 ? .bold : .regular)
                    : TextAttributes(size: 15)
                text.append(part, attributes: attributes)
            }
            asciiUnits += text.string.utf16.filter { $0 >= 0x21 && $0 <= 0x7E }.count
            assertSamePrepared(loop.prepare(text), steps.prepare(text), "text \(k): \(text.string.debugDescription)")
        }
        XCTAssertGreaterThan(asciiUnits, 10_000)
    }

    /// The punctuation and symbols past ASCII that the short path takes have none of the
    /// properties the general steps test: the steps only track brackets, take the script and
    /// join the word.
    func testPlainPunctuationHasNoPropertyTheStepsTest() {
        var count = 0
        for v in UInt32(0x80)...0xFFFF where TextMeasurer.isPlainPunctuation(UInt16(v)) {
            let unit = [UInt16(v)]
            unit.withUnsafeBufferPointer { u in
                let info = ClusterInfo(u, 0, 1)
                XCTAssertTrue(info.isSingleScalar, "U+\(String(v, radix: 16))")
                XCTAssertFalse(info.isHanging || info.isSeparator || info.isEmojiPresentation, "U+\(String(v, radix: 16))")
            }
            XCTAssertFalse(TextMeasurer.isFontless(v), "U+\(String(v, radix: 16))")
            XCTAssertFalse(TextMeasurer.isDefaultIgnorable(v), "U+\(String(v, radix: 16))")
            XCTAssertFalse(TextMeasurer.isCombiningMark(v), "U+\(String(v, radix: 16))")
            XCTAssertFalse(TextMeasurer.isParagraphDelimiter(v), "U+\(String(v, radix: 16))")
            XCTAssertNotEqual(v, 0xFFFC)
            count += 1
        }
        XCTAssertEqual(count, 94 + 24 + 47 + 41 + 16 + 96)
    }

    /// Feed-like texts: the corpus when present, and fixed mixes of Chinese with Latin words,
    /// numbers, times and domain names.
    func testFeedTextsAreEqual() throws {
        let (loop, steps) = try measurers()
        var texts = [
            "15-11-24 12:30 来自 微博 weibo.com", "刚刚 来自 iPhone 6 Plus", "今天去了 Apple Store，买了 iPad Pro 12.9（2018）",
            "Hello,world!(test)[ok]{x}", "ab\u{301}cd e\u{200D}f 1\u{FE0F}\u{20E3}2", "中文abc123中文", "x86_64-unknown-linux-gnu",
        ]
        texts += Shared.corpusTexts ?? []
        for t in texts {
            for attributes in [TextAttributes(size: 15), TextAttributes(size: 14, weight: .bold)] {
                let text = AttributedText(t, attributes: attributes)
                assertSamePrepared(loop.prepare(text), steps.prepare(text), String(t.prefix(40)))
            }
        }
    }
}
