import CellLayout
import Foundation
import RasterRender
import StatusModel
import TableLayout
import TextMeasure
import XCTest
import _LayoutTestSupport

/// One glyph-retaining measurer and feed engine per test process (loading the fonts reads ~50 MB).
enum Shared {
    static let fonts: FontSet? = try? FontSet.load(directory: TestPaths.fonts)
    static let engine: FeedEngine? = fonts.map {
        FeedEngine(cellEngine: CellLayoutEngine(measurer: TextMeasurer(fonts: $0, retainGlyphs: true)))
    }

    static func require() throws -> (FontSet, FeedEngine) {
        guard let fonts, let engine else {
            throw XCTSkip("fonts are not installed in Fonts/: run scripts/setup.sh (make test does it)")
        }
        return (fonts, engine)
    }

    static func demoStatuses() throws -> [Status] {
        try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("feed.plist")).feed.statuses
    }
}

/// A rendered run of rows with what the tests need to compare pixels with frames.
struct RenderedRows {
    let feed: FeedGeometry
    /// The laid-out feed with every row's cell.
    let feedCells: FeedCells
    let rows: Range<Int>
    let cells: [CellGeometry]
    /// The image as read back from the PNG by libpng.
    let image: RasterImage
    let png: Data
    let palette: Palette

    init(
        _ statuses: [Status], rows: Range<Int>, width: Double = 375, scale: Double = 2, maxTextLines: Int = 0,
        style: CellStyle = .weibo, debugFrames: Bool = false
    ) throws {
        let (fonts, engine) = try Shared.require()
        let options = FeedOptions(width: width, style: style, scale: scale, maxTextLines: maxTextLines)
        let feed = try engine.layoutCells(statuses, options: options)
        let all = feed.cells
        self.feed = feed.layout
        feedCells = feed
        self.rows = rows
        cells = rows.map { all[$0] }
        let rendered = try FeedRenderer(fonts: fonts, options: RenderOptions(debugFrames: debugFrames))
            .render(feed: feed.layout, rows: rows) { all[$0] }
        let png = try PNGCodec.encode(rendered)
        let image = try PNGCodec.decode(png)
        self.png = png
        self.image = image
        XCTAssertEqual(image, rendered, "the PNG read back differs from the rendered canvas")
        palette = options.style.palette
    }

    var scale: Double { feed.options.scale }

    /// The top of row `row` in image points.
    func top(_ row: Int) -> Double { feed.y(ofRow: row) - feed.y(ofRow: rows.lowerBound) }

    /// The pixels of a cell rect (points) of `row`, clipped to the image.
    func pixels(_ r: Rect, row: Int) -> [(x: Int, y: Int, c: RGBA)] {
        let y0 = top(row)
        let x0 = max(0, Int((r.minX * scale).rounded())), x1 = min(image.width, Int((r.maxX * scale).rounded()))
        let ya = max(0, Int(((y0 + r.minY) * scale).rounded())), yb = min(image.height, Int(((y0 + r.maxY) * scale).rounded()))
        guard x0 < x1, ya < yb else { return [] }
        var out: [(x: Int, y: Int, c: RGBA)] = []
        out.reserveCapacity((x1 - x0) * (yb - ya))
        image.pixels.withUnsafeBufferPointer { p in
            for y in ya..<yb {
                for x in x0..<x1 {
                    let i = (y * image.width + x) * 4
                    out.append((x, y, RGBA(r: p[i], g: p[i + 1], b: p[i + 2], a: p[i + 3])))
                }
            }
        }
        return out
    }

    /// True when pixel (x, y) lies inside a cell rect of `row` grown by `slack` points.
    func contains(_ r: Rect, row: Int, x: Int, y: Int, slack: Double) -> Bool {
        let px = (Double(x) + 0.5) / scale, py = (Double(y) + 0.5) / scale - top(row)
        return px >= r.minX - slack && px < r.maxX + slack && py >= r.minY - slack && py < r.maxY + slack
    }
}

extension RGBA {
    /// Rec. 601 luma.
    var luma: Int { (299 * Int(r) + 587 * Int(g) + 114 * Int(b)) / 1000 }
}
