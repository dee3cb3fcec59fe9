import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

final class StreamingTests: XCTestCase {
    /// Resident set size in bytes, from /proc/self/statm (Linux); nil elsewhere.
    private func residentBytes() -> Int? {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = s.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    func testJSONLinesStreamingKeepsMemoryBounded() throws {
        guard residentBytes() != nil else { throw XCTSkip("/proc/self/statm is not available on this system") }
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("big.jsonl")
        // 200 000 small statuses (only the required keys, so the debug-build test stays fast);
        // each line is `{"id":N,` + the rest of one of 500 generated samples.
        var g = FeedGenerator(seed: 99)
        let samples = g.statuses(count: 500).map { s -> [UInt8] in
            var line: [UInt8] = []
            WireValue.object([
                ("text", .string(String(s.text.prefix(60)))),
                ("user", .object([("id", .int(s.user.id)), ("screen_name", .string(s.user.screenName))])),
            ]).appendJSON(to: &line)
            return Array(line.dropFirst()) + [0x0A]
        }
        let total = 200_000
        let writer = try AtomicFileWriter(url: url)
        var buffer: [UInt8] = []
        for i in 0..<total {
            buffer.append(contentsOf: Array("{\"id\":\(i + 1),".utf8))
            buffer.append(contentsOf: samples[i % samples.count])
            if buffer.count > 1 << 20 {
                try writer.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try writer.write(Data(buffer))
        try writer.commit()
        let fileSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)

        var count = 0
        var idSum: Int64 = 0
        var baseline = 0
        var peak = 0
        let skipped = try FeedLoader.forEachStatus(inJSONLines: url) { s in
            count += 1
            idSum &+= s.id
            if count == 20_000 { baseline = residentBytes() ?? 0 }
            if count > 20_000 && count % 5_000 == 0 { peak = max(peak, residentBytes() ?? 0) }
        }
        XCTAssertEqual(skipped, [])
        XCTAssertEqual(count, total)
        XCTAssertEqual(idSum, Int64(total) * Int64(total + 1) / 2)
        let growth = peak - baseline
        print("JSONL streaming: file \(fileSize >> 20) MiB, RSS growth after warm-up \(growth >> 10) KiB")
        XCTAssertGreaterThan(fileSize, 20 << 20, "the file is larger than the allowed growth")
        XCTAssertLessThan(growth, 8 << 20, "RSS grew by \(growth >> 20) MiB while streaming \(fileSize >> 20) MiB")
    }

    func testStreamingHandlesLinesAcrossChunkBoundariesAndBlankLines() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var g = FeedGenerator(seed: 5)
        let statuses = g.statuses(count: 300)
        var bytes: [UInt8] = []
        for (i, s) in statuses.enumerated() {
            FeedWriter.jsonLine(s, into: &bytes)
            if i % 50 == 0 { bytes.append(contentsOf: Array("\r\n  \n".utf8)) }
        }
        let url = dir.appendingPathComponent("feed.jsonl")
        try Data(bytes).write(to: url)
        XCTAssertGreaterThan(bytes.count, 3 * FeedLoader.chunkSize)
        var seen: [Status] = []
        _ = try FeedLoader.forEachStatus(inJSONLines: url) { seen.append($0) }
        XCTAssertEqual(seen, statuses)
    }

    func testOverlongLineFails() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("long.jsonl")
        try Data(String(repeating: "{", count: 300_000).utf8).write(to: url)
        XCTAssertThrowsError(try FeedLoader.load(contentsOf: url, options: LoadOptions(maxLineBytes: 100_000))) { e in
            XCTAssertEqual((e as? StatusModelError)?.caseName, "malformed")
        }
    }
}

final class EmoticonTests: XCTestCase {
    func testBuiltInTable() {
        let t = EmoticonTable.builtIn
        XCTAssertGreaterThanOrEqual(Set(EmoticonTable.defaultGroup.map(\.0)).count, 100)
        XCTAssertTrue(t.contains("[微笑]"))
        XCTAssertTrue(t.contains("[哈哈]"))
        XCTAssertTrue(t.contains("[愛你]"), "traditional spelling")
        XCTAssertEqual(t.imageName(for: "[doge]"), "d_doge.png")
        XCTAssertFalse(t.contains("[不存在的表情]"))
        XCTAssertFalse(t.contains("微笑"))
    }

