@testable import TextMeasure
import XCTest

/// The BMP glyph table and coverage bits `FontFile` reads from the cmap's own list at load
/// against HarfBuzz's lookup of every one of the 65 536 code points, on the pinned faces.
final class CmapTableTests: XCTestCase {
    func testTheTableAndCoverageEqualTheLookupOfEveryBMPCodePoint() throws {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        for slot in [FontSlot.primary, .bold, .emoji, .fallback] {
            let file = fonts.file(slot)
            let coverage = CoverageBits(font: file)
            var mapped = 0, mismatches: [String] = []
            for u in 0..<0x10000 {
                let expected = file.nominalGlyph(UInt32(u))
                if expected != nil { mapped += 1 }
                if file.bmpNominalGlyph(UInt16(u)) != expected || coverage.contains(UInt32(u)) != (expected != nil) {
                    mismatches.append(String(u, radix: 16))
                }
            }
            XCTAssertEqual(mismatches.prefix(10), [], "\(slot): \(mismatches.count) code points differ")
            // Each face maps a share of the BMP: the comparison is not over empty tables.
            XCTAssertGreaterThan(mapped, slot == .emoji ? 100 : 3_000, "\(slot)")
        }
    }
}
