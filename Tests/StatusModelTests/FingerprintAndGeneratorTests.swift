import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

final class FingerprintTests: XCTestCase {
    private let base = Status(
        id: 42, createdAt: Date(timeIntervalSince1970: 1_441_764_694), source: "微博 weibo.com", text: "你好，世界 [微笑] 👍🏽",
        user: User(id: 7, name: "测试用户"), pictures: [Picture(id: "p1", url: "u", width: 640, height: 1136)],
        repostsCount: 12, commentsCount: 3, attitudesCount: 10_001)

    func testContentHasherSeparatesStringsAndLengths() {
        var seen: Set<UInt64> = []
        // Every length around the 8-byte word boundaries, ASCII and multi-byte UTF-8.
        let samples = (0...25).map { String(repeating: "a", count: $0) } + ["你好", "你好，世界 👍🏽", "a\u{0}", "a\u{0}\u{0}"]
        for s in samples {
            var h = ContentHasher()
            h.combine(s)
            var again = ContentHasher()
            again.combine(s)
            XCTAssertEqual(h.value, again.value, "\(s.debugDescription): one value within a process")
            seen.insert(h.value)
        }
        XCTAssertEqual(seen.count, samples.count, "trailing NULs and lengths are distinguished")
        var ab = ContentHasher()
        ab.combine("ab")
        ab.combine("c")
        var abc = ContentHasher()
        abc.combine("a")
        abc.combine("bc")
        XCTAssertNotEqual(ab.value, abc.value, "string boundaries are part of the input")
    }

    /// Two 16-byte texts built to collide under the fixed hash fingerprints used to be (the same
    /// status id: preview and render showed one text for the other).
    func testTextsBuiltToCollideUnderAFixedHashDoNotCollide() {
        var a = base
        a.text = "AAAAAAAA!!@!!@@@"
        var b = base
        b.text = "1o4DGxztA^ki>b}j"
        XCTAssertNotEqual(a.contentFingerprint, b.contentFingerprint)
    }

    func testRetweetIsReadInPlaceOrNil() {
        XCTAssertNil(base.withRetweetedStatus { $0.text })
        var s = base
        var rt = base
        rt.id = 43
        rt.text = "原文"
        s.retweetedStatus = rt
        XCTAssertEqual(s.withRetweetedStatus { $0.text }, "原文")
        XCTAssertEqual(s.withRetweetedStatus { $0 }, s.retweetedStatus)
        XCTAssertTrue(s.isRetweet)
    }

    func testCopiesShareFieldsAndMutationsStayLocal() {
        XCTAssertEqual(MemoryLayout<Status>.size, 16, "a status is one reference to its fields and its fingerprint")
        let a = base
        var b = a
        b.text = "改了"
        b.user.name = "别人"
        XCTAssertEqual(a.text, base.text, "a mutated copy leaves the original alone")
        XCTAssertEqual(a.user.name, base.user.name)
        XCTAssertNotEqual(a, b)
        b.text = base.text
        b.user.name = base.user.name
        XCTAssertEqual(a, b, "equal fields make equal statuses, in whichever object they are")
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertEqual(Set([a, b]).count, 1)
    }

