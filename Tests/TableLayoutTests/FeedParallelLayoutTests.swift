import CellLayout
import Foundation
import StatusModel
import TextMeasure
import Synchronization
import XCTest
import _LayoutTestSupport
@testable import TableLayout

/// Ordered parallel precompute: every thread count and chunk size gives the serial result, rows
/// arrive in order exactly once, progress reaches n, cancellation keeps a completed prefix.
/// (Named for `make sanitize`, which runs the Parallel|Concurrent|Cache tests under TSan.)
final class FeedParallelLayoutTests: XCTestCase {
    func check(
        _ statuses: [Status], makeEngine: () throws -> FeedEngine, style: CellStyle,
        runs: [(threads: Int, chunk: Int)] = [(1, 7), (2, 1), (2, 64), (4, 7), (4, 256)]
    ) throws {
        let options = FeedOptions(width: 375, style: style, scale: 2)
        // A fresh engine per run, so every run computes its cells (no sharing through the cache).
        let serial = try makeEngine().layoutCells(statuses, options: options, threads: 1)
        XCTAssertEqual(serial.layout.count, statuses.count)
        XCTAssertTrue(serial.layout.heights.allSatisfy { $0 > 0 })
        for (threads, chunk) in runs {
            let parallel = try makeEngine().layoutCells(statuses, options: options, threads: threads, chunkSize: chunk)
            assertSameLayout(serial, parallel, "\(style.name) threads \(threads) chunk \(chunk)")
        }
        // Heights-only layouts agree with the retained cells.
        let heightsOnly = try makeEngine().layout(statuses, options: options, threads: 2, chunkSize: 5)
        XCTAssertEqual(heightsOnly.heights, serial.cells.map(\.height))
        XCTAssertEqual(heightsOnly.geometry, serial.layout.geometry)
    }

    func testParallelEqualsSerialOnGeneratedFeed() throws {
        let statuses = FeedFixtures.generated(160)
        for style in [CellStyle.weibo, .classic] {
            try check(statuses, makeEngine: { FeedFixtures.fakeEngine().0 }, style: style)
        }
    }

    /// Chunk sizes near `Int.max` overflowed the count of chunks (a trap); any size is clamped
    /// to [1, rows]. Options the table would refuse only after the layout (a grouped table
    /// narrower than its two insets) fail `validate()` first.
    func testHostileChunkSizesAndNarrowGroupedTables() throws {
        let statuses = FeedFixtures.generated(20)
        let options = FeedOptions(width: 375)
        let engine = FeedFixtures.fakeEngine().0
        let reference = try engine.layoutCells(statuses, options: options, threads: 1)
        for chunk in [Int.max, Int.max - 1, Int.min, 0, 1 << 40] {
            let cells = try FeedFixtures.fakeEngine().0.layoutCells(statuses, options: options, threads: 2, chunkSize: chunk)
            assertSameLayout(reference, cells, "chunk \(chunk)")
            let heights = try FeedFixtures.fakeEngine().0.layout(statuses, options: options, threads: 2, chunkSize: chunk)
            XCTAssertEqual(heights.heights, reference.cells.map(\.height))
            let feed = try FeedFixtures.fakeEngine().0.prepareFeed(statuses, options: options, threads: 2, chunkSize: chunk)
            let again = try engine.relayout(feed, width: 375, threads: 2, chunkSize: chunk)
            XCTAssertEqual(again.layout.geometry, heights.geometry, "chunk \(chunk)")
        }
        let narrow = FeedOptions(width: 20, tableStyle: .grouped)
        XCTAssertThrowsError(try narrow.validate()) { error in
            XCTAssertTrue("\(error)".contains("width 20.0 must be at least 32.0 in the grouped style"), "\(error)")
        }
        XCTAssertNoThrow(try FeedOptions(width: 32, tableStyle: .grouped).validate())
    }

    func testParallelEqualsSerialOnCorpusWithRealText() throws {
        let statuses = try FeedFixtures.corpus()
        XCTAssertEqual(statuses.count, 206)
        let fonts = try FontSet.loadDefault()
        try check(statuses, makeEngine: {
            FeedEngine(cellEngine: CellLayoutEngine(measurer: TextMeasurer(fonts: fonts), now: nil))
        }, style: .weibo, runs: [(2, 1), (4, 16)])
    }

