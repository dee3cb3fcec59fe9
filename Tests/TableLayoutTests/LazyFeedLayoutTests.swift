import TextMeasure
import CellLayout
import Foundation
import StatusModel
import Synchronization
import XCTest
import _LayoutTestSupport
@testable import TableLayout

/// Lazy mode: estimated heights until rows are laid out, corrected through geometry edits, with
/// every query consistent with a naive table of the current heights.
final class LazyFeedLayoutTests: XCTestCase {
    struct Mismatch: Error, CustomStringConvertible { var description: String }

    func naiveCheck(_ lazy: LazyFeedLayout, real: [Double], _ rng: inout SplitMix64) throws {
        let o = lazy.options
        let heights = (0..<lazy.count).map { lazy.isMeasured($0) ? real[$0] : LazyFeedLayout.estimatedHeight(of: lazy.statuses[$0], options: o) }
        var naive = NaiveTable(configuration: lazy.geometry.configuration)
        naive.sections = [NaiveSection(id: 0, header: 0, footer: 0, rows: heights.map { Int64(($0 * o.scale).rounded()) }, collapsed: false)]
        let l = naive.layout()
        guard lazy.contentHeight == naive.pt(l.content) else { throw Mismatch(description: "content height") }
        for r in stride(from: 0, to: lazy.count, by: max(1, lazy.count / 50)) {
            guard lazy.rect(ofRow: r) == naive.rect(l.rowTop[0][r], naive.sections[0].rows[r]) else { throw Mismatch(description: "rect \(r)") }
        }
        for _ in 0..<10 {
            let y = Double.random(in: -10...(lazy.contentHeight + 10), using: &rng)
            guard lazy.row(at: y) == naive.indexPathForRow(at: y, l)?.row else { throw Mismatch(description: "row at \(y)") }
            let range = y..<(y + Double.random(in: 0...900, using: &rng))
            guard lazy.rows(intersecting: range) == naive.indexPaths(in: range, l).map(\.row) else { throw Mismatch(description: "rows in \(range)") }
        }
    }

    func testEstimatesThenViewportMeasurementStaysConsistent() throws {
        let statuses = FeedFixtures.generated(400, seed: 5)
        let (engine, _) = FeedFixtures.fakeEngine()
        let options = FeedOptions(width: 375)
        let full = try FeedFixtures.fakeEngine().0.layout(statuses, options: options, retainCells: false)
        for seed: UInt64 in [1, 2] {
            var rng = SplitMix64(seed: seed)
            var lazy = try LazyFeedLayout(engine: engine, statuses: statuses, options: options)
            XCTAssertEqual(lazy.measuredCount, 0)
            XCTAssertEqual(lazy.count, 400)
            XCTAssertTrue((0..<400).allSatisfy { lazy.geometry.height(ofRow: TableIndexPath(section: 0, row: $0)) > 0 })
            do {
                try naiveCheck(lazy, real: full.heights, &rng)
                for step in 0..<40 {
                    let y = Double.random(in: 0...lazy.contentHeight, using: &rng)
                    let viewport = y..<(y + 667)
                    let shown = lazy.measureRows(intersecting: viewport)
                    XCTAssertFalse(shown.isEmpty)
                    XCTAssertEqual(shown, lazy.rows(intersecting: viewport), "step \(step)")
                    XCTAssertTrue(shown.allSatisfy(lazy.isMeasured), "every shown row has its real height")
                    for r in shown { XCTAssertEqual(lazy.geometry.height(ofRow: TableIndexPath(section: 0, row: r)), full.heights[r]) }
                    try naiveCheck(lazy, real: full.heights, &rng)
                }
            } catch let m as Mismatch {
                XCTFail("seed \(seed): \(m)")
            }
            XCTAssertGreaterThan(lazy.measuredCount, 0)
            XCTAssertLessThan(lazy.measuredCount, 400, "only viewports were laid out")
            lazy.measureRows(0..<400)
            XCTAssertEqual(lazy.measuredCount, 400)
            XCTAssertEqual(lazy.geometry, full.geometry, "fully measured equals the eager layout")
        }
    }

    func testBackgroundLayoutCorrectsInOrder() throws {
        let statuses = FeedFixtures.generated(300, seed: 8)
        let (engine, _) = FeedFixtures.fakeEngine()
        let options = FeedOptions(width: 320, style: .classic)
        var lazy = try LazyFeedLayout(engine: engine, statuses: statuses, options: options)
        let ranges = Locked<[Range<Int>]>([])
        let full = try engine.layout(statuses, options: options, threads: 2, retainCells: false, chunkSize: 32,
                                     onRows: { r in ranges.withLock { $0.append(r) } })
        var rng = SplitMix64(seed: 4)
        for r in ranges.withLock({ $0 }) {
            lazy.correct(rows: r, heights: full.heights[r])
            XCTAssertEqual(lazy.measuredCount, r.upperBound)
            XCTAssertNoThrow(try naiveCheck(lazy, real: full.heights, &rng), "after \(r)")
        }
        XCTAssertEqual(lazy.geometry, full.geometry)
        // A page appended later starts estimated.
        let page = FeedFixtures.generated(20, seed: 9)
        lazy.appendPage(page)
        XCTAssertEqual(lazy.count, 320)
        XCTAssertEqual(lazy.measuredCount, 300)
        XCTAssertFalse(lazy.isMeasured(310))
        XCTAssertEqual(lazy.geometry.height(ofRow: TableIndexPath(section: 0, row: 310)),
                       LazyFeedLayout.estimatedHeight(of: page[10], options: options))
        lazy.measureRows(300..<320)
        XCTAssertEqual(lazy.measuredCount, 320)
    }

    func testEstimateGrowsWithContent() {
        let user = User(id: 1, name: "a")
        let o = FeedOptions(width: 375)
        let short = Status(id: 1, text: "短", user: user)
        let long = Status(id: 2, text: String(repeating: "很长的微博正文", count: 30), user: user)
        var pictures = short
        pictures.pictures = FeedFixtures.generated(60).flatMap(\.pictures).prefix(9).map { $0 }
        XCTAssertLessThan(LazyFeedLayout.estimatedHeight(of: short, options: o), LazyFeedLayout.estimatedHeight(of: long, options: o))
        if pictures.pictures.count == 9 {
            XCTAssertLessThan(LazyFeedLayout.estimatedHeight(of: short, options: o), LazyFeedLayout.estimatedHeight(of: pictures, options: o))
        }
        var narrow = o
        narrow.width = 320
        XCTAssertLessThan(LazyFeedLayout.estimatedHeight(of: long, options: o), LazyFeedLayout.estimatedHeight(of: long, options: narrow))
    }
}
