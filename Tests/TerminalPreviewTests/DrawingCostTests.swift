import CellLayout
import Foundation
import StatusModel
import TableLayout
import TerminalPreview
import XCTest
import _LayoutTestSupport

/// Drawing a cell costs time linear in its text, whatever its entities: a text of many mentions
/// took minutes when each cluster was checked against every entity (262 000 mentions, 143 s).
final class DrawingCostTests: XCTestCase {
    /// One status whose text is `count` mentions, drawn whole on the terminal canvas; the draw is
    /// timed alone (the cell is laid out first).
    private func drawSeconds(mentions count: Int) throws -> Double {
        let text = (0..<count).map { "@u\($0) " }.joined()
        let status = Status(id: 1, text: text, user: User(id: 1, name: "n"))
        let doc = try Shared.document([status], width: 375, style: .weibo, title: "t")
        let cell = doc.cell(0)
        XCTAssertEqual(cell.text?.entities.count, count, "every mention is an entity")
        let lines = 0..<doc.preview.lineCount
        let t0 = Date()
        let drawn = doc.preview.canvas(lines: lines) { _ in cell }.lines(color: true)
        let seconds = Date().timeIntervalSince(t0)
        XCTAssertEqual(drawn.count, lines.count)
        return seconds
    }

    func testManyEntitiesDrawInLinearTime() throws {
        _ = try drawSeconds(mentions: 100)
        let few = try drawSeconds(mentions: 200)
        let many = try drawSeconds(mentions: 20_000)
        // 100 times the text: linear drawing takes about 100 times as long; a check of every
        // cluster against every entity takes about 10 000 times as long.
        XCTAssertLessThan(many, 600 * few + 1.0, "20 000 mentions \(many) s, 200 mentions \(few) s")
    }
}