    func testRowsArriveInOrderOnceAndProgressReachesCount() throws {
        let statuses = FeedFixtures.generated(203)
        for (threads, chunk) in [(1, 10), (2, 3), (4, 16), (3, 1000)] {
            let (engine, _) = FeedFixtures.fakeEngine()
            let ranges = Locked<[Range<Int>]>([])
            let progress = Locked<[Int]>([])
            let layout = try engine.layout(
                statuses, options: FeedOptions(width: 320), threads: threads, chunkSize: chunk,
                progress: { n in progress.withLock { $0.append(n) } },
                onRows: { r in ranges.withLock { $0.append(r) } })
            let rs = ranges.withLock { $0 }
            let ps = progress.withLock { $0 }
            XCTAssertEqual(layout.count, 203)
            XCTAssertFalse(rs.isEmpty)
            var next = 0
            for r in rs {
                XCTAssertEqual(r.lowerBound, next, "threads \(threads) chunk \(chunk): ranges \(rs)")
                XCTAssertFalse(r.isEmpty)
                next = r.upperBound
            }
            XCTAssertEqual(next, 203, "threads \(threads) chunk \(chunk)")
            XCTAssertEqual(ps.last, 203)
            XCTAssertEqual(ps, ps.sorted(), "progress never goes back")
            XCTAssertEqual(ps.count, (203 + chunk - 1) / chunk, "one progress report per chunk")
        }
    }

    func testCancellationThrowsWithCompletedPrefix() throws {
        let statuses = FeedFixtures.generated(400)
        for threads in [1, 2] {
            let (engine, _) = FeedFixtures.fakeEngine()
            let delivered = Locked(0)
            let polls = Atomic<Int>(0)
            XCTAssertThrowsError(
                try engine.layout(
                    statuses, options: FeedOptions(width: 375), threads: threads, chunkSize: 20,
                    onRows: { r in delivered.withLock { $0 = r.upperBound } },
                    isCancelled: { polls.wrappingAdd(1, ordering: .relaxed).newValue > 5 })
            ) { error in
                guard case FeedError.cancelled(let completed) = error else { return XCTFail("unexpected \(error)") }
                XCTAssertEqual(completed, delivered.withLock { $0 }, "the completed prefix is what onRows delivered")
                XCTAssertGreaterThan(completed, 0)
                XCTAssertLessThan(completed, 400)
                XCTAssertEqual(completed % 20, 0, "a whole number of chunks")
            }
        }
        // Cancelled before the first chunk: nothing completed.
        XCTAssertThrowsError(try FeedFixtures.fakeEngine().0.layout(statuses, options: FeedOptions(width: 375), isCancelled: { true })) {
            XCTAssertEqual($0 as? FeedError, .cancelled(completedRows: 0))
        }
    }

    func testInvalidOptionsThrow() {
        let engine = FeedFixtures.fakeEngine().0
        for o in [FeedOptions(width: 0), FeedOptions(width: .nan), FeedOptions(width: 375, scale: 0.5),
                  FeedOptions(width: 375, maxTextLines: -1)] {
            XCTAssertThrowsError(try engine.layout([], options: o)) { e in
                guard case FeedError.invalidOptions = e else { return XCTFail("\(e)") }
            }
        }
        XCTAssertEqual(try engine.layout([], options: FeedOptions(width: 375)).count, 0)
    }

    func testConcurrentDocumentsShareOneEngine() throws {
        // Four documents built and edited at once on one engine agree with a document built alone.
        let statuses = FeedFixtures.generated(120, seed: 3)
        let (engine, _) = FeedFixtures.fakeEngine()
        let alone = try FeedDocument(engine: FeedFixtures.fakeEngine().0, options: FeedOptions(width: 375), statuses: statuses, threads: 1)
        var heightByID: [Int64: Double] = [:]
        for r in 0..<statuses.count { heightByID[statuses[r].id] = alone.geometry.height(ofRow: TableIndexPath(section: 0, row: r)) }
        let results = Locked<[Int: FeedDocument]>([:])
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            let rotated = Array(statuses[(k * 10)...] + statuses[..<(k * 10)])
            guard var doc = try? FeedDocument(engine: engine, options: FeedOptions(width: 375), statuses: rotated, threads: 2) else { return }
            if k > 0 { doc.moveRow(from: TableIndexPath(section: 0, row: rotated.count - 1), to: TableIndexPath(section: 0, row: 0)) }
            results.withLock { $0[k] = doc }
        }
        let docs = results.withLock { $0 }
        XCTAssertEqual(docs.count, 4)
        XCTAssertEqual(docs[0]?.geometry, alone.geometry)
        for (k, doc) in docs {
            XCTAssertEqual(doc.geometry.contentHeight, alone.geometry.contentHeight, "document \(k)")
            for r in 0..<doc.geometry.numberOfRows {
                let ip = TableIndexPath(section: 0, row: r)
                XCTAssertEqual(doc.geometry.height(ofRow: ip), heightByID[doc.status(at: ip).id], "document \(k) row \(r)")
            }
        }
    }
}