    func testFingerprintTracksLayoutFields() {
        let f = base.contentFingerprint
        var same = base
        same.id = 99
        same.user.avatarURL = "https://elsewhere"
        XCTAssertEqual(same.contentFingerprint, f, "ids and URLs do not change the layout")
        var changes: [Status] = []
        var s = base; s.text += "!"; changes.append(s)
        s = base; s.repostsCount += 1; changes.append(s)
        s = base; s.liked = true; changes.append(s)
        s = base; s.pictures[0].height = 1137; changes.append(s)
        s = base; s.pictures[0].keepSize = true; changes.append(s)
        s = base; s.pictures.append(base.pictures[0]); changes.append(s)
        s = base; s.user.name = "别人"; changes.append(s)
        s = base; s.tag = Tag(name: "上海", type: 1); changes.append(s)
        s = base; s.pageInfo = PageInfo(title: "卡片"); changes.append(s)
        s = base; s.titleBar = TitleBar(text: "热门"); changes.append(s)
        s = base; s.retweetedStatus = base; changes.append(s)
        var r = base; r.text = "另一条"
        s = base; s.retweetedStatus = r; changes.append(s)
        s = base; s.retweetedStatus = r; s.retweetedStatus?.pictures.append(base.pictures[0]); changes.append(s)
        s = base; s.user.name = "别人"; s.user.name = base.user.name; XCTAssertEqual(s.contentFingerprint, f, "restored")
        for c in changes {
            XCTAssertEqual(c.contentFingerprint, c.computeFingerprint(), "the stored fingerprint follows every mutation")
        }
        let prints = changes.map(\.contentFingerprint)
        XCTAssertFalse(prints.contains(f))
        XCTAssertEqual(Set(prints).count, prints.count, "each change gives a distinct fingerprint")
    }
}

final class GeneratorTests: XCTestCase {
    func testSameSeedSameStatuses() {
        var a = FeedGenerator(seed: 2024)
        var b = FeedGenerator(seed: 2024)
        XCTAssertEqual(a.statuses(count: 300), b.statuses(count: 300))
        var c = FeedGenerator(seed: 2025)
        XCTAssertNotEqual(generated(2024, 5).map(\.text), c.statuses(count: 5).map(\.text))
    }

    func testGeneratedStreamIsPinnedAcrossPlatforms() {
        // Folds the JSON Lines of the first 200 statuses of seed 42 into one literal (FNV-1a, 64
        // bits): any change in the RNG, the pools or the generator's choices shows here.
        var g = FeedGenerator(seed: 42)
        var bytes: [UInt8] = []
        for s in g.statuses(count: 200) { FeedWriter.jsonLine(s, into: &bytes) }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        XCTAssertEqual(h, 0xA606_7C29_00E9_476D)
    }

    func testGeneratedFeedsAreRealistic() {
        var g = FeedGenerator(seed: 7)
        let s = g.statuses(count: 2000)
        let retweets = s.filter(\.isRetweet).count
        XCTAssertTrue((600...1000).contains(retweets), "\(retweets) retweets")
        let counts = Set(s.map { $0.pictures.count } + s.compactMap { $0.retweetedStatus?.pictures.count })
        XCTAssertEqual(counts, Set(0...9))
        let all = s + s.compactMap(\.retweetedStatus)
        XCTAssertTrue(all.contains { $0.pageInfo?.isVideo == true })
        XCTAssertTrue(all.contains { $0.tag?.isPlace == true })
        XCTAssertTrue(all.contains { $0.titleBar != nil })
        XCTAssertTrue(all.contains { $0.text.count > 300 })
        XCTAssertTrue(all.contains { $0.pictures.contains(where: \.isLong) })
        XCTAssertTrue(all.contains { $0.pictures.contains(where: \.isGIF) })
        XCTAssertTrue(all.contains { $0.attitudesCount >= 10_000_000 })
        XCTAssertTrue(all.contains { $0.text.contains("[微笑]") || $0.text.contains("[哈哈]") })
        XCTAssertTrue(all.allSatisfy { $0.pictures.count <= 9 })
        XCTAssertEqual(Set(s.map(\.id)).count, s.count)
        // Every entity the generator attaches is present in the text it belongs to (or its parent's).
        for st in s {
            for u in st.urlEntities { XCTAssertTrue(st.text.contains(u.shortURL)) }
            for t in st.topics { XCTAssertTrue(st.text.contains("#\(t.title)#")) }
        }
    }

