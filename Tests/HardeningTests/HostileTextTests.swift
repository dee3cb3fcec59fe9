// Hostile text through the real text engine: huge paragraphs, giant grapheme clusters, only
// separators, bidi controls, control characters, hostile widths and font sizes.
import Foundation
import TextMeasure
import XCTest
import _LayoutTestSupport

final class HostileTextTests: XCTestCase {
    private let width = 375.0

    private func layout(_ string: String, size: Double = 17, width: Double = 375, maxLines: Int = 0) throws -> (PreparedText, TextLayout) {
        let m = try Hardening.requireMeasurer()
        let prepared = m.prepare(AttributedText(string, size: size))
        return (prepared, prepared.layout(LayoutOptions(width: width, maxLines: maxLines)))
    }

    /// A 1 MB paragraph (Latin and CJK words, no line break) wraps into full lines of at most the width.
    func testMegabyteParagraph() throws {
        var s = ""
        let words = ["hardening ", "layout ", "微博 ", "今天天气很好，", "emoji😀 ", "AVATAR "]
        var i = 0
        while s.utf8.count < 1 << 20 {
            s += words[i % words.count]
            i += 1
        }
        let rss0 = Hardening.residentBytes()
        let (prepared, l) = try Hardening.measure("1 MB paragraph") { try layout(s) }
        Hardening.assertCovers(l, prepared)
        XCTAssertGreaterThan(l.lines.count, 10_000)
        for line in l.lines.dropLast() { XCTAssertLessThanOrEqual(line.width, width + 1e-6) }
        // Clusters take a few dozen bytes each: far below 1 GB for 1 MB of text.
        XCTAssertLessThan(Hardening.residentBytes() - rss0, 600 << 20)
    }

    /// 100 000 combining marks on one base are one grapheme cluster: one line, a finite width
    /// (the cluster is shaped on its first 64 UTF-16 units).
    func testHundredThousandCombiningMarks() throws {
        let s = "a" + String(repeating: "\u{0301}", count: 100_000) + " b"
        let (prepared, l) = try Hardening.measure("100 000 combining marks") { try layout(s) }
        Hardening.assertCovers(l, prepared)
        XCTAssertEqual(prepared.utf16Range(ofCluster: 0), 0..<100_001)
        XCTAssertEqual(l.lines.count, 1)
        XCTAssertGreaterThan(l.lines[0].width, 0)
    }

    /// 10 000 emoji joined by ZWJ are one extended grapheme cluster, never split; it is wider than
    /// nothing and the line holding it is finite.
    func testTenThousandEmojiZWJChain() throws {
        let s = Array(repeating: "👨", count: 10_000).joined(separator: "\u{200D}")
        let (prepared, l) = try Hardening.measure("10 000 emoji ZWJ chain") { try layout(s) }
        Hardening.assertCovers(l, prepared)
        XCTAssertEqual(prepared.clusterCount, 1)
        XCTAssertEqual(l.lines.count, 1)
        XCTAssertTrue(l.size.width.isFinite && l.size.width > 0)
    }

    /// Only newlines: one empty line per break plus the last one, all of zero width.
    func testOnlyNewlines() throws {
        let n = 10_000
        let (prepared, l) = try Hardening.measure("10 000 newlines") { try layout(String(repeating: "\n", count: n)) }
        Hardening.assertCovers(l, prepared)
        XCTAssertEqual(l.lines.count, n + 1)
        XCTAssertTrue(l.lines.allSatisfy { $0.width == 0 })
        XCTAssertEqual(l.size.width, 0)
        XCTAssertGreaterThan(l.size.height, Double(n) * 17)
    }

    /// Only spaces: a line holds those that fit and one more, which hangs (Pango wraps a run of
    /// spaces the same way); every line is of zero width, and the work stays linear.
    func testOnlySpaces() throws {
        let (prepared, l) = try Hardening.measure("100 000 spaces") { try layout(String(repeating: " ", count: 100_000)) }
        Hardening.assertCovers(l, prepared)
        XCTAssertGreaterThan(l.lines.count, 1)
        XCTAssertTrue(l.lines.allSatisfy { $0.width == 0 })
        let perLine = l.lines[0].clusters.count
        XCTAssertGreaterThan(perLine, 1)
        XCTAssertTrue(l.lines.dropLast().allSatisfy { $0.clusters.count == perLine })
        XCTAssertEqual(l.lines.count, (100_000 + perLine - 1) / perLine)
    }

