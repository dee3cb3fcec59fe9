import Foundation
import TextMeasure
import XCTest
import _LayoutTestSupport

/// The FreeType + HarfBuzz engine on the pinned fonts.
final class RealEngineTests: XCTestCase {
    private func layout(_ s: String, size: Double = 15, width: Double = 1000, _ m: TextMeasurer) -> TextLayout {
        m.prepare(AttributedText(s, size: size)).layout(LayoutOptions(width: width))
    }

    /// Each text laid out at 320 px against Pango's height and first line's width (nil: the
    /// height only).
    private func assertPango(
        _ rows: [(String, height: Double, width: Double?)], _ m: TextMeasurer, file: StaticString = #filePath, line: UInt = #line
    ) {
        for (text, height, width) in rows {
            let l = layout(text, width: 320, m)
            XCTAssertEqual(l.size.height, height, accuracy: 0.004, text.debugDescription, file: file, line: line)
            if let width { XCTAssertEqual(l.lines[0].width, width, accuracy: 0.002, text.debugDescription, file: file, line: line) }
        }
    }

    /// Pango 1.50 tests a break with the line's white space but its last character (the peers
    /// harness, 16 px, Noto Sans CJK SC): one space before a break hangs, a second does not, nor
    /// does a space before a hard break; a run of white space with a tab hangs whole. The line
    /// ends below are Pango's, in UTF-16 offsets.
    func testWhiteSpaceBeforeABreakHangsAsInPango() throws {
        let m = try Shared.requireMeasurer()
        let full = "接当广快物王位干矿这日例机接当广快物王位干矿"  // 22 ideographs, 352 px at 16 px
        let cases: [(String, Double, [Int])] = [
            (full + " 将", 352, [0, 23]),
            (full + "  将", 352, [0, 21]),
            (full + "  将", 360, [0, 24]),
            (full + " \n将", 352, [0, 21, 24]),
            (full + " \n将", 356, [0, 24]),
            (full + " \r\n将", 352, [0, 21, 25]),
            (full + " \u{2029}将", 352, [0, 21, 24]),
            (full + " ", 352, [0]),
            (full + "  ", 352, [0, 21]),
            (full + "\u{2002}\u{2002}将", 352, [0, 21]),
            (full + " \u{2002}将", 352, [0, 23]),
            (full + "\t\t将", 352, [0, 24]),
            (full + " \t将", 352, [0, 24]),
            (full + "\t\n将", 352, [0, 24]),
            ("接当广快物王位干矿这日例机http://t.cn/RzX9abc \n将革", 355, [0, 25, 34]),
        ]
        for (text, width, starts) in cases {
            let l = layout(text, size: 16, width: width, m)
            XCTAssertEqual(l.lines.map(\.range.lowerBound), starts, "\(text.debugDescription) at \(width)")
        }
    }

    /// No-break spaces (U+00A0, U+2007, U+202F) are white space to Pango: a line that wraps
    /// after one (at a dictionary break in Thai, or between clusters of a word wider than the
    /// line) is tested and measured without it, but where the paragraph ends it counts (`x` and
    /// U+00A0 are 10.83 px on one line even at 8 px). Pango 1.50's line starts and widths, peers
    /// harness, 15 px.
    func testNoBreakSpacesAreWhiteSpaceAtLineEnds() throws {
        let m = try Shared.requireMeasurer()
        let cases: [(String, width: Double, starts: [Int], widths: [Double])] = [
            ("标ก\u{2007}1。", 30, [0, 3], [27.6445, 23.3252]),
            ("x\u{A0}", 8, [0], [10.8301]),
            ("ab\u{A0}\u{A0}", 12, [0, 1, 3], [8.4453, 9.2695, 3.3604]),
            ("aaaa\u{A0}bbbb", 40, [0, 5], [33.7812, 37.0781]),
            ("中文\u{A0} 中文", 35, [0, 4], [33.3604, 30]),
            ("中文\u{A0}\n中文", 31, [0, 1, 4], [15, 18.3604, 30]),
            ("어\u{202F}。", 15, [0, 2], [13.7998, 15]),
            ("ทดสอบ\u{A0}ภาษา\u{A0}ไทย", 70, [0, 6, 11], [63.2227, 50.5781, 37.9336]),
            ("ทดสอบ\u{2007}ภาษา", 62, [0, 4, 6], [50.5781, 12.6445, 50.5781]),
        ]
        for (text, width, starts, widths) in cases {
            let l = layout(text, width: width, m)
            XCTAssertEqual(l.lines.map(\.range.lowerBound), starts, "\(text.debugDescription) at \(width)")
            XCTAssertEqual(l.lines.count, widths.count, text.debugDescription)
            for (line, w) in zip(l.lines, widths) {
                XCTAssertEqual(line.width, w, accuracy: 0.002, "\(text.debugDescription) at \(width)")
            }
        }
    }

    /// Pango clamps the width left on a line at 0 after each item, and an item of no width still
    /// fits: a zero-width character that starts an item of its own (another face, script or bidi
    /// level) after white space that took the line past the width stays on the line, and the
    /// white space then counts. One in the white space's item does not (U+200E, ZWJ, U+0301 in
    /// the text face). A Thai mark on a space is CM to UAX #14 (LB1): a line may break before it.
    /// Pango 1.50's line starts and widths, peers harness, 15 px, 46 px wide.
    func testZeroWidthItemsAfterWhiteSpaceStayOnTheLine() throws {
        let m = try Shared.requireMeasurer()
        let cases: [(String, starts: [Int], widths: [Double])] = [
            ("中中中 \u{200F}", [0], [48.3604]),
            ("中中中 \u{200F}中中", [0, 5], [48.3604, 30]),
            ("中中中 \u{61C}中中", [0, 5], [48.3604, 30]),
            ("中中中 \u{308}", [0], [48.3604]),
            ("中中中 \u{5B4}中中", [0, 5], [48.3604, 30]),
            ("中中中 \u{180E}", [0], [48.3604]),
            ("中中中 \u{200E}中中", [0, 4], [45, 30]),
            ("中中中 \u{200D}中中", [0, 4], [45, 30]),
            ("中中中 \u{301}中中", [0, 4], [45, 30]),
            ("中中中  \u{200F}中中", [0, 2, 7], [30, 36.7207, 15]),
            // White space with a break after it, after such an item, fits too (its own width left out).
            ("中中中 \u{200F} 中中", [0, 6], [48.3604, 30]), ("中中中 \u{308} 中中", [0, 6], [48.3604, 30]),
            ("中中中 \u{200F}  中中", [0, 4], [45, 36.7207]),
            ("中中中 \u{E31}", [0, 4], [45, 12.6445]),
            ("中中中 \u{E31}中中", [0, 4], [45, 42.6445]),
        ]
        for (text, starts, widths) in cases {
            let l = layout(text, width: 46, m)
            XCTAssertEqual(l.lines.map(\.range.lowerBound), starts, text.debugDescription)
            XCTAssertEqual(l.lines.count, widths.count, text.debugDescription)
            for (line, w) in zip(l.lines, widths) { XCTAssertEqual(line.width, w, accuracy: 0.002, text.debugDescription) }
        }
    }

    /// Glyph advances and kerning are in Pango's units, scaled and rounded as HarfBuzz scales
    /// them for Pango: line widths are Pango's to its unit (peers harness, widths to 0.0001 px;
    /// the exact products gave 437.344, 536.88, 215.55, 107.1, 135.6804 and 47.1094 px).
    func testAdvancesAreInPangosUnits() throws {
        let m = try Shared.requireMeasurer()
        let cases: [(String, size: Double, width: Double)] = [
            ("ngexrllybypcbhrfauoipggoolohdbhpqdxwgpmmgdyjergjde", 16, 437.3477),
            ("The quick brown fox jumps over the lazy dog, Lightroom AVAWAY 1234567890", 15, 536.8896),
            ("AVAWAYTaTeToVaWaLTLYP.F,r.y.", 15, 215.5518),  // kerned pairs, each value rounded
            ("中文字测试，好", 15.3, 107.0986),  // the per-character table at a size without a row
            ("Lightroom AVAWAY", 15.3, 135.6797),
            ("ꙮѬ ΐΰ", 15, 47.1113),  // DejaVu Sans, 2 048 units per em
        ]
        for (text, size, width) in cases {
            let w = layout(text, size: size, m).lines[0].width
            XCTAssertEqual(w, width, accuracy: 0.00006, text.debugDescription)
            XCTAssertEqual(w * 1024, (w * 1024).rounded(), accuracy: 1e-6, "\(text.debugDescription): whole units")
        }
    }

