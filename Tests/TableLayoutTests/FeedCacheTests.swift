import CellLayout
import Foundation
import StatusModel
import XCTest
import _LayoutTestSupport
@testable import TableLayout

/// The content-keyed caches, observed through their counters: hits on relayout, bounded bytes,
/// one miss per changed status, no shaping on a width change, zero misses for a filter.
/// (Named for `make sanitize`, which runs the Parallel|Concurrent|Cache tests under TSan.)
final class FeedCacheTests: XCTestCase {
    func testSecondLayoutOfSameFeedIsAllHits() throws {
        let statuses = FeedFixtures.generated(150)
        let (engine, measurer) = FeedFixtures.fakeEngine()
        let options = FeedOptions(width: 375)
        let first = try engine.layout(statuses, options: options, threads: 2, chunkSize: 16)
        let afterFirst = engine.layouts.statistics
        XCTAssertEqual(afterFirst.misses, 150)
        XCTAssertEqual(afterFirst.hits, 0)
        XCTAssertEqual(afterFirst.entries, 150)
        XCTAssertEqual(engine.preparedCells.statistics.misses, 150)
        let prepares = measurer.prepareCount
        XCTAssertGreaterThan(prepares, 0)

        let second = try engine.layout(statuses, options: options, threads: 2, chunkSize: 16)
        let afterSecond = engine.layouts.statistics
        XCTAssertEqual(afterSecond.misses, 150, "no new miss")
        XCTAssertEqual(afterSecond.hits, 150, "every row a hit")
        XCTAssertEqual(measurer.prepareCount, prepares, "nothing prepared again")
        assertSameLayout(first, second, "cached relayout")
    }

    func testSmallBudgetStaysWithinBudget() throws {
        let statuses = FeedFixtures.generated(200)
        // A sixteenth of the budget per shard (6 KiB) holds about half of these prepared cells,
        // whose texts keep their layouts and entity frames once laid out twice.
        let budget = 96 << 10
        let (engine, _) = FeedFixtures.fakeEngine(layoutBudget: budget, preparedBudget: budget)
        let big = try FeedFixtures.fakeEngine().0.layout(statuses, options: FeedOptions(width: 375))
        let layout = try engine.layout(statuses, options: FeedOptions(width: 375), threads: 2)
        assertSameLayout(big, layout, "a full cache gives the same layout")
        for stats in [engine.layouts.statistics, engine.preparedCells.statistics] {
            // A bulk pass into empty caches evicts nothing of its own: it keeps what fits.
            XCTAssertEqual(stats.evictions, 0, "\(stats)")
            XCTAssertGreaterThan(stats.rejected, 0, "\(stats)")
            XCTAssertLessThan(stats.entries, 200, "\(stats)")
            XCTAssertLessThanOrEqual(stats.bytes, budget, "\(stats)")
            XCTAssertEqual(stats.budgetBytes, budget)
        }
        // Whatever is still cached is served as a hit, the rest misses; a relayout is identical.
        let entries = engine.layouts.statistics.entries
        let before = engine.layouts.statistics
        let found = statuses.filter { engine.layouts.value(for: FeedOptions(width: 375).key($0.id, $0.contentFingerprint)) != nil }.count
        let after = engine.layouts.statistics
        XCTAssertEqual(found, entries)
        XCTAssertEqual(after.hits - before.hits, entries)
        XCTAssertEqual(after.misses - before.misses, 200 - entries)
        let again = try engine.layout(statuses, options: FeedOptions(width: 375), threads: 1)
        XCTAssertLessThanOrEqual(engine.layouts.statistics.bytes, budget)
        assertSameLayout(big, again, "relayout of a partly cached feed")
        // Requests one by one evict the least recently used cells.
        for s in statuses.reversed() { _ = engine.cell(for: s, options: FeedOptions(width: 375)) }
        XCTAssertGreaterThan(engine.layouts.statistics.evictions, 0)
        XCTAssertLessThanOrEqual(engine.layouts.statistics.bytes, budget)
    }

