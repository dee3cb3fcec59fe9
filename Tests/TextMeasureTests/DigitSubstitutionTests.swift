@testable import TextMeasure
import FeedLayoutSupport
import XCTest
import _LayoutTestSupport

/// A prepared text copied with other ASCII digits (`TextMeasurer.substitutingDigits`) must be
/// the prepared text of the new content, record for record, or not be made at all.
final class DigitSubstitutionTests: XCTestCase {
    /// Digits in every context that could make one digit measure unlike another: words of the
    /// kerned tables, words that are shaped (next to letters of other scripts, in the emoji and
    /// fallback faces), clusters that hold a digit (keycaps, combining marks, skin tones, a
    /// prefix), right-to-left neighbours, and digits that are not ASCII.
    static let pieces: [String] = [
        "7", "42", "11-24 14:32", "2026-11-28", "3.14", "+0800", "iPhone15", "weibo.com/1234", "v2", "1/2", "12:30", " ", "  ",
        "\t", "\n", "来自", "微博", "分钟前", "，", "。", "「", "」", "(", ")", "😀", "👍🏽", "1\u{FE0F}\u{20E3}", "2\u{20E3}",
        "3\u{301}", "4\u{200D}", "5\u{FE0E}", "6🏻", "\u{600}8", "ا", "مرحبا", "שלום", "ไทย", "हिन्दी", "한국어", "カナ", "Ω",
        "x\u{336}", "\u{FFFC}", "１２", "٣٤", "۵", "\u{200F}", "\u{202E}", "ـ", "é",
    ]

    private func measurer() throws -> TextMeasurer { try Shared.requireMeasurer() }

    /// `s` with each ASCII digit replaced by one drawn from `rng`.
    private static func redrawDigits(_ s: String, _ rng: inout SplitMix64) -> String {
        String(
            String.UnicodeScalarView(
                s.unicodeScalars.map { $0.value >= 0x30 && $0.value <= 0x39 ? Unicode.Scalar(0x30 + UInt32(rng.next() % 10))! : $0 }))
    }

    private func substituted(_ m: TextMeasurer, _ template: PreparedText, _ text: AttributedText) -> PreparedText? {
        text.withContent { m.substitutingDigits(template, $0) }
    }

    /// The copy made from the template and the digits alone (`substitutingDigits(_:digits:)`):
    /// made exactly when the copy from `text` is, and the same.
    private func substitutedByDigits(_ m: TextMeasurer, _ template: PreparedText, _ text: AttributedText) -> PreparedText? {
        let digits = text.string.utf8.filter { $0 &- 0x30 < 10 }
        return digits.withUnsafeBufferPointer { m.substitutingDigits(template, digits: $0) }
    }

    private func assertBothCopiesAgree(
        _ m: TextMeasurer, _ template: PreparedText, _ text: AttributedText, _ copy: PreparedText?, line: UInt = #line
    ) {
        let byDigits = substitutedByDigits(m, template, text)
        XCTAssertEqual(byDigits != nil, copy != nil, text.string.debugDescription, line: line)
        if let copy, let byDigits {
            assertSamePrepared(byDigits, copy, text.string.debugDescription, line: line)
            XCTAssertEqual(byDigits.isSameStorage(as: template), copy.isSameStorage(as: template), line: line)
        }
    }

    func testThePinnedTextFacesMeasureDigitsAlike() throws {
        // Tabular figures in Noto Sans CJK SC Regular and Bold: the copy path serves them.
        XCTAssertTrue(try measurer().fonts.digitsInterchangeable)
    }

    /// Random texts of the pieces, in one run or in runs of other sizes and weights, each
    /// prepared with some digits and copied with others: every copy made equals a fresh
    /// prepare; copies are made for texts whose digits are all measured from tables, and
    /// declined where a digit is shaped or is part of a larger cluster.
    func testCopiesEqualFreshPreparesAndAreDeclinedWhereDigitsDiffer() throws {
        let m = try measurer()
        var rng = SplitMix64(seed: 28)
        var made = 0, declined = 0, checked = 0
        for k in 0..<3_000 {
            let n = 1 + Int(rng.next() % 12)
            let parts = (0..<n).map { _ in Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }
            var a = AttributedText("", attributes: TextAttributes(size: 15))
            var b = a
            var seed = SplitMix64(seed: UInt64(k))
            for (j, part) in parts.enumerated() {
                let attributes =
                    k % 3 == 0 && j % 3 == 2
                    ? TextAttributes(size: j % 6 == 2 ? 17 : 15, weight: j % 6 == 5 ? .bold : .regular) : TextAttributes(size: 15)
                a.append(Self.redrawDigits(part, &seed), attributes: attributes)
                b.append(Self.redrawDigits(part, &rng), attributes: attributes)
            }
            let template = m.prepareUncached(a)
            assertBothCopiesAgree(m, template, b, substituted(m, template, b))
            guard a.string != b.string else { continue }
            checked += 1
            guard let copy = substituted(m, template, b) else {
                declined += 1
                continue
            }
            made += 1
            assertSamePrepared(copy, m.prepareUncached(b), "\(a.string.debugDescription) → \(b.string.debugDescription)")
            XCTAssertFalse(copy.isSameStorage(as: template))
        }
        XCTAssertGreaterThan(made, checked / 10, "copies made: \(made) of \(checked)")
        XCTAssertGreaterThan(declined, checked / 10, "copies declined: \(declined) of \(checked)")
    }

