import FeedLayoutSupport
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

    /// FriBidi 1.0.8 crashed on paragraphs that reach its depth limit or close isolates never
    /// opened: such controls are read as BN. Random sequences of every explicit control, marks,
    /// letters of both directions, numbers and brackets resolve, each level within UAX #9's limit.
    func testExplicitControlsOfAnyNestingResolve() {
        // Initiators more frequent than terminators, in a share that varies per text: without
        // the guard, FriBidi crashed within the first ten texts.
        let initiators: [UInt16] = [0x202A, 0x202B, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068]
        let terminators: [UInt16] = [0x202C, 0x2069]
        let others: [UInt16] = [0x61, 0x5E9, 0x627, 0x661, 0x31, 0x20, 0x28, 0x29, 0x200E, 0x200F, 0x061C]
        var random = SplitMix64(seed: 7)
        func pick(_ list: [UInt16]) -> UInt16 { list[Int(random.next() % UInt64(list.count))] }
        for _ in 0..<1_500 {
            let length = Int(random.next() % 600) + 1
            let share = Double(random.next() % 1_000) / 1_000
            var units: [UInt16] = []
            for _ in 0..<length {
                let x = Double(random.next() % 1_000) / 1_000
                units.append(x < share / 2 ? pick(initiators) : x < share / 2 + 0.15 ? pick(terminators) : pick(others))
            }
            units.withUnsafeBufferPointer { u in
                guard let l = BidiLevels.resolve(u) else { return }
                for k in 0..<u.count where l[k] > 125 { XCTFail("level \(l[k]) at \(k)") }
            }
        }
        // Initiators without terminators, 200 deep, and terminators without initiators.
        for text in [String(repeating: "\u{202B}a\u{2067}ש", count: 200), String(repeating: "\u{2069}\u{202C}ש", count: 200)] {
            XCTAssertNotNil(levels(text))
        }
        // At a depth FriBidi handles, the controls still count: a right-to-left isolate in a
        // left-to-right paragraph puts its Latin letter two levels up.
        XCTAssertEqual(levels("x\u{2067}a\u{2069}")?[2], 2)
        // Isolates still open at a paragraph's end or at a separator of class B inside it (on
        // which FriBidi 1.0.8 read and wrote freed memory, found under AddressSanitizer) are
        // closed there: the isolate's letter keeps its level, the paragraph's end its own.
        XCTAssertEqual(levels("\u{2066}a\u{2069}\u{2066}ש\n"), [0, 2, 0, 0, 3, 0])
        XCTAssertEqual(levels("\u{2067}a\u{1C}b"), [0, 2, 0, 0], "the separator closes the isolate: b is at the paragraph's level")
        // Separators (classes B and S) are at the paragraph's level (L1), here left to right.
        for (text, separators) in [
            ("a\u{2068}$\u{2329}\u{2069}\u{2066}ש\u{2029}", [7]), ("a(\u{2068}ש\u{B}\u{1C}«", [4, 5]), ("a\u{2066}ש.\u{1E}\t", [4, 5]),
            ("a\u{2066}ש.\u{85}\t", [4, 5]),
        ] {
            let l = levels(text)
            XCTAssertNotNil(l, text.debugDescription)
            for k in separators { XCTAssertEqual(l?[k], 0, "\(text.debugDescription) at \(k)") }
        }
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
