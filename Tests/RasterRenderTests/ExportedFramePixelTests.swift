import CellLayout
import FrameExport
import Foundation
import RasterRender
import StatusModel
import TableLayout
import TextMeasure
import XCTest
import _LayoutTestSupport

/// The PNG shows pictures, avatars and toolbars where the JSON export says they are: frames read
/// back from the exported document (not from the in-memory layout), placed at the exported row y.
final class ExportedFramePixelTests: XCTestCase {
    private func check(_ statuses: [Status], rows: Range<Int>) throws {
        let r = try RenderedRows(statuses, rows: rows)
        let header = FrameExportHeader(generatorVersion: "test", manifest: try Shared.require().0.manifest)
        let bytes = try FrameExport.data(r.feedCells, header: header, format: .jsonl, rows: rows)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")  // one row per line
        var pictures = 0, toolbars = 0
        for line in lines {
            guard let row = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let index = row["row"] as? Int, let y = (row["y"] as? NSNumber)?.doubleValue
            else { continue }
            XCTAssertEqual(y, r.feed.y(ofRow: index), accuracy: 1e-9, "row \(index): exported y")
            func rect(_ any: Any?) -> Rect? {
                guard let a = any as? [NSNumber], a.count == 4 else { return nil }
                return Rect(x: a[0].doubleValue, y: a[1].doubleValue, width: a[2].doubleValue, height: a[3].doubleValue)
            }
            func isPlaceholder(_ frame: Rect) -> Bool {
                let px = r.pixels(frame, row: index)
                return !px.isEmpty && px.filter { $0.c == RenderColors.placeholder }.count * 2 > px.count
            }
            let avatar = try XCTUnwrap(rect(row["avatar"]), "row \(index): avatar")
            XCTAssertTrue(r.pixels(avatar, row: index).contains { $0.c == RenderColors.placeholder }, "row \(index): avatar")
            let grids = [row["pictures"], (row["retweet"] as? [String: Any])?["pictures"]].compactMap { $0 as? [String: Any] }
            for grid in grids {
                for item in grid["items"] as? [[String: Any]] ?? [] {
                    let frame = try XCTUnwrap(rect(item["frame"]))
                    XCTAssertTrue(isPlaceholder(frame), "row \(index): picture \(item["id"] ?? "?") at exported \(frame)")
                    pictures += 1
                }
            }
            if let bar = row["toolbar"] as? [String: Any] {
                for button in bar["buttons"] as? [[String: Any]] ?? [] {
                    let label = try XCTUnwrap(rect((button["label"] as? [String: Any])?["frame"]))
                    let ink = r.pixels(label, row: index).filter { $0.c.luma < 200 }
                    XCTAssertFalse(ink.isEmpty, "row \(index): toolbar label drawn at exported \(label)")
                }
                toolbars += 1
            }
        }
        XCTAssertEqual(toolbars, rows.count, "every exported row was checked")
        XCTAssertGreaterThan(pictures, 0)
    }

    func testDemoRowsAreDrawnWhereTheExportSays() throws {
        try check(try Shared.demoStatuses(), rows: 0..<5)
    }

    func testSharedCorpusFirstRowsAreDrawnWhereTheExportSays() throws {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        try check(try FeedLoader.load(contentsOf: files[0]).feed.statuses, rows: 0..<5)
    }
}
