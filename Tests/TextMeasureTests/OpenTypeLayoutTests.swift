@testable import TextMeasure
import UnicodeText
import XCTest
import _LayoutTestSupport

/// `OTLayout.classZeroCanMatch` on hand-built GSUB/GPOS tables: the check that decides whether
/// glyphs no lookup lists are inert (and so may take the per-character path next to anything).
final class OpenTypeLayoutTests: XCTestCase {
    /// A layout table (GSUB or GPOS 1.0) with one lookup of `type` holding one subtable.
    private func table(lookupType: Int, subtable: [Int]) -> [UInt8] {
        var words = [1, 0, 0, 0, 10]  // version 1.0, no script or feature list, lookup list at 10
        words += [1, 4]  // lookup list: one lookup, at +4
        words += [lookupType, 0, 1, 8]  // the lookup: type, flag, one subtable at +8
        words += subtable
        return words.flatMap { [UInt8(($0 >> 8) & 0xFF), UInt8($0 & 0xFF)] }
    }

    /// PairPos format 2 with XAdvance values, 2 × 2 classes; `values[c1][c2]`.
    private func pairPos(_ values: [[Int]]) -> [Int] {
        [2, 0, 0x0004, 0, 0, 0, 2, 2] + values.flatMap { $0.map { $0 & 0xFFFF } }
    }

    private func check(gsub: [UInt8] = [], gpos: [UInt8] = []) -> Bool {
        gsub.withUnsafeBytes { s in
            gpos.withUnsafeBytes { p in
                OTLayout.classZeroCanMatch(gsub: s, gpos: p, (gsub: gsub.isEmpty ? [] : [0], gpos: gpos.isEmpty ? [] : [0]))
            }
        }
    }

    func testPairAdjustmentsOnlyForListedClassesLeaveOtherGlyphsInert() {
        XCTAssertFalse(check(gpos: table(lookupType: 2, subtable: pairPos([[0, -50], [0, 20]]))))
    }

    func testAPairAdjustmentBeforeClassZeroCounts() {
        XCTAssertTrue(check(gpos: table(lookupType: 2, subtable: pairPos([[0, -50], [-30, 20]]))))
        XCTAssertTrue(check(gpos: table(lookupType: 2, subtable: pairPos([[7, 0], [0, 0]]))))
    }

    func testClassBasedContextsCountAndCoverageBasedOnesDoNot() {
        XCTAssertTrue(check(gsub: table(lookupType: 6, subtable: [2, 0, 0])))
        XCTAssertTrue(check(gsub: table(lookupType: 5, subtable: [2, 0, 0])))
        XCTAssertTrue(check(gpos: table(lookupType: 8, subtable: [2, 0, 0])))
        XCTAssertFalse(check(gsub: table(lookupType: 6, subtable: [3, 0, 0])))
        XCTAssertFalse(check(gpos: table(lookupType: 7, subtable: [1, 0, 0])))
    }

    func testAnExtensionLookupIsResolvedAndATruncatedTableCounts() {
        // GPOS type 9 wrapping a class-based chain context (type 8, format 2) 8 bytes further.
        XCTAssertTrue(check(gpos: table(lookupType: 9, subtable: [1, 8, 0, 8, 2, 0, 0])))
        XCTAssertFalse(check(gpos: table(lookupType: 9, subtable: [1, 8, 0, 8, 3, 0, 0])))
        let truncated = Array(table(lookupType: 2, subtable: pairPos([[0, 0], [0, 0]])).dropLast(4))
        XCTAssertTrue(check(gpos: truncated))
    }

    /// The pinned faces pass the check: their glyphs outside every lookup are inert.
    func testThePinnedFacesHaveNoClassZeroMatches() throws {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        for slot in [FontSlot.primary, .bold] {
            let file = fonts.file(slot)
            XCTAssertFalse(OTLayout.classZeroCanMatch(file, file.allPlanLookups()), "\(slot)")
        }
    }

    /// `planMatchesTables` answers from the language systems HarfBuzz selects when they are equal,
    /// and makes the plans otherwise: the same answer as making the plans, on every script and
    /// every face that is analysed (a font set of its own: the analysis makes plans on the faces).
    func testPlanMatchesByLanguageSystemsAgreesWithThePlans() throws {
        guard Shared.fonts != nil else { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }
        let fonts = try FontSet.load(directory: TestPaths.fonts)
        for slot in [FontSlot.primary, .bold, .fallback] {
            let file = fonts.file(slot)
            var matching = 0, differing: [String] = []
            for script in UnicodeScript.all {
                let answer = file.planMatchesTables(script: script)
                if answer != file.planMatchesTablesByPlans(script: script) { differing.append(script.code) }
                if answer { matching += 1 }
            }
            file.endPlanAnalysis()
            XCTAssertEqual(differing, [], "\(slot)")
            // Both answers occur (Korean's own language system in Noto Sans CJK gives another plan).
            XCTAssertGreaterThan(matching, 100, "\(slot)")
            if slot != .fallback { XCTAssertLessThan(matching, UnicodeScript.all.count, "\(slot)") }
        }
    }
}