    /// A cluster that takes the line past the width only by its kerning with the next one ends
    /// the line: the line end drops that kerning, as Pango's test of a break, which shapes the
    /// line's part of the run again, finds (peers harness: `g` before `j` is kerned 0.66 px at
    /// 16 px; the line is 413.5068 px in 414). Also when the run falls back to character wrap.
    func testAClusterOverflowingOnlyByItsKerningEndsTheLine() throws {
        let m = try Shared.requireMeasurer()
        let text = "ngexrllybypcbhrfauoipggoolohdbhpqdxwgpmmgdyjergjde"
        for wrap in [WrapMode.word, .character] {
            var options = LayoutOptions(width: 414)
            options.wrap = wrap
            let l = m.prepare(AttributedText(text, size: 16)).layout(options)
            XCTAssertEqual(l.lines.map(\.range.lowerBound), [0, 47], "\(wrap)")
            XCTAssertEqual(l.lines[0].width, 413.5068, accuracy: 0.00006, "\(wrap)")
        }
        let l = layout("ngexrllybypcbhrfauoipggoolohdbhpqdxwgpmmgdyjerg jde", size: 16, width: 414, m)
        XCTAssertEqual(l.lines.map(\.range.lowerBound), [0, 48])
    }

    /// A line separator that ends a paragraph starts no line of its own (Pango 1.50, peers harness):
    /// at the end of the text, or before `\n`, `\r\n`, `\r` or U+2029. Line starts in UTF-16 offsets.
    func testALineSeparatorEndingAParagraphStartsNoLine() throws {
        let m = try Shared.requireMeasurer()
        let cases: [(String, [Int])] = [
            ("ab\u{2028}", [0]),
            ("ab\u{2028}\ncd", [0, 4]),
            ("ab\u{2028}\r\ncd", [0, 5]),
            ("ab\u{2028}\rcd", [0, 4]),
            ("ab\u{2028}\u{2029}cd", [0, 4]),
            ("ab\u{2028}\u{2028}", [0, 3]),
            ("ab\u{2028}\u{2028}cd", [0, 3, 4]),
            ("ab\u{2028}cd", [0, 3]),
            ("ab\u{2028} \ncd", [0, 3, 5]),
            ("ab\n", [0, 3]),
        ]
        for (text, starts) in cases {
            let l = layout(text, size: 16, width: 300, m)
            XCTAssertEqual(l.lines.map(\.range.lowerBound), starts, text.debugDescription)
        }
    }

