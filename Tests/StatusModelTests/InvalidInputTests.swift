import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

final class InvalidInputTests: XCTestCase {
    private var dir: URL { TestPaths.fixtures.appendingPathComponent("invalid") }

    private func expectations() throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: dir.appendingPathComponent("EXPECTED.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
    }

    /// Invalid inputs made at test time instead of committed (a 10 MB file has no place in git).
    private static let madeAtTestTime: [String: Data] = [
        "huge-string.json": Data(
            ("{\"statuses\": [{\"id\": 0, \"text\": \"" + String(repeating: "长", count: 10 * 1024 * 1024 / 3 + 1)
                + "\", \"user\": {\"id\": 1, \"screen_name\": \"u\"}}]}").utf8)
    ]

    func testEveryInvalidFixtureGivesItsExpectedError() throws {
        let expected = try expectations()
        let committed = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "EXPECTED.json" }
        let files = (committed + Self.madeAtTestTime.keys).sorted()
        XCTAssertGreaterThanOrEqual(files.count, 20)
        XCTAssertEqual(Set(files), Set(expected.keys), "every invalid fixture has an expectation and vice versa")
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("fl-invalid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temp) }
        for (name, data) in Self.madeAtTestTime { try data.write(to: temp.appendingPathComponent(name)) }
        for name in files {
            guard let want = expected[name] else { continue }
            let url = (Self.madeAtTestTime[name] != nil ? temp : dir).appendingPathComponent(name)
            do {
                let r = try FeedLoader.load(contentsOf: url)
                XCTFail("\(name): loaded \(r.feed.statuses.count) statuses, expected \(want["case"] ?? "?")")
            } catch {
                XCTAssertEqual(error.caseName, want["case"] as? String, "\(name): \(error)")
                XCTAssertEqual(error.file, url.path, "\(name): the error names the file as given")
                XCTAssertEqual(error.location?.keyPath ?? "", want["keyPath"] as? String, "\(name): \(error)")
                if let index = want["index"] as? Int { XCTAssertEqual(error.location?.index, index, name) }
                if let id = want["id"] as? Int { XCTAssertEqual(error.location?.id, Int64(id), name) }
                if let section = want["section"] as? Int {
                    XCTAssertEqual(error.location?.section?.index, section, "\(name): \(error)")
                    XCTAssertEqual(error.location?.section?.title, want["title"] as? String, "\(name): \(error)")
                }
                if let line = want["line"] as? Int {
                    switch error {
                    case .malformed(_, _, let l, _), .wrongRoot(_, let l, _, _), .nestingTooDeep(_, let l, _):
                        XCTAssertEqual(l, line, name)
                    default: XCTAssertEqual(error.location?.line, line, name)
                    }
                }
                XCTAssertFalse(error.description.isEmpty)
            }
        }
    }

    func testSkipInvalidLoadsTheRest() throws {
        let options = LoadOptions(skipInvalid: true)
        let r = try FeedLoader.load(contentsOf: dir.appendingPathComponent("missing-text.json"), options: options)
        XCTAssertEqual(r.feed.statuses.map(\.id), [5000])
        XCTAssertEqual(r.skipped.map(\.index), [1])
        XCTAssertEqual(r.skipped.first?.id, 5001)
        XCTAssertEqual(r.skipped.first?.error.caseName, "missingKey")

        let lines = try FeedLoader.load(contentsOf: dir.appendingPathComponent("bad-line3.jsonl"), options: options)
        XCTAssertEqual(lines.feed.statuses.map(\.id), [5000, 5001, 5003])
        XCTAssertEqual(lines.skipped.map(\.index), [2])

        let screen = try FeedLoader.load(contentsOf: dir.appendingPathComponent("wrong-type-screen-name.json"), options: options)
        XCTAssertEqual(screen.feed.statuses.count, 3)
        XCTAssertEqual(screen.skipped.count, 1)
    }

    func testFileLevelErrorsAreNotSkippable() {
        let options = LoadOptions(skipInvalid: true)
        for name in ["truncated.json", "garbage.bin", "deep-nesting.json", "wrong-root-object.json"] {
            XCTAssertThrowsError(try FeedLoader.load(contentsOf: dir.appendingPathComponent(name), options: options), name)
        }
    }

    func testStrictByDefaultStopsAtTheFirstInvalidStatus() {
        let data = jsonData(["statuses": [weiboStatus(1), weiboStatus(2, ["text": 5]), weiboStatus(3, ["user": 1])]])
        let e = loadError(data)
        XCTAssertEqual(e?.location?.keyPath, "statuses[1].text")
        XCTAssertEqual(e?.location?.id, 2)
    }

    func testWrongTypesAnywhereNeverCrash() throws {
        // Every key of a rich status replaced by every kind of wrong value: always a typed result.
        let base = weiboStatus(1, [
            "pic_ids": ["p"], "pic_infos": ["p": ["large": ["url": "u", "width": 1, "height": 2]]],
            "url_struct": [["short_url": "s"]], "topic_struct": [["topic_title": "t"]], "tag_struct": [["tag_name": "n"]],
            "page_info": ["page_title": "c"], "title": ["text": "热门"], "retweeted_status": weiboStatus(2),
        ])
        let wrongs: [Any] = [NSNull(), true, 3.5, "文字", [1, 2], ["k": "v"], -1]
        var outcomes = 0
        for key in base.keys.sorted() {
            for w in wrongs {
                var s = base
                s[key] = w
                do {
                    _ = try FeedLoader.load(data: jsonData(["statuses": [s]]), fileName: "w.json")
                    outcomes += 1
                } catch {
                    XCTAssertTrue(error.location?.keyPath.hasPrefix("statuses[0]") ?? false, "\(key) = \(w): \(error)")
                    outcomes += 1
                }
            }
        }
        XCTAssertEqual(outcomes, base.count * wrongs.count)
    }