    /// Bidi overrides, embeddings and isolates, balanced or not, change no line breaking and no width:
    /// the controls are zero-width and the text lays out like the same text without them.
    func testBidiOverrides() throws {
        let controls = ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}"]
        var s = "", plain = ""
        for i in 0..<2_000 {
            let word = i % 3 == 0 ? "שלום " : (i % 3 == 1 ? "مرحبا " : "hello ")
            s += controls[i % controls.count] + word
            plain += word
        }
        let (prepared, l) = try Hardening.measure("bidi overrides (2 000 controls)") { try layout(s) }
        Hardening.assertCovers(l, prepared)
        let (_, reference) = try layout(plain)
        XCTAssertEqual(l.lines.count, reference.lines.count)
        XCTAssertEqual(l.size.width, reference.size.width, accuracy: 1e-6)
    }

    /// Every C0 and C1 control, DEL and NUL inside text: laid out, no line wider than the width
    /// unless it holds one cluster, hard breaks where UAX #14 puts them.
    func testControlCharactersAndNUL() throws {
        var s = ""
        for v in Array(0x00...0x1F) + Array(0x7F...0x9F) {
            s += "x" + String(UnicodeScalar(UInt8(v)))
        }
        s = String(repeating: s, count: 50)
        let (prepared, l) = try Hardening.measure("C0/C1 controls and NUL") { try layout(s, width: 100) }
        Hardening.assertCovers(l, prepared)
        XCTAssertGreaterThan(l.lines.count, 50)  // LF and CR break lines (VT, FF and NEL do not, as in Pango)
    }

    /// Widths of 0, negative, NaN and −∞ give one cluster per line (a space too: it hangs only
    /// after what fits, as in Pango); +∞, 1e300 and the largest finite double give one line; every
    /// number stays finite.
    func testHostileWidths() throws {
        let m = try Hardening.requireMeasurer()
        let prepared = m.prepare(AttributedText("abc 微博 def", size: 17))
        for w in [0, -1, -Double.infinity, .nan, -1e300] {
            let l = prepared.layout(LayoutOptions(width: w))
            Hardening.assertCovers(l, prepared)
            XCTAssertEqual(l.lines.count, prepared.clusterCount, "width \(w)")
        }
        for w in [Double.infinity, 1e300, .greatestFiniteMagnitude, 1e6] {
            let l = prepared.layout(LayoutOptions(width: w, grid: PixelGrid(scale: 3)))
            Hardening.assertCovers(l, prepared)
            XCTAssertEqual(l.lines.count, 1, "width \(w)")
        }
    }

    /// Inline objects and line grids with non-finite, negative or huge metrics: their ascent and
    /// descent were used raw (a NaN ascent gave NaN baselines and rects, a negative one a rect of
    /// negative height, a grid pitch of 1e308 an infinite height). Each extent is in [0, 10^6].
    func testHostileObjectMetricsAndGrids() throws {
        let m = try Hardening.requireMeasurer()
        let hostile: [Double] = [.nan, .infinity, -.infinity, -100, 1e308, 0]
        for a in hostile {
            for d in hostile {
                var text = AttributedText("x", size: 17)
                _ = text.appendAttachment(width: a, ascent: a, descent: d, name: "o", attributes: TextAttributes(size: 17))
                _ = text.append(" 微博", attributes: TextAttributes(size: 17))
                let prepared = m.prepare(text)
                let l = prepared.layout(LayoutOptions(width: 375))
                Hardening.assertCovers(l, prepared)
                for line in l.lines { XCTAssertTrue(line.baseline.isFinite, "object \(a), \(d)") }
                for (_, r) in l.attachmentRects(of: prepared) {
                    XCTAssertTrue(r.y.isFinite && r.width.isFinite && r.width >= 0 && r.height.isFinite && r.height >= 0, "\(r)")
                }
            }
        }
        let prepared = m.prepare(AttributedText(String(repeating: "微博 ", count: 50), size: 17))
        for pitch in hostile {
            for extent in hostile {
                let options = LayoutOptions(width: 100, lineHeight: .grid(pitch: pitch, ascent: extent, descent: extent))
                let l = prepared.layout(options)
                Hardening.assertCovers(l, prepared)
                XCTAssertTrue(l.size.height >= 0, "grid \(pitch), \(extent)")
                for line in l.lines { XCTAssertTrue(line.baseline.isFinite && line.baseline >= 0, "grid \(pitch), \(extent)") }
                let metrics = prepared.lineMetrics(options)
                XCTAssertEqual(metrics.height, l.size.height, "grid \(pitch), \(extent)")
            }
        }
    }

    /// Font sizes of 0, negative, NaN and ∞ measure as 0 (everything on one line of zero width);
    /// 10 000 pt gives huge but finite metrics, one cluster per line at 375.
    func testHostileFontSizes() throws {
        for size: Double in [0, -17, .nan, .infinity, -.infinity] {
            let (prepared, l) = try layout("hostile font size 微博", size: size)
            Hardening.assertCovers(l, prepared)
            XCTAssertEqual(l.lines.count, 1, "size \(size)")
            XCTAssertEqual(l.size.width, 0, "size \(size)")
        }
        let (prepared, l) = try layout("big 微博", size: 10_000)
        Hardening.assertCovers(l, prepared)
        XCTAssertEqual(l.lines.count, 6)  // b i g, the space, 微 博: each wider than 375
        XCTAssertGreaterThan(l.size.height, 50_000)
    }

    /// Runs of characters without a face of their own (spaces, tabs, format characters) next to
    /// right-to-left text or at a paragraph's start, and long words of default-ignorable
    /// characters, take time linear in their length. Each character of such a run used to scan
    /// the whole run again (an Arabic letter and 100 000 spaces: 7 s), and HarfBuzz takes time
    /// quadratic in a run of soft hyphens (100 000 in one word: 30 s). Sixteen times the run
    /// takes about sixteen times as long; a scan per character would take 256 times as long.
    func testRunsOfCharactersWithoutAFaceTakeLinearTime() throws {
        let cases: [(String, String, String)] = [
            ("\u{0628}", " ", "\t"), ("", "\t", "\u{0628}"), ("", "\u{200B}", "\u{0628}"), ("", "\u{00AD}", ""),
            ("\u{06F1} ", " ", "a"), ("\u{05D0} ", " \u{200E}", "\u{2028}"), ("(\u{0628}", " \u{200F}", ""),
            ("\u{0628}", " \u{FE0F}", "a"), ("\u{0661}", " \u{200D}", "\t"), ("", "\u{1FD3}", ""),
        ]
        try assertLinear(cases)
    }

    /// Paragraphs without a strong character take time linear in their number. Each asked for
    /// its script and direction, and each read the text to its end for them (16 000 paragraphs
    /// in a release build: of `—` before Han text 0.9 s, of `1 ✔` before Hebrew 4.2 s; now
    /// 0.05 s).
    func testParagraphsWithoutAStrongCharacterTakeLinearTime() throws {
        try assertLinear([
            ("", "\u{2014}\n", "\u{4E2D}"), ("", "1 \u{2714}\n", "\u{05E9}"), ("\u{05E9}\n", "12 \u{2714}\r\n", "a"),
            ("", "\u{061F} \u{2714} t\u{2029}", ""),
        ])
    }

    /// Bidi levels are resolved once per text (FriBidi, linear in the paragraph): levels that
    /// change at every word, nested brackets, a directional mark between every two letters.
    func testBidiLevelsTakeLinearTime() throws {
        try assertLinear([
            ("", "ש a 1 ", ""), ("ש", "(a ", ")"), ("", "\u{0645}\u{200E}", ""), ("a", " \u{202B}b\u{202C} ש", ""),
        ])
    }

    /// Asserts that each text `before + unit × n + after` takes time linear in n: sixteen times
    /// the units take less than 64 times as long (a scan per unit would take 256 times as long).
    private func assertLinear(_ cases: [(String, String, String)], file: StaticString = #filePath, line: UInt = #line) throws {
        let m = try Hardening.requireMeasurer()
        func seconds(_ text: String) -> (Double, Int) {
            let t0 = Date()
            let prepared = m.prepareUncached(AttributedText(text, size: 15))
            let l = prepared.layout(LayoutOptions(width: 320))
            Hardening.assertCovers(l, prepared)
            return (Date().timeIntervalSince(t0), l.lines.count)
        }
        for (before, unit, after) in cases {
            let name = "\(before.unicodeScalars.map { String($0.value, radix: 16) }) + (\(unit.unicodeScalars.map { String($0.value, radix: 16) }))×n"
            let small = (0..<3).map { _ in seconds(before + String(repeating: unit, count: 1_000) + after).0 }.min()!
            let (large, lines) = seconds(before + String(repeating: unit, count: 16_000) + after)
            XCTAssertGreaterThan(lines, 0, name, file: file, line: line)
            XCTAssertLessThan(large, 64 * small + 0.05, "\(name): n = 16 000 took \(large) s, n = 1 000 \(small) s", file: file, line: line)
        }
    }
}
