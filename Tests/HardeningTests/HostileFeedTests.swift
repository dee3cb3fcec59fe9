// Hostile feeds through the loaders: lone surrogates, NUL bytes, deep nesting, a million statuses.
import Foundation
import StatusModel
import XCTest
import _LayoutTestSupport

final class HostileFeedTests: XCTestCase {
    private let user = #""user":{"id":2,"screen_name":"u"}"#

    private func load(_ json: String, name: String = "hostile.json", skipInvalid: Bool = false) -> Result<LoadResult, StatusModelError> {
        Result { () throws(StatusModelError) -> LoadResult in
            try FeedLoader.load(data: Data(json.utf8), fileName: name, options: LoadOptions(skipInvalid: skipInvalid))
        }
    }

    /// A lone surrogate escape ("\ud800") is not a Unicode scalar: Foundation's JSON parser rejects
    /// the file as malformed JSON (never a crash or a silently altered text); in JSON Lines only that
    /// line is lost, and reported, with `skipInvalid`.
    func testLoneSurrogateEscapes() {
        for escape in [#"\ud800"#, #"\udfff"#, #"\ud800\ud800"#, #"\udc00\ud800"#, #"x\ud83d"#] {
            let json = #"[{"id":1,"text":"a"# + escape + #"b",\#(user)}]"#
            guard case .failure(let e) = load(json, skipInvalid: true) else { return XCTFail("\(escape) loaded") }
            guard case .malformed(let file, let format, _, let reason) = e else { return XCTFail("\(escape): \(e)") }
            XCTAssertEqual(file, "hostile.json")
            XCTAssertEqual(format, "JSON")
            XCTAssertFalse(reason.isEmpty)
        }
        let lines = #"{"id":1,"text":"ok",\#(user)}"# + "\n" + #"{"id":2,"text":"a\ud800b",\#(user)}"# + "\n"
        guard case .success(let r) = load(lines, name: "s.jsonl", skipInvalid: true) else { return XCTFail("the valid line must load") }
        XCTAssertEqual(r.feed.statuses.map(\.id), [1])
        XCTAssertEqual(r.skipped.map(\.index), [1])
        XCTAssertEqual(r.skipped.first?.error.caseName, "malformed")
    }

    /// NUL escapes load into the text and are laid out; a raw NUL byte outside a string is malformed
    /// JSON; a raw NUL inside a string is a control character JSON forbids.
    func testNULBytes() {
        guard case .success(let r) = load(#"[{"id":1,"text":"a\u0000b",\#(user)}]"#) else {
            return XCTFail("a \\u0000 escape must load")
        }
        XCTAssertEqual(r.feed.statuses[0].text, "a\u{0}b")
        for json in ["[\0{\"id\":1}]", "[{\"id\":1,\"text\":\"a\0b\",\(user)}]"] {
            guard case .failure(let e) = load(json) else { return XCTFail("raw NUL accepted: \(json.debugDescription)") }
            XCTAssertEqual(e.caseName, "malformed")
        }
    }

    /// Nesting far beyond the limit (100 000 levels, in the root, inside a status, on a JSON Lines
    /// line, in an XML plist) is refused before any recursive parser runs.
    func testDeeplyNestedInputs() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let cases: [(String, String)] = [
            ("root.json", deep),
            ("status.json", #"[{"id":1,"text":"t",\#(user),"extra":\#(deep)}]"#),
            ("lines.jsonl", #"{"id":1,"text":"t",\#(user)}"# + "\n" + #"{"id":2,"x":\#(deep)}"# + "\n"),
            ("deep.plist", "<plist>" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000) + "</plist>"),
        ]
        for (name, text) in cases {
            let result = Hardening.measure("nesting 100 000 deep (\(name))") { load(text, name: name) }
            guard case .failure(let e) = result else { return XCTFail("\(name) loaded") }
            guard case .nestingTooDeep(let file, _, let limit) = e else { return XCTFail("\(name): \(e)") }
            XCTAssertEqual(file, name)
            XCTAssertEqual(limit, LoadOptions().maxNestingDepth)
        }
        // A JSON Lines line is one status: with skipInvalid it is skipped and reported, the rest loads.
        guard case .success(let r) = load(cases[2].1, name: "lines.jsonl", skipInvalid: true) else {
            return XCTFail("the valid line must load with skipInvalid")
        }
        XCTAssertEqual(r.feed.statuses.map(\.id), [1])
        XCTAssertEqual(r.skipped.count, 1)
        XCTAssertEqual(r.skipped.first?.error, .nestingTooDeep(file: "lines.jsonl", line: 2, limit: LoadOptions().maxNestingDepth))
    }

    /// A million statuses (5 000 unless HARDENING_FULL=1) generated, written as JSON Lines and streamed back:
    /// every one arrives, in order, and memory stays bounded by a line, not the file.
    func testMillionStatusesStreamed() throws {
        let count = Hardening.full ? 1_000_000 : 5_000
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("million.jsonl")
        try Hardening.measure("generate \(count) statuses as JSON Lines") {
            var generator = FeedGenerator(seed: 9)
            let writer = try StreamingFeedWriter(atomicallyTo: url, format: .jsonLines)
            for _ in 0..<count { try writer.write(generator.next()) }
            try writer.finish()
        }
        let rss0 = Hardening.residentBytes()
        var seen = 0
        var lastID: Int64 = .min
        var ordered = true
        var maxRSS = rss0
        let skipped = try Hardening.measure("stream \(count) statuses from JSON Lines") {
            try FeedLoader.forEachStatus(inJSONLines: url) { s in
                if s.id <= lastID { ordered = false }
                lastID = s.id
                seen += 1
                if seen % 10_000 == 0 { maxRSS = max(maxRSS, Hardening.residentBytes()) }
            }
        }
        XCTAssertEqual(seen, count)
        XCTAssertTrue(skipped.isEmpty)
        XCTAssertTrue(ordered, "generator ids increase; the stream must keep their order")
        // Streaming keeps one chunk and one line: growth is bounded whatever the file length
        // (the file itself is hundreds of MB at full size).
        XCTAssertLessThan(maxRSS - rss0, 64 << 20)
    }
}
