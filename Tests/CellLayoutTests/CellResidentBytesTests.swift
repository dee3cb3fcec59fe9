import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

/// A cell's resident-bytes estimate counts at least the value, its blocks and toolbar arrays, the
/// out-of-line blocks it has and one line per laid-out text.
final class CellResidentBytesTests: XCTestCase {
    func testTheEstimateCoversTheValueItsArraysAndItsOutOfLineBlocks() throws {
        let url = TestPaths.fixtures.appendingPathComponent("feed.plist")
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("Fixtures/feed.plist is absent") }
        let statuses = try FeedLoader.load(contentsOf: url).feed.statuses
        let engine = CellLayoutEngine(measurer: FixedAdvanceMeasurer(), now: CorpusTests.now)
        var withRetweet = 0
        for s in statuses {
            let c = engine.layout(s, width: 375, style: .weibo, scale: 2)
            var floor = MemoryLayout<CellGeometry>.stride + c.blocks.count * MemoryLayout<CellBlock>.stride
            floor += (c.toolbar?.buttons.count ?? 0) * MemoryLayout<ToolbarButton>.stride
            if c.retweet != nil {
                floor += MemoryLayout<RetweetLayout>.stride
                withRetweet += 1
            }
            if c.card != nil { floor += MemoryLayout<CardLayout>.stride }
            for box in [c.name, c.time, c.text, c.retweet?.text].compactMap({ $0 }) {
                floor += box.layout.lines.count * MemoryLayout<TextLine>.stride
            }
            XCTAssertGreaterThanOrEqual(c.residentBytes, floor, "status \(s.id)")
        }
        XCTAssertGreaterThan(withRetweet, 0)
    }

    /// A warm cell copies its text boxes about twenty times while arranging: at 128 bytes or less
    /// the compiler copies them inline, above that each copy is a call to `memcpy` (169-byte boxes
    /// made `memcpy` 11 % of a warm pass). For this a box keeps its rare token rect out of line and
    /// its layout stores the token's placement as plain fields.
    func testTextBoxesStaySmallEnoughToCopyInline() {
        XCTAssertLessThanOrEqual(MemoryLayout<TextBox>.size, 128)
        XCTAssertLessThanOrEqual(MemoryLayout<TextLayout>.size, 64)
    }
}
