import Foundation
import XCTest
import FeedLayoutSupport
import _LayoutTestSupport

@testable import StatusModel

/// Weibo JSON documents read as streams (`JSONDocumentReader` → `JSONElementsChunk` →
/// `JSONElementsDecoder`): the same statuses and the same errors as the whole-document load, at
/// any read and chunk size, in bounded memory.
final class JSONDocumentStreamTests: XCTestCase {
    /// What a load gives: the statuses and the skipped ones, or the error.
    enum Outcome: Equatable {
        case loaded([Status], [SkippedStatus])
        case failed(StatusModelError)
    }

    /// Read and chunk sizes: one read and one chunk; one byte at a time, one element per chunk
    /// (every element and every token straddles reads); odd sizes in between.
    static let sizes: [(read: Int, target: Int)] = [(1 << 20, 1 << 20), (1, 1), (7, 300), (61, 4096), (4096, 50_000)]

    private var dir: URL!

    override func setUp() {
        dir = temporaryDirectory()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
    }

    private func write(_ bytes: [UInt8], name: String = "feed.json") throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// The whole-document load of `url` (the format forced: a one-line document followed by a
    /// newline would otherwise be detected as JSON Lines).
    private func whole(_ url: URL, options: LoadOptions = LoadOptions()) -> Outcome {
        var forced = options
        forced.format = .weiboJSON
        do {
            let result = try FeedLoader.load(contentsOf: url, options: forced)
            return .loaded(result.feed.statuses, result.skipped)
        } catch {
            return .failed(error)
        }
    }

    /// The streamed read of `reader`'s document, chunk after chunk, as a job decodes it.
    private func streamed(_ reader: JSONDocumentReader, options: LoadOptions = LoadOptions(), target: Int) -> Outcome {
        var decoder = JSONElementsDecoder(fileName: reader.fileName, options: options)
        var statuses: [Status] = []
        var skipped: [SkippedStatus] = []
        do {
            while let chunk = try reader.next(targetBytes: target) {
                XCTAssertEqual(chunk.firstIndex, statuses.count + skipped.count, "chunks are numbered in order")
                skipped += try decoder.decode(chunk) { statuses.append($0) }
            }
            return .loaded(statuses, skipped)
        } catch {
            return .failed(error)
        }
    }

    /// Asserts that `bytes` streams to what it loads to, at every size; returns that outcome.
    @discardableResult
    private func assertStreamsLikeTheWholeLoad(
        _ bytes: [UInt8], options: LoadOptions = LoadOptions(), _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) throws -> Outcome {
        let url = try write(bytes)
        let reference = whole(url, options: options)
        for size in Self.sizes {
            let reader = try JSONDocumentReader(url: url, options: options, readBytes: size.read)
            let outcome = streamed(reader, options: options, target: size.target)
            XCTAssertEqual(outcome, reference, "\(message) read \(size.read), chunks of \(size.target)", file: file, line: line)
        }
        return reference
    }

    /// The error of an outcome, failing the test when there is none.
    private func error(_ outcome: Outcome, file: StaticString = #filePath, line: UInt = #line) -> StatusModelError? {
        guard case .failed(let error) = outcome else {
            XCTFail("expected an error", file: file, line: line)
            return nil
        }
        return error
    }