    func testTruncationAtEveryLengthNeverCrashes() throws {
        let data = FeedWriter.data(generated(3, 2), format: .weiboJSON)
        var errors = 0
        for n in stride(from: 0, to: data.count - 4, by: 7) {
            do {
                _ = try FeedLoader.load(data: data.prefix(n), fileName: "cut.json")
            } catch {
                errors += 1
            }
        }
        XCTAssertEqual(errors, (data.count - 4 + 6) / 7, "every truncated prefix is rejected")
    }

    func testLimitsAreConfigurable() {
        let deep = Data((String(repeating: "[", count: 20) + String(repeating: "]", count: 20)).utf8)
        XCTAssertEqual(loadError(deep, options: LoadOptions(maxNestingDepth: 10)), .nestingTooDeep(file: "t.json", line: nil, limit: 10))
        let long = jsonData([weiboStatus(1, ["text": String(repeating: "a", count: 100)])])
        XCTAssertEqual(loadError(long, options: LoadOptions(maxStringBytes: 50))?.caseName, "valueTooLarge")
    }

    func testMissingFileAndDirectoryAreUnreadable() {
        XCTAssertThrowsError(try FeedLoader.load(contentsOf: URL(fileURLWithPath: "/nonexistent/feed.json"))) { e in
            XCTAssertEqual((e as? StatusModelError)?.caseName, "unreadable")
        }
        XCTAssertThrowsError(try FeedLoader.load(contentsOf: TestPaths.fixtures)) { e in
            XCTAssertEqual((e as? StatusModelError)?.caseName, "unreadable")
        }
    }
}

final class BinaryPlistTests: XCTestCase {
    func testBinaryPlistsLoadAndAreDepthChecked() throws {
        let feed = try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("feed.plist")).feed
        let xml = FeedWriter.data(feed.statuses, format: .modelPlist)
        let tree = try PropertyListSerialization.propertyList(from: xml, format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: tree, format: .binary, options: 0)
        XCTAssertTrue(binary.starts(with: Array("bplist".utf8)))
        let back = try FeedLoader.load(data: binary, fileName: "feed.bin").feed
        XCTAssertEqual(back.format, .modelPlist)
        XCTAssertTrue(back.statuses == feed.statuses)

        let nested = try PropertyListSerialization.data(fromPropertyList: [[[[[1]]]]], format: .binary, options: 0)
        XCTAssertNotEqual(loadError(nested, name: "n.plist", options: LoadOptions(maxNestingDepth: 5))?.caseName, "nestingTooDeep")
        XCTAssertEqual(loadError(nested, name: "n.plist", options: LoadOptions(maxNestingDepth: 4))?.caseName, "nestingTooDeep")
        let two = LoadOptions(maxNestingDepth: 2)
        let shallow = Data("<plist><array><array/><array></array></array></plist>".utf8)
        XCTAssertEqual(loadError(shallow, name: "s.plist", options: two)?.caseName, "typeMismatch")
        let deep = Data("<plist><array><dict><key>a</key><array></array></dict></array></plist>".utf8)
        XCTAssertEqual(loadError(deep, name: "d.plist", options: two)?.caseName, "nestingTooDeep")
        // A damaged trailer is malformed.
        var damaged = [UInt8](binary)
        damaged.removeLast(10)
        XCTAssertEqual(loadError(Data(damaged), name: "d.plist")?.caseName, "malformed")
    }
}

final class MutationTests: XCTestCase {
    /// Random byte flips, insertions and cuts of valid inputs in every format: each load either
    /// succeeds or throws a typed error (a crash fails the whole run). Failures print the seed.
    func testRandomMutationsNeverCrash() throws {
        let statuses = generated(21, 3)
        let classic = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("StatusInfo.plist")).prefix(3000)
        let inputs: [(String, Data)] = [
            ("m.json", FeedWriter.data(statuses, format: .weiboJSON)),
            ("m.jsonl", FeedWriter.data(statuses, format: .jsonLines)),
            ("m.plist", FeedWriter.data(statuses, format: .modelPlist)),
            ("c.plist", classic),
        ]
        var loaded = 0
        var failed = 0
        for (name, original) in inputs {
            for seed in UInt64(0)..<150 {
                var rng = SplitMix64(seed: seed)
                var bytes = [UInt8](original)
                for _ in 0..<(1 + rng.below(4)) {
                    let at = rng.below(bytes.count)
                    switch rng.below(4) {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                    case 1: bytes.insert(rng.pick([0xFF, 0xC0, 0x00, 0x22, 0x5B, 0x7B, 0x3C]), at: at)
                    case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + rng.below(40)))
                    default: bytes[at] = rng.pick([0x22, 0x5D, 0x7D, 0x3A, 0x2C, 0x0A])
                    }
                    if bytes.isEmpty { bytes = [0x20] }
                }
                do {
                    _ = try FeedLoader.load(data: Data(bytes), fileName: name, options: LoadOptions(skipInvalid: seed % 2 == 0))
                    loaded += 1
                } catch {
                    XCTAssertFalse(error.description.isEmpty, "\(name) seed \(seed)")
                    failed += 1
                }
            }
        }
        XCTAssertEqual(loaded + failed, inputs.count * 150)
        XCTAssertGreaterThan(failed, 0, "mutations do break inputs")
    }
}
