import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

/// A cell arranged cold lays all its texts out into one line storage (one allocation for the
/// lines of its name, time, texts and labels), in every style.
final class CellLineStorageTests: XCTestCase {
    private func status() -> Status {
        var rt = Status(id: 3, text: "原文 " + String(repeating: "转发的内容会换行 ", count: 12), user: User(id: 8, name: "原作者"))
        rt.pictures = [Picture(id: "p0", url: "", width: 100, height: 100, kind: .jpeg)]
        var s = Status(
            id: 1, createdAtText: "5分钟前", source: "iPhone", text: String(repeating: "一段会换行的长文本 with words ", count: 9),
            user: User(id: 9, name: "张三"), repostsCount: 12, commentsCount: 345, attitudesCount: 6789)
        s.retweetedStatus = rt
        return s
    }

    /// The boxes of a cell with lines, and their storage.
    private func storages(_ c: CellGeometry) -> [ObjectIdentifier?] {
        var boxes = [c.name, c.time] + [c.source, c.text, c.retweet?.text].compactMap { $0 }
        boxes += c.toolbar?.buttons.map(\.label) ?? []
        return boxes.filter { !$0.layout.lines.isEmpty }.map(\.layout.lines.storageIdentity)
    }

    func testACellsTextsShareOneLineStorage() {
        for style in [CellStyle.weibo, .classic] {
            let engine = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
            let c = engine.layout(status(), width: 375, style: style, scale: 2)
            let ids = storages(c)
            XCTAssertGreaterThanOrEqual(ids.count, style.name == "weibo" ? 7 : 4, style.name)
            XCTAssertEqual(Set(ids).count, 1, "\(style.name): \(ids)")
            XCTAssertNotNil(ids.first ?? nil)
            // Another cell gets storage of its own.
            var other = status()
            other.id = 2
            XCTAssertNotEqual(storages(engine.layout(other, width: 375, style: style, scale: 2)).first, ids.first)
        }
    }

    /// The storage's room comes from an estimate (the texts' advance over the width); at a
    /// width of next to nothing that ratio is huge, but no text has more lines than clusters
    /// (plus its breaks), so the room never exceeds what the texts could fill.
    func testANarrowCellReservesNoMoreLinesThanItsTextsCanFill() {
        var s = status()
        s.text = String(repeating: "长文本", count: 700)
        for width in [24.5, 25, 30, 0, 375] {
            let c = CellLayoutEngine(measurer: FixedAdvanceMeasurer()).layout(s, width: width, style: .weibo, scale: 2)
            let boxes = [c.name, c.time] + [c.text, c.retweet?.text].compactMap { $0 } + (c.toolbar?.buttons.map(\.label) ?? [])
            let fillable = boxes.map { $0.prepared.clusterCount + 1 }.reduce(0, +)
            let room = c.text?.layout.lines.storageCapacity ?? 0
            XCTAssertGreaterThan(room, 0, "width \(width)")
            XCTAssertLessThanOrEqual(room, fillable, "width \(width)")
        }
    }
}
