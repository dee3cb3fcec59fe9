import CellLayout
import Foundation
import RasterRender
import StatusModel
import TableLayout
import TextMeasure
import XCTest
import _LayoutTestSupport

/// Pixels of rendered rows compared with the frames the layout computed.
final class FramePixelTests: XCTestCase {
    private let white = RGBA(rgb: 0xFFFFFF)

    func testImageIsWidthTimesScaleByRowsHeight() throws {
        let statuses = try Shared.demoStatuses()
        for (rows, scale) in [(0..<2, 2.0), (2..<4, 1.0), (4..<5, 3.0)] {
            let r = try RenderedRows(statuses, rows: rows, scale: scale)
            let heightPt = rows.reduce(0.0) { $0 + r.feed.heights[$1] }
            XCTAssertEqual(r.image.width, Int((375 * scale).rounded()), "rows \(rows) @\(scale)")
            XCTAssertEqual(r.image.height, Int((heightPt * scale).rounded()), "rows \(rows) @\(scale)")
            XCTAssertEqual(Array(r.png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }
    }

    func testDemoRowsMatchFrames() throws {
        let r = try RenderedRows(try Shared.demoStatuses(), rows: 0..<5)
        var pictures = 0
        for (i, row) in r.rows.enumerated() {
            let cell = r.cells[i]
            pictures += try checkCommonFrames(r, cell: cell, row: row)
        }
        XCTAssertGreaterThan(pictures, 0, "the demo rows should show pictures")
    }

    func testSharedCorpusFirstRowsMatchFrames() throws {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        let statuses = try FeedLoader.load(contentsOf: files[0]).feed.statuses
        let r = try RenderedRows(statuses, rows: 0..<5)
        XCTAssertEqual(r.image.width, 750)
        XCTAssertEqual(r.image.height, Int(((0..<5).reduce(0.0) { $0 + r.feed.heights[$1] }) * 2))
        for (i, row) in r.rows.enumerated() {
            _ = try checkCommonFrames(r, cell: r.cells[i], row: row)
        }
    }

    /// Checks placeholders, toolbar and text of one cell; returns the number of pictures checked.
    private func checkCommonFrames(_ r: RenderedRows, cell: CellGeometry, row: Int) throws -> Int {
        // Pictures (own and retweeted): mostly the placeholder colour.
        let grids = [cell.pictures, cell.retweet?.pictures].compactMap { $0 }
        var count = 0
        for p in grids.flatMap(\.pictures) {
            let px = r.pixels(p.frame, row: row)
            let fill = px.filter { $0.c == RenderColors.placeholder }.count
            XCTAssertGreaterThan(fill * 2, px.count, "row \(row) picture \(p.pictureID) at \(p.frame): placeholder colour")
            count += 1
        }
        // The avatar too.
        XCTAssertTrue(r.pixels(cell.avatar, row: row).contains { $0.c == RenderColors.placeholder }, "row \(row) avatar")

        // Toolbar: ink only in the buttons' icon and label frames (below the top hairline).
        if let bar = cell.toolbar {
            var body = bar.frame
            body.origin.y += 1
            body.size.height -= 1
            for p in r.pixels(body, row: row) where p.c.distance(to: white) > 24 {
                let inside = bar.buttons.contains { b in
                    r.contains(b.icon, row: row, x: p.x, y: p.y, slack: 0.5)
                        || r.contains(b.label.frame, row: row, x: p.x, y: p.y, slack: 1)
                }
                XCTAssertTrue(inside, "row \(row): toolbar ink at (\(p.x), \(p.y)) \(p.c) outside the buttons")
                if !inside { break }
            }
            for b in bar.buttons {
                let ink = RGBA(rgb: r.palette.color(b.label.prepared.text.baseAttributes.role))
                let hits = r.pixels(b.label.frame, row: row).filter { $0.c.distance(to: ink) < 16 }.count
                XCTAssertGreaterThan(hits, 4, "row \(row) toolbar label \(b.string) is not drawn in its colour")
            }
        }

        // The retweet's background shows in its left padding, beside its text.
        if let rt = cell.retweet {
            let pad = Rect(x: rt.frame.minX, y: rt.text.frame.minY, width: 4, height: rt.text.frame.height)
            let bg = RGBA(rgb: r.palette.fill[.retweetBackground]!)
            XCTAssertTrue(r.pixels(pad, row: row).allSatisfy { $0.c == bg }, "row \(row): retweet background")
        }

        // Main and retweet text: glyph ink inside the frame, on every line's band.
        for box in [cell.text, cell.retweet?.text].compactMap({ $0 }) where !box.layout.lines.isEmpty {
            for line in box.layout.lines where line.width > 0 {
                let band = Rect(x: box.frame.minX, y: box.frame.minY + line.top, width: box.frame.width, height: line.ascent + line.descent)
                // Ink: anything far from both the content and the retweet background.
                let ink = r.pixels(band, row: row).filter { $0.c.distance(to: white) > 40 && $0.c.distance(to: RGBA(rgb: 0xF7F7F7)) > 40 }
                XCTAssertFalse(ink.isEmpty, "row \(row): no glyph pixels on the line at baseline \(line.baseline)")
            }
        }
        return count
    }

    /// A status with only text: every dark pixel lies in a text-bearing frame, glyphs start at the
    /// text's left edge and end within each line's computed width.
    func testSimpleStatusInkStaysInTextFrames() throws {
        var statuses = try Shared.demoStatuses()
        var s = statuses[0]
        s.text = "纯文字的状态：排版引擎计算每一行的位置，渲染器只按计算好的位置画字形。Plain text only, no pictures."
        s.retweetedStatus = nil
        s.pictures = []
        s.pageInfo = nil
        s.tag = nil
        s.titleBar = nil
        s.urlEntities = []
        s.topics = []
        statuses = [s]
        let r = try RenderedRows(statuses, rows: 0..<1)
        let cell = r.cells[0]
        let text = try XCTUnwrap(cell.text)
        XCTAssertGreaterThan(text.layout.lines.count, 1)
        var frames = [cell.name.frame, cell.time.frame, text.frame]
        if let s = cell.source { frames.append(s.frame) }
        var darkCount = 0
        for p in r.pixels(Rect(x: 0, y: 0, width: cell.width, height: cell.height), row: 0) where p.c.luma < 100 {
            darkCount += 1
            let inside = frames.contains { r.contains($0, row: 0, x: p.x, y: p.y, slack: 1) }
            XCTAssertTrue(inside, "dark pixel (\(p.x), \(p.y)) \(p.c) outside every text frame")
            if !inside { break }
        }
        XCTAssertGreaterThan(darkCount, 100)
        // Each line: ink from the text's left edge, past the start of its last cluster, never beyond
        // the line's computed width.
        for (li, line) in text.layout.lines.enumerated() {
            let positions = text.layout.clusterPositions(onLine: li, of: text.prepared)
            var last = line.clusters.upperBound - 1
            while last > line.clusters.lowerBound && text.prepared.isHanging(last) { last -= 1 }
            let lastStart = text.frame.minX + positions[last - line.clusters.lowerBound]
            let band = Rect(x: 0, y: text.frame.minY + line.top, width: cell.width, height: line.ascent + line.descent)
            let xs = r.pixels(band, row: 0).filter { $0.c.luma < 100 }.map { Double($0.x) / r.scale }
            let minX = try XCTUnwrap(xs.min()), maxX = try XCTUnwrap(xs.max())
            XCTAssertEqual(minX, text.frame.minX, accuracy: 3, "line at \(line.baseline) starts away from the frame")
            XCTAssertLessThanOrEqual(maxX, text.frame.minX + line.width + 1, "line at \(line.baseline) ink beyond its width")
            XCTAssertGreaterThan(maxX, lastStart, "line at \(line.baseline) has no ink in its last cluster")
        }
    }

    /// A text cut by the line limit shows the read-more token in the link colour at its frame.
    func testReadMoreTokenIsDrawnAtItsFrame() throws {
        var statuses = try Shared.demoStatuses()
        statuses[0].text = String(repeating: "一行放不下的长文字，", count: 12)
        let r = try RenderedRows(statuses, rows: 0..<1, maxTextLines: 2)
        let text = try XCTUnwrap(r.cells[0].text)
        XCTAssertEqual(text.layout.lines.count, 2)
        let token = try XCTUnwrap(text.token)
        let link = RGBA(rgb: r.palette.color(.cellLink))
        let inToken = r.pixels(token, row: 0).filter { $0.c.distance(to: link) < 24 }.count
        XCTAssertGreaterThan(inToken, 20, "the token is not drawn in the link colour")
        let before = Rect(x: text.frame.minX, y: token.minY, width: token.minX - text.frame.minX, height: token.height)
        XCTAssertEqual(r.pixels(before, row: 0).filter { $0.c.distance(to: link) < 24 }.count, 0, "link ink before the token")
    }

    /// The classic style draws its name, date and text on white.
    func testClassicStyleRows() throws {
        let statuses = try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("StatusInfo.plist")).feed.statuses
        let r = try RenderedRows(statuses, rows: 0..<2, style: .classic)
        for (i, cell) in r.cells.enumerated() {
            for box in [cell.name, cell.time, cell.text].compactMap({ $0 }) {
                let ink = r.pixels(box.frame, row: i).filter { $0.c.distance(to: white) > 60 }.count
                XCTAssertGreaterThan(ink, 10, "row \(i): \(box.string) not drawn")
            }
            XCTAssertEqual(r.image.pixel(x: Int(cell.width * 2) - 2, y: Int((r.top(i) + cell.height) * 2) - 2), white)
        }
    }

    func testColorEmojiProducesColouredPixels() throws {
        var statuses = try Shared.demoStatuses()
        statuses[0].text = "天气😀真好"
        let r = try RenderedRows(statuses, rows: 0..<1)
        let text = try XCTUnwrap(r.cells[0].text)
        let p = text.prepared
        let c = p.cluster(containing: 2)  // the emoji starts at UTF-16 offset 2
        XCTAssertEqual(p.font(ofCluster: c).slot, .emoji)
        let xs = text.layout.clusterPositions(onLine: 0, of: p)
        let line = text.layout.lines[0]
        let k = c - line.clusters.lowerBound
        let emojiRect = Rect(
            x: text.frame.minX + xs[k], y: text.frame.minY + line.top, width: xs[k + 1] - xs[k], height: line.ascent + line.descent)
        let colourful = r.pixels(emojiRect, row: 0).filter { !$0.c.isGray(tolerance: 60) }
        XCTAssertGreaterThan(colourful.count, 50, "the emoji drew no coloured pixels")
        // The text around it stays gray.
        let before = Rect(x: text.frame.minX, y: emojiRect.minY, width: xs[k], height: emojiRect.height)
        XCTAssertTrue(r.pixels(before, row: 0).allSatisfy { $0.c.isGray(tolerance: 12) })
    }

    func testDebugFramesOutlineTextFrames() throws {
        let statuses = try Shared.demoStatuses()
        let plain = try RenderedRows(statuses, rows: 0..<1)
        let debug = try RenderedRows(statuses, rows: 0..<1, debugFrames: true)
        XCTAssertEqual(plain.image.width, debug.image.width)
        XCTAssertEqual(plain.image.height, debug.image.height)
        let frame = try XCTUnwrap(debug.cells[0].text).frame
        // The top-left pixel of the text frame carries the red debug outline only with --debug-frames.
        let x = Int(frame.minX * 2), y = Int(frame.minY * 2) + 3
        XCTAssertGreaterThan(Int(debug.image.pixel(x: x, y: y).r) - Int(debug.image.pixel(x: x, y: y).g), 100)
        XCTAssertTrue(plain.image.pixel(x: x, y: y).isGray())
    }

    /// Glyphs go where the layout says, and only there: moving the text's frame and one line's
    /// baseline in the layout moves exactly that ink by exactly that much.
    func testGlyphsFollowTheLayoutNotAMeasurement() throws {
        let (fonts, engine) = try Shared.require()
        var status = try Shared.demoStatuses()[0]
        status.text = "排版结果决定位置：第一行文字\n第二行文字"
        status.pictures = []
        let cell = engine.cell(for: status, options: FeedOptions(width: 375))
        let text = try XCTUnwrap(cell.text)
        XCTAssertEqual(text.layout.lines.count, 2)
        var moved = cell
        moved.text!.frame.origin.x += 10  // 20 px at scale 2
        var lines = Array(text.layout.lines)
        lines[1].baseline += 3  // 6 px
        moved.text!.layout.lines = TextLines(lines)
        let renderer = FeedRenderer(fonts: fonts)
        let a = try renderer.render([(cell, 0)], width: 375, height: cell.height, scale: 2, style: .weibo)
        let b = try renderer.render([(moved, 0)], width: 375, height: cell.height, scale: 2, style: .weibo)
        func band(_ image: RasterImage, line: Int, dx: Int, dy: Int) -> [RGBA] {
            let l = text.layout.lines[line]
            let y0 = Int((text.frame.minY + l.top) * 2) + dy, y1 = Int((text.frame.minY + l.bottom) * 2) + dy
            let x0 = Int(text.frame.minX * 2) + dx, x1 = Int(text.frame.maxX * 2) + dx
            return (y0..<y1).flatMap { y in (x0..<x1).map { image.pixel(x: $0, y: y) } }
        }
        let line0 = band(a, line: 0, dx: 0, dy: 0), line1 = band(a, line: 1, dx: 0, dy: 0)
        XCTAssertTrue(line0.contains { $0.luma < 100 } && line1.contains { $0.luma < 100 })
        XCTAssertEqual(band(b, line: 0, dx: 20, dy: 0), line0, "line 0 moved by the frame's 10 pt")
        XCTAssertEqual(band(b, line: 1, dx: 20, dy: 6), line1, "line 1 moved by the frame and its baseline")
        XCTAssertNotEqual(band(b, line: 0, dx: 0, dy: 0), line0)
    }

    func testOversizedImagesThrowBeforeDrawing() throws {
        let (fonts, engine) = try Shared.require()
        let statuses = try Shared.demoStatuses()
        let cell = engine.cell(for: statuses[0], options: FeedOptions(width: 375))
        let renderer = FeedRenderer(fonts: fonts)
        XCTAssertThrowsError(try renderer.render([(cell, 0)], width: 375, height: 40_000, scale: 2, style: .weibo)) { error in
            guard case .invalidImageSize(750, 80_000, _)? = error as? RasterRenderError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try renderer.render([(cell, 0)], width: 375, height: 0, scale: 2, style: .weibo))
    }

    func testRowsOutsideTheFeedThrow() throws {
        let (fonts, engine) = try Shared.require()
        let feed = try engine.layoutCells(try Shared.demoStatuses(), options: FeedOptions(width: 375))
        let renderer = FeedRenderer(fonts: fonts)
        for rows in [0..<0, 12..<20, 20..<21] {
            XCTAssertThrowsError(try renderer.render(feed: feed.layout, rows: rows) { feed.cells[$0] }) { error in
                XCTAssertEqual(error as? RasterRenderError, .rowsOutOfRange(requested: rows, rowCount: feed.layout.count))
            }
        }
    }
}
