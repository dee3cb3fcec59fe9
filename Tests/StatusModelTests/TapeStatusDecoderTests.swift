import FeedLayoutSupport
import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

/// The tape decoder (the fast path of JSON decoding) against the generic `StatusDecoder`: whenever
/// the fast path answers, the generic decoder accepts the same status and decodes the same value;
/// when the generic decoder rejects a status, the fast path never answers.
final class TapeStatusDecoderTests: XCTestCase {
    private struct Outcome {
        var fast: Status?
        var generic: Status?
    }

    /// Both decoders on every status node `statuses` picks in the parsed `bytes`; nil when the
    /// bytes do not parse.
    private func outcomes(
        _ bytes: [UInt8], maxStringBytes: Int = 1 << 20, statuses: (JSONNode) -> [JSONNode] = { [$0] }
    ) -> [Outcome]? {
        var tape = JSONTape()
        return bytes.withUnsafeBufferPointer { input -> [Outcome]? in
            do throws(JSONTape.SyntaxError) {
                try tape.parse(input, maxDepth: 128)
            } catch {
                return nil
            }
            return tape.withDocument(input) { document -> [Outcome] in
                statuses(document.root).filter(\.isObject).map { node in
                    let rooted = document.node(Int(node.index), root: Int(node.index))
                    return Outcome(
                        fast: TapeStatusDecoder(document: document, maxStringBytes: maxStringBytes).status(Int(node.index)),
                        generic: try? StatusDecoder.weibo(Fields(rooted, maxStringBytes: maxStringBytes)))
                }
            }
        }
    }

    private func assertAgree(_ o: Outcome, _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
        guard let fast = o.fast else { return }
        guard let generic = o.generic else {
            XCTFail("the fast path accepts what the generic decoder rejects: \(what())", file: file, line: line)
            return
        }
        XCTAssertEqual(fast, generic, what(), file: file, line: line)
        XCTAssertEqual(fast.contentFingerprint, generic.contentFingerprint, what(), file: file, line: line)
    }

    private func generatedLines(_ count: Int, seed: UInt64 = 5) -> [[UInt8]] {
        let data = FeedWriter.data(generated(seed, count), format: .jsonLines)
        return data.split(separator: 0x0A).map { Array($0) }
    }

    func testGeneratedStatusesTakeTheFastPathAndDecodeAsTheGenericDecoderDoes() {
        for (i, line) in generatedLines(1_500).enumerated() {
            guard let o = outcomes(line)?.first else { return XCTFail("line \(i + 1) does not parse") }
            XCTAssertNotNil(o.fast, "line \(i + 1): the fast path declined a plain generated status")
            assertAgree(o, "line \(i + 1)")
        }
    }

    func testCorpusStatusesDecodeAsTheGenericDecoderDoes() throws {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        var fast = 0
        var total = 0
        for url in files {
            let all = try XCTUnwrap(outcomes(Array(try Data(contentsOf: url))) { $0.member("statuses")?.elements ?? [] })
            for (i, o) in all.enumerated() {
                assertAgree(o, "\(url.lastPathComponent) statuses[\(i)]")
                total += 1
                if o.fast != nil { fast += 1 }
            }
        }
        XCTAssertGreaterThan(total, 0)
        XCTAssertEqual(fast, total, "every corpus status is plain enough for the fast path")
    }

    func testInvalidFixturesNeverTakeTheFastPathWhereTheGenericDecoderFails() throws {
        let dir = TestPaths.fixtures.appendingPathComponent("invalid")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".json") || name.hasSuffix(".jsonl") {
            let bytes = Array(try Data(contentsOf: dir.appendingPathComponent(name)))
            let lines = name.hasSuffix(".jsonl") ? bytes.split(separator: 0x0A).map { Array($0) } : [bytes]
            for line in lines {
                let all = outcomes(line) { root in root.isArray ? root.elements : (root.member("statuses")?.elements ?? [root]) }
                for (i, o) in (all ?? []).enumerated() { assertAgree(o, "\(name) status \(i)") }
            }
        }
    }

    /// Generated lines with one scalar (a key or a value) replaced by another token: wrong
    /// types, nulls, numbers as strings, fractions, escapes, renamed and duplicated keys. With a
    /// small string limit too, so that limits are crossed.
    func testMutatedStatusesDecodeAsTheGenericDecoderDoesOrFallBack() {
        let tokens = [
            "null", "0", "1", "-1", "2.0", "1e2", "9223372036854775808", "true", "false", "{}", "[]", "[1]", "{\"a\":1}",
            "\"\"", "\"1\"", "\"305\"", "\"true\"", "\"0\"", "\"TRUE\"", "\"False\"", "\"yes\"", "\"2\"", "\"gif\"", "\"WEBP\"", "\"x\"", "\"\\u5fae\\u535a\"", "\"a\\nb\"",
            "\"id\"", "\"text\"", "\"user\"", "\"large\"", "\"bmiddle\"", "\"pic_id\"", "\"name\"", "\"deleted\"",
            "\"retweeted_status\"", "\"pic_ids\"", "\"pic_infos\"", "\"url_struct\"", "\"buttons\"", "\"type\"",
            "\"Wed Sep 09 10:11:34 +0800 2015\"", "\"Wed Sep 09 10:11:34 +0800\"", "\"\\u0031\"", "\"+5\"", "\" 7\"", "\"0440\"", "\"-3\"", "\"1234567890123456789\"",
        ].map { Array($0.utf8) }
        var rng = SplitMix64(seed: 23)
        var tape = JSONTape()
        var fastAnswers = 0
        var genericAccepts = 0
        var cases = 0
        for (i, line) in generatedLines(300, seed: 11).enumerated() {
            // The scalars of the line, as byte ranges.
            var scalars: [Range<Int>] = []
            line.withUnsafeBufferPointer { input in
                do throws(JSONTape.SyntaxError) { try tape.parse(input, maxDepth: 128) } catch { return }
                for n in tape.nodes {
                    switch n.kind {
                    case .string: scalars.append(Int(n.offset) - 1..<Int(n.offset) + Int(n.length) + 1)
                    case .number: scalars.append(Int(n.offset)..<Int(n.offset) + Int(n.length))
                    case .trueValue, .null: scalars.append(Int(n.offset)..<Int(n.offset) + 4)
                    case .falseValue: scalars.append(Int(n.offset)..<Int(n.offset) + 5)
                    case .array, .object, .plistOther: break
                    }
                }
            }
            XCTAssertFalse(scalars.isEmpty)
            for _ in 0..<25 {
                let range = scalars[Int(rng.next() % UInt64(scalars.count))]
                var mutated = line
                mutated.replaceSubrange(range, with: tokens[Int(rng.next() % UInt64(tokens.count))])
                let limit = rng.next() % 4 == 0 ? 12 : 1 << 20
                for o in outcomes(mutated, maxStringBytes: limit) ?? [] {
                    cases += 1
                    if o.fast != nil { fastAnswers += 1 }
                    if o.generic != nil { genericAccepts += 1 }
                    assertAgree(o, "line \(i + 1) mutated: \(String(decoding: mutated, as: UTF8.self))")
                }
            }
        }
        // The mutations reach both sides: statuses the fast path decodes and ones it leaves.
        XCTAssertGreaterThan(fastAnswers, 0)
        XCTAssertGreaterThan(cases - genericAccepts, 0)
        XCTAssertGreaterThan(genericAccepts, 0)
    }
}