    /// The look-up by UTF-8 bytes answers as the look-up by string: every built-in code (one-,
    /// two- and three-byte scalars), misses, codes added by a merge, and keys or candidates that
    /// are canonically equivalent without equal bytes (a decomposed "é", the Kelvin sign "K").
    func testLookUpByBytes() {
        func byBytes(_ t: EmoticonTable, _ code: String) -> String? {
            var code = code
            return code.withUTF8 { t.imageName(utf8: $0) }
        }
        let builtIn = EmoticonTable.builtIn
        for code in builtIn.codes {
            XCTAssertEqual(byBytes(builtIn, code), builtIn.imageName(for: code), code)
            XCTAssertNotNil(byBytes(builtIn, code), code)
        }
        for miss in ["", "[", "[]", "[微]", "[微笑", "微笑]", "[微笑 ]", "[Doge]", "[doge", "[é]", "[😀]", "[\u{3400}]"] {
            XCTAssertNil(byBytes(builtIn, miss), miss)
        }
        var merged = builtIn
        merged.merge(EmoticonTable(imageNames: ["[新]": "new.png", "[微笑]": "smile2.png"]))
        XCTAssertEqual(byBytes(merged, "[新]"), "new.png")
        XCTAssertEqual(byBytes(merged, "[微笑]"), "smile2.png", "the merged table wins")
        XCTAssertEqual(byBytes(merged, "[哈哈]"), "d_haha.png")
        XCTAssertEqual(merged, merged, "equality over the codes")

        let accents = EmoticonTable(imageNames: ["[\u{E9}]": "e.png", "[\u{212A}]": "kelvin.png", "[中]": "zhong.png"])
        for code in ["[\u{E9}]", "[e\u{301}]", "[K]", "[\u{212A}]", "[中]", "[中\u{301}]", "[E]"] {
            XCTAssertEqual(byBytes(accents, code), accents.imageName(for: code), code.debugDescription)
        }
        XCTAssertEqual(byBytes(accents, "[e\u{301}]"), "e.png", "canonically equivalent to a key")
        XCTAssertEqual(byBytes(accents, "[K]"), "kelvin.png", "canonically equivalent to a key")
        let decomposed = EmoticonTable(imageNames: ["[e\u{301}]": "e.png"])
        XCTAssertEqual(byBytes(decomposed, "[\u{E9}]"), "e.png", "a decomposed key found from the composed candidate")
    }

    func testCorpusBundle() throws {
        guard let corpus = TestPaths.sharedCorpus else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        let bundle = corpus.appendingPathComponent("emoticons/EmoticonWeibo.bundle")
        let t = try EmoticonTable.load(bundle: bundle)
        XCTAssertTrue(t.contains("[笑哈哈]"), "the lxh group")
        XCTAssertTrue(t.codes.isSuperset(of: EmoticonTable.builtIn.codes), "the built-in table is the default group")
        let group = try EmoticonTable.load(group: bundle.appendingPathComponent("com.sina.default/info.plist"))
        XCTAssertEqual(group, EmoticonTable.builtIn)
        let emoji = try EmoticonTable.load(group: bundle.appendingPathComponent("com.apple.emoji/info.plist"))
        XCTAssertEqual(emoji.count, 0, "Unicode emoji entries have no bracket code")
    }

    func testLoaderErrors() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let noList = dir.appendingPathComponent("info.plist")
        try PropertyListSerialization.data(fromPropertyList: ["id": "x"], format: .xml, options: 0).write(to: noList)
        XCTAssertThrowsError(try EmoticonTable.load(group: noList)) { e in
            XCTAssertEqual((e as? StatusModelError)?.location?.keyPath, "emoticons")
        }
        let badEntry = dir.appendingPathComponent("bad.plist")
        try PropertyListSerialization.data(fromPropertyList: ["emoticons": [["chs": "[a]"], ["chs": 3]]], format: .xml, options: 0)
            .write(to: badEntry)
        XCTAssertThrowsError(try EmoticonTable.load(group: badEntry)) { e in
            XCTAssertEqual((e as? StatusModelError)?.location?.keyPath, "emoticons[1].chs")
        }
        XCTAssertThrowsError(try EmoticonTable.load(bundle: dir)) { e in
            XCTAssertEqual((e as? StatusModelError)?.caseName, "unreadable")
        }
    }
}