    func testRoundTripGenerateWriteLoad() throws {
        var g = FeedGenerator(seed: 11)
        let statuses = g.statuses(count: 500)
        for format in [FeedFormat.weiboJSON, .jsonLines, .modelPlist] {
            let back = try FeedLoader.load(data: FeedWriter.data(statuses, format: format), fileName: "g").feed
            XCTAssertEqual(back.format, format)
            XCTAssertTrue(back.statuses == statuses, "\(format)")
        }
    }

    /// A source whose `>` (or another escaped character) carries a combining mark is one
    /// `Character`, yet its bytes hold the `>`: the writer escapes bytes, so the loader's anchor
    /// reading gets every scalar back.
    func testSourcesWithMarkedHTMLCharactersRoundTripByteExactly() throws {
        var g = FeedGenerator(seed: 5)
        var statuses = g.statuses(count: 6)
        let sources = [
            "iP>\u{0FAE}h 微博", "a<\u{0301}b", "&\u{0308}amp;", "\"\u{20DD}q'\u{0327}",
            "x>\u{0FAE}\u{0FB2}>y", "plain",
        ]
        for i in statuses.indices { statuses[i].source = sources[i] }
        for format in [FeedFormat.weiboJSON, .jsonLines, .modelPlist] {
            let back = try FeedLoader.load(data: FeedWriter.data(statuses, format: format), fileName: "g").feed
            XCTAssertEqual(back.statuses.map { Array($0.source.utf8) }, sources.map { Array($0.utf8) }, "\(format)")
        }
    }

    func testWriterOutputIsDeterministicJSON() throws {
        let statuses = generated(3, 20)
        let a = FeedWriter.data(statuses, format: .weiboJSON)
        XCTAssertEqual(a, FeedWriter.data(statuses, format: .weiboJSON))
        let parsed = try JSONSerialization.jsonObject(with: a) as? [String: Any]
        XCTAssertEqual((parsed?["statuses"] as? [Any])?.count, 20)
        let lines = FeedWriter.data(statuses, format: .jsonLines).split(separator: 0x0A)
        XCTAssertEqual(lines.count, 20)
        for l in lines { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(l))) }
    }

    func testAtomicWriteLeavesNoTemporaryFile() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("out.json")
        try FeedWriter.writeAtomically(Data("old".utf8), to: url)
        try FeedWriter.writeAtomically(FeedWriter.data(generated(1, 3), format: .weiboJSON), to: url)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.json"])
        XCTAssertEqual(try FeedLoader.load(contentsOf: url).feed.statuses.count, 3)
        do {
            let w = try AtomicFileWriter(url: dir.appendingPathComponent("abandoned.json"))
            try w.write(Data("x".utf8))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.json"], "uncommitted writes vanish")
        XCTAssertThrowsError(try FeedWriter.writeAtomically(Data(), to: URL(fileURLWithPath: "/nonexistent-dir/x.json"))) { e in
            XCTAssertEqual((e as? StatusModelError)?.caseName, "unwritable")
        }
    }
}

final class StreamingWriterTests: XCTestCase {
    func testStreamingOutputMatchesTheWholeFeedWriter() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let statuses = generated(17, 400)
        for format in [FeedFormat.weiboJSON, .jsonLines] {
            let url = dir.appendingPathComponent("s.\(format.rawValue)")
            let w = try StreamingFeedWriter(atomicallyTo: url, format: format)
            XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing at the destination before finish()")
            for s in statuses { try w.write(s) }
            try w.finish()
            XCTAssertEqual(try Data(contentsOf: url), FeedWriter.data(statuses, format: format), "\(format)")
        }
        let empty = dir.appendingPathComponent("empty.json")
        let w = try StreamingFeedWriter(atomicallyTo: empty, format: .weiboJSON)
        try w.finish()
        XCTAssertEqual(try FeedLoader.load(contentsOf: empty).feed.statuses, [])
        XCTAssertEqual(try Data(contentsOf: empty), FeedWriter.data([], format: .weiboJSON))
    }
}
