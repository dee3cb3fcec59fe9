import CellLayout
import TerminalPreview
import XCTest
import _LayoutTestSupport

final class CanvasAndTableTests: XCTestCase {
    func testWideCharactersTakeTwoColumns() {
        var canvas = Canvas(width: 10, height: 1)
        let end = canvas.write("中a😂b", x: 0, y: 0)
        XCTAssertEqual(end, 6)
        XCTAssertEqual(canvas.character(x: 0, y: 0), "中")
        XCTAssertEqual(canvas.character(x: 1, y: 0), "", "right half of a wide character")
        XCTAssertEqual(canvas.character(x: 2, y: 0), "a")
        XCTAssertEqual(canvas.lines(color: false), ["中a😂b"])
        // Overwriting the right half of 中 blanks its left half.
        canvas.write("x", x: 1, y: 0)
        XCTAssertEqual(canvas.lines(color: false), [" xa😂b"])
        // A wide character cut by the right edge is not drawn.
        var narrow = Canvas(width: 3, height: 1)
        XCTAssertEqual(narrow.write("a中文", x: 0, y: 0), 3)
        XCTAssertEqual(narrow.lines(color: false), ["a中"])
        XCTAssertEqual(canvas.lines(color: false, columns: 2), [" x"])
    }

    func testColourLinesUseSGROnly() {
        var canvas = Canvas(width: 4, height: 1)
        canvas.write("ab", x: 0, y: 0, style: TerminalStyle(foreground: 32, bold: true))
        XCTAssertEqual(canvas.lines(color: true), ["\u{1B}[0;1;38;5;32mab\u{1B}[0m  "])
        XCTAssertEqual(canvas.lines(color: false), ["ab"])
    }

    func testScaleRule() {
        let weibo = PreviewScale(style: .weibo)
        XCTAssertEqual(weibo.pointsPerColumn, 17 * 0.4, accuracy: 1e-12)
        XCTAssertEqual(weibo.pointsPerLine, 16 * 1.34, accuracy: 1e-12)
        XCTAssertEqual(weibo.lineCount(ofHeight: weibo.pointsPerLine * 3), 4, "an exact multiple takes no extra line")
        XCTAssertEqual(weibo.lineCount(ofHeight: weibo.pointsPerLine * 3 + 0.5), 5)
        XCTAssertEqual(weibo.columnCount(ofWidth: 68), 12)
        XCTAssertEqual(weibo.columnCount(ofWidth: 68.5), 13)
        let classic = PreviewScale(style: .classic)
        XCTAssertEqual(classic.pointsPerColumn, 14 * 0.4, accuracy: 1e-12)
        XCTAssertEqual(classic.pointsPerLine, 14 * 1.448, accuracy: 1e-12)
    }

    /// The line table's range query against a linear scan, over seeded random feeds.
    func testRowsInLinesMatchesLinearScan() throws {
        let engine = try Shared.requireEngine()
        let statuses = try Shared.statuses("feed.plist")
        var rng = SplitMix64(seed: 7)
        for seed in 0..<20 {
            let n = Int(rng.next() % 40) + 1
            let feed = (0..<n).map { _ in statuses[Int(rng.next() % UInt64(statuses.count))] }
            let width = Double(240 + Int(rng.next() % 600))
            let layout = try engine.layout(feed, options: FeedOptionsFactory.make(width: width), threads: 1, retainCells: false)
            let preview = try FeedPreview(layout: layout, title: "t")
            var starts: [Int] = []
            var line = 1
            for h in layout.heights {
                starts.append(line)
                line += preview.scale.lineCount(ofHeight: h)
            }
            XCTAssertEqual(preview.lineCount, line + 1, "seed \(seed): header, rows, closing line")
            for _ in 0..<30 {
                let a = Int(rng.next() % UInt64(preview.lineCount + 2))
                let b = a + 1 + Int(rng.next() % 40)
                let naive = (0..<n).filter { r in
                    let end = starts[r] + preview.scale.lineCount(ofHeight: layout.heights[r])
                    return starts[r] < b && end > a
                }
                XCTAssertEqual(preview.rows(inLines: a..<b), naive, "seed \(seed) lines \(a)..<\(b)")
            }
            for r in 0..<n { XCTAssertEqual(preview.firstLine(ofRow: r), starts[r], "seed \(seed) row \(r)") }
        }
    }

    func testKeysAndPosition() {
        XCTAssertEqual(
            ViewerKey.decode(Array("jk gGq".utf8)), [.lineDown, .lineUp, .pageDown, .top, .bottom, .quit])
        XCTAssertEqual(
            ViewerKey.decode([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x5B, 0x35, 0x7E, 0x1B, 0x5B, 0x36, 0x7E]),
            [.lineUp, .lineDown, .pageUp, .pageDown])
        var p = ViewerPosition(top: 0, page: 10)
        p.apply(.lineUp, lineCount: 100)
        XCTAssertEqual(p.top, 0)
        p.apply(.pageDown, lineCount: 100)
        XCTAssertEqual(p.top, 10)
        p.apply(.bottom, lineCount: 100)
        XCTAssertEqual(p.top, 90)
        p.apply(.lineDown, lineCount: 100)
        XCTAssertEqual(p.top, 90)
        p.apply(.top, lineCount: 100)
        XCTAssertEqual(p.top, 0)
        p.apply(.bottom, lineCount: 5)
        XCTAssertEqual(p.top, 0, "a feed shorter than the screen stays at the top")
    }
}
