@testable import TextMeasure
import XCTest

/// Fails unless `a` and `b` are the same prepared text record for record: source text and runs,
/// clusters (advance, end, flags, font), line-end corrections, run fonts, total advance, missing
/// glyphs and hard breaks.
func assertSamePrepared(_ a: PreparedText, _ b: PreparedText, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.string, b.string, label, file: file, line: line)
    XCTAssertEqual(a.runs.map { $0 }, b.runs.map { $0 }, label, file: file, line: line)
    XCTAssertEqual(a.clusterCount, b.clusterCount, label, file: file, line: line)
    guard a.clusterCount == b.clusterCount else { return }
    for i in 0..<a.clusterCount {
        let x = a.cluster(i), y = b.cluster(i)
        if x.advance != y.advance || x.end != y.end || x.flags != y.flags || a.font(ofCluster: i) != b.font(ofCluster: i) {
            XCTFail("\(label): cluster \(i) differs", file: file, line: line)
            return
        }
    }
    XCTAssertEqual(
        a.lineEndCorrections.map { "\($0.end):\($0.advance.bitPattern)" }, b.lineEndCorrections.map { "\($0.end):\($0.advance.bitPattern)" },
        label, file: file, line: line)
    XCTAssertEqual(a.runFonts, b.runFonts, label, file: file, line: line)
    XCTAssertEqual(a.totalAdvance.bitPattern, b.totalAdvance.bitPattern, label, file: file, line: line)
    XCTAssertEqual(a.missingGlyphCount, b.missingGlyphCount, label, file: file, line: line)
    XCTAssertEqual(a.hardBreakCount, b.hardBreakCount, label, file: file, line: line)
}