    /// A bulk pass over a feed larger than the cache keeps its first rows (LRU would keep its last
    /// ones), and a later pass over another feed evicts the earlier feed's rows for its own.
    func testABulkPassKeepsTheTopOfTheFeed() throws {
        let statuses = FeedFixtures.generated(400)
        let (engine, _) = FeedFixtures.fakeEngine(layoutBudget: 256 << 10)
        let options = FeedOptions(width: 375)
        _ = try engine.layout(statuses, options: options, threads: 1)
        func cachedRows(_ feed: [Status]) -> [Int] {
            feed.indices.filter { engine.layouts.value(for: options.key(feed[$0].id, feed[$0].contentFingerprint)) != nil }
        }
        let kept = cachedRows(statuses)
        XCTAssertGreaterThan(kept.count, 20)
        XCTAssertLessThan(kept.count, 300)
        XCTAssertLessThan(kept[kept.count / 2], 200, "the kept rows are the top of the feed: \(kept)")
        XCTAssertEqual(engine.layouts.statistics.evictions, 0)

        var other = FeedGenerator(seed: 99)
        let next = other.statuses(count: 400)
        _ = try engine.layout(next, options: options, threads: 2)
        XCTAssertGreaterThan(engine.layouts.statistics.evictions, 0, "the earlier feed made room")
        XCTAssertLessThan(cachedRows(statuses).count, kept.count)
        XCTAssertGreaterThan(cachedRows(next).count, 20)
        XCTAssertLessThanOrEqual(engine.layouts.statistics.bytes, 256 << 10)
    }

    func testBoundedCacheDirectly() {
        let cache = BoundedCache<Int, [UInt8]>(budgetBytes: 16 * 100) { $0.count }
        for k in 0..<1000 { cache.insert([UInt8](repeating: 1, count: 30), for: k) }
        var s = cache.statistics
        XCTAssertLessThanOrEqual(s.bytes, 1600)
        XCTAssertGreaterThan(s.evictions, 0)
        XCTAssertEqual(s.bytes, s.entries * 30)
        // An entry larger than a shard's share is not stored.
        cache.insert([UInt8](repeating: 0, count: 101), for: -1)
        XCTAssertNil(cache.value(for: -1))
        // The most recent insert of a shard survives its eviction.
        cache.insert([7], for: 5000)
        XCTAssertEqual(cache.value(for: 5000), [7])
        s = cache.statistics
        XCTAssertEqual(s.hits, 1)
        XCTAssertEqual(s.misses, 1)
        cache.removeAll()
        XCTAssertEqual(cache.statistics.entries, 0)
        XCTAssertEqual(cache.statistics.bytes, 0)
    }

    /// With a mark, an insert evicts only entries older than the mark and otherwise does not keep
    /// the new value; without one, least recently used entries go.
    func testInsertsWithAMarkEvictOnlyOlderEntries() {
        let cache = BoundedCache<Int, [UInt8]>(budgetBytes: 16 * 100) { $0.count }
        for k in 0..<40 { cache.insert([UInt8](repeating: 1, count: 30), for: k) }
        let old = (0..<40).filter { cache.value(for: $0) != nil }
        XCTAssertFalse(old.isEmpty)
        let mark = cache.mark()
        for k in 1000..<1400 { cache.insert([UInt8](repeating: 2, count: 30), for: k, evictingOnlyBefore: mark) }
        var s = cache.statistics
        XCTAssertLessThanOrEqual(s.bytes, 1600)
        XCTAssertGreaterThan(s.rejected, 0)
        XCTAssertTrue(old.allSatisfy { cache.value(for: $0) == nil }, "every older entry made room")
        let kept = (1000..<1400).filter { cache.value(for: $0) != nil }
        XCTAssertEqual(kept.count, cache.statistics.entries)
        XCTAssertEqual(s.rejected, 400 - kept.count)
        // A new mark: the pass's entries are now older and may be evicted by the next pass.
        let second = cache.mark()
        for k in 2000..<2400 { cache.insert([UInt8](repeating: 3, count: 30), for: k, evictingOnlyBefore: second) }
        XCTAssertTrue(kept.allSatisfy { cache.value(for: $0) == nil })
        // Without a mark, the newest value is always kept.
        cache.insert([9], for: 5000)
        XCTAssertEqual(cache.value(for: 5000), [9])
        s = cache.statistics
        XCTAssertLessThanOrEqual(s.bytes, 1600)
    }

