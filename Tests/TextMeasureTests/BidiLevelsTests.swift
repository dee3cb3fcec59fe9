import XCTest

@testable import TextMeasure

/// `BidiLevels`: paragraphs, their directions and Pango's skips around FriBidi.
final class BidiLevelsTests: XCTestCase {
    private func levels(_ s: String) -> [UInt8]? {
        let units = Array(s.utf16)
        return units.withUnsafeBufferPointer { u in BidiLevels.resolve(u).map { l in (0..<u.count).map { l[$0] } } }
    }

    func testLeftToRightTextHasNoLevels() {
        XCTAssertNil(levels("abc 中文 12"))
        XCTAssertNil(levels(""))
        // An explicit left-to-right embedding in a left-to-right paragraph: Pango skips FriBidi,
        // every level stays 0.
        XCTAssertNil(levels("a\u{202A}b c\u{202C} d"))
    }

    func testNumbersAndNeutralsResolveAroundRightToLeftText() {
        // A right-to-left paragraph: the letter and the space at 1, the European number at 2.
        XCTAssertEqual(levels("ש 12"), [1, 1, 2, 2])
        // A left-to-right paragraph: the space between Latin and Hebrew takes the paragraph's level.
        XCTAssertEqual(levels("a ש"), [0, 0, 1])
        // An Arabic number two levels up from a left-to-right paragraph.
        XCTAssertEqual(levels("a \u{0661}"), [0, 0, 2])
        // A right-to-left embedding in a left-to-right paragraph raises a Latin letter to 2.
        XCTAssertEqual(levels("x\u{202B}a\u{202C}")?[2], 2)
    }

    func testParagraphsTakeTheirDirectionFromTheirFirstStrongCharacter() {
        // The second paragraph has no strong character: it carries the first one's direction.
        XCTAssertEqual(levels("ש\n12"), [1, 1, 2, 2])
        // The first paragraph has none: it takes the direction of the text's first strong one.
        XCTAssertEqual(levels("12\nש"), [2, 2, 1, 1])
        // A left-to-right paragraph after a right-to-left one starts afresh.
        XCTAssertEqual(levels("ש\r\na"), [1, 1, 1, 0])
    }

    func testSurrogatePairsShareTheirScalarsLevel() {
        // U+10900 PHOENICIAN LETTER ALF, class R.
        XCTAssertEqual(levels("a \u{10900}"), [0, 0, 1, 1])
        // A lone surrogate reads as U+FFFD (a neutral).
        let units: [UInt16] = [0x05E9, 0xD800, 0x0020, 0x0061]
        let got = units.withUnsafeBufferPointer { u in BidiLevels.resolve(u).map { l in (0..<u.count).map { l[$0] } } }
        XCTAssertEqual(got, [1, 1, 1, 2])
    }
}
