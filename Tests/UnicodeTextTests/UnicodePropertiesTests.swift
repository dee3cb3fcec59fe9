import UnicodeText
import XCTest

/// Spot checks of the generated tables against values read from the UCD 15.0 files by hand.
final class UnicodePropertiesTests: XCTestCase {
    func testVersion() {
        XCTAssertEqual(UnicodeProperties.unicodeVersion, "15.0.0")
    }

    func testLineBreakClasses() {
        let expected: [(UInt32, LineBreakClass)] = [
            (0x0A, .LF), (0x0D, .CR), (0x20, .SP), (0x41, .AL), (0x30, .NU), (0x2C, .IS), (0x25, .PO),
            (0xA5, .PR), (0x24, .PR), (0x0301, .CM), (0x200D, .ZWJ), (0x200B, .ZW), (0x2060, .WJ),
            (0xA0, .GL), (0x2014, .B2), (0x0085, .NL), (0x2028, .BK), (0x05D0, .HL), (0x0E01, .SA),
            (0x4E00, .ID), (0x1F600, .ID), (0x261D, .EB), (0x1F3FB, .EM), (0x1F1E6, .RI), (0x1100, .JL),
            (0x1160, .JV), (0x11A8, .JT), (0xAC00, .H2), (0xAC01, .H3), (0x3041, .CJ), (0x00B4, .BB),
            (0xFFFC, .CB), (0x2024, .IN), (0xFFFD, .AI), (0x0378, .XX),
            // Documented defaults for unassigned code points.
            (0x2EBF0, .ID),  // plane 2, unassigned in 15.0
            (0x3FFFD, .ID),  // plane 3
            (0x1FAFF, .ID),  // U+1F000..U+1FAFF
            (0x1FC00, .ID),  // U+1FC00..U+1FFFD
            (0x20C1, .PR),  // Currency Symbols, unassigned
            (0xE0000, .XX),
        ]
        for (v, cls) in expected {
            XCTAssertEqual(UnicodeProperties.lineBreakClass(v), cls, "U+" + String(v, radix: 16, uppercase: true))
        }
    }

    func testInvalidScalarValues() {
        for v: UInt32 in [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000, 0xFFFF_FFFF] {
            XCTAssertEqual(UnicodeProperties.lineBreakClass(v), .XX)
            XCTAssertEqual(UnicodeProperties.graphemeBreak(v), .other)
            XCTAssertEqual(UnicodeProperties.eastAsianWidth(v), .neutral)
            XCTAssertFalse(UnicodeProperties.isExtendedPictographic(v))
            XCTAssertFalse(UnicodeProperties.isEmoji(v))
            XCTAssertFalse(UnicodeProperties.isRegionalIndicator(v))
            XCTAssertEqual(UnicodeProperties.terminalColumns(v), 1)
        }
    }

    func testGraphemeBreakProperties() {
        let expected: [(UInt32, GraphemeBreakProperty)] = [
            (0x41, .other), (0x0D, .cr), (0x0A, .lf), (0x07, .control), (0x0301, .extend), (0x200D, .zwj),
            (0x1F1E6, .regionalIndicator), (0x0600, .prepend), (0x0903, .spacingMark), (0x1100, .l),
            (0x1160, .v), (0x11A8, .t), (0xAC00, .lv), (0xAC01, .lvt), (0x1F3FB, .extend), (0xFE0F, .extend),
            (0xE0020, .extend),
        ]
        for (v, p) in expected {
            XCTAssertEqual(UnicodeProperties.graphemeBreak(v), p, "U+" + String(v, radix: 16, uppercase: true))
        }
    }

    func testEastAsianWidth() {
        let expected: [(UInt32, EastAsianWidth)] = [
            (0x41, .narrow), (0x4E00, .wide), (0x3000, .fullwidth), (0xFF01, .fullwidth), (0xFF61, .halfwidth),
            (0x03B1, .ambiguous), (0x00E9, .ambiguous), (0x0100, .neutral), (0x1F600, .wide), (0x263A, .neutral),
            (0x2EBF0, .wide),  // unassigned plane 2 defaults to W
            (0x3FFFD, .wide),
        ]
        for (v, w) in expected {
            XCTAssertEqual(UnicodeProperties.eastAsianWidth(v), w, "U+" + String(v, radix: 16, uppercase: true))
        }
    }