    /// A bulk pass into a cache full of its own entries rejects each further value without
    /// scanning its shard again: once a scan found nothing older than the mark, later inserts
    /// with that mark know it (each used to scan the whole shard, quadratic in the pass).
    func testAPassIntoAFullCacheScansEachShardOnce() {
        let cache = BoundedCache<Int, [UInt8]>(budgetBytes: 16 * 100) { $0.count }
        for k in 0..<20 { cache.insert([UInt8](repeating: 1, count: 10), for: k) }
        let mark = cache.mark()
        for k in 1000..<11_000 { cache.insert([UInt8](repeating: 2, count: 10), for: k, evictingOnlyBefore: mark) }
        let s = cache.statistics
        XCTAssertLessThanOrEqual(s.bytes, 1600)
        XCTAssertEqual(s.entries + s.rejected, 10_000 + 20 - s.evictions)
        XCTAssertGreaterThan(s.rejected, 9000)
        // A shard holds at most 10 entries: a scan per rejected insert would look at about
        // 100 000; each shard's scans after its older entries went look at a few dozen.
        XCTAssertLessThan(cache.scannedEntries, 16 * 10 * 4, "rejected inserts scanned their shard")
        XCTAssertTrue((0..<20).allSatisfy { cache.value(for: $0) == nil }, "the older entries made room")
        // A later pass may evict this pass's entries: the bound does not hide them.
        let next = cache.mark()
        for k in 20_000..<20_400 { cache.insert([UInt8](repeating: 3, count: 10), for: k, evictingOnlyBefore: next) }
        XCTAssertTrue((1000..<11_000).allSatisfy { cache.value(for: $0) == nil })
        XCTAssertLessThanOrEqual(cache.statistics.bytes, 1600)
    }

