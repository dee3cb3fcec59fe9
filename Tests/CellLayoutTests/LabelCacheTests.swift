import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

final class LabelCacheTests: XCTestCase {
    private func status(_ id: Int64, reposts: Int) -> Status {
        Status(id: id, text: "文字 \(id)", user: User(id: id, name: "u\(id)"), repostsCount: reposts, commentsCount: 0, attitudesCount: 7)
    }

    func testToolbarLabelsAndTokensAreSharedAndCounted() {
        let e = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        let a = e.layout(status(1, reposts: 0), width: 375, style: .weibo, scale: 2, maxTextLines: 3)
        // First cell: 3 toolbar labels + 1 token, all misses.
        XCTAssertEqual(e.labelCacheStatistics.misses, 4)
        XCTAssertEqual(e.labelCacheStatistics.hits, 0)
        _ = e.layout(status(2, reposts: 0), width: 375, style: .weibo, scale: 2)
        // Same "转发", "评论", "7" and token: 4 hits, no new entry.
        XCTAssertEqual(e.labelCacheStatistics.hits, 4)
        XCTAssertEqual(e.labelCacheStatistics.count, 4)
        _ = e.layout(status(3, reposts: 12_345), width: 375, style: .weibo, scale: 2)
        XCTAssertEqual(e.labelCacheStatistics.misses, 5)  // "1万" is new
        // A cached label gives the same layout as a fresh engine.
        let fresh = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        XCTAssertEqual(fresh.layout(status(1, reposts: 0), width: 375, style: .weibo, scale: 2, maxTextLines: 3), a)
    }

    /// The cells of a style share its metrics: the one object its value holds. Copies of the
    /// value hold the same object; a style with a field set holds its own (with the new
    /// values); a style that does not stack cells holds none.
    func testCellsShareTheirStylesMetrics() {
        let e = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        func metrics(_ id: Int64, _ style: CellStyle) -> Shared<StackedMetrics>? {
            guard case .stacked(let parts) = e.prepare(status(id, reposts: 0), style: style).content else { return nil }
            return parts.value.sharedMetrics
        }
        let style = CellStyle.weibo
        let first = metrics(1, style)
        XCTAssertNotNil(first)
        XCTAssertTrue(first === metrics(2, style), "two cells of one style")
        let copy = style
        XCTAssertTrue(first === metrics(3, copy), "a copy of the style value")
        guard case .stacked(var wider) = style.arrangement else { return XCTFail("weibo stacks its cells") }
        wider.padding += 1
        var other = style
        other.arrangement = .stacked(wider)
        let second = metrics(4, other)
        XCTAssertFalse(second === first)
        XCTAssertEqual(second?.value, wider)
        XCTAssertTrue(second === metrics(5, other))
        XCTAssertNil(metrics(6, .classic))
    }

    /// Cells of the same user share one prepared name; a name with other icons (verified,
    /// member rank) or another role is another label; a shared name lays out as a fresh engine's.
    func testNamesAreSharedByContent() throws {
        let e = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        func user(verified: Int = -1, rank: Int = 0, type: Int = 0) -> User {
            var u = User(id: 9, name: "同一个用户")
            u.verifiedType = verified
            u.mbrank = rank
            u.mbtype = type
            return u
        }
        func name(_ id: Int64, _ u: User) throws -> PreparedTextBox {
            let s = Status(id: id, text: "文字 \(id)", user: u, repostsCount: 0, commentsCount: 0, attitudesCount: 0)
            guard case .stacked(let parts) = e.prepare(s, style: .weibo).content else { throw XCTSkip("not a stacked cell") }
            return parts.value.name
        }
        let plain = try name(1, user())
        XCTAssertTrue(try name(2, user()) === plain)
        let member = try name(3, user(verified: 3, rank: 5))
        XCTAssertFalse(member === plain)
        XCTAssertTrue(try name(4, user(verified: 3, rank: 5)) === member)
        XCTAssertEqual(member.prepared.text.attachments.map(\.name), ["verified-organization", "member-level-5"])
        XCTAssertFalse(try name(5, user(verified: 3, rank: 6)) === member)
        XCTAssertFalse(try name(6, user(verified: 3, rank: 5, type: 3)) === member)  // the VIP role
        let stats = e.labels.nameStatistics
        XCTAssertEqual(stats.hits, 2)
        XCTAssertEqual(stats.misses, 4)
        XCTAssertEqual(e.labelCacheStatistics.count, 4, "names are not counted with the labels")

        let s = Status(id: 4, text: "文字 4", user: user(verified: 3, rank: 5), repostsCount: 0, commentsCount: 0, attitudesCount: 0)
        let fresh = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        XCTAssertEqual(e.layout(s, width: 375, style: .weibo, scale: 2), fresh.layout(s, width: 375, style: .weibo, scale: 2))
    }

