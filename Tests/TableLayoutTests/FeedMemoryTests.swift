import CellLayout
import Foundation
import StatusModel
import XCTest
import _LayoutTestSupport
@testable import TableLayout

/// Resident bytes of heights-only layouts: ≤ 64 bytes per row in the feed engine's own structures
/// (geometry trees + per-row ids, fingerprints and heights).
final class FeedMemoryTests: XCTestCase {
    func testHeightsOnlyEngineLayoutPerRowBytes() throws {
        // Through the engine: a 10 000-row feed of 50 repeated statuses (cells are cache hits).
        let base = FeedFixtures.generated(50)
        let (engine, _) = FeedFixtures.fakeEngine()
        let layout = try engine.layout(RepeatingStatuses(base: base, count: 10_000), options: FeedOptions(width: 375), threads: 1)
        XCTAssertEqual(engine.layouts.statistics.misses, 50)
        let perRow = Double(layout.residentBytes) / 10_000
        XCTAssertLessThanOrEqual(perRow, 64, "\(perRow) bytes per row")
        XCTAssertGreaterThanOrEqual(perRow, 24, "ids, fingerprints and heights are counted")
        let retained = try engine.layoutCells(Array(RepeatingStatuses(base: base, count: 2_000)), options: FeedOptions(width: 375))
        XCTAssertGreaterThan(retained.residentBytes / 2_000, 64, "retained cells are counted too")
    }

    func testMillionRowHeightsOnlyLayoutStaysUnder64BytesPerRow() throws {
        // The same structure at 1 000 000 rows, built from per-row values directly (laying out a
        // million cells belongs to the benchmarks, not a debug unit test).
        let n = 1_000_000
        var rng = SplitMix64(seed: 1)
        var heights = [Double]()
        heights.reserveCapacity(n)
        for _ in 0..<n { heights.append(Double(Int.random(in: 80...900, using: &rng)) / 2) }
        let layout = try FeedGeometry(
            options: FeedOptions(width: 375), statusIDs: (0..<n).map { Int64($0) }, fingerprints: (0..<n).map { UInt64($0) &* 0x9E37_79B9 },
            heights: heights)
        XCTAssertEqual(layout.count, n)
        let perRow = Double(layout.residentBytes) / Double(n)
        XCTAssertLessThanOrEqual(perRow, 64, "\(perRow) bytes per row")
        XCTAssertLessThanOrEqual(Double(layout.geometry.residentBytes) / Double(n), 6, "geometry: Int32 heights in 1 KiB leaves")
        // Queries still agree with the heights.
        XCTAssertEqual(layout.y(ofRow: 3), heights[0] + heights[1] + heights[2])
        XCTAssertEqual(layout.row(at: layout.y(ofRow: 765_432) + 0.5), 765_432)
    }
}

/// The heights-only path (no frames built) gives the heights of the full layout.
final class HeightsOnlyLayoutTests: XCTestCase {
    func testHeightsOnlyEqualsFullLayoutAtSeveralWidths() throws {
        let statuses = FeedFixtures.generated(300)
        let (engine, _) = FeedFixtures.fakeEngine()
        for width in [320.0, 375, 414] {
            for scale in [2.0, 3] {
                let options = FeedOptions(width: width, scale: scale, maxTextLines: width == 375 ? 6 : 0)
                let full = try engine.layout(statuses, options: options, threads: 2)
                let before = engine.layouts.statistics
                let fast = try engine.layoutHeights(statuses, options: options, threads: 2)
                XCTAssertEqual(fast.heights, full.heights, "width \(width) scale \(scale)")
                XCTAssertEqual(fast.geometry, full.geometry)
                XCTAssertEqual(engine.layouts.statistics.hits + engine.layouts.statistics.misses, before.hits + before.misses,
                               "the cell-layout cache is not consulted")
            }
        }
    }
}