    func testConcurrentCacheUseKeepsCountsConsistent() {
        let cache = BoundedCache<Int, Int>(budgetBytes: 1 << 20) { _ in 8 }
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for k in 0..<2000 {
                if cache.value(for: k % 500) == nil { cache.insert(k % 500, for: k % 500) }
                _ = t
            }
        }
        let s = cache.statistics
        XCTAssertEqual(s.hits + s.misses, 8000)
        XCTAssertEqual(s.entries, 500)
        XCTAssertGreaterThanOrEqual(s.misses, 500)
        for k in 0..<500 { XCTAssertEqual(cache.value(for: k), k) }
    }

    func testChangedStatusRecomputesOnlyThatRow() throws {
        var statuses = FeedFixtures.generated(80)
        let (engine, measurer) = FeedFixtures.fakeEngine()
        let options = FeedOptions(width: 375)
        _ = try engine.layout(statuses, options: options, threads: 2)
        let before = (engine.layouts.statistics, engine.preparedCells.statistics, measurer.prepareCount)

        let oldFingerprint = statuses[17].contentFingerprint
        statuses[17] = FeedFixtures.liked(statuses[17])
        XCTAssertNotEqual(statuses[17].contentFingerprint, oldFingerprint, "a like changes the fingerprint")
        statuses[42].text += "（更新）"
        let relaid = try engine.layoutCells(statuses, options: options, threads: 2)
        let after = (engine.layouts.statistics, engine.preparedCells.statistics, measurer.prepareCount)
        XCTAssertEqual(after.0.misses - before.0.misses, 2, "two changed rows miss")
        XCTAssertEqual(after.0.hits - before.0.hits, 78, "the others hit")
        XCTAssertEqual(after.1.misses - before.1.misses, 2, "two cells prepared again")
        XCTAssertGreaterThan(after.2, before.2)
        XCTAssertEqual(relaid.cells[17], engine.cellEngine.layout(statuses[17], width: 375, style: .weibo, scale: 2))
        XCTAssertEqual(relaid.cells[42], engine.cellEngine.layout(statuses[42], width: 375, style: .weibo, scale: 2))
        // The same document edit through FeedDocument: one reload, one miss.
        var doc = try FeedDocument(engine: engine, options: options, statuses: statuses, threads: 1)
        let m0 = engine.layouts.statistics.misses
        doc.reloadRow(at: TableIndexPath(section: 0, row: 5), with: FeedFixtures.liked(statuses[5]))
        XCTAssertEqual(engine.layouts.statistics.misses - m0, 1)
        doc.reloadRow(at: TableIndexPath(section: 0, row: 6), with: statuses[6])
        XCTAssertEqual(engine.layouts.statistics.misses - m0, 1, "an unchanged reload hits")
    }

    func testInsertDeleteMoveKeepCachedCells() throws {
        let statuses = FeedFixtures.generated(60)
        let extra = FeedFixtures.generated(10, seed: 99)
        let (engine, measurer) = FeedFixtures.fakeEngine()
        _ = try engine.layout(statuses + extra, options: FeedOptions(width: 375), threads: 1)
        var doc = try FeedDocument(engine: engine, options: FeedOptions(width: 375), statuses: statuses, threads: 1)
        let before = (engine.layouts.statistics, measurer.prepareCount)
        doc.insertRows(Array(extra[0..<5]), at: TableIndexPath(section: 0, row: 10))
        doc.moveRow(from: TableIndexPath(section: 0, row: 3), to: TableIndexPath(section: 0, row: 50))
        doc.deleteRows(inSection: 0, rows: 20..<30)
        doc.insertRows(Array(statuses[20..<30]), at: TableIndexPath(section: 0, row: 0))
        doc.appendPage(Array(extra[5...]))
        var batch = FeedBatchUpdate()
        batch.deletedRows = [TableIndexPath(section: 0, row: 1)]
        batch.movedRows = [.init(from: TableIndexPath(section: 0, row: 2), to: TableIndexPath(section: 0, row: 40))]
        batch.insertedRows = [.init(TableIndexPath(section: 0, row: 0), doc.status(at: TableIndexPath(section: 0, row: 1)))]
        try doc.performBatchUpdates(batch)
        let after = (engine.layouts.statistics, measurer.prepareCount)
        XCTAssertEqual(after.0.misses, before.0.misses, "inserting, moving and deleting rows only hits")
        XCTAssertEqual(after.0.hits - before.0.hits, 5 + 10 + 5 + 1)
        XCTAssertEqual(after.1, before.1, "no text prepared")
        XCTAssertEqual(doc.geometry.numberOfRows, 70)
    }

    func testWidthChangeRelaysOutWithoutShaping() throws {
        // Counting fake: no prepare call at all.
        let statuses = FeedFixtures.generated(100)
        let (engine, measurer) = FeedFixtures.fakeEngine()
        let titled = [
            FeedSection(header: .title("今天 Today"), statuses: Array(statuses[..<40]), footer: .fixed(10)),
            FeedSection(header: .fixed(28), statuses: Array(statuses[40...]), footer: .title("没有更多了")),
        ]
        var doc = try FeedDocument(engine: engine, options: FeedOptions(width: 375), sections: titled, threads: 2)
        let prepares = measurer.prepareCount
        let preparedMisses = engine.preparedCells.statistics.misses
        let w320 = try doc.layout(forWidth: 320)
        let w414 = try doc.layout(forWidth: 414)
        XCTAssertEqual(measurer.prepareCount, prepares, "a width change prepares no text")
        XCTAssertEqual(engine.preparedCells.statistics.misses, preparedMisses, "every prepared cell is a hit")
        XCTAssertEqual(doc.heldWidths, [375, 320, 414])
        for geometry in [w320, w414] {
            var o = doc.options
            o.width = geometry.configuration.width
            let fresh = try FeedDocument(engine: FeedFixtures.fakeEngine().0, options: o, sections: titled, threads: 1)
            XCTAssertEqual(geometry, fresh.geometry, "width \(o.width)")
        }
        XCTAssertNotEqual(w320.contentHeight, w414.contentHeight)
        XCTAssertEqual(try doc.layout(forWidth: 320), w320, "held widths are returned as they are")
        // Edits keep every held width up to date.
        doc.deleteRow(at: TableIndexPath(section: 1, row: 0))
        doc.moveRow(from: TableIndexPath(section: 0, row: 0), to: TableIndexPath(section: 1, row: 3))
        for w in [320.0, 414] {
            var o = doc.options
            o.width = w
            let fresh = try FeedDocument(engine: FeedFixtures.fakeEngine().0, options: o, sections: doc.feedSections, threads: 1)
            XCTAssertEqual(doc.geometry(forWidth: w), fresh.geometry, "width \(w) after edits")
        }
        doc.removeWidth(320)
        XCTAssertEqual(doc.heldWidths, [375, 414])
        XCTAssertEqual(measurer.prepareCount, prepares, "edits of known statuses prepare nothing")
    }

    func testWidthChangeDoesNotShapeWithRealTextEngine() throws {
        let statuses: [Status]
        if TestPaths.weiboCorpusFiles != nil { statuses = try FeedFixtures.corpus() } else { statuses = FeedFixtures.generated(60) }
        let (engine, measurer) = try FeedFixtures.realEngine()
        var doc = try FeedDocument(engine: engine, options: FeedOptions(width: 375), statuses: statuses, threads: 2)
        let words = measurer.cacheStatistics
        XCTAssertGreaterThan(words.misses, 0)
        for w in [320.0, 414] { _ = try doc.layout(forWidth: w) }
        let after = measurer.cacheStatistics
        XCTAssertEqual(after.misses, words.misses, "no new shaped-word miss")
        XCTAssertEqual(after.hits, words.hits, "no word looked up at all: prepared text is reused")
        XCTAssertEqual(doc.heldWidths, [375, 320, 414])
    }

    func testFilterReusesCachedCells() throws {
        var statuses = FeedFixtures.generated(120)
        statuses[3].text = "今天的 SwiftUI 分享会很精彩"
        statuses[50].user.name = "swift小组"
        statuses[90].text = "Learning SWIFT concurrency"
        let (engine, measurer) = FeedFixtures.fakeEngine()
        var doc = try FeedDocument(engine: engine, options: FeedOptions(width: 375), statuses: statuses, threads: 2)
        _ = try doc.layout(forWidth: 320)
        let before = (engine.layouts.statistics, measurer.prepareCount)
        let filtered = doc.filtered(matching: "Swift")
        let narrow = doc.filtered(matching: "sWiFt", width: 320)
        for f in [filtered, narrow] {
            XCTAssertTrue(Set([3, 50, 90]).isSubset(of: f.sourceIndexPaths.map(\.row)), "\(f.sourceIndexPaths)")
            XCTAssertEqual(f.geometry.numberOfSections, 1)
            XCTAssertEqual(f.geometry.numberOfRows, f.count)
            for r in 0..<f.count {
                let ip = TableIndexPath(section: 0, row: r)
                XCTAssertEqual(f.geometry.height(ofRow: ip), f.cell(atRow: r).height)
                XCTAssertEqual(f.statuses[r], doc.status(at: f.sourceIndexPaths[r]))
            }
        }
        XCTAssertEqual(filtered.sourceIndexPaths, narrow.sourceIndexPaths)
        let after = (engine.layouts.statistics, measurer.prepareCount)
        XCTAssertEqual(after.0.misses, before.0.misses, "zero cache misses for the filtered feed")
        XCTAssertEqual(after.0.hits - before.0.hits, 2 * filtered.count)
        XCTAssertEqual(after.1, before.1, "nothing measured")
        // Naive check of the matching rule over every row; CJK is a plain substring match.
        func expected(_ keyword: String) -> [Int] {
            (0..<120).filter { r in
                let s = statuses[r]
                let fields = [s.user.name, s.user.screenName, s.text]
                    + (s.retweetedStatus.map { [$0.user.name, $0.user.screenName, $0.text] } ?? [])
                return fields.contains { $0.lowercased().contains(keyword.lowercased()) }
            }
        }
        XCTAssertEqual(filtered.sourceIndexPaths.map(\.row), expected("swift"))
        let cjk = doc.filtered(matching: "分享会")
        XCTAssertEqual(cjk.sourceIndexPaths.map(\.row), expected("分享会"))
        XCTAssertTrue(cjk.sourceIndexPaths.map(\.row).contains(3))
        XCTAssertEqual(doc.filtered(matching: "").count, 120)
        XCTAssertEqual(doc.filtered(matching: "没有这个词语xyz").count, 0)
    }
}