    /// A line's height is Pango's to its unit (1/1024 pt) in each face, at sizes in the table of
    /// whole and half points and at sizes scaled on the spot (Pango's logical rects, peers
    /// harness, in units: text face, DejaVu Sans, the emoji face).
    func testLineHeightsArePangosToTheUnit() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(Double, [Double])] = [
            (12.5, [18534, 14900, 15000]), (128, [189793, 152576, 153600]), (13.3, [19720, 15853, 15960]),
            (128.5, [190533, 153172, 154200]), (200.25, [296921, 238698, 240300]), (7.75, [11492, 9238, 9300]),
        ]
        for (size, heights) in pango {
            for (text, units) in zip(["中", "ა", "😀"], heights) {
                XCTAssertEqual(layout(text, size: size, width: 100_000, m).size.height, units / 1024, accuracy: 1e-9, "\(text) at \(size)")
            }
        }
    }

    func testCJKAdvancesAreOneEm() throws {
        let m = try Shared.requireMeasurer()
        XCTAssertEqual(layout("中文排版", m).lines[0].width, 60, accuracy: 1e-9)
        // Natural line height of Noto Sans CJK: hhea ascender 1160 + descender 288 per 1000, each
        // in Pango's units of 1/1024 pt as HarfBuzz rounds them: 17 818 + 4 424 at 15 pt (Pango
        // 21.7207), not 1.448 × 15 = 21.72; at 11 pt, 13 066 + 3 244.
        XCTAssertEqual(layout("中", m).size.height, 22242.0 / 1024, accuracy: 1e-9)
        XCTAssertEqual(layout("中", size: 11, width: 100, m).size.height, 16310.0 / 1024, accuracy: 1e-9)
    }

    /// Hex boxes in Pango's units: the digits' font at s / 2.2 rounded to units, the box's width,
    /// top and height truncated (Pango's logical rects, peers harness, in units).
    func testHexBoxesArePangosToTheUnit() throws {
        let m = try Shared.requireMeasurer()
        for (text, size, width, height) in [
            ("\u{0995}", 12.0, 10357.0, 11344.0), ("\u{0995}", 15, 12948, 14182), ("\u{1D800}", 16, 19336, 15127),
            ("\u{1D800}", 27.5, 33236, 26000),
        ] {
            let l = layout(text, size: size, width: 1000, m)
            XCTAssertEqual(l.lines[0].width, width / 1024, accuracy: 1e-9, "\(size)")
            XCTAssertEqual(l.size.height, height / 1024, accuracy: 1e-9, "\(size)")
        }
    }

    func testEmojiClustersGoToTheEmojiFaceAsOneCluster() throws {
        let m = try Shared.requireMeasurer()
        let cases = [
            "👨‍👩‍👧‍👦", "👍🏽", "🇨🇳", "1️⃣", "❤️", "🏳️‍🌈", "😀",
        ]
        for s in cases {
            let p = m.prepare(AttributedText(s, size: 15))
            XCTAssertEqual(p.clusterCount, 1, s)
            XCTAssertEqual(p.font(ofCluster: 0).slot, .emoji, s)
            // Noto Color Emoji advances are 2550 units of 2048 per em.
            XCTAssertEqual(p.advance(ofCluster: 0), 2550.0 / 2048 * 15, accuracy: 1e-9, s)
        }
        // Text presentation (VS15) is no emoji run, but keeps the cascade: U+2764 is not in Noto
        // Sans CJK SC, so it is drawn from the next face that maps it, the emoji face, in an
        // ordinary run (Pango 1.50, peers harness, 15 px: 18.68 px wide, 17.58 px high; U+2600,
        // which the text face maps, stays there).
        let pango: [(String, slot: FontSlot, height: Double, width: Double)] = [
            ("❤\u{FE0E}", .emoji, 17.5781, 18.6768),
            ("✔\u{FE0E}", .emoji, 17.5781, 18.6768),
            ("😀\u{FE0E}", .emoji, 17.5781, 18.6768),
            ("☀\u{FE0E}", .primary, 21.7207, 15.0),
        ]
        for (s, slot, height, width) in pango {
            XCTAssertEqual(m.prepare(AttributedText(s, size: 15)).font(ofCluster: 0).slot, slot, s)
            let l = layout(s, width: 320, m)
            XCTAssertEqual(l.size.height, height, accuracy: 0.004, s)
            XCTAssertEqual(l.lines[0].width, width, accuracy: 0.002, s)
        }
        XCTAssertEqual(layout("a ❤\u{FE0E}", width: 320, m).lines[0].width, 30.4824, accuracy: 0.002)
    }

    func testUncoveredCodePointsAreMeasuredAndCounted() throws {
        let m = try Shared.requireMeasurer()
        // U+0F00 (Tibetan) and U+10FFFD (private use, plane 16): no face of the cascade covers them.
        let p = m.prepare(AttributedText("a\u{0F00}b\u{10FFFD}", size: 15))
        XCTAssertEqual(p.missingGlyphCount, 2)
        XCTAssertEqual(p.clusterCount, 4)
        XCTAssertGreaterThan(p.advance(ofCluster: 1), 0, "measured as .notdef, not dropped")
    }

    func testHardBreaksOfEveryKind() throws {
        let m = try Shared.requireMeasurer()
        let l = layout("a\nb\r\nc\rd\u{2028}e\u{2029}f\u{85}g\u{0B}h\u{0C}i", m)
        // As Pango 1.50: VT, FF and NEL end no line (VT and NEL are hex boxes, FF hangs).
        XCTAssertEqual(l.lines.map(\.range.lowerBound), [0, 2, 5, 7, 9, 11])
        // At 20 px "ab" fits, the box after it does not: it gets a line, and a break follows it;
        // FF hangs after "ab" (Pango's line starts, peers harness).
        XCTAssertEqual(layout("ab\u{0B}cd", width: 20, m).lines.map(\.range.lowerBound), [0, 2, 3])
        XCTAssertEqual(layout("ab\u{85}cd", width: 20, m).lines.map(\.range.lowerBound), [0, 2, 3])
        XCTAssertEqual(layout("ab\u{0C}cd", width: 20, m).lines.map(\.range.lowerBound), [0, 3])
        XCTAssertEqual(layout("好\u{0B}好", m).lines[0].width, 42.6445, accuracy: 0.002)
        let trailing = layout("ab\n", m)
        XCTAssertEqual(trailing.lines.count, 2)
        XCTAssertEqual(trailing.lines[1].range, 3..<3)
        XCTAssertEqual(trailing.size.height, 2 * 22242.0 / 1024, accuracy: 1e-9)
    }

    /// Which face a character that chooses none (spaces, tabs, separators, format characters)
    /// lends its line, and how tall a line of hex boxes is: Pango 1.50's heights on the pinned
    /// fonts at 15 px (peers harness; a line in the text face is 21.72 px, in DejaVu Sans 17.46,
    /// in the emoji face 17.58, of hex boxes alone 13.85).
    func testLineHeightsOfCharactersWithoutAFaceAndOfHexBoxes() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("\u{2028}好", 43.4414),  // a line separator at the start takes the next character's face
            ("\u{2028}", 21.7207),  // … or the text face
            (" \u{2029}", 43.4414),  // a space before a paragraph separator: the text face
            ("\r好", 43.4414),  // a paragraph delimiter adds no face (the emoji face maps U+000D)
            ("ა\n好", 39.1816),  // … so a line of DejaVu Sans ending in one stays that low
            ("ა\t", 17.4609),  // a tab or an en space after DejaVu Sans stays in it
            ("ა\u{2002}ა", 17.4609),
            ("ب\u{2028} ", 34.9219),  // a line separator and a space after it keep the face before
            ("აب\u{2028} \u{2029}", 65.1621),  // … unless the bidi algorithm puts them at another level
            ("😀", 17.5781),
            ("😀 ", 21.7207),  // an emoji ends its run: the space after it is in the text face
            ("😀 😀", 21.7207),
            ("😀\u{2028}", 21.7207),
            ("😀\n", 39.2988),  // a paragraph delimiter adds no face (then an empty line)
            ("\u{200B}", 21.7207),  // a format character alone: the text face
            ("ก", 13.8496),  // no face maps Thai: hex boxes, lower than the text face
            ("\u{1B}", 13.8496),
            ("ภาษา\nไทย", 27.6992),
            ("ก\u{2028}ก", 35.5703),  // the separator takes the boxes' (text) face
            ("好ก", 21.7207),
        ]
        for (text, height) in pango {
            // (Pango rounds each line to 1/1024 px.)
            XCTAssertEqual(layout(text, width: 320, m).size.height, height, accuracy: 0.004, text.debugDescription)
        }
        // The box's extent scales with the size (16 px: 14.7725).
        XCTAssertEqual(layout("ក", size: 16, m).size.height, 14.7725, accuracy: 0.002)
    }

    /// Spaces and other characters without a face next to the emoji face (Pango 1.50's heights
    /// and widths, peers harness, 15 px). An emoji run (an emoji presentation) ends its run; a
    /// character drawn from the emoji face without one (✔) is an item of an ordinary run, which
    /// the space after it joins, with the emoji face's 1.245 em space, unless the next character
    /// is in the text face. After an emoji run (or at a paragraph start), the space joins the next
    /// item when that item is DejaVu's or the emoji face's ordinary run, only in its script run:
    /// Hebrew after Arabic text leaves it in the text face.
    func testSpacesNextToTheEmojiFace() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, height: Double, width: Double?)] = [
            ("✔ ", 17.5781, 18.6768),
            ("✔\t", 17.5781, nil),
            ("✔ ✔", 17.5781, 56.0303),
            ("✔  😀", 17.5781, 74.707),
            ("✔ a", 21.7207, 30.4824),
            ("✔\ta", 21.7207, 35.3281),
            ("😀 ", 21.7207, 18.6768),
            ("😀 ب", 17.5859, nil),
            ("ب😀 ب", 17.5859, nil),
            ("ب😀 א", 21.7207, nil),
            ("א😀 ب", 21.7207, nil),
            ("۱😀 Ա", 21.7207, 41.5859),
            ("ب\n😀 א", 35.0469, nil),  // the Arabic run is in the paragraph before
            // Before a character the emoji face draws in an ordinary run (no emoji presentation),
            // after an emoji run or at a paragraph start, the spaces join its item.
            (" ✔", 17.5781, 37.3535),
            ("  ✔", 17.5781, 56.0303),
            ("😀 ✔", 17.5781, 56.0303),
            ("😀 ☺", 17.5781, 56.0303),
            ("😀\t✔", 17.5781, 45.5596),
            ("😀 \u{200B}✔", 17.5781, 56.0303),
            ("🇨🇳 ✔", 17.5781, 56.0303),
            ("加\n ✔", 39.2988, nil),
            ("😀 ✔ب", 17.5859, nil),
            // After DejaVu Sans too, in one script run (the emoji face comes earlier).
            ("ა ✔", 17.5859, 44.9707),
            ("ა  ✔", 17.5859, 63.6475),
            ("aب ✔", 21.7207, 59.9199),
            ("Ա ❤\u{FE0E}", 17.5859, 48.8457),
            ("ა\t✔", 17.5859, 45.5596),
            // After a hex box too: Pango's item for it takes the face of what follows (but a
            // tab starts an item of its own).
            ("क ✔", 17.5781, 49.998),
            ("aक ✔", 21.7207, 58.4434),
            ("क\t✔", 21.7207, 45.5596),
            ("ก \u{0308}", 17.4609, 17.4131),
            // An emoji presentation is a run of its own; the text face's characters keep theirs.
            ("😀 ✔\u{FE0F}", 21.7207, 40.7139),
            ("😀 ⌚", 21.7207, 40.7139),
            ("😀 1\u{FE0F}\u{20E3}", 21.7207, 40.7139),
            ("😀 ♥", 21.7207, 37.0371),
            (" ♥", 21.7207, 18.3604),
        ]
        assertPango(pango, m)
    }

    /// A flag's regional indicators are strong left-to-right characters for the bidi algorithm
    /// (class L, though of no script): spaces after a flag, before right-to-left text in a
    /// left-to-right paragraph, are at the paragraph's level, below that text: a run of their
    /// own, in the text face (Pango 1.50's heights, peers harness, 15 px). In a right-to-left
    /// paragraph, after a regional indicator that pairs with none, or for a directional mark
    /// (strong itself), they join the right-to-left run.
    func testSpacesAfterAFlagBeforeRightToLeftText() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("🇨🇳 ب", 21.7207),
            ("🇨🇳 א", 21.7207),
            ("🇨🇳\tب", 21.7207),
            ("😀🇨🇳 ب", 21.7207),
            ("۱🇨🇳 ب", 21.7207),
            ("1🇨🇳 ب", 21.7207),
            ("加\n🇨🇳 ب", 43.4414),
            ("ب🇨🇳 ب", 17.5859),
            ("🇨 ب", 17.5859),
            ("ب.ก️\n🇨\u{200F}ب", 39.3066),
        ]
        for (text, height) in pango {
            XCTAssertEqual(layout(text, width: 320, m).size.height, height, accuracy: 0.004, text.debugDescription)
        }
    }

    /// Spaces that the bidi algorithm puts at another level than the character before them are
    /// a run of their own, in the text face (Pango 1.50's heights, peers harness, 15 px): at the
    /// end of a paragraph, or before a line separator or a tab (UAX #9 L1 and N1), after
    /// right-to-left text in a left-to-right paragraph or left-to-right text in a right-to-left
    /// one; and between left-to-right and right-to-left text in a right-to-left paragraph.
    func testSpacesAtAnotherBidiLevelThanTheTextBefore() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("აب ", 21.7207),  // Georgian and Arabic: DejaVu Sans alone is 17.4609 px high
            ("აب\u{00A0}", 21.7207),
            ("აب \u{200B}", 21.7207),
            ("აب  \tა", 21.7207),
            ("აب \nა", 39.1816),
            ("აب \u{2028}ა", 39.1816),
            ("ა ب ب ", 21.7207),
            ("بა ", 21.7207),
            ("بა ب", 21.7207),
            ("١ ", 21.7207),
            ("ب١ ", 21.7207),
            // At the same level, the spaces stay in the run before.
            ("ب ", 17.4609),
            ("ا ب ", 17.4609),
            ("ب \t", 17.4609),
            ("ა ب ب", 17.4609),
            ("ბა ", 17.4609),
            ("ა١ ب", 17.4609),
        ]
        for (text, height) in pango {
            XCTAssertEqual(layout(text, width: 320, m).size.height, height, accuracy: 0.004, text.debugDescription)
        }
    }

    /// A hex box is drawn in the face of its item, whose line height pads it: a control
    /// chooses no face and is in the item it joins (DejaVu Sans's after Georgian: a box 0.69 px
    /// narrower at 15 px than in the text face; the emoji face's, from its bitmap strike's
    /// extents, after ✔). The white space controls (VT, FF, U+001C–001F, NEL) take a bidi level
    /// as spaces do, and VT and the separators are at the paragraph's (UAX #9 L1); a control of
    /// class BN has the level of the character before it. Spaces before a neutral the text face
    /// lacks (an emoji) resolve as N1 and N2 say, and code points without a script are left to
    /// right outside the right-to-left blocks. Pango 1.50's heights and widths, peers harness,
    /// 15 px.
    func testHexBoxesAndWhiteSpaceControlsTakeTheirItemsFace() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, height: Double, width: Double?)] = [
            ("ა\u{B}", 17.4609, 19.5684),
            ("\u{B}ა", 17.4609, 19.5684),
            ("ა\u{1}", 17.4609, 19.5684),
            ("ა\u{85}ა", 17.4609, 27.1855),
            ("✔\u{B}", 17.5781, 30.6523),
            ("😀\u{B}ა", 17.5859, 38.2451),
            ("ب ა\u{C}ب", 17.4609, 53.2725),
            ("ب ა\u{B}ب", 17.4609, 53.2725),
            ("ب ა\u{1}ب", 17.4609, 52.5791),
            ("ب ა \u{1}ب", 21.7207, 56.6328),
            ("ب ა\u{1} ب", 21.7207, 55.9395),
            ("ب ა \u{B}ب", 21.7207, 56.6328),
            ("a ب\u{C}ა", 21.7207, 46.1885),
            ("a ب\u{B}", 21.7207, 38.5713),
            ("١\u{B}", 17.4609, 20.7012),
            ("ب ა 😀", 21.7207, 48.5439),
            ("a ب 😀", 21.7207, 47.9639),
            ("a ب 😀 ب", 21.7207, 68.2617),
            ("a ب 😀 ა", 21.7207, 58.9414),
            ("ب ა 😀 ა", 17.5859, 62.3379),
            ("a ب ✔", 21.7207, 63.2803),
            ("ب ა ✔", 17.5859, 63.8604),
            ("ب ა \u{E000}", 17.4609, 43.9199),
            ("ب ა \u{378}", 17.4609, 43.9199),
        ]
        assertPango(pango, m)
    }

    /// Characters that end an emoji cluster but no emoji sequence (a ZWJ that joins no emoji,
    /// a variation selector after it, a combining mark, tags without a cancel tag) are an item
    /// of their own in Pango, whose face's extent the line takes too; valid sequences, and an
    /// emoji of text presentation, whose item a ZWJ joins, keep the emoji face's. Pango 1.50's
    /// heights, peers harness, 15 px.
    func testCharactersAfterAnEmojiSequenceAddTheirItemsHeight() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, height: Double, width: Double?)] = [
            ("😀\u{200D}", 21.7207, 18.6768),
            ("😀\u{200D}\u{FE0F}", 21.7207, 18.6768),
            ("😀\u{301}", 21.7207, 18.6768),
            ("😀\u{E0061}", 21.7207, 18.6768),
            ("👨\u{200D}👩\u{200D}", 21.7207, 37.3535),
            ("#\u{FE0F}\u{20E3}\u{200D}", 21.7207, 18.6768),
            ("🇨🇳\u{200D}", 21.7207, 18.6768),
            ("😀\u{200C}😀", 21.7207, 37.3535),
            ("😀\u{200D}中", 21.7207, 33.6768),
            ("😀\u{200D}ب", 17.5859, nil),
            ("😀\u{FE0E}", 17.5781, 18.6768),
            ("😀\u{20E3}", 17.5781, 37.3535),
            ("😀\u{200D}😀", 17.5781, 37.3535),
            ("🏳\u{200D}", 17.5781, 18.6768),
            ("🇨\u{200D}", 17.5781, 18.6768),
        ]
        assertPango(pango, m)
        // Such a cluster is a word of its own: the emoji before it keeps its line's height
        // (17.58 + 21.72 px at 20 px wide).
        let l = layout("😀😀\u{200D}", width: 20, m)
        XCTAssertEqual(l.lines.map(\.range.lowerBound), [0, 2])
        XCTAssertEqual(l.size.height, 39.2988, accuracy: 0.004)
    }

    /// Items Pango makes at a tab or a line separator, of white space a face lacks, and of marks
    /// drawn from an earlier face than their letter's (Pango 1.50, peers harness): every line's
    /// width, the layout's height, line starts in UTF-16 offsets.
    func testForcedBreaksSpacesAndMarksTakeTheFacesOfPangosItems() throws {
        let m = try Shared.requireMeasurer()
        let cases: [(String, size: Double, width: Double, starts: [Int], widths: [Double], height: Double)] = [
            // After a tab or a line separator, an item of its own: the face of the next character
            // in its run (script and level), or the text face where the run ends; the spaces
            // after it keep that face.
            ("中ب\u{2028} ა", 15, 320, [0, 3], [29.1211, 10.9775], 43.4414),
            ("中ب\u{2028} 1", 15, 320, [0, 3], [29.1211, 13.0938], 43.4414),
            ("中ب\u{2028} ✔", 15, 320, [0, 3], [29.1211, 37.3535], 39.2988),
            ("ა\u{2028} 1", 15, 320, [0, 2], [7.6172, 13.0938], 39.1816),
            ("中ب\t ა", 15, 320, [0], [64.7432], 21.7207),
            ("\u{FFFC}\t 加a", 15, 320, [0], [55.0967], 21.7207),
            ("\u{FFFC}\u{301}\t 加a", 15, 320, [0], [53.6885], 21.7207),
            // Spaces DejaVu Sans lacks: its space glyph, an em (U+3000), 4/18 em (U+205F), a
            // digit's width (U+2007).
            ("ა\u{3000}ა", 15, 320, [0], [30.2344], 17.4609),
            ("ა\u{205F}。", 15, 320, [0], [25.9502], 21.7207),
            ("ა\t\u{2007}。", 15, 320, [0], [51.4268], 21.7207),
            ("ა \u{3000}ა", 15, 320, [0], [35.0029], 17.4609),
            ("١\u{3000} a", 17, 375, [0], [39.5098], 24.6162),
            // A format character of bidi class BN that ends a paragraph after an Arabic number
            // is at the paragraph's level with the white space (UAX #9 L1): an item of its own,
            // in the text face.
            ("١\u{200B}", 15, 320, [0], [8.0566], 21.7207),
            // An acute on a letter only DejaVu Sans maps is drawn from the text face.
            ("ս\u{301} x", 15, 320, [0], [20.3369], 21.7207),
            ("ა\u{301}", 15, 320, [0], [7.6172], 21.7207),
            ("ა\u{301} ა", 15, 320, [0], [18.5947], 21.7207),
            ("ל\u{301} x", 15, 320, [0], [19.3555], 21.7207),
            // On an Arabic letter, which keeps its word: its line and the next space still the
            // text face's.
            ("ب\u{301} 加", 15, 320, [0], [32.4814], 21.7207),
            // A mark no face maps on it is a hex box in the text face, not DejaVu Sans's .notdef.
            ("ب\u{E31}", 15, 320, [0], [26.7656], 17.4609),
            ("ب\u{64E}\u{E31}！", 15, 320, [0], [41.7656], 21.7207),
            ("ب\u{64E}\u{E31}\u{E31}", 15, 320, [0], [39.4102], 17.4609),
            // A mark a face maps on a letter no face maps (a hex box): the mark's face's line.
            ("ข\u{301}", 15, 320, [0], [12.6445], 21.7207),
            ("ข\u{5B8}", 15, 320, [0], [12.6445], 17.4609),
            // A space after it joins that mark's item, and stays in the box's script run.
            ("ก\u{308} ", 15, 320, [0], [12.6445], 17.4609),
            ("ก\u{308} ა", 15, 320, [0], [25.0303], 17.4609),
            ("ก\u{308} 此", 15, 320, [0], [32.4131], 21.7207),
            ("种！ก\u{E31}\u{308} 此", 15, 320, [0], [75.0576], 21.7207),
            // A character without a face in a box's cluster joins an item as it would after the
            // cluster: the text face's line, as after a box and a ZWSP (`ก\u{200B}`).
            ("ก\u{FE0F}", 15, 320, [0], [12.6445], 21.7207),
            ("ก\u{200D}", 15, 320, [0], [12.6445], 21.7207),
            ("ก\u{FE0F}ა", 15, 320, [0], [20.2617], 21.7207),
            ("ა\u{E01}\u{FE0F}", 15, 320, [0], [20.2617], 21.7207),
            // Marks no face maps on a letter only DejaVu Sans maps: boxes, in DejaVu Sans's line.
            ("ა\u{308}\u{E31}", 16, 320, [0], [21.6113], 18.625),
            // A mark that begins the text follows HarfBuzz's dotted circle, in its item's face
            // (DejaVu Sans's for U+0308, the text face's for U+030C and for a mark no face maps);
            // after a paragraph delimiter it does not.
            ("\u{308}か", 15, 320, [0], [28.0889], 21.7207),
            ("\u{30C}A", 15, 320, [0], [24.1201], 21.7207),
            ("\u{93F}क", 15, 320, [0], [40.2891], 21.7207),
            ("x\n\u{308}か", 15, 320, [0, 2], [7.4697, 15], 43.4414),
            // So does a leading mark whose cluster holds a mark of another face, in the face of
            // the first mark's item only.
            ("\u{5B8}\u{301}接", 15, 320, [0], [28.0889], 21.7207),
            ("\u{301}\u{5B8}", 15, 320, [0], [15], 21.7207),
            ("\u{308}\u{301}", 15, 320, [0], [13.0889], 21.7207),
            // A paragraph delimiter after a line separator is on the separator's line, in its
            // face.
            ("ა\u{2028}\n", 15, 320, [0, 3], [7.6172, 0], 39.1816),
            ("；ب\u{2028}  \u{2028}\n", 15, 320, [0, 3, 7], [29.1211, 0, 0], 60.9023),
            // A tab no break may precede stays after white space past the width.
            (")A1\u{3000}\t", 17, 40, [0], [25.5166], 24.6162),
            (")A1\u{3000}\t\t)", 17, 40, [0, 6], [25.5166, 5.7461], 49.2324),
            (")A1\u{3000}\t)", 17, 20, [0, 2, 5], [16.082, 9.4346, 5.7461], 73.8486),
        ]
        for c in cases {
            let l = layout(c.0, size: c.size, width: c.width, m)
            XCTAssertEqual(l.lines.map(\.range.lowerBound), c.starts, c.0.debugDescription)
            XCTAssertEqual(l.size.height, c.height, accuracy: 0.004, c.0.debugDescription)
            for (line, width) in zip(l.lines, c.widths) {
                XCTAssertEqual(line.width, width, accuracy: 0.002, c.0.debugDescription)
            }
        }
    }

    /// Pango's emoji segmentation (Chromium's grammar): U+FE0F asks for emoji presentation only
    /// after a character of the Emoji property (after a letter it draws nothing and the letter
    /// keeps its face), a modifier base is emoji presentation without it, and a regional
    /// indicator only in a pair: alone it is a character of an ordinary run drawn from the emoji
    /// face, whose item a tab joins (Pango 1.50, peers harness, 15 px).
    func testVariationSelectorsAndModifierBasesFollowPangosEmojiSegmentation() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, height: Double, width: Double?)] = [
            ("a\u{FE0F}", 21.7207, 8.4453),
            ("加\u{FE0F}", 21.7207, 15),
            ("\u{628}\u{FE0F}", 17.4609, 14.1211),
            ("\u{661}\u{FE0F}", 17.4609, 8.0566),
            ("1\u{FE0F}", 17.5781, 18.6768),
            ("\u{261D}", 17.5781, 18.6768),
            ("\u{270C}\u{270C} a", 21.7207, 49.1592),
            ("\u{1F1E8}\t", 17.5781, 18.6768),
            ("\t\u{1F1E8}", 17.5781, 45.5596),
            // A keycap without U+FE0F is text: the digit in the text face, U+20E3 from the emoji
            // face, the next face of the cascade that maps it.
            ("1\u{20E3}", 21.7207, 27.002),
            ("a\u{20E3}", 21.7207, 27.1221),
        ]
        assertPango(pango, m)
    }

    /// Spaces at another bidi level than the right-to-left text before them, before a letter of
    /// another script, are a run of their own whose item takes no face from its neighbours: the
    /// text face's 3.36 px space, not DejaVu Sans's 4.77, though DejaVu draws what follows
    /// (Pango 1.50's line widths, peers harness, 15 px). After a mark, its base decides; after an
    /// emoji in another paragraph, the spaces join the letter's item.
    func testSpacesAfterRightToLeftTextBeforeAnotherScriptTakeTheTextFace() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("改ب  ა", 43.459),
            ("a ب ა", 36.9043),
            ("a ب Ա", 40.7793),
            ("a ب١ ა", 44.9609),
            ("a ١ ა", 30.8398),
            ("a א ა", 32.8105),
            ("a ب \u{200B}ა", 36.9043),
            ("a ب ۱ ა", 49.7295),
            ("a ب ∰", 46.5527),
        ]
        assertPango(pango.map { ($0.0, 21.7207, $0.1) }, m)
        XCTAssertEqual(layout("ب\n❤️  Ա", width: 320, m).size.height, 35.0469, accuracy: 0.004)
        // NBSP is such a space too, but one between Arabic numbers is a common separator, which
        // UAX #9 W4 makes a number: no run of its own (a space is one, in the text face).
        let nbsp: [(String, height: Double, width: Double?)] = [
            ("١\u{00A0}加", 21.7207, 26.417),
            ("aب\u{00A0}ა", 21.7207, 33.5439),
            ("aא\u{00A0}a", 21.7207, 30.2783),
            ("١\u{00A0}١", 17.4609, 20.8818),
            ("١ ١", 21.7207, 19.4736),
            // Before a number, after a right-to-left letter, the spaces stay in the letter's item
            // (N1: the number is a level up); after an Arabic number they are a run of their own.
            ("ب 1", 21.7207, 27.2148),
            ("ب  1", 21.7207, 31.9834),
            ("א 1", 21.7207, 23.1211),
            ("aب 1", 21.7207, 35.6602),
            ("١ 1", 21.7207, 19.7422),
            // An Arabic number is a level above the spaces next to it, before right-to-left text
            // or an emoji, or after an emoji: a run of their own, in the text face.
            ("١ א", 21.7207, 21.4443),
            ("١  א", 21.7207, 24.8047),
            // An extended Arabic-Indic digit with no strong character before it takes the
            // paragraph's direction (W2: sos), a level below it in a right-to-left paragraph; before
            // a tab Pango keeps the spaces with the digit.
            ("۱ א", 21.7207, 21.4443),
            ("۱ \tب", 17.4609, 41.0039),
            ("١ 😀", 21.7207, 30.0938),
            ("😀 ١", 21.7207, 30.0938),
        ]
        assertPango(nbsp, m)
    }

    /// White space at another bidi level than the number or left-to-right letter before it is
    /// an item of its own, which takes its face from what follows it at its level, in its script
    /// run: a right-to-left letter's (DejaVu Sans's 4.77 px space at 15 px, not the text face's
    /// 3.36) or a neutral's (`✔`: the emoji face's). A European number is two levels above the
    /// spaces after it unless a left-to-right letter (or a left-to-right paragraph's start)
    /// precedes it, which makes it left to right (UAX #9 W7); a left-to-right letter is above them
    /// in a right-to-left paragraph. Pango 1.50's line widths, peers harness, 15 px.
    func testWhiteSpaceLeavingTheLevelBeforeItJoinsTheNextItem() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("2024 حب", 62.0713),
            ("حب 24 حب", 74.1914),
            ("שלום 12 עולם", 91.3379),
            ("12  שלום", 59.3818),
            ("12\u{00A0}שלום", 54.6133),
            // A terminator after a number is part of it (W5).
            ("12% שלום", 68.4287),
            // In a left-to-right paragraph, after a right-to-left letter.
            ("hello א 12 שלום", 107.7939),
            ("שלום 12 ✔", 91.9668),
            ("12 ✔ שלום", 105.875),
            ("ישראל abc ✔", 108.4893),
            ("ישראל 中文 ✔", 113.124),
            ("ישראל abc ✔ ישראל", 168.168),
            // A character of class BN keeps the level before it: the space after it leaves it.
            ("12 \u{1}ب", 47.4912),
            // Before a number the spaces stay in the item before them (`✔`'s), but between two
            // numbers they are a run of their own; `$` after an Arabic letter is no part of the
            // number (W2 makes it Arabic first) and takes the spaces into its item. An extended
            // Arabic-Indic digit at a left-to-right paragraph's start is left to right (W7).
            ("ب ✔ 12", 86.8018),
            ("١٢ 12 حب", 64.8945),
            ("شكرا $20 شكرا", 99.6982),
            ("שלום $20 iPhone", 115.5742),
            ("۱ ١a", 29.3271),
            // Where the spaces keep the level, or what follows is another item anyway: a number,
            // another script run, a number made left to right by a flag or an ideograph before it.
            ("שלום 12 34", 74.624),
            ("שלום 12 ა", 65.5908),
            ("🇨🇳 12 שלום", 75.2422),
            ("加 12 حب", 62.373),
            // An extended Arabic-Indic digit after a left-to-right letter is left to right (W7),
            // two levels up in a right-to-left paragraph: the spaces before Hebrew leave it.
            ("בוקר #tag ۱۴ טוב", 111.0732),
            // After a closing bracket the script run is the one before the opening bracket: the
            // spaces' item is in the Hebrew run, and takes DejaVu Sans from what follows.
            ("תודה (test) 12 חג", 112.2803),
            ("תודה (test) 🇮🇱 חג", 114.3066),
            ("תודה test 12 חג", 102.1396),
        ]
        assertPango(pango.map { ($0.0, 21.7207, $0.1) }, m)
        // A paragraph's numbers and white space resolve in that paragraph: with no strong
        // character before them in it, by its own direction.
        for (text, width) in [("שלום\n۱۴ עולם", 51.4297), ("中文\n❤ ۱۴ תודה", 88.7607)] {
            XCTAssertEqual(layout(text, width: 600, m).lines[1].width, width, accuracy: 0.002, text.debugDescription)
        }
    }

    /// Punctuation after a left-to-right word in a right-to-left paragraph, before right-to-left
    /// text, is at the paragraph's level, the word two levels up: Pango shapes them in two items,
    /// with no kerning between (`r,` and `o.` are kerned in the text face). Pango 1.50's line
    /// widths, peers harness, 15 px.
    func testPunctuationAtAnotherLevelIsNotKernedWithTheWord() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("ישראל user, ישראל", 124.5576),
            ("בית. @user. בית", 103.2754),
            ("שלום hello. שלום", 113.7119),
            ("ישראל abc, ישראל", 119.668),
            ("ישראל (test) ישראל", 124.9502),
            // In a left-to-right paragraph the comma is at the word's level: kerned.
            ("hello user, world", 115.665),
        ]
        assertPango(pango.map { ($0.0, 21.7207, $0.1) }, m)
    }

    /// "hello" is 35.02 px at 15 px, a space 3.36: at 50 px the four spaces before the break fit
    /// with the last one hanging; at 45 px only two more fit, and the rest wrap as characters
    /// (Pango's line starts, peers harness).
    func testSpacesHangAtLineEnds() throws {
        let m = try Shared.requireMeasurer()
        let word = layout("hello", m).lines[0].width
        let wide = layout("hello     world", width: 50, m)
        XCTAssertEqual(wide.lines.map(\.range.lowerBound), [0, 10])
        XCTAssertEqual(wide.lines[0].width, word, accuracy: 1e-9)
        XCTAssertEqual(layout("hello     world", width: 45, m).lines.map(\.range.lowerBound), [0, 8, 10])
        XCTAssertEqual(layout("hello     world", width: 36, m).lines.map(\.range.lowerBound), [0, 6, 10, 14])
    }

    func testUAX14KeepsClosingPunctuationWithItsWord() throws {
        let m = try Shared.requireMeasurer()
        // "好！" cannot be split (no break before EX): it moves to the next line together.
        let l = layout("天气很好！", width: 60, m)
        XCTAssertEqual(l.lines.map(\.range.lowerBound), [0, 3])
    }

    func testCommonPunctuationTakesTheScriptOfItsContext() throws {
        let m = try Shared.requireMeasurer()
        // In Chinese text the two-em dash is two fullwidth dashes (2 em); after Latin it is the
        // proportional ligature (1676 units: 25 743 of Pango's units at 15 px, as HarfBuzz
        // scales them for Pango).
        XCTAssertEqual(layout("恰——", m).lines[0].width, 45, accuracy: 1e-9)
        let latin = layout("ab——", m).lines[0].width - layout("ab", m).lines[0].width
        XCTAssertEqual(latin, 25_743.0 / 1024, accuracy: 1e-9)
        // After a closing bracket, text is back in the script before the opening one.
        let bracket = layout("中[ok]——", m).lines[0].width - layout("中[ok]", m).lines[0].width
        XCTAssertEqual(bracket, 30, accuracy: 1e-9)
    }

    /// Pango itemizes each paragraph apart: the script of the text before a paragraph break does
    /// not carry into the next one, whose common characters take the script after them (Pango
    /// 1.50's line widths, peers harness, 15 px: the dash after Han text is the Latin one before
    /// `abc`, the two-em dash before Han is two fullwidth dashes, the quote the Latin one).
    func testEachParagraphStartsItsOwnScriptRuns() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("中文\n— abc", 42.1357), ("abc\n——中文", 60), ("中文\n\"abc\"", 39.5859), ("中文\n(1) abc", 47.1914),
        ]
        for (text, width) in pango {
            XCTAssertEqual(layout(text, width: 600, m).lines[1].width, width, accuracy: 0.002, text.debugDescription)
        }
    }

    /// A paragraph without a character of a strong script is shaped in none (Pango's script
    /// itemization runs over each paragraph apart): Noto Sans CJK's proportional dash and quotes,
    /// which its Chinese `locl` makes full-width in a Han run (Pango 1.50's line widths, peers
    /// harness, 15 px).
    func testParagraphsWithoutAStrongScriptAreShapedInNone() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, [Double])] = [
            ("——", [25.1396]), ("————————", [98.9092]), ("——\n中文", [25.1396, 30]), ("中文\n——", [30, 25.1396]),
            ("'", [4.1699]), ("\"12\"", [30.8711]), ("12—34", [46.7109]), ("— 😀", [35.4473]), ("\"\n中文", [7.1104, 30]),
            // With a strong script, the run has it.
            ("——中文", [60]), ("\"你好\"", [44.25]), ("—— 转自", [63.3604]),
        ]
        for (text, widths) in pango { assertLineWidths(text, widths, m) }
    }

    /// A paragraph without a strong character takes its direction from the last paragraph before
    /// it with one, or before any, from the first strong character of the text (Pango's layout):
    /// the spaces after `12` then leave the number's level, and join the emoji face's item.
    func testParagraphWithoutAStrongCharacterTakesTheDirectionBeforeIt() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, [Double])] = [
            ("ש\n12 ✔", [10.6279, 54.0039]), ("12 ✔\nש", [54.0039, 10.6279]), ("12 ✔\nx\nש", [38.6875, 7.4697, 10.6279]),
            ("12 ✔\nא\n12 ✔", [54.0039, 10.0273, 54.0039]), ("ש\n— 12 ✔", [10.6279, 70.7744]),
        ]
        for (text, widths) in pango { assertLineWidths(text, widths, m) }
    }

    /// The Arabic question mark and semicolon and the tatweel have no script of their own but are
    /// strong right-to-left characters (class AL): they set a paragraph's direction and the
    /// levels of the white space and punctuation around them, as a letter does (Pango 1.50's
    /// line widths, 15 px).
    func testRightToLeftCharactersWithoutAScript() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            // In a right-to-left paragraph, before a left-to-right letter two levels up, the space
            // stays in the item before it: DejaVu Sans's, the emoji face's.
            ("؟ t", 18.3857), ("؟  t", 23.1543), ("؛ t", 15.1924), ("ـ t", 14.8184), ("؟ 中", 27.7305), ("؟⸮ t", 26.3477),
            ("؟ ✔ t", 69.6475),
            // In a left-to-right one the space is at the paragraph's level, below the mark's: the
            // text face's.
            ("七؟ D", 36.6426), ("ა؟ D", 29.2598), ("电جميل\u{A0}؛\u{A0}", 61.7285),
            // `x` and `-` are at two levels: not kerned.
            ("؛ x-", 22.2119),
            // A space before an extended Arabic-Indic digit W7 leaves European is below it.
            (" ۱۴ ת", 32.6924),
            // Unchanged: the same level on both sides.
            ("x ؟ t", 27.8076), ("؟ (t)", 27.1182), ("؟ 1", 21.0557), ("ب ؟ t", 37.2754), ("'", 4.1699),
        ]
        assertFirstLineWidths(pango, m)
        // White space at a paragraph's end after a mark on an Arabic letter, in a left-to-right
        // paragraph, leaves the letter's level (the mark has it, W1): an item of its own in the
        // text face, whose extent is the line's (Pango's heights).
        for (text, height) in [("कبَ ", 21.7207), ("बَ ", 17.4609)] {
            XCTAssertEqual(layout(text, width: 600, m).size.height, height, accuracy: 0.002, text.debugDescription)
        }
    }

    /// A directional mark (U+200E, U+200F, U+061C) is a strong character without a face: at
    /// another level than the character before it, it starts an item, which takes the face of
    /// what follows at its level or the text face, and the white space after it resolves with it
    /// (Pango 1.50's line widths, 15 px).
    func testDirectionalMarksStartItemsAtTheirLevel() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("Xم\u{200E} م", 30.5293), ("\u{200E}\u{A0}؟", 11.3223), ("\u{200E} ٪ 3", 24.5107), ("م)\u{200E} ٪", 27.1826),
            ("ا\u{200E} ١", 15.585), ("\u{200E} ס", 13.0947),
            // Unchanged: at the level before it, between letters HarfBuzz joins, or in another
            // script run than what follows.
            ("ג\u{200E} ו", 15.0371), ("م\u{200E}ب", 22.7646), ("r\u{200F} م", 18.4678), ("٣\u{200E}\u{A0}", 11.417),
            ("x \u{200E}\u{A0}؟", 22.1523),
        ]
        assertFirstLineWidths(pango, m)
    }

    /// A letter joins a letter across the edge of its item (another face, another bidi level)
    /// as HarfBuzz joins it with the text around the item as context: Pango's widths.
    func testLettersJoinAcrossItems() throws {
        let m = try Shared.requireMeasurer()
        // Urdu's ہ and ے are hex boxes (DejaVu Sans lacks them): the letter before takes its
        // initial form, not its isolated one (26.77 and 30.96 px before).
        let pango: [(String, Double)] = [
            ("بہ", 16.8193), ("سے", 25.2129), ("یہ بہت", 53.1367),
            // A left-to-right mark between Arabic letters is two levels up; they still join.
            ("العالم\u{200E}شكرا", 67.8975),
        ]
        assertFirstLineWidths(pango, m)
    }

    /// Items end where FriBidi's levels change, as Pango's do: white space at another level than
    /// the character before it starts a run of its own. Pango's widths; the first three were
    /// 1.41 px off when the levels came from rules read off UAX #9 case by case.
    func testItemsEndWhereBidiLevelsChange() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("مدينة\u{200E}\u{A0}\u{200E}مر", 52.3242), ("٪ 12.", 32.2373), ("٣٪ 3", 27.7988),
            ("12 שלום", 54.6133), ("abc, שלום", 66.0898), ("ש (abc) 12", 69.5049), ("(ש) a", 32.5742),
            ("\u{202B}abc def\u{202C} ghi", 76.2607), ("a\u{202A}b c\u{202C} d", 41.3857),
        ]
        assertFirstLineWidths(pango, m)
        assertLineWidths("שלום\n12 ✔", [33.1943, 54.0039], m)
    }

    /// Explicit embeddings, overrides and isolates end items as right-to-left letters do (no
    /// kerning across `\u{202C}` or `\u{2069}`), and Pango shapes an item in its level's
    /// direction: Latin in a right-to-left override kerns its pairs in visual order, Arabic in a
    /// left-to-right one takes its isolated forms. ASCII after a bracket at another level is an
    /// item apart (`؟ (te`). A right-to-left mark changes levels too. Pango 1.50's widths, peers
    /// harness, 15 px.
    func testOverridesAndIsolatesEndItemsAndSetTheirDirection() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("中\u{202E}x\u{202C}a中", 45.915), ("中\u{2066}A\u{2069}V中", 47.7451), ("中\u{202E}AV\u{202C}A中", 56.6406),
            ("\u{202E}xa\u{202C}", 15.915), ("中\u{202E}To Wa AV\u{202C}中", 92.9121), ("\u{202E}AVATAR 1234\u{202C}", 89.0586),
            ("\u{202D}عربي\u{202C}", 25.9277), ("abc \u{202D}سلام عليكم\u{202C} def", 129.4336),
            ("؟ (te", 30.1328),
            // A space starting a run at another level takes the face of the mark on it (U+034F:
            // DejaVu Sans's space), after a right-to-left mark as after an override.
            ("运\u{200F} \u{34F}受", 34.7686), ("运\u{200F} \u{200D} \u{34F}受", 39.5371), ("\u{202E}x\u{202C} \u{34F}水", 27.2383),
            ("运\u{200F} 受", 33.3604),
        ]
        assertFirstLineWidths(pango, m)
    }

    /// A letter with U+034F on it (a cluster split between faces) kerns with the letter before it
    /// across a joiner, which is in the same item and which HarfBuzz's kerning passes over, as
    /// without one (`b\u{200C}a` and `ba` are both kerned). Pango 1.50's widths, 15 px.
    func testSplitClustersKernAcrossJoiners() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("b\u{200C}a\u{34F}", 17.4746), ("b\u{200D}a\u{34F}", 17.4746), ("b\u{200C}a\u{34F} b", 30.1045),
            ("大a\u{34F} b\u{200C}a\u{34F} b多", 71.9102), ("b\u{200C}a", 17.4746),
        ]
        assertFirstLineWidths(pango, m)
    }

    /// A skin tone is an emoji only after a modifier base: alone (or after another) Pango's
    /// emoji segmentation reads it as text, drawn from the emoji face in an ordinary run, whose
    /// item a space before it joins (the emoji face's 1.245 em space). A mark with a script of its
    /// own (a Hebrew point on a Han character) moves the script run to its script: the space after
    /// it stays in its DejaVu item. Pango's widths.
    func testSkinTonesAloneAndMarksWithAScript() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            (" 🏻", 37.3535), ("😂 🏿", 56.0303), ("好 🏻", 37.0371), ("🏿🏿", 37.3535), ("👍🏿", 18.6768),
            ("力\u{5B8} 转", 34.7686), ("x\u{336} 加", 27.2383),
        ]
        assertFirstLineWidths(pango, m)
    }

    /// A letter whose mark the text face lacks is shaped in one item with the letter before it
    /// (the mark alone in DejaVu Sans): their pair kerning counts, as in decomposed Vietnamese.
    /// Pango's widths; 0.165 px wider each before.
    func testALetterWithAMarkOfAnotherFaceKernsWithTheLetterBefore() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double)] = [
            ("ro\u{302}", 14.7451), ("ro\u{31B}", 14.7451), ("Tie\u{302}\u{301}ng Vie\u{323}\u{302}t ra\u{302}\u{301}t \u{111}e\u{323}p", 122.251),
            ("ст\u{320}", 15.1953), ("中o\u{302}", 24.0898),
        ]
        assertFirstLineWidths(pango, m)
    }

    /// U+061C, a format character of the Arabic block, chooses a face in Pango though none maps
    /// it: the base face, ranked after the whole cascade, so spaces after it move to the next
    /// item in their run, unless it joined an item of the text face before it. Pango's widths.
    func testTheArabicLetterMarkRanksAfterEveryFace() throws {
        try assertFirstLineWidths(
            [
                ("\u{61C}\u{A0}ع", 13.7188), ("%\u{61C} ✔", 35.8525), ("😀%\u{61C} ✔", 54.5293), ("a%\u{61C} ✔", 59.6143),
                // A mark two levels up ends the run: the space stays in the text face.
                ("\u{61C}\u{A0}\u{200E}ع", 12.3105),
            ], Shared.requireMeasurer())
    }

    /// Asserts the width of the first line of each text laid out at 600 px, 15 px (within
    /// 0.002 px).
    private func assertFirstLineWidths(_ expected: [(String, Double)], _ m: TextMeasurer, line: UInt = #line) {
        for (text, width) in expected {
            XCTAssertEqual(layout(text, width: 600, m).lines[0].width, width, accuracy: 0.002, text.debugDescription, line: line)
        }
    }

    /// Asserts the widths of the lines of `text` laid out at 600 px, 15 px (within 0.002 px).
    private func assertLineWidths(_ text: String, _ widths: [Double], _ m: TextMeasurer, line: UInt = #line) {
        let got = layout(text, width: 600, m).lines.map(\.width)
        XCTAssertEqual(got.count, widths.count, text.debugDescription, line: line)
        for (a, b) in zip(got, widths) { XCTAssertEqual(a, b, accuracy: 0.002, "\(text.debugDescription): \(got)", line: line) }
    }

    func testGridPolicyIgnoresFallbackFonts() throws {
        let m = try Shared.requireMeasurer()
        let grid = LineHeightPolicy.grid(size: 17, multiple: 1.34, ascentFraction: 0.86)
        for s in ["中文", "😀😀", "abc", "中😀a"] {
            let l = m.prepare(AttributedText(s, size: 17)).layout(LayoutOptions(width: 1000, lineHeight: grid))
            XCTAssertEqual(l.size.height, 17, accuracy: 1e-9, s)
        }
        let natural = layout("😀", size: 17, m).size.height
        XCTAssertNotEqual(natural, layout("中", size: 17, m).size.height, "emoji change natural heights")
    }

    func testTruncationWithAnAttributedToken() throws {
        let m = try Shared.requireMeasurer()
        let long = String(repeating: "今天天气很好，我们去公园散步。", count: 10)
        var token = AttributedText("...", size: 17)
        token.append("全文", attributes: TextAttributes(size: 17, role: TextRole(rawValue: 7)))
        let p = m.prepare(AttributedText(long, size: 17))
        let cut = p.layout(LayoutOptions(width: 300, maxLines: 3), truncationToken: m.prepare(token))
        XCTAssertTrue(cut.isTruncated)
        XCTAssertEqual(cut.lines.count, 3)
        let tokenWidth = try XCTUnwrap(cut.token).width
        XCTAssertLessThanOrEqual(cut.lines[2].width + tokenWidth, 300 + 1e-9)
        XCTAssertGreaterThan(cut.fullLineCount, 3)
        XCTAssertEqual(cut.fullHeight, p.layout(LayoutOptions(width: 300)).size.height)
        let short = m.prepare(AttributedText("短文本", size: 17)).layout(LayoutOptions(width: 300, maxLines: 3))
        XCTAssertFalse(short.isTruncated)
    }

    func testSingleLineSizeMatchesAOneLineLayout() throws {
        let m = try Shared.requireMeasurer()
        for s in ["微博用户", "Alice 😀", "", "a b "] {
            let size = m.singleLineSize(s, attributes: TextAttributes(size: 14))
            let l = layout(s, size: 14, width: .infinity, m)
            XCTAssertEqual(size.width, l.lines.first?.width ?? 0, accuracy: 1e-9, s)
        }
    }

    func testPreparedRelayoutEqualsFreshLayoutAtManyWidths() throws {
        let m = try Shared.requireMeasurer()
        let texts = [
            "今天天气很好😀，我们去#公园#散步 @小明 http://t.cn/RPusQ8P [微笑] 1,234.56元",
            "A long English sentence with words, numbers 1234567890 and supercalifragilistic words.",
            String(repeating: "混合mixed文本text😀 ", count: 20),
        ]
        for t in texts {
            let text = AttributedText(t, size: 15)
            let prepared = m.prepare(text)
            for w in stride(from: 1.0, through: 500, by: 7.3) {
                let options = LayoutOptions(width: w, grid: PixelGrid(scale: 2))
                XCTAssertEqual(prepared.layout(options), m.prepare(text).layout(options), "width \(w)")
            }
        }
    }

    /// At every width of at least `unwrappedWidth` the layout is the unlimited-width one (nothing
    /// wraps); just below it, a text whose lines all have two clusters that do not hang wraps.
    func testUnwrappedWidthIsWhereWrappingStops() throws {
        let m = try Shared.requireMeasurer()
        var texts = [
            "微博用户", "Alice 😀", "a b ", "AV To Wa", "x", "ab\ncd\n", "first line\nsecond, longer line  ",
            "今天天气很好😀，我们去#公园#散步 @小明 [微笑] 1,234.56元", "来自 iPhone 6s Plus", "1.2万", "   ",
        ]
        // Short pieces of real statuses, as names, labels and one-line texts are.
        for t in Shared.corpusTexts ?? [] { texts.append(String(t.prefix(12))) }
        var wrapsBelow = 0
        for t in texts {
            let p = m.prepare(AttributedText(t, size: 15))
            let u = p.unwrappedWidth
            for grid in [nil, PixelGrid(scale: 3)] {
                let unlimited = p.layout(LayoutOptions(width: .infinity, grid: grid))
                for w in [u, u.nextUp, u + 0.3, u * 1.7 + 5, 1e6] {
                    XCTAssertEqual(p.layout(LayoutOptions(width: w, grid: grid)), unlimited, "\(t.debugDescription) at \(w)")
                }
                let allHaveTwo = unlimited.lines.allSatisfy { line in
                    line.clusters.filter { !p.isHanging($0) }.count >= 2
                }
                if allHaveTwo && !unlimited.lines.isEmpty {
                    XCTAssertGreaterThan(
                        p.layout(LayoutOptions(width: u - 0.01, grid: grid)).lines.count, unlimited.lines.count, t.debugDescription)
                    wrapsBelow += 1
                }
            }
        }
        XCTAssertGreaterThan(wrapsBelow, 10)
    }

    func testWarmAndColdPreparesAreIdenticalAndCountedInTheCache() throws {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts missing") }())
        let m = TextMeasurer(fonts: fonts, preparedCacheBudgetBytes: 0)
        let text = AttributedText("Hello world, hello 世界 😀 again hello", size: 15)
        let cold = m.prepare(text)
        let afterCold = m.cacheStatistics
        XCTAssertGreaterThan(afterCold.misses, 0)
        let warm = m.prepare(text)
        let afterWarm = m.cacheStatistics
        XCTAssertEqual(afterWarm.misses, afterCold.misses, "a second prepare shapes nothing")
        XCTAssertGreaterThan(afterWarm.hits, afterCold.hits)
        XCTAssertEqual(cold.layout(LayoutOptions(width: 120)), warm.layout(LayoutOptions(width: 120)))
        m.clearCaches()
        XCTAssertEqual(m.cacheStatistics.entries, 0)
    }

    func testPreparedTextsAreFoundByContent() throws {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts missing") }())
        let m = TextMeasurer(fonts: fonts)
        var text = AttributedText("今天天气很好 😀 hello", size: 15)
        let first = m.prepare(text)
        XCTAssertEqual(m.preparedCacheStatistics.misses, 1)
        let again = m.prepare(AttributedText("今天天气很好 😀 hello", size: 15))
        XCTAssertEqual(m.preparedCacheStatistics.hits, 1)
        XCTAssertEqual(first.layout(LayoutOptions(width: 90)), again.layout(LayoutOptions(width: 90)))
        // Any difference in content is another key: a size, a role, an entity.
        _ = m.prepare(AttributedText("今天天气很好 😀 hello", size: 16))
        text.addEntity(.topic, range: 0..<2, value: "今天")
        _ = m.prepare(text)
        XCTAssertEqual(m.preparedCacheStatistics.misses, 3)
        m.clearCaches(keepingShapedWords: true)
        XCTAssertEqual(m.preparedCacheStatistics.entries, 0)
        XCTAssertGreaterThan(m.cacheStatistics.entries, 0)
    }

    func testCacheStaysWithinItsBudget() throws {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts missing") }())
        let m = TextMeasurer(fonts: fonts, cacheBudgetBytes: 64 << 10, preparedCacheBudgetBytes: 256 << 10)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<3000 {
            // Cyrillic: words that are shaped and cached (printable ASCII words mostly take the
            // face's tables instead, `KernedAlphabet`).
            let word = String((0..<8).map { _ in Character(UnicodeScalar(UInt32(0x430 + rng.next() % 32))!) })
            _ = m.prepare(AttributedText(word + " " + word.uppercased(), size: 15))
        }
        let s = m.cacheStatistics
        XCTAssertLessThanOrEqual(s.bytes, s.budgetBytes + 16 * 8192, "each shard may exceed its share by one table")
        XCTAssertGreaterThan(s.evictions, 0)
        let p = m.preparedCacheStatistics
        XCTAssertLessThanOrEqual(p.bytes, p.budgetBytes)
        XCTAssertGreaterThan(p.evictions, 0)
    }

    func testConcurrentPreparesMatchSerialOnes() throws {
        let m = try Shared.requireMeasurer()
        let texts = (0..<64).map { "第\($0)条微博 status number \($0) 😀 with words \(String(repeating: "字", count: $0 % 20))" }
        let serial = texts.map { m.prepare(AttributedText($0, size: 15)).layout(LayoutOptions(width: 200)) }
        let results = UnsafeMutableBufferPointer<TextLayout>.allocate(capacity: texts.count)
        results.initialize(repeating: .empty)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        nonisolated(unsafe) let out = results
        DispatchQueue.concurrentPerform(iterations: texts.count) { i in
            out[i] = m.prepare(AttributedText(texts[i], size: 15)).layout(LayoutOptions(width: 200))
        }
        XCTAssertEqual(Array(results), serial)
    }

    func testLinearTimeInputsComplete() throws {
        let m = try Shared.requireMeasurer()
        // A base letter with 100 000 combining marks is one cluster; a 1 MB paragraph lays out.
        let marks = "a" + String(repeating: "\u{0301}", count: 100_000)
        let p = m.prepare(AttributedText(marks, size: 15))
        XCTAssertEqual(p.clusterCount, 1)
        XCTAssertEqual(p.layout(LayoutOptions(width: 300)).lines.count, 1)
        // (The 1 MB paragraph is timed in the benchmarks; 100 KB keeps the debug suite fast.)
        let big = String(repeating: "微博排版引擎 layout engine 😀 ", count: 4_000)
        XCTAssertGreaterThan(big.utf8.count, 100_000)
        let l = m.prepare(AttributedText(big, size: 15)).layout(LayoutOptions(width: 355))
        XCTAssertGreaterThan(l.lines.count, 1_000)
        XCTAssertEqual(l.lines.last?.range.upperBound, big.utf16.count)
    }

    func testFontErrorsNameTheFileAndTheFix() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fl-fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertThrowsError(try FontSet.load(directory: dir)) { error in
            XCTAssertEqual(error as? TextMeasureError, .manifestMissing(path: dir.appendingPathComponent("fonts.json").path))
        }
        try FileManager.default.copyItem(
            at: TestPaths.fonts.appendingPathComponent("fonts.json"), to: dir.appendingPathComponent("fonts.json"))
        XCTAssertThrowsError(try FontSet.load(directory: dir)) { error in
            guard case .fontMissing(let file, let role)? = error as? TextMeasureError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(file.hasSuffix("NotoSansCJK-Regular.ttc"))
            XCTAssertEqual(role, "primary")
            XCTAssertTrue("\(error)".contains("scripts/setup.sh"))
        }
        // A corrupt file: garbage bytes under the primary font's name.
        try Data(repeating: 0x42, count: 4096).write(to: dir.appendingPathComponent("NotoSansCJK-Regular.ttc"))
        XCTAssertThrowsError(try FontSet.load(directory: dir)) { error in
            XCTAssertTrue("\(error)".contains("NotoSansCJK-Regular.ttc"), "\(error)")
            XCTAssertTrue("\(error)".contains("scripts/setup.sh"), "\(error)")
        }
    }

    /// `lineMetrics` (the greedy pass counting lines) equals the full layout's line count and
    /// heights, bit for bit, on the corpus texts (or built-in texts without the corpus) with hard
    /// breaks and emoji, on grids and naturally, with line limits and pixel grids.
    func testLineMetricsEqualTheLayoutsLinesAndHeights() throws {
        let m = try Shared.requireMeasurer()
        let texts = Shared.corpusTexts.map { Array($0.prefix(80)) }
            ?? ["今天天气很好 hello world 😀\n第二行", "a\n", "", "长长长长长长长长长长长长长长长长长长长长长长长长", "\n\n\n"]
        var checked = 0, multiLine = 0
        for t in texts {
            let prepared = m.prepare(AttributedText(t, size: 15))
            for width in [0.0, 40, 120, 320, 355, 414, 1024] {
                for policy in [LineHeightPolicy.grid(size: 15, multiple: 1.34, ascentFraction: 0.86), .natural] {
                    for limit in [0, 1, 6] {
                        for grid in [nil, PixelGrid(scale: 2), PixelGrid(scale: 3)] {
                            let options = LayoutOptions(width: width, maxLines: limit, lineHeight: policy, grid: grid)
                            let full = prepared.layout(options)
                            let metrics = prepared.lineMetrics(options)
                            XCTAssertEqual(metrics.lineCount, full.lines.count, "\(t) \(options)")
                            XCTAssertEqual(metrics.height.bitPattern, full.size.height.bitPattern, "\(t) \(options)")
                            XCTAssertEqual(metrics.fullHeight.bitPattern, full.fullHeight.bitPattern, "\(t) \(options)")
                            checked += 1
                            if full.fullLineCount > 1 { multiLine += 1 }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(multiLine, checked / 4, "the cases break lines")
    }
}