/// Width changes of a layout that holds its rows' prepared cells (`retainPrepared`).
final class RelayoutTests: XCTestCase {
    func testRelayoutEqualsLayingTheStatusesOutAgain() throws {
        let statuses = FeedFixtures.generated(700)
        let (engine, measurer) = FeedFixtures.fakeEngine()
        let base = try engine.prepareFeed(statuses, options: FeedOptions(width: 320), threads: 2)
        XCTAssertEqual(base.prepared.count, statuses.count)
        XCTAssertEqual(base.prepared.map(\.statusID), statuses.map(\.id))
        let measured = measurer.prepareCount
        let lookups = engine.preparedCells.statistics.hits + engine.preparedCells.statistics.misses
        var relayouts: [PreparedFeed] = []
        for (width, scale, lines) in [(375.0, 2.0, 0), (414, 3, 6), (320, 2, 0), (1024, 1, 3)] {
            for threads in [1, 2] {
                relayouts.append(
                    try engine.relayout(base, width: width, scale: scale, maxTextLines: lines, threads: threads, chunkSize: 64))
            }
        }
        // A relayout measures nothing and looks nothing up.
        XCTAssertEqual(measurer.prepareCount, measured)
        XCTAssertEqual(engine.preparedCells.statistics.hits + engine.preparedCells.statistics.misses, lookups)
        for feed in relayouts {
            let r = feed.layout
            let fresh = try engine.layout(statuses, options: r.options, threads: 2)
            XCTAssertEqual(r.heights, fresh.heights, "width \(r.options.width) scale \(r.options.scale)")
            XCTAssertEqual(r.geometry, fresh.geometry)
            XCTAssertEqual(r.statusIDs, fresh.statusIDs)
            XCTAssertEqual(r.fingerprints, fresh.fingerprints)
            XCTAssertEqual(feed.prepared.count, statuses.count)
        }
        // Chained: a relayout can be laid out again.
        let twice = try engine.relayout(try engine.relayout(base, width: 500), width: 375)
        XCTAssertEqual(twice.layout.heights, try engine.relayout(base, width: 375).layout.heights)
        // A relayout equals the full cells' heights at that width, and back.
        let fast = try engine.prepareFeed(statuses, options: FeedOptions(width: 375))
        let full = try engine.layoutCells(statuses, options: FeedOptions(width: 414))
        XCTAssertEqual(try engine.relayout(fast, width: 414).layout.heights, full.layout.heights)
        XCTAssertEqual(full.cells.map(\.height), full.layout.heights)
    }

    func testRelayoutRefusesInvalidOptions() throws {
        let statuses = FeedFixtures.generated(20)
        let (engine, _) = FeedFixtures.fakeEngine()
        let kept = try engine.prepareFeed(statuses, options: FeedOptions(width: 320))
        XCTAssertThrowsError(try engine.relayout(kept, width: -1))
        XCTAssertThrowsError(try engine.relayout(kept, width: 320, scale: 9))
        let empty = try engine.prepareFeed([Status](), options: FeedOptions(width: 320))
        XCTAssertEqual(try engine.relayout(empty, width: 375).layout.count, 0)
    }
}

extension RelayoutTests {
    func testResidentBytesCountTheRetainedPreparedCellsArray() throws {
        let statuses = FeedFixtures.generated(50)
        let (engine, _) = FeedFixtures.fakeEngine()
        let plain = try engine.layout(statuses, options: FeedOptions(width: 320))
        let kept = try engine.prepareFeed(statuses, options: FeedOptions(width: 320))
        // The per-row arrays' capacities come from the allocator's block sizes, so two layouts of
        // the same feed may differ there by a few elements: only the prepared-cell array is
        // compared, with everything else counted the same way in both.
        func rest(_ l: FeedGeometry) -> Int {
            l.geometry.residentBytes + (l.statusIDs.capacity + l.fingerprints.capacity + l.heights.capacity) * 8
        }
        XCTAssertEqual(plain.residentBytes, rest(plain))
        XCTAssertEqual(kept.residentBytes - rest(kept.layout), kept.prepared.capacity * MemoryLayout<PreparedCell>.stride)
        XCTAssertGreaterThanOrEqual(kept.prepared.capacity, statuses.count)
    }
}