    func testEmojiProperties() {
        XCTAssertTrue(UnicodeProperties.isExtendedPictographic(0x1F600))
        XCTAssertTrue(UnicodeProperties.isExtendedPictographic(0x00A9))
        XCTAssertTrue(UnicodeProperties.isExtendedPictographic(0x1FFFD))  // reserved, still ExtPict
        XCTAssertFalse(UnicodeProperties.isExtendedPictographic(0x41))
        XCTAssertFalse(UnicodeProperties.isExtendedPictographic(0x1F1E6))
        XCTAssertTrue(UnicodeProperties.isEmoji(0x23))  // '#' (keycap base)
        XCTAssertTrue(UnicodeProperties.isEmoji(0x1F600))
        XCTAssertFalse(UnicodeProperties.isEmoji(0x41))
        XCTAssertTrue(UnicodeProperties.isEmojiPresentation(0x1F600))
        XCTAssertFalse(UnicodeProperties.isEmojiPresentation(0x263A))  // text style by default
        XCTAssertFalse(UnicodeProperties.isEmojiPresentation(0x23))
        for v: UInt32 in 0x1F3FB...0x1F3FF { XCTAssertTrue(UnicodeProperties.isEmojiModifier(v)) }
        XCTAssertFalse(UnicodeProperties.isEmojiModifier(0x1F600))
        XCTAssertTrue(UnicodeProperties.isEmojiModifierBase(0x261D))
        XCTAssertTrue(UnicodeProperties.isEmojiModifierBase(0x1F44D))
        XCTAssertFalse(UnicodeProperties.isEmojiModifierBase(0x1F600))
        XCTAssertTrue(UnicodeProperties.isEmojiComponent(0x20E3))
        XCTAssertTrue(UnicodeProperties.isEmojiComponent(0x200D))
        XCTAssertTrue(UnicodeProperties.isRegionalIndicator(0x1F1E6))
        XCTAssertTrue(UnicodeProperties.isRegionalIndicator(0x1F1FF))
        XCTAssertFalse(UnicodeProperties.isRegionalIndicator(0x1F1E5))
        XCTAssertFalse(UnicodeProperties.isRegionalIndicator(0x1F200))
    }

    func testTerminalColumns() {
        let expected: [(String, UInt32, Int)] = [
            ("Latin a", 0x61, 1), ("é", 0xE9, 1), ("Greek alpha (A)", 0x03B1, 1), ("中", 0x4E00, 2),
            ("。", 0x3002, 2), ("fullwidth !", 0xFF01, 2), ("ideographic space", 0x3000, 2),
            ("halfwidth katakana", 0xFF76, 1), ("hangul syllable", 0xAC00, 2), ("hangul jamo L", 0x1100, 2),
            ("hangul jamo V", 0x1160, 0), ("hangul jamo T", 0x11A8, 0), ("😀", 0x1F600, 2), ("👍", 0x1F44D, 2),
            ("☺ (text style)", 0x263A, 1), ("skin tone", 0x1F3FB, 2), ("combining acute", 0x0301, 0),
            ("enclosing keycap", 0x20E3, 0), ("ZWJ", 0x200D, 0), ("VS16", 0xFE0F, 0), ("ZWSP", 0x200B, 0),
            ("BEL", 0x07, 0), ("LF", 0x0A, 0), ("soft hyphen", 0xAD, 1), ("tag", 0xE0067, 0),
            ("unassigned plane 2", 0x2EBF0, 2), ("regional indicator", 0x1F1E6, 1),
        ]
        for (name, v, columns) in expected {
            XCTAssertEqual(UnicodeProperties.terminalColumns(v), columns, name)
        }
    }

    func testTerminalColumnsOfClusters() {
        func columns(_ s: String) -> Int {
            UnicodeProperties.terminalColumns(ofCluster: s.unicodeScalars.map(\.value))
        }
        XCTAssertEqual(columns("e\u{301}"), 1)
        XCTAssertEqual(columns("中"), 2)
        XCTAssertEqual(columns("👨‍👩‍👧‍👦"), 2)  // first scalar is W
        XCTAssertEqual(columns("👍🏽"), 2)
        XCTAssertEqual(columns("🇨🇳"), 2)  // RI pair
        XCTAssertEqual(columns("🇨"), 1)  // lone RI
        XCTAssertEqual(columns("1\u{FE0F}\u{20E3}"), 2)  // keycap with VS16
        XCTAssertEqual(columns("\u{2764}\u{FE0F}"), 2)  // ❤️: text-default heart with VS16
        XCTAssertEqual(columns("\u{2764}"), 1)
        XCTAssertEqual(columns("\u{1F600}\u{FE0E}"), 1)  // VS15 asks for text presentation
        XCTAssertEqual(columns("a\u{FE0F}"), 1)  // VS16 after a non-emoji changes nothing
        XCTAssertEqual(columns("\u{301}"), 0)
        XCTAssertEqual(columns("\u{200D}中"), 2)
        XCTAssertEqual(columns("\u{1100}\u{1161}\u{11A8}"), 2)  // conjoining jamo L V T
        XCTAssertEqual(columns("\r\n"), 0)
        XCTAssertEqual(UnicodeProperties.terminalColumns(ofCluster: [UInt32]()), 0)
    }

    func testLookupsAgreeWithEachOther() {
        // Consistency over the whole code space: RI bit matches the grapheme property, W/F means 2
        // columns unless zero-width, and surrogates are invalid.
        var v: UInt32 = 0
        while v <= 0x10FFFF {
            let gb = UnicodeProperties.graphemeBreak(v)
            XCTAssertEqual(UnicodeProperties.isRegionalIndicator(v), gb == .regionalIndicator)
            let w = UnicodeProperties.eastAsianWidth(v)
            let cols = UnicodeProperties.terminalColumns(v)
            if cols != 0 { XCTAssertEqual(cols == 2, w == .wide || w == .fullwidth, "U+\(String(v, radix: 16))") }
            if UnicodeProperties.isEmojiModifier(v) { XCTAssertEqual(UnicodeProperties.lineBreakClass(v), .EM) }
            v += v < 0x30000 ? 1 : 61  // full BMP and planes 1-2, sampled above
        }
    }
}
