import CellLayout
import Foundation
import RasterRender
import StatusModel
import TableLayout
import TextMeasure
import XCTest
import _LayoutTestSupport

/// Pixels of section headers and of the friend cell: what `render` draws for a friend list.
final class SectionPixelTests: XCTestCase {
    private func friendDocument(open: [Int]) throws -> (FontSet, FeedDocument) {
        let (fonts, engine) = try Shared.require()
        let feed = try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("friends.plist")).feed
        var doc = try FeedDocument(
            engine: engine, options: FeedOptions(width: 375, style: .friend, scale: 2), statusSections: try XCTUnwrap(feed.sections),
            threads: 1)
        for s in open { doc.setExpanded(true, section: s) }
        return (fonts, doc)
    }

    /// Pixels of `image` in the point rect that differ from `color`.
    private func count(_ image: RasterImage, x: Range<Int>, y: Range<Int>, where test: (RGBA) -> Bool) -> Int {
        var n = 0
        for py in y.clamped(to: 0..<image.height) {
            for px in x.clamped(to: 0..<image.width) where test(image.pixel(x: px, y: py)) { n += 1 }
        }
        return n
    }

    func testHeaderDrawsItsBandMarkTitleAndCount() throws {
        let (fonts, doc) = try friendDocument(open: [1])
        let png = try PNGCodec.encode(try FeedRenderer(fonts: fonts).render(document: doc, from: 0, to: doc.geometry.contentHeight))
        let image = try PNGCodec.decode(png)
        XCTAssertEqual(image.width, 750)
        XCTAssertEqual(image.height, Int(doc.geometry.contentHeight * 2))
        let band = RGBA(rgb: Palette.friend.fill[.sectionHeader]!)
        // Header 0 (我的好友, closed): its band, a separator at its bottom.
        XCTAssertEqual(image.pixel(x: 700, y: 4), band, "the header's band")
        XCTAssertEqual(image.pixel(x: 700, y: 87), RenderColors.separator, "the separator at the header's bottom")
        // The disclosure mark: gray ink in its 10 pt square at the left padding, none right of it.
        let mark = count(image, x: 20..<40, y: 34..<54) { $0 != band }
        XCTAssertGreaterThan(mark, 60, "a closed group's triangle")
        // A closed mark points right: its left column is taller than its right one.
        let leftColumn = count(image, x: 22..<24, y: 30..<58) { $0 != band }
        let rightColumn = count(image, x: 36..<38, y: 30..<58) { $0 != band }
        XCTAssertGreaterThan(leftColumn, rightColumn)
        // The title right of the mark, the count ("8/24") at the right padding, nothing between.
        XCTAssertGreaterThan(count(image, x: 56..<180, y: 20..<68) { $0 != band }, 200, "the title's ink")
        XCTAssertGreaterThan(count(image, x: 650..<730, y: 20..<68) { $0 != band }, 80, "the count's ink")
        XCTAssertEqual(count(image, x: 300..<600, y: 0..<80) { $0 != band }, 0, "nothing between title and count")
        // Header 1 (家人) is open: its mark points down (its top row is wider than its bottom).
        let h1 = Int(doc.geometry.rectForHeader(inSection: 1).y * 2)
        let top = count(image, x: 16..<44, y: (h1 + 37)..<(h1 + 39)) { $0 != band }
        let bottom = count(image, x: 16..<44, y: (h1 + 49)..<(h1 + 51)) { $0 != band }
        XCTAssertGreaterThan(top, bottom)
    }

    func testFriendRowsDrawAvatarNameInRedForAVIPAndSignature() throws {
        let (fonts, doc) = try friendDocument(open: [1])
        let image = try FeedRenderer(fonts: fonts).render(document: doc, from: 0, to: doc.geometry.contentHeight)
        let statuses = doc.statuses(inSection: 1)
        for (r, status) in statuses.enumerated() {
            let y = doc.geometry.rectForRow(TableIndexPath(section: 1, row: r)).y
            let cell = doc.cell(at: TableIndexPath(section: 1, row: r))
            XCTAssertEqual(cell.height, 60)
            // The avatar placeholder fills its frame.
            let a = cell.avatar
            XCTAssertEqual(image.pixel(x: Int((a.minX + a.width / 2) * 2), y: Int((y + a.minY + 2) * 2)), RenderColors.placeholder)
            // The name's ink: red for a VIP, black otherwise.
            let n = cell.name.frame
            let red = count(image, x: Int(n.minX * 2)..<Int(n.maxX * 2), y: Int((y + n.minY) * 2)..<Int((y + n.maxY) * 2)) {
                $0.r > 200 && $0.g < 80 && $0.b < 80
            }
            if status.memberBadge != nil { XCTAssertGreaterThan(red, 20, "row \(r): a VIP's name is red") } else {
                XCTAssertEqual(red, 0, "row \(r): a plain name is not red")
            }
        }
    }
}