    /// A status as one JSON object (its JSON Lines line).
    private func statusJSON(_ status: Status) -> String {
        String(decoding: FeedWriter.data([status], format: .jsonLines), as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    private func document(_ elements: [String], before: String = "", after: String = "") -> [UInt8] {
        Array("{\(before)\"statuses\":[\(elements.joined(separator: ","))]\(after)}".utf8)
    }

    // MARK: - Same statuses

    func testStreamedStatusesEqualTheWholeLoad() throws {
        let statuses = generated(21, 120)
        // As the writer writes it, as a bare array, pretty-printed, with members around the array.
        let written = [UInt8](FeedWriter.data(statuses, format: .weiboJSON))
        let elements = statuses.map(statusJSON)
        let pretty = try JSONSerialization.data(
            withJSONObject: [
                "ad": [["id": 1, "mark": "]}{\""]],
                "statuses": (try JSONSerialization.jsonObject(with: Data(written)) as! [String: Any])["statuses"]!,
            ],
            options: [.prettyPrinted, .sortedKeys])
        let cases: [(String, [UInt8])] = [
            ("written", written),
            ("bare array", Array("[\(elements.joined(separator: ","))]".utf8)),
            ("pretty", [UInt8](pretty)),
            (
                "members around",
                document(
                    elements, before: #""ad":[{"id":1,"s":"[{\"}]"}],"total_number":120, "#,
                    after: #" , "trends" : { "a" : [ [], {}, "]]" ] }, "since_id":0"# + "\n")
            ),
            ("byte order mark", [0xEF, 0xBB, 0xBF] + Array("\r\n\t [ \(elements.joined(separator: " ,\n ")) ] \n".utf8)),
            ("empty", Array(#"{"statuses":[ ]}"#.utf8)),
            ("empty array", Array("[]".utf8)),
        ]
        for (name, bytes) in cases {
            let outcome = try assertStreamsLikeTheWholeLoad(bytes, name)
            if case .loaded(let loaded, _) = outcome, name != "empty", name != "empty array" {
                XCTAssertEqual(loaded.count, 120, name)
                if name != "pretty" { XCTAssertEqual(loaded, statuses, name) }
            } else if case .failed(let error) = outcome {
                XCTFail("\(name): \(error)")
            }
        }
    }

    func testStringsWithBracketsBracesQuotesAndBackslashes() throws {
        let texts = [
            #"]]]}}} [[[{{{"#, #"a \"quoted\" ] word"#, #"back\\slash\\"#, #"\\\"}]"#, #"\\"#, #"\"[{"#, #"\u005d\u007d\"\\"#,
            #"\ud83d\ude00 ]"#, #"tab\t]newline\n}"#,
        ]
        let elements = texts.enumerated().map { (i, text) in
            #"{"id":\#(i + 1),"text":"\#(text)","user":{"id":7,"screen_name":"\#(text)"},"x\"]}":"\#(text)"}"#
        }
        let outcome = try assertStreamsLikeTheWholeLoad(
            document(elements, before: #""a\"]}\\":"]}\\\"\\","#, after: #","b":["\\","\"","]}"]"#))
        guard case .loaded(let statuses, _) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(statuses.map(\.id), Array(1...Int64(texts.count)))
        XCTAssertEqual(statuses[1].text, #"a "quoted" ] word"#)
        XCTAssertEqual(statuses[3].text, #"\"}]"#)
    }

    func testCorpusStreamsLikeTheWholeLoad() throws {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        for url in files {
            let reference = whole(url)
            guard case .loaded(let statuses, _) = reference else { return XCTFail("\(url.lastPathComponent): \(reference)") }
            XCTAssertGreaterThan(statuses.count, 20)
            for size in [(1 << 20, 1 << 20), (997, 8000)] {
                let reader = try JSONDocumentReader(url: url, readBytes: size.0)
                XCTAssertEqual(streamed(reader, target: size.1), reference, url.lastPathComponent)
            }
        }
    }

    // MARK: - Same errors

    func testInvalidStatusInTheMiddleIsTheSameError() throws {
        var elements = generated(3, 40).map(statusJSON)
        elements[17] = #"{"id":917,"text":"x","user":{"id":"seven","screen_name":"a"}}"#
        elements[29] = #"{"id":929,"text":"no user"}"#
        let bytes = document(elements, before: #""ad":[],"#)
        let failure = try assertStreamsLikeTheWholeLoad(bytes)
        let location = error(failure)?.location
        XCTAssertEqual(location?.file, dir.appendingPathComponent("feed.json").path)
        XCTAssertEqual(location?.index, 17)
        XCTAssertEqual(location?.id, 917)
        XCTAssertEqual(location?.keyPath, "statuses[17].user.id")

        // With skipInvalid: both skipped, in order, with the same errors; the rest decoded.
        let lenient = try assertStreamsLikeTheWholeLoad(bytes, options: LoadOptions(skipInvalid: true))
        guard case .loaded(let statuses, let skipped) = lenient else { return XCTFail("\(lenient)") }
        XCTAssertEqual(statuses.count, 38)
        XCTAssertEqual(skipped.map(\.index), [17, 29])
        XCTAssertEqual(skipped.map(\.id), [917, 929])
        XCTAssertEqual(skipped.last?.error.location?.keyPath, "statuses[29].user")

        // In a root array, key paths start at the index.
        let bare = try assertStreamsLikeTheWholeLoad(Array("[\(elements.joined(separator: ","))]".utf8))
        XCTAssertEqual(error(bare)?.location?.keyPath, "[17].user.id")
        // An element that is not an object.
        let scalar = try assertStreamsLikeTheWholeLoad(document([elements[0], #""text""#, "12", "null"]), options: LoadOptions(skipInvalid: true))
        guard case .loaded(_, let notObjects) = scalar else { return XCTFail("\(scalar)") }
        XCTAssertEqual(notObjects.map(\.index), [1, 2, 3])
    }

    /// Malformed documents: the same error (reason, line and column) as the whole load, wherever
    /// the problem is: inside an element, between elements, around the array, after the root.
    func testSyntaxErrorsAreTheWholeLoadsErrors() throws {
        let s = generated(8, 3).map(statusJSON)
        let a = s[0], b = s[1], c = s[2]
        let documents: [String] = [
            // after the array
            #"{"statuses":[\#(a),\#(b)]"#,
            "{\"statuses\":[\(a),\(b)]}\n x",
            "{\"statuses\":[\(a),\(b)]}\n\n]",
            "[\(a),\(b)] ]",
            "[\(a),\(b)]\n,",
            #"{"statuses":[\#(a)],}"#,
            #"{"statuses":[\#(a)] "more":1}"#,
            #"{"statuses":[\#(a)],"more":[1,2}"#,
            #"{"statuses":[\#(a)],"more":"\x"}"#,
            #"{"statuses":[\#(a)],"more":12ab}"#,
            #"{"statuses":[\#(a)],"more":tru}"#,
            #"{"statuses":[\#(a)],"more"}"#,
            #"{"statuses":[\#(a)],more:1}"#,
            // between elements
            "[\(a) \(b)]",
            "[\(a),,\(b)]",
            "[\(a),\(b),]",
            "[,\(a)]",
            "[\(a)\n\n:\(b)]",
            #"{"statuses":[\#(a),\#(b)}"#,
            // inside an element
            "[\(a),\n{\"id\":2,\"text\":\"x},\(c)]",
            "[\(a), tru, \(b)]",
            "[\(a), 12ab, \(b)]",
            "[\(a), truefalse, \(b)]",
            "[\(a), -, \(b)]",
            "[\(a), {\"id\":2,\"text\":\"a\u{01}b\"}, \(b)]",
            #"[\#(a), {"id":2,"text":"\x"}, \#(b)]"#,
            #"[\#(a), {"id":2,"text":"\ud800"}, \#(b)]"#,
            #"[\#(a), {"id":2,"text":"\u12"}, \#(b)]"#,
            #"[\#(a), "\u12", \#(b)]"#,
            #"[\#(a), "\u12"]"#,
            #"[\#(a), {"id":2,"id":3}, \#(b)]"#,
            #"[\#(a), {"id":2 "text":""}, \#(b)]"#,
            #"[\#(a), {"id":2,"text":""]], \#(b)]"#,
            #"[\#(a), {"id":2,"text":"""#,
            #"[\#(a), {"id":2,"te"#,
            #"[\#(a), {"id":2,"#,
            "[\(a), \"",
            // the root and its keys
            "[",
            "[\(a),",
            "[\(a)",
            "{",
            #"{"statuses""#,
            #"{"statuses":"#,
            #"{"statuses":["#,
            #"{"ad":1,"statuses":[\#(a)],"ad":2}"#,
            #"{"statuses":[\#(a)],"statuses":[]}"#,
            #"{"st\u0061tuses":[\#(a)],"statuses":[\#(b)]}"#,
            #"{"statuses":[\#(a)],"x":{"k":1,"k":2}}"#,
            #"{"statuses":[\#(a)],"bad key \ud800":1}"#,
            "{\"statuses\":[\(a)],\"x\":\"\u{01}\"}",
            "{\"statuses\":[\(a)],\"x\":\"\\u00e9\u{1}\"}",
            "x",
            "{} {}",
            "[] []",
            "\"abc\" x",
        ]
        for (k, text) in documents.enumerated() {
            let outcome = try assertStreamsLikeTheWholeLoad(Array(text.utf8), "document \(k)")
            guard let failure = error(outcome) else { continue }
            XCTAssertEqual(failure.caseName, "malformed", "document \(k): \(failure)")
        }
        // Invalid UTF-8 inside an element and inside another member.
        try assertStreamsLikeTheWholeLoad(Array("[\(a),{\"id\":2,\"text\":\"".utf8) + [0xC3, 0x28] + Array("\"}]".utf8))
        try assertStreamsLikeTheWholeLoad(Array("{\"statuses\":[\(a)],\"x\":\"".utf8) + [0xFF] + Array("\"}".utf8))
        // A byte order mark: columns count from after it.
        let bom = try assertStreamsLikeTheWholeLoad([0xEF, 0xBB, 0xBF] + Array("[\(a),\n  x]".utf8))
        XCTAssertTrue("\(error(bom).map { "\($0)" } ?? "")".contains("line 2, column 3"), "\(bom)")
    }

    /// Documents with one byte changed, deleted or inserted anywhere, read at random sizes: the
    /// stream gives what the whole load gives. The one allowed difference is of order: where the
    /// whole load reports a syntax error and the stream an invalid status before it, the stream
    /// with skipInvalid reports the whole load's error.
    func testMutatedDocumentsStreamLikeTheWholeLoad() throws {
        let s = generated(14, 4).map(statusJSON)
        let original = Array(
            "{\"ad\":[{\"id\":1,\"s\":\"]}\\\"{[\\\\\"}],\n \"statuses\" : [\(s[0]),\n\(s[1]) , \(s[2]),\(s[3])],\"x\":{\"k\":[true,null,-1.5e3]}}\n".utf8)
        guard case .loaded(let valid, _) = whole(try write(original)), valid.count == 4 else { return XCTFail("the original is valid") }
        let alphabet = Array("{}[]\"\\,: \n0-.etnx".utf8) + [0xC3, 0xFF, 0x01]
        var random = SplitMix64(seed: 2024)
        let rounds = 600
        for round in 0..<rounds {
            var bytes = original
            let at = random.below(bytes.count)
            switch random.below(3) {
            case 0: bytes[at] = alphabet[random.below(alphabet.count)]
            case 1: bytes.remove(at: at)
            default: bytes.insert(alphabet[random.below(alphabet.count)], at: at)
            }
            let url = try write(bytes)
            let reference = whole(url)
            let read = 1 + random.below(40), target = 1 + random.below(3000)
            let outcome = streamed(try JSONDocumentReader(url: url, readBytes: read), target: target)
            if outcome == reference { continue }
            let name = "round \(round) (read \(read), chunks of \(target)): \(String(decoding: bytes, as: UTF8.self))"
            guard case .failed(let syntax) = reference, syntax.location == nil, case .failed(let status) = outcome, status.location?.index != nil else {
                XCTFail("\(name)\nwhole: \(reference)\nstreamed: \(outcome)")
                continue
            }
            let lenient = LoadOptions(skipInvalid: true)
            XCTAssertEqual(
                streamed(try JSONDocumentReader(url: url, options: lenient, readBytes: read), options: lenient, target: target), .failed(syntax), name)
        }
    }

    func testRootsAndStatusesOfTheWrongKind() throws {
        let a = statusJSON(generated(8, 1)[0])
        let cases: [(String, String)] = [
            ("{}", "wrongRoot"),
            (#"{"ad":[1,2],"total_number":3}"#, "wrongRoot"),
            ("\"abc\"", "wrongRoot"),
            ("123", "wrongRoot"),
            ("null", "wrongRoot"),
            (#"{"statuses":{"a":[\#(a)]}}"#, "typeMismatch"),
            (#"{"statuses":"[1,2]"}"#, "typeMismatch"),
            (#"{"statuses":null,"more":[1]}"#, "typeMismatch"),
            // The whole load parses the document first: a syntax error after the wrong root wins.
            (#"{"statuses":null,"more":[1}"#, "malformed"),
            ("{} x", "malformed"),
            ("", "empty"),
            (" \n\t ", "empty"),
            ("\u{FEFF} \n", "malformed"),
        ]
        for (text, kind) in cases {
            let outcome = try assertStreamsLikeTheWholeLoad(Array(text.utf8), text)
            XCTAssertEqual(error(outcome)?.caseName, kind, text)
        }
    }

    func testNestingLimitIsTheWholeLoads() throws {
        let a = statusJSON(generated(8, 1)[0])
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let cases: [(String, Int)] = [
            (#"{"statuses":[\#(a)]}"#, 0),
            (#"{"statuses":[\#(a)]}"#, 1),
            (#"{"statuses":[\#(a)]}"#, 2),
            (#"{"statuses":[\#(a)]}"#, 3),
            (#"{"statuses":[\#(a)]}"#, 4),
            ("[\(a)]", 1),
            ("[\(a)]", 2),
            ("[\(a)]", 3),
            (#"{"statuses":[],"x":[[[[]]]]}"#, 4),
            (#"{"statuses":[],"x":[[[[]]]]}"#, 5),
            (#"{"statuses":[\#(a),\#(deep)]}"#, 128),
            (#"{"statuses":[\#(a)],"x":\#(deep)}"#, 128),
            (#"[\#(a),{"id":2,"text":"x","user":{"id":7,"screen_name":"u","x":\#(deep)}}]"#, 128),
            (deep, 128),
        ]
        for (text, limit) in cases {
            let outcome = try assertStreamsLikeTheWholeLoad(Array(text.utf8), options: LoadOptions(maxNestingDepth: limit), "\(text.prefix(40)) at \(limit)")
            if text.count > 10_000 { XCTAssertEqual(error(outcome)?.caseName, "nestingTooDeep") }
        }
    }

    func testInvalidFixturesFailAlike() throws {
        let invalid = TestPaths.fixtures.appendingPathComponent("invalid")
        let names = try FileManager.default.contentsOfDirectory(atPath: invalid.path).filter { $0.hasSuffix(".json") && $0 != "EXPECTED.json" }
        XCTAssertGreaterThan(names.count, 15)
        for name in names.sorted() {
            try assertStreamsLikeTheWholeLoad([UInt8](try Data(contentsOf: invalid.appendingPathComponent(name))), name)
            try assertStreamsLikeTheWholeLoad(
                [UInt8](try Data(contentsOf: invalid.appendingPathComponent(name))), options: LoadOptions(skipInvalid: true), name)
        }
    }

    /// Of two problems, the stream reports the first in the document; the whole load reports a
    /// syntax error anywhere first. With skipInvalid both report the syntax error.
    func testTheFirstProblemInTheDocumentIsReported() throws {
        let a = statusJSON(generated(8, 1)[0])
        let url = try write(Array("[\(a), 12, \(a)".utf8))
        XCTAssertEqual(error(whole(url))?.caseName, "malformed")
        XCTAssertEqual(error(streamed(try JSONDocumentReader(url: url), target: 1))?.caseName, "typeMismatch")
        let lenient = LoadOptions(skipInvalid: true)
        let reference = whole(url, options: lenient)
        XCTAssertEqual(error(reference)?.caseName, "malformed")
        XCTAssertEqual(streamed(try JSONDocumentReader(url: url, options: lenient), options: lenient, target: 1), reference)
    }

    /// An error after the array comes after every status of the array, from the next call.
    func testAnErrorAfterTheArrayComesAfterItsStatuses() throws {
        let statuses = generated(4, 30)
        let url = try write(Array(#"{"statuses":[\#(statuses.map(statusJSON).joined(separator: ","))],"x":1"#.utf8))
        let reader = try JSONDocumentReader(url: url)
        var decoder = JSONElementsDecoder(fileName: reader.fileName)
        var seen: [Status] = []
        let chunk = try XCTUnwrap(try reader.next())
        _ = try decoder.decode(chunk) { seen.append($0) }
        XCTAssertEqual(seen, statuses)
        XCTAssertThrowsError(try reader.next()) { error in
            XCTAssertEqual((error as? StatusModelError)?.caseName, "malformed")
            XCTAssertTrue("\(error)".contains("unexpected end of the data"), "\(error)")
        }
        XCTAssertNil(try reader.next(), "nothing after the error")
    }

    // MARK: - Inputs read once, memory

    func testPipesAreStreamedLikeFiles() throws {
        let statuses = generated(6, 200)
        let bytes = [UInt8](FeedWriter.data(statuses, format: .weiboJSON))
        let fifo = dir.appendingPathComponent("feed.fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let path = fifo.path
        Thread.detachNewThread { Self.writeAll(bytes, to: open(path, O_WRONLY | O_CLOEXEC)) }
        let source = try FeedSource.open(fifo.path)
        guard case .jsonDocument(let reader) = source else { return XCTFail("a JSON document is streamed from a pipe: \(source)") }
        XCTAssertEqual(streamed(reader, target: 10_000), .loaded(statuses, []))

        // Standard input, through a descriptor: the bytes read to detect the format come first.
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let rest = Array(bytes.dropFirst(100))
        Thread.detachNewThread { Self.writeAll(rest, to: writeEnd) }
        let stdin = JSONDocumentReader(fileDescriptor: readEnd, fileName: "<stdin>", prefix: Array(bytes.prefix(100)), readBytes: 333)
        XCTAssertEqual(streamed(stdin, target: 5000), .loaded(statuses, []))
    }

    /// Writes `bytes` to `descriptor`, then closes it.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        guard descriptor >= 0 else { return }
        var done = 0
        bytes.withUnsafeBytes { raw in
            while done < raw.count {
                let n = Glibc.write(descriptor, raw.baseAddress! + done, raw.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
        }
        close(descriptor)
    }

    func testStreamingAJSONDocumentKeepsMemoryBounded() throws {
        guard residentBytes() != nil else { throw XCTSkip("/proc/self/statm is not available on this system") }
        // 150 000 small statuses, about 20 MB: the whole load holds the bytes, their tape and the
        // statuses; the stream holds a chunk.
        let samples = generated(12, 300).map { s -> String in
            #""text":"\#(String(s.text.prefix(40)).replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: "\n", with: " "))","user":{"id":\#(s.user.id),"screen_name":"u"}}"#
        }
        let url = dir.appendingPathComponent("big.json")
        let writer = try AtomicFileWriter(url: url)
        var buffer = Array("{\"ad\":[],\"statuses\":[\n".utf8)
        let total = 150_000
        for i in 0..<total {
            buffer += Array("\(i == 0 ? "" : ",\n"){\"id\":\(i + 1),".utf8) + Array(samples[i % samples.count].utf8)
            if buffer.count > 1 << 20 {
                try writer.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        buffer += Array("\n],\"total_number\":\(total)}\n".utf8)
        try writer.write(Data(buffer))
        try writer.commit()
        let fileSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)

        let reader = try JSONDocumentReader(url: url)
        var decoder = JSONElementsDecoder(fileName: reader.fileName)
        var count = 0
        var idSum: Int64 = 0
        var baseline = 0
        var peak = 0
        while let chunk = try reader.next(targetBytes: 256 << 10) {
            _ = try decoder.decode(chunk) { s in
                count += 1
                idSum &+= s.id
            }
            if count >= 20_000 && baseline == 0 { baseline = residentBytes() ?? 0 }
            if baseline > 0 { peak = max(peak, residentBytes() ?? 0) }
        }
        XCTAssertEqual(count, total)
        XCTAssertEqual(idSum, Int64(total) * Int64(total + 1) / 2)
        let growth = peak - baseline
        print("JSON document streaming: file \(fileSize >> 20) MiB, RSS growth after warm-up \(growth >> 10) KiB")
        XCTAssertGreaterThan(fileSize, 16 << 20, "the file is larger than the allowed growth")
        XCTAssertLessThan(growth, 8 << 20, "RSS grew by \(growth >> 20) MiB while streaming \(fileSize >> 20) MiB")
    }

    /// Resident set size in bytes, from /proc/self/statm (Linux); nil elsewhere.
    private func residentBytes() -> Int? {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = s.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
