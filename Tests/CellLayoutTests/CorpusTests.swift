import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

/// Invariants over every fixture and corpus status, goldens and block-kind statistics.
final class CorpusTests: XCTestCase {
    /// A fixed "now" a little after the corpus's newest posts (September 2015), so relative times vary.
    static let now = WeiboDate.parse("Thu Sep 10 12:00:00 +0800 2015")!
    static let widths: [Double] = [320, 375, 414]
    static let scales: [Double] = [2, 3]

    private func engine(_ emoticons: EmoticonTable = .builtIn) -> CellLayoutEngine {
        CellLayoutEngine(measurer: FixedAdvanceMeasurer(), emoticons: emoticons, now: Self.now)
    }

    private func fixture(_ name: String) throws -> [Status] {
        let url = TestPaths.fixtures.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("Fixtures/\(name) is absent") }
        return try FeedLoader.load(contentsOf: url).feed.statuses
    }

    /// The corpus and its emoticon tables, loaded once for all tests (nil when absent).
    static let loaded: Result<([Status], EmoticonTable), StatusModelError>? = {
        guard let files = TestPaths.weiboCorpusFiles, let dir = TestPaths.sharedCorpus else { return nil }
        do throws(StatusModelError) {
            var statuses: [Status] = []
            for f in files { statuses += try FeedLoader.load(contentsOf: f).feed.statuses }
            let bundle = dir.appendingPathComponent("emoticons/EmoticonWeibo.bundle")
            return .success((statuses, try EmoticonTable.load(bundle: bundle)))
        } catch {
            return .failure(error)
        }
    }()

    /// The 206 statuses of the shared corpus, or a skip when it is absent.
    private func corpus() throws -> [Status] {
        guard let loaded = Self.loaded else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        return try loaded.get().0
    }

    /// The corpus's own emoticon tables.
    private func corpusEmoticons() throws -> EmoticonTable {
        guard let loaded = Self.loaded else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        return try loaded.get().1
    }

    private func checkAll(_ statuses: [Status], style: CellStyle, engine e: CellLayoutEngine, maxLines: Int? = nil, file: StaticString = #filePath, line: UInt = #line) -> Int {
        var checked = 0
        for s in statuses {
            let prepared = e.prepare(s, style: style)
            for w in Self.widths {
                for scale in Self.scales {
                    let c = prepared.layout(width: w, scale: scale, maxTextLines: maxLines)
                    let failures = style == .classic ? Invariants.checkClassic(c, status: s) : Invariants.checkWeibo(c, status: s)
                    if !failures.isEmpty {
                        XCTFail("status \(s.id) at \(w)@\(scale)x:\n  " + failures.prefix(8).joined(separator: "\n  "), file: file, line: line)
                    }
                    checked += 1
                }
            }
        }
        return checked
    }

    func testClassicFixtureInvariants() throws {
        let statuses = try fixture("StatusInfo.plist")
        XCTAssertFalse(statuses.isEmpty)
        XCTAssertEqual(checkAll(statuses, style: .classic, engine: engine()), statuses.count * 6)
    }

    func testWeiboInvariantsOnFixtures() throws {
        for name in ["feed.plist", "StatusInfo.plist"] {
            let statuses = try fixture(name)
            XCTAssertEqual(checkAll(statuses, style: .weibo, engine: engine()), statuses.count * 6, name)
        }
    }

    func testWeiboInvariantsOnTheCorpus() throws {
        let statuses = try corpus()
        XCTAssertEqual(statuses.count, 206)
        let e = engine(try corpusEmoticons())
        XCTAssertEqual(checkAll(statuses, style: .weibo, engine: e), 206 * 6)
        // With a read-more limit the geometry still holds and expanding is a lookup.
        _ = checkAll(statuses, style: .weibo, engine: e, maxLines: 6)
        var truncated = 0
        for s in statuses {
            let prepared = e.prepare(s, style: .weibo)
            let cut = prepared.layout(width: 375, scale: 2, maxTextLines: 6)
            let full = prepared.layout(width: 375, scale: 2)
            XCTAssertEqual(cut.expandedHeight, full.height, "status \(s.id)")
            XCTAssertEqual(cut.isTextTruncated, (full.text?.layout.lines.count ?? 0) > 6, "status \(s.id)")
            if cut.isTextTruncated {
                truncated += 1
                XCTAssertNotNil(cut.text?.token)
                XCTAssertLessThan(cut.height, full.height)
            }
        }
        print("read-more at 6 lines, 375 pt: \(truncated) of \(statuses.count) corpus texts truncated")
    }

    func testClassicInvariantsOnTheCorpus() throws {
        let statuses = try corpus()
        XCTAssertEqual(checkAll(statuses, style: .classic, engine: engine(try corpusEmoticons())), 206 * 6)
    }

    /// Counts of statuses per block kind on the corpus; every status shows exactly one of
    /// retweet | pictures | card | nothing below its text.
    func testBlockKindCounts() throws {
        let statuses = try corpus()
        let e = engine(try corpusEmoticons())
        var counts = ContentKindCounts()
        for s in statuses {
            let c = e.layout(s, width: 375, style: .weibo, scale: 2)
            counts.add(c)
            let kinds = c.contentKinds
            let below = [ContentKind.retweet, .pictures, .card].filter(kinds.contains)
            XCTAssertLessThanOrEqual(below.count, 1, "status \(s.id): \(below)")
            // The blocks agree with the kinds.
            XCTAssertEqual(c.block(.retweet) != nil, kinds.contains(.retweet))
            XCTAssertEqual(c.block(.pictures) != nil, kinds.contains(.pictures))
            XCTAssertEqual(c.block(.card) != nil, kinds.contains(.card))
            XCTAssertEqual(c.block(.tag) != nil, kinds.contains(.tag))
            XCTAssertEqual(c.block(.title) != nil, kinds.contains(.title))
        }
        print("corpus block kinds: \(counts)")
        XCTAssertEqual(counts.total, 206)
        XCTAssertEqual(counts[.retweet], statuses.filter(\.isRetweet).count)
        XCTAssertEqual(counts[.retweet], 108)  // the corpus README's count
        XCTAssertEqual(counts[.retweet] + counts[.pictures] + counts[.card] + counts.nothingBelowText, counts.total)
        XCTAssertEqual(counts[.pictures], statuses.filter { !$0.isRetweet && !$0.pictures.isEmpty }.count)
        XCTAssertEqual(counts[.card], statuses.filter { !$0.isRetweet && $0.pictures.isEmpty && $0.pageInfo != nil }.count)
        XCTAssertEqual(
            counts[.retweetPictures], statuses.filter { !($0.retweetedStatus?.pictures.isEmpty ?? true) }.count)
        XCTAssertLessThanOrEqual(counts[.retweetPictures] + counts[.retweetCard], counts[.retweet])
        XCTAssertEqual(counts[.tag], statuses.filter { !($0.tag?.name.isEmpty ?? true) }.count)
        XCTAssertEqual(counts[.title], statuses.filter { !($0.titleBar?.text.isEmpty ?? true) }.count)
    }

    /// Preparing and laying out from several threads (sharing one engine and its label cache)
    /// gives the serial results.
    func testConcurrentLayoutMatchesSerial() throws {
        let statuses = try fixture("feed.plist") + fixture("StatusInfo.plist")
        let e = engine()
        let serial = statuses.map { e.layout($0, width: 375, style: .weibo, scale: 2, maxTextLines: 4) }
        // A lock in an object (`Locked`): ThreadSanitizer reads a `Mutex` kept on the test's stack
        // and captured by the workers as one variable they all modify.
        let results = Locked([CellGeometry?](repeating: nil, count: statuses.count))
        DispatchQueue.concurrentPerform(iterations: statuses.count) { i in
            let c = e.prepare(statuses[i], style: .weibo).layout(width: 375, scale: 2, maxTextLines: 4)
            results.withLock { $0[i] = c }
        }
        let concurrent = results.withLock { $0 }
        for i in statuses.indices { XCTAssertEqual(concurrent[i], serial[i], "status \(statuses[i].id)") }
    }

    /// Degenerate widths lay out without traps: no negative sizes, blocks still tile the height.
    func testTinyWidthsDoNotBreakLayout() throws {
        let statuses = try fixture("feed.plist")
        let e = engine()
        for s in statuses {
            for style in [CellStyle.weibo, .classic] {
                let prepared = e.prepare(s, style: style)
                for w in [0.0, 1, 30, 100] {
                    let c = prepared.layout(width: w, scale: 3, maxTextLines: 2)
                    for (name, r) in Invariants.frames(of: c) where r.width < 0 || r.height < 0 {
                        XCTFail("status \(s.id) \(style.name) at \(w): \(name) has a negative size \(r)")
                    }
                    XCTAssertEqual(c.blocks.last?.frame.maxY ?? -1, c.height, accuracy: 1e-9)
                }
            }
        }
    }

    // MARK: goldens

    func testClassicGoldens() throws {
        let statuses = try fixture("StatusInfo.plist")
        let e = engine()
        for w in Self.widths {
            let dump = statuses.map { e.layout($0, width: w, style: .classic, scale: 2).describe() }.joined()
            assertGolden(dump, named: "classic-StatusInfo-\(Int(w)).txt")
        }
    }

    /// A representative weibo subset: the first corpus status of each content kind (and one
    /// truncated by a read-more limit), at 375 and 320.
    func testWeiboGoldens() throws {
        let statuses = try corpus()
        let e = engine(try corpusEmoticons())
        var picked: [Status] = []
        var seen: Set<String> = []
        for s in statuses {
            let c = e.layout(s, width: 375, style: .weibo, scale: 2)
            var keys = c.contentKinds.map(\.rawValue)
            if let g = c.pictures ?? c.retweet?.pictures { keys.append("grid\(g.pictures.count)") }
            if c.card?.isVideo == true || c.retweet?.card?.isVideo == true { keys.append("video") }
            if c.tag?.isPlace == true { keys.append("place") }
            if c.text?.entities.contains(where: { $0.kind == .emoticon }) == true { keys.append("emoticon") }
            if c.text?.entities.contains(where: { $0.kind == .link }) == true { keys.append("link") }
            let new = keys.filter { !seen.contains($0) }
            if !new.isEmpty && picked.count < 16 {
                picked.append(s)
                seen.formUnion(new)
            }
        }
        var dump = ""
        for s in picked {
            dump += e.layout(s, width: 375, style: .weibo, scale: 2).describe()
            dump += e.layout(s, width: 320, style: .weibo, scale: 3, maxTextLines: 4).describe()
        }
        assertGolden(dump, named: "weibo-corpus-subset.txt")
    }

    func testWeiboFixtureGolden() throws {
        let statuses = try fixture("feed.plist")
        let e = engine()
        let dump = statuses.map { e.layout($0, width: 375, style: .weibo, scale: 3).describe() }.joined()
        assertGolden(dump, named: "weibo-feed-375.txt")
    }
}