    /// Cells whose time lines differ in digits at most share one entry of the time lines table:
    /// an equal line is the stored one itself; another is made again (with the package's measurer,
    /// copied with its digits: `DigitSubstitutionTests`, `testTimeLinesCopiedByDigitsAreExact`).
    /// Another source or style is another entry; a shared line lays out as a fresh engine's, and
    /// absolute times share entries too.
    func testTimeLinesAreSharedByTheShapeOfTheirDigits() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let e = CellLayoutEngine(measurer: FixedAdvanceMeasurer(), now: now)
        func status(_ id: Int64, minutesAgo: Double, source: String) -> Status {
            var s = Status(id: id, text: "文字 \(id)", user: User(id: id, name: "u\(id)"), repostsCount: 0, commentsCount: 0, attitudesCount: 0)
            s.createdAt = now.addingTimeInterval(-60 * minutesAgo)
            s.source = source
            return s
        }
        func timeLine(_ s: Status, _ style: CellStyle = .weibo) throws -> PreparedTextBox {
            guard case .stacked(let parts) = e.prepare(s, style: style).content else { throw XCTSkip("not a stacked cell") }
            return parts.value.timeLine
        }
        let first = try timeLine(status(1, minutesAgo: 15, source: "微博 weibo.com"))
        XCTAssertEqual(first.prepared.text.string, "15分钟前  来自 微博 weibo.com")
        XCTAssertTrue(try timeLine(status(2, minutesAgo: 15.5, source: "微博 weibo.com")) === first)
        let other = try timeLine(status(3, minutesAgo: 26, source: "微博 weibo.com"))
        XCTAssertFalse(other === first)
        XCTAssertEqual(other.prepared.text.string, "26分钟前  来自 微博 weibo.com")
        XCTAssertFalse(try timeLine(status(4, minutesAgo: 15, source: "iPhone客户端")) === first)
        let noSource = try timeLine(status(5, minutesAgo: 15, source: ""))
        XCTAssertEqual(noSource.prepared.text.string, "15分钟前")
        var larger = CellStyle.weibo
        guard case .stacked(var m) = larger.arrangement else { return XCTFail("weibo stacks its cells") }
        m.sourceFontSize += 1
        larger.arrangement = .stacked(m)
        XCTAssertFalse(try timeLine(status(6, minutesAgo: 15, source: "微博 weibo.com"), larger) === first)
        let stats = e.labels.timeLineStatistics
        XCTAssertEqual(stats.hits, 2)
        XCTAssertEqual(stats.misses, 4)

        let s = status(7, minutesAgo: 37, source: "微博 weibo.com")
        let fresh = CellLayoutEngine(measurer: FixedAdvanceMeasurer(), now: now)
        XCTAssertEqual(e.layout(s, width: 375, style: .weibo, scale: 2), fresh.layout(s, width: 375, style: .weibo, scale: 2))
        XCTAssertEqual(e.labels.timeLineStatistics.hits, 3)