    /// Time lines with sources in many scripts: copied (and equal to a fresh prepare) whenever
    /// their digits are measured from tables (always after the Chinese prefix, unless a digit of
    /// the source is shaped), declined when one is shaped.
    func testTimeLinesAreCopied() throws {
        let m = try measurer()
        let sources = ["微博 weibo.com", "iPhone 15 Pro", "", "مصدر", "מקור 2", "😀 app", "ไทย", "HUAWEI Mate 60"]
        var rng = SplitMix64(seed: 11)
        var made = 0
        for source in sources {
            for prefix in ["来自 ", ""] {
                func line(_ time: String) -> AttributedText {
                    var t = AttributedText(time + "  ", attributes: TextAttributes(size: 12, role: TextRole(rawValue: 7)))
                    if !source.isEmpty || !prefix.isEmpty {
                        _ = t.append(prefix + source, attributes: TextAttributes(size: 12, role: TextRole(rawValue: 8)))
                    }
                    return t
                }
                let template = m.prepareUncached(line("11-24 14:32"))
                for _ in 0..<20 {
                    let time = Self.redrawDigits("00-00 00:00", &rng)
                    let text = line(time)
                    let copy = substituted(m, template, text)
                    assertBothCopiesAgree(m, template, text, copy)
                    if let copy { assertSamePrepared(copy, m.prepareUncached(text), "\(time) \(prefix)\(source)") }
                    // (The digit of "מקור 2" is shaped in a Hebrew word: such a line is prepared.)
                    if prefix == "来自 " && source != "מקור 2" { XCTAssertNotNil(copy, "\(time) \(prefix)\(source)") }
                    if source == "מקור 2" { XCTAssertNil(copy, "\(time) \(prefix)\(source)") }
                    if copy != nil { made += 1 }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(made, sources.count * 20)
    }

    /// Texts that differ in anything but ASCII digits, and digits that are clusters with what
    /// follows them, are not copied; equal contents give the template itself.
    func testOtherDifferencesAreDeclined() throws {
        let m = try measurer()
        func check(_ a: String, _ b: String, copied: Bool, line: UInt = #line) {
            let template = m.prepareUncached(AttributedText(a, size: 15))
            let copy = substituted(m, template, AttributedText(b, size: 15))
            XCTAssertEqual(copy != nil, copied, "\(a) → \(b)", line: line)
            if let copy { assertSamePrepared(copy, m.prepareUncached(AttributedText(b, size: 15)), b, line: line) }
        }
        check("12:30 中文", "18:45 中文", copied: true)
        check("12:30 中文", "12:30 中文", copied: true)
        check("12:30 中文", "12:30 文字", copied: false)
        check("12:30 中文", "12:3a 中文", copied: false)
        check("12:30 中文", "12:300中文", copied: false)
        check("１２", "１３", copied: false)
        check("٣٤", "٣٥", copied: false)
        check("1\u{FE0F}\u{20E3} 中", "2\u{FE0F}\u{20E3} 中", copied: false)
        check("3\u{301}", "4\u{301}", copied: false)
        check("\u{600}8", "\u{600}9", copied: false)
        check("x1", "x1", copied: true)
        // The digits alone: one for each of the template's, or no copy.
        let template = m.prepareUncached(AttributedText("12:30 中文", size: 15))
        for (digits, copied) in [("1845", true), ("1230", true), ("184", false), ("18450", false), ("", false)] {
            let copy = Array(digits.utf8).withUnsafeBufferPointer { m.substitutingDigits(template, digits: $0) }
            XCTAssertEqual(copy != nil, copied, digits)
            if let copy {
                assertSamePrepared(copy, m.prepareUncached(AttributedText("\(digits.prefix(2)):\(digits.suffix(2)) 中文", size: 15)), digits)
            }
        }
        let same = m.prepareUncached(AttributedText("11-24 14:32", size: 15))
        XCTAssertTrue(try XCTUnwrap(substituted(m, same, AttributedText("11-24 14:32", size: 15))).isSameStorage(as: same))
        XCTAssertNil(substituted(m, same, AttributedText("11-24 14:32", size: 16)))
    }

    /// A measurer that keeps glyphs never copies: a digit's glyph is its own.
    func testMeasurersKeepingGlyphsDecline() throws {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        let m = TextMeasurer(fonts: fonts, retainGlyphs: true)
        let template = m.prepareUncached(AttributedText("11-24 14:32", size: 15))
        XCTAssertNil(substituted(m, template, AttributedText("12-25 15:33", size: 15)))
        // The same text is the template itself, glyphs and all.
        XCTAssertTrue(try XCTUnwrap(substituted(m, template, AttributedText("11-24 14:32", size: 15))).isSameStorage(as: template))
    }

    /// A template with a shaped digit serves its own text only.
    func testTemplatesWithShapedDigitsServeTheirOwnTextOnly() throws {
        let m = try measurer()
        let template = m.prepareUncached(AttributedText("מקור 2", size: 15))
        XCTAssertNil(substituted(m, template, AttributedText("מקור 3", size: 15)))
        XCTAssertTrue(try XCTUnwrap(substituted(m, template, AttributedText("מקור 2", size: 15))).isSameStorage(as: template))
    }
}
