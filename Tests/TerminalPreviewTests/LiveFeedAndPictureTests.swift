import CellLayout
import Foundation
import StatusModel
import TableLayout
import TerminalPreview
import XCTest
import _LayoutTestSupport

/// The viewer's feed of estimated rows corrected in the background, and the drawing of picture
/// grids and long pictures.
final class LiveFeedAndPictureTests: XCTestCase {
    private func rowLines(_ row: Int, width: Double = 375) throws -> [String] {
        let doc = try Shared.document(try Shared.statuses("feed.plist"), width: width, style: .weibo, title: "demo feed")
        let lines = doc.preview.lines(ofRows: row..<(row + 1))
        return doc.preview.canvas(lines: lines, cell: doc.cell).lines(color: false).map { String($0) }
    }

    /// A text ending in hard breaks ends with an empty line, which holds no cluster: a screen or
    /// a slice of the static preview that started on it read past the text's clusters (a trap
    /// in `preview` of a status whose text is "a" and 66 newlines, at 100 000 pt).
    func testDrawingFromTheEmptyLineAfterATrailingBreak() throws {
        let status = Status(id: 1, text: "a" + String(repeating: "\n", count: 66), user: User(id: 1, name: "n"))
        let doc = try Shared.document([status], width: 375, style: .weibo, title: "t")
        let count = doc.preview.lineCount
        var drawn = 0
        for start in 0..<count {
            let lines = doc.preview.canvas(lines: start..<count, cell: doc.cell).lines(color: false)
            XCTAssertEqual(lines.count, count - start)
            drawn += lines.filter { $0.contains("a") }.count
        }
        XCTAssertGreaterThan(drawn, 0, "the text's first line is drawn")
    }

    /// Row 1 of the demo feed is a 3×3 grid of 115 pt pictures 4 pt apart: every line of the
    /// grid shows three blocks, a blank column between each two (columns 2 and 3 ran together).
    func testGridColumnsKeepAGap() throws {
        let all = try rowLines(1)
        let grid = all.filter { $0.contains(String(repeating: "░", count: 12)) || $0.contains("115×115") }
        XCTAssertGreaterThan(grid.count, 9)
        for line in grid {
            let blocks = line.split(separator: " ", omittingEmptySubsequences: true).filter { $0.contains("░") || $0.contains("×") }
            XCTAssertEqual(blocks.count, 3, "three separate pictures on: \(line)")
        }
        XCTAssertEqual(all.filter { $0.components(separatedBy: "115×115").count == 4 }.count, 3, "three labels on each grid row")
    }

    /// Row 2 holds one long picture 29 pt wide: its label "29×233" does not fit on one line of its
    /// block, so it is written on two ("29", "×233"), never as the width alone.
    func testNarrowPictureLabelIsWholeOnTwoLines() throws {
        let lines = try rowLines(2)
        guard let i = lines.firstIndex(where: { $0.contains("░29░") }) else { return XCTFail("no width label:\n" + lines.joined(separator: "\n")) }
        XCTAssertTrue(lines[i + 1].contains("×233"), "the height on the next line: \(lines[i + 1])")
    }

    /// A live feed of the demo feed: the first lines are measured at once, the other rows carry
    /// estimates, and once the background worker is done every line is the static preview's.
    func testLiveFeedSettlesToTheStaticPreview() throws {
        let engine = try Shared.requireEngine()
        let statuses = try Shared.statuses("feed.plist")
        let options = FeedOptions(width: 414, style: .weibo)
        let scale = PreviewScale(style: .weibo)
        let source = PreviewRowSource(
            progress: { (statuses.count, true) }, findMoreRows: nil,
            heights: { range in try engine.layoutHeights(Array(statuses[range]), options: options, threads: 1).heights },
            cell: { engine.cell(for: statuses[$0], options: options) },
            title: { n, _ in "demo feed · \(n) rows · weibo 414 pt" })
        let feed = try LiveFeed(source: source, scale: scale, columns: scale.columnCount(ofWidth: 414), readMoreToken: "...全文", firstLines: 24)
        XCTAssertGreaterThan(feed.measuredCount, 0)
        XCTAssertLessThan(feed.measuredCount, statuses.count, "only the first screen is measured up front")
        XCTAssertEqual(feed.preview.rowCount, statuses.count)
        XCTAssertTrue(feed.isMeasured(0))
        XCTAssertFalse(feed.isMeasured(statuses.count - 1))
        feed.start(wake: {})
        let deadline = Date().addingTimeInterval(60)
        while !feed.isSettled && Date() < deadline {
            try feed.sync()
            usleep(10_000)
        }
        XCTAssertTrue(feed.isSettled)
        let doc = try Shared.document(statuses, width: 414, style: .weibo, title: "demo feed")
        let live = feed.preview.canvas(lines: 0..<feed.preview.lineCount) { try! feed.cell($0) }.lines(color: false)
        XCTAssertEqual(live.joined(separator: "\n") + "\n", Shared.render(doc, color: false))
    }

    /// Corrections are row reloads: a row's line count changes only the lines after it.
    func testBuiltRowByRowPreview() throws {
        let scale = PreviewScale(style: .weibo)
        var preview = try FeedPreview(scale: scale, columns: 40, title: "t", readMoreToken: "", complete: false)
        preview.appendRows(lineCounts: [5, 5, 5])
        XCTAssertEqual(preview.lineCount, 1 + 15, "no closing line before the feed is complete")
        XCTAssertEqual(preview.firstLine(ofRow: 2), 11)
        preview.setLineCount(9, ofRow: 0)
        XCTAssertEqual(preview.firstLine(ofRow: 1), 10)
        XCTAssertEqual(preview.firstLine(ofRow: 2), 15)
        preview.markComplete()
        XCTAssertEqual(preview.lineCount, 1 + 19 + 1)
    }
}
