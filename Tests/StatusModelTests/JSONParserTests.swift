import Foundation
import XCTest

@testable import StatusModel

/// The loaders' JSON parser: what it accepts, what it refuses, and what it says.
final class JSONParserTests: XCTestCase {
    private func load(_ json: String, skipInvalid: Bool = false) -> Result<LoadResult, StatusModelError> {
        Result { () throws(StatusModelError) in
            try FeedLoader.load(data: Data(json.utf8), fileName: "t.json", options: LoadOptions(skipInvalid: skipInvalid))
        }
    }

    private func loadBytes(_ bytes: [UInt8], name: String = "t.json") -> Result<LoadResult, StatusModelError> {
        Result { () throws(StatusModelError) in try FeedLoader.load(data: Data(bytes), fileName: name) }
    }

    private let user = #""user":{"id":1,"screen_name":"u"}"#

    private func malformedReason(_ r: Result<LoadResult, StatusModelError>, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard case .failure(.malformed(_, _, _, let reason)) = r else {
            XCTFail("expected malformed, got \(r)", file: file, line: line)
            return nil
        }
        return reason
    }

    func testDuplicateKeysAreErrorsAtAnyDepth() {
        // The root's "statuses" twice would drop the first list silently if one of them won.
        let twice = #"{"statuses":[{"id":1,"text":"a",\#(user)}],"statuses":[]}"#
        XCTAssertEqual(malformedReason(load(twice)).map { $0.contains("duplicate key \"statuses\"") }, true)
        let inUser = #"[{"id":1,"text":"a","user":{"id":1,"screen_name":"u","screen_name":"v"}}]"#
        XCTAssertEqual(malformedReason(load(inUser)).map { $0.contains("duplicate key \"screen_name\"") }, true)
        // Spelled differently, the same key: an escape in one of them.
        let escaped = #"[{"id":1,"text":"a","t\u0065xt":"b",\#(user)}]"#
        XCTAssertEqual(malformedReason(load(escaped)).map { $0.contains("duplicate key \"text\"") }, true)
        // Objects with many keys go through the filtered check (up to 64 keys) and the hashed
        // one (more); the key reported is the first that repeats an earlier one.
        for width in [40, 100] {
            var many = (0..<width).map { "\"k\($0)\":\($0)" }
            many.append("\"k17\":0")
            many.append("\"k3\":0")
            let wide = "[{\"id\":1,\"text\":\"a\",\(user),\(many.joined(separator: ","))}]"
            XCTAssertEqual(malformedReason(load(wide)).map { $0.contains("duplicate key \"k17\"") }, true, "\(width) keys")
            // The same many keys without the duplicates load.
            many.removeLast(2)
            XCTAssertNoThrow(try load("[{\"id\":1,\"text\":\"a\",\(user),\(many.joined(separator: ","))}]").get())
        }
        XCTAssertEqual(malformedReason(load(#"{"b":1,"a":1,"a":2,"b":2}"#)).map { $0.contains("duplicate key \"a\"") }, true)
        // Keys that share their first eight bytes differ, in small and large objects; the same
        // long key twice is a duplicate (one of them spelled with an escape), and so is a short
        // key at the very end of the input.
        let prefixes = ["attitudes_count", "attitudes_value", "attitudes_status", "attitudes_"]
        for extra in [[], (0..<20).map { "k\($0)" }] {
            let keys = (prefixes + extra).map { "\"\($0)\":0" }.joined(separator: ",")
            XCTAssertNoThrow(try load("[{\"id\":1,\"text\":\"a\",\(user),\(keys)}]").get())
            let repeated = "[{\"id\":1,\"text\":\"a\",\(user),\(keys),\"attitudes_st\\u0061tus\":1}]"
            XCTAssertEqual(malformedReason(load(repeated)).map { $0.contains("duplicate key \"attitudes_status\"") }, true)
        }
        XCTAssertEqual(malformedReason(load(#"{"a":1,"a":2}"#)).map { $0.contains("duplicate key \"a\"") }, true)
    }

    func testACopiedTapeKeepsItsNodesWhenTheOriginalParsesAgain() throws {
        var tape = JSONTape()
        let first = Array(#"{"a":[1,2,3],"b":"c"}"#.utf8)
        try first.withUnsafeBufferPointer { try tape.parse($0, maxDepth: 8) }
        let copy = tape
        let kinds = copy.nodes.map(\.kind)
        // Longer than the first buffer: the original grows while the copy keeps the old nodes.
        let second = Array(("[" + (0..<200).map { "{\"k\($0)\":null}" }.joined(separator: ",") + "]").utf8)
        try second.withUnsafeBufferPointer { try tape.parse($0, maxDepth: 8) }
        XCTAssertEqual(copy.nodes.map(\.kind), kinds)
        XCTAssertEqual(tape.nodes.count, 1 + 200 * 3)
        XCTAssertEqual(tape.nodes.filter { $0.kind == .null }.count, 200)
    }

    func testIntegersAreExactOverTheWholeInt64Range() throws {
        let big = Int64.max - 1  // above 9.2e18, representable only as an integer
        let r = try load(#"[{"id":\#(big),"text":"a",\#(user)}]"#).get()
        XCTAssertEqual(r.feed.statuses.first?.id, big)
        // One past Int64.max is refused, not wrapped or rounded.
        guard case .failure(.typeMismatch(let loc, _, let found)) = load(#"[{"id":9223372036854775808,"text":"a",\#(user)}]"#) else {
            return XCTFail("expected a type mismatch")
        }
        XCTAssertEqual(loc.keyPath, "[0].id")
        XCTAssertEqual(found, "number 9223372036854775808")
        // Integral doubles and decimal strings are still integers; fractions are not.
        XCTAssertEqual(try load(#"[{"id":12e2,"text":"a",\#(user)}]"#).get().feed.statuses.first?.id, 1200)
        XCTAssertEqual(try load(#"[{"id":" 42 ","text":"a",\#(user)}]"#).get().feed.statuses.first?.id, 42)
        guard case .failure(.typeMismatch) = load(#"[{"id":1.5,"text":"a",\#(user)}]"#) else { return XCTFail("1.5 is no id") }
    }

    func testStringsAreValidatedAndUnescaped() throws {
        let text = try load(#"[{"id":1,"text":"a\"b\\c\/d\n\u00e9\ud83d\ude00\u4e2d",\#(user)}]"#).get().feed.statuses[0].text
        XCTAssertEqual(text, "a\"b\\c/d\né😀中")
        for bad in [
            #"[{"id":1,"text":"\ud83d",\#(user)}]"#,  // a lone high surrogate
            #"[{"id":1,"text":"\ude00",\#(user)}]"#,  // a lone low surrogate
            #"[{"id":1,"text":"\x",\#(user)}]"#,  // an unknown escape
            "[{\"id\":1,\"text\":\"a\u{01}b\",\(user)}]",  // a raw control character
        ] {
            XCTAssertNotNil(malformedReason(load(bad)), bad)
        }
        // Invalid UTF-8: an overlong slash, a surrogate encoded in UTF-8, a truncated sequence.
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE4, 0xB8]] {
            let doc = Array(#"[{"id":1,"text":""#.utf8) + bytes + Array(#"",\#(user)}]"#.utf8)
            XCTAssertEqual(malformedReason(loadBytes(doc)).map { $0.contains("UTF-8") }, true, "\(bytes)")
        }
    }

    func testSyntaxErrorsNameTheirLineAndColumn() {
        let doc = "[\n  {\"id\": 1,\n   \"text\": tru }\n]"
        XCTAssertEqual(malformedReason(load(doc)), "invalid literal at line 3, column 12")
        XCTAssertEqual(malformedReason(load("[1,]")).map { $0.hasPrefix("a comma before ']'") }, true)
        XCTAssertEqual(malformedReason(load("[1] 2")).map { $0.hasPrefix("unexpected data after the JSON value") }, true)
        XCTAssertEqual(malformedReason(load("[\"abc")).map { $0.hasPrefix("unterminated string") }, true)
    }

    func testNestingIsBoundedWithoutRecursion() {
        // A million levels: the parser is iterative, so this is an error, not a stack overflow.
        let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        guard case .failure(.nestingTooDeep(_, _, let limit)) = load(deep) else { return XCTFail("expected nestingTooDeep") }
        XCTAssertEqual(limit, LoadOptions().maxNestingDepth)
    }

    func testJSONLinesChunksNumberLinesAndStatusesAcrossChunks() throws {
        // Blank lines count as lines but not as statuses; the reader's chunks carry both numbers.
        var lines: [String] = []
        for i in 0..<300 {
            let text = i == 250 ? "7" : "\"\(String(repeating: "字", count: i % 50))\""
            lines.append(#"{"id":\#(i),"text":\#(text),\#(user)}"#)
            if i % 7 == 0 { lines.append("   ") }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chunks-\(UUID().uuidString).jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try JSONLinesReader(url: url, options: LoadOptions(skipInvalid: true))
        var decoder = JSONLinesDecoder(fileName: "x.jsonl", options: LoadOptions(skipInvalid: true))
        var ids: [Int64] = []
        var skipped: [SkippedStatus] = []
        var chunks = 0
        while let chunk = try reader.next(targetBytes: 1000) {
            chunks += 1
            skipped += try decoder.decode(chunk) { ids.append($0.id) }
        }
        XCTAssertGreaterThan(chunks, 10)
        XCTAssertEqual(ids, (0..<300).filter { $0 != 250 }.map(Int64.init), "every valid status once, in order")
        XCTAssertEqual(skipped.map(\.index), [250])
        // Line 1 + 250 status lines + the blank lines after statuses 0, 7, …, 245 (36 of them).
        XCTAssertEqual(skipped.first?.error.location?.line, 1 + 250 + 36)
        XCTAssertEqual(skipped.first?.error.location?.keyPath, "[250].text")
    }
}