        let absolute = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        _ = absolute.layout(s, width: 375, style: .weibo, scale: 2)
        let later = status(8, minutesAgo: 3, source: "微博 weibo.com")
        let freshAbsolute = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        XCTAssertEqual(
            absolute.layout(later, width: 375, style: .weibo, scale: 2), freshAbsolute.layout(later, width: 375, style: .weibo, scale: 2))
        XCTAssertEqual(absolute.labels.timeLineStatistics.misses, 1)
        XCTAssertEqual(absolute.labels.timeLineStatistics.hits, 1)
    }

    func testFullShardsAreDroppedAndCounted() {
        let cache = LabelCache(capacity: 16)  // 16 in the test thread's shard
        let m = FixedAdvanceMeasurer()
        let labels = (0..<100).map { "label \($0)" }
        for s in labels { _ = cache.label(s, size: 14, role: .plain, measurer: m) }
        let stats = cache.statistics
        XCTAssertGreaterThan(stats.evictions, 0)
        XCTAssertLessThanOrEqual(stats.count, 16)
        XCTAssertEqual(stats.misses, 100)
        XCTAssertEqual(stats.hits, 0)
        // The last label is in its shard: a hit, with the right text; names that differ in size
        // or role are other labels.
        XCTAssertEqual(cache.label("label 99", size: 14, role: .plain, measurer: m).prepared.text.string, "label 99")
        XCTAssertEqual(cache.statistics.hits, 1)
        let bigger = cache.label("label 99", size: 15, role: .plain, measurer: m)
        let link = cache.label("label 99", size: 14, role: .cellLink, measurer: m)
        XCTAssertEqual(cache.statistics.hits, 1)
        XCTAssertEqual(bigger.prepared.text.baseAttributes.size, 15)
        XCTAssertEqual(link.prepared.text.baseAttributes.role, .cellLink)
    }

    /// The keys hash from their stored hash (`_rawHashValue(seed:)`): equal keys made from
    /// separately built strings hash alike, keys differing in one field find their own entries,
    /// and the thread's shard (`forThisThread()`) serves the same entries as the cache.
    func testKeysHashByContentAndTheThreadShardSharesEntries() {
        let word = String(decoding: Array("转发".utf8), as: UTF8.self)
        XCTAssertEqual(
            LabelName(word: word, count: 0, size: 12, role: .cellToolbar).hashValue,
            LabelName(word: "转发", count: 0, size: 12, role: .cellToolbar).hashValue)
        let long = String(repeating: "名", count: 30)
        let a = NameLabel(name: long, size: 15, role: .cellName, verified: true, memberRank: 3, ascentFraction: 0.8)
        let b = NameLabel(
            name: String(decoding: Array(long.utf8), as: UTF8.self), size: 15, role: .cellName, verified: true, memberRank: 3,
            ascentFraction: 0.8)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        var names: [LabelName: Int] = [:]
        for i in 0..<500 {
            names[LabelName(word: "w\(i % 50)", count: i / 50, size: 12, role: .cellToolbar)] = i
        }
        XCTAssertEqual(names.count, 50 + 9)  // counts 1...9 show the number only, whatever the word
        XCTAssertEqual(names[LabelName(word: "w7", count: 0, size: 12, role: .cellToolbar)], 7)
        XCTAssertNil(names[LabelName(word: "w7", count: 0, size: 13, role: .cellToolbar)])
        let keys = (0..<300).map { PreparedKey(statusID: Int64($0 % 100), fingerprint: UInt64($0 / 100), style: "weibo") }
        XCTAssertEqual(Set(keys).count, 300)
        XCTAssertEqual(Set(keys.map(\.hashValue)).count, 300)

        let cache = LabelCache()
        let m = FixedAdvanceMeasurer()
        let shard = cache.forThisThread()
        let first = shard.label("转发", size: 12, role: .cellToolbar, measurer: m)
        XCTAssertTrue(cache.label("转发", size: 12, role: .cellToolbar, measurer: m) === first)
        XCTAssertTrue(shard.label("转发", size: 12, role: .cellToolbar, measurer: m) === first)
        XCTAssertEqual(cache.statistics.misses, 1)
        XCTAssertEqual(cache.statistics.hits, 2)
    }

    /// A count label is named by the smallest count that shows it: counts showing the same label
    /// share one entry, and the label is the one `CountFormat.label` gives for the count itself.
    func testCountLabelsAreNamedByWhatTheyShow() {
        let cache = LabelCache()
        let m = FixedAdvanceMeasurer()
        let counts = [0, -3, 1, 9_999, 10_000, 12_345, 19_999, 20_000, 9_999_999, 10_000_000, 25_000_000]
        for c in counts {
            let label = cache.label("转发", count: c, size: 12, role: .cellToolbar, measurer: m)
            XCTAssertEqual(label.prepared.text.string, CountFormat.label(c, word: "转发"), "count \(c)")
            XCTAssertEqual(CountFormat.label(CountFormat.shown(c), word: "转发"), CountFormat.label(c, word: "转发"))
        }
        // Distinct labels: 转发, 1, 9999, 1万, 2万, 999万, 1千万, 2千万.
        XCTAssertEqual(cache.statistics.misses, 8)
        XCTAssertEqual(cache.statistics.hits, counts.count - 8)
        // A zero count with another word is another label; a positive count shows only the
        // number, so every button shares it.
        XCTAssertEqual(cache.label("评论", count: 0, size: 12, role: .cellToolbar, measurer: m).prepared.text.string, "评论")
        XCTAssertEqual(cache.statistics.misses, 9)
        let one = cache.label("转发", count: 1, size: 12, role: .cellToolbar, measurer: m)
        XCTAssertTrue(cache.label("评论", count: 1, size: 12, role: .cellToolbar, measurer: m) === one)
        XCTAssertEqual(cache.statistics.misses, 9)
    }

    /// Each thread looks labels up in a shard of its own: two threads get equal values from
    /// different objects (nothing shared between their cores), each preparing once, then hitting.
    func testLabelsAreKeptPerThreadWithEqualValues() {
        let cache = LabelCache()
        let m = FixedAdvanceMeasurer()
        /// What one thread saw (each thread writes only its own).
        final class Seen: @unchecked Sendable {
            var label: PreparedTextBox?
            var thread = -1
        }
        let seen = [Seen(), Seen()]
        let done = DispatchGroup()
        for k in 0..<2 {
            done.enter()
            // Two threads alive at once (the second starts before the first ends), so their
            // indices differ.
            let thread = Thread {
                let first = cache.label("转发", size: 12, role: .cellToolbar, measurer: m)
                let again = cache.label("转发", size: 12, role: .cellToolbar, measurer: m)
                XCTAssertTrue(first === again)
                seen[k].label = first
                seen[k].thread = currentThreadIndex
                Thread.sleep(forTimeInterval: 0.05)
                done.leave()
            }
            thread.start()
        }
        done.wait()
        XCTAssertNotEqual(seen[0].thread, seen[1].thread)
        let a = try! XCTUnwrap(seen[0].label), b = try! XCTUnwrap(seen[1].label)
        XCTAssertFalse(a === b)
        XCTAssertEqual(a, b)
        let stats = cache.statistics
        XCTAssertEqual(stats.misses, 2)
        XCTAssertEqual(stats.hits, 2)
        XCTAssertEqual(stats.count, 2)
    }

    func testPreparedCellsAreCachedByContent() {
        let e = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        let a = status(1, reposts: 5)
        let first = e.layout(a, width: 375, style: .weibo, scale: 2)
        XCTAssertEqual(e.preparedCells.statistics.misses, 1)
        // The same content at another width: prepared once, laid out again.
        _ = e.layout(a, width: 414, style: .weibo, scale: 3)
        XCTAssertEqual(e.preparedCells.statistics.hits, 1)
        XCTAssertEqual(e.preparedCells.statistics.misses, 1)
        // Another style, a changed count, a changed retweet: each misses once.
        _ = e.prepare(a, style: .classic)
        var liked = a
        liked.attitudesCount += 1
        let changed = e.layout(liked, width: 375, style: .weibo, scale: 2)
        var withRetweet = a
        withRetweet.retweetedStatus = status(9, reposts: 0)
        _ = e.prepare(withRetweet, style: .weibo)
        withRetweet.retweetedStatus?.text = "改过的转发"
        _ = e.prepare(withRetweet, style: .weibo)
        XCTAssertEqual(e.preparedCells.statistics.misses, 5)
        XCTAssertNotEqual(changed.toolbar, first.toolbar)
        // An engine without the cache lays out identically and counts nothing.
        let uncached = CellLayoutEngine(measurer: FixedAdvanceMeasurer(), preparedCellBudgetBytes: 0)
        XCTAssertEqual(uncached.layout(a, width: 375, style: .weibo, scale: 2), first)
        XCTAssertEqual(uncached.layout(a, width: 375, style: .weibo, scale: 2), first)
        XCTAssertEqual(uncached.preparedCells.statistics.hits + uncached.preparedCells.statistics.misses, 0)
        // Copies share the cache; withPreparedCellCache gives a fresh one.
        let copy = e
        _ = copy.prepare(a, style: .weibo)
        XCTAssertEqual(e.preparedCells.statistics.hits, 2)
        XCTAssertEqual(e.withPreparedCellCache(budgetBytes: 1 << 20).preparedCells.statistics.entries, 0)
    }
}
