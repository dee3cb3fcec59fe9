import Foundation
import XCTest
import _LayoutTestSupport

/// End-to-end runs of the built `feedlayout` binary: `validate` and `generate`.
final class ValidateGenerateTests: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func run(_ args: [String]) throws -> Run {
        let r = try FeedlayoutBinary.run(args)
        return Run(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: r.stderr)
    }

    private func tempDir() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fl-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func testValidateFixtures() throws {
        let f = TestPaths.fixtures
        let r = try run(["validate", f.appendingPathComponent("StatusInfo.plist").path, f.appendingPathComponent("feed.plist").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("StatusInfo.plist: 33 statuses, 0 retweets, 0 pictures (classic-plist)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("feed.plist: 13 statuses, 4 retweets, 22 pictures (plist)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("total: 46 statuses, 4 retweets, 22 pictures in 2 files"), r.stdout)
        XCTAssertEqual(r.stderr, "")
        // A file that cannot be read is not counted in the total.
        let missing = try run(["validate", f.appendingPathComponent("StatusInfo.plist").path, "/nonexistent/a.json", f.appendingPathComponent("feed.plist").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stdout.contains("total: 46 statuses, 4 retweets, 22 pictures in 2 files (1 not read)"), missing.stdout)
    }

    func testValidateCorpus() throws {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        let r = try run(["validate"] + files.map(\.path))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("total: 206 statuses, 108 retweets, 623 pictures in 8 files"), r.stdout)
        XCTAssertTrue(r.stdout.contains("weibo_0.json: 27 statuses, 16 retweets, 43 pictures (json)"), r.stdout)
    }

    func testEveryInvalidFixtureExitsOneNamingFileAndField() throws {
        let dir = TestPaths.fixtures.appendingPathComponent("invalid")
        let expected = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("EXPECTED.json"))) as? [String: [String: Any]])
        XCTAssertGreaterThanOrEqual(expected.count, 20)
        // Inputs too large to commit (huge-string.json) are written by StatusModelTests instead.
        let committed = expected.filter { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0.key).path) }
        XCTAssertGreaterThanOrEqual(committed.count, 20)
        for (name, want) in committed.sorted(by: { $0.key < $1.key }) {
            let r = try run(["validate", dir.appendingPathComponent(name).path])
            XCTAssertEqual(r.status, 1, name)
            XCTAssertTrue(r.stderr.contains(name), "\(name): \(r.stderr)")
            if let keyPath = want["keyPath"] as? String, !keyPath.isEmpty {
                XCTAssertTrue(r.stderr.contains(keyPath), "\(name): \(r.stderr)")
            }
            // A friend list's errors name the group and the friend, a sectioned plist's the section.
            let friends = (want["keyPath"] as? String)?.contains(".Friends") == true || name.hasPrefix("friends-")
            if let index = want["index"] as? Int {
                XCTAssertTrue(r.stderr.contains("\(friends ? "friend" : "status") \(index)"), "\(name): \(r.stderr)")
            }
            if let section = want["section"] as? Int {
                XCTAssertTrue(r.stderr.contains("\(friends ? "group" : "section") \(section)"), "\(name): \(r.stderr)")
            }
            XCTAssertFalse(r.stdout.contains("statuses,"), "\(name): no counts for a failed file")
        }
    }

    func testSkipInvalidReportsEachSkippedStatus() throws {
        let file = TestPaths.fixtures.appendingPathComponent("invalid/wrong-type-screen-name.json").path
        let r = try run(["validate", "--skip-invalid", file])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("3 statuses, 0 retweets, 0 pictures (json), 1 invalid skipped"), r.stdout)
        XCTAssertTrue(r.stderr.contains("skipped: \(file): status 3"), r.stderr)
        XCTAssertTrue(r.stderr.contains("statuses[3].user.screen_name"), r.stderr)
        // The status is named once, by its error (the message used to say "status 3" twice).
        XCTAssertEqual(r.stderr.components(separatedBy: "status 3").count, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("1 invalid statuses skipped"), r.stderr)
    }

    /// Standard input is `<stdin>` in the report as in errors (the report said "-").
    func testStandardInputIsNamedAsInErrors() throws {
        let good = try FeedlayoutBinary.run(["validate", "-"], stdin: Data(#"{"statuses":[]}"#.utf8))
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(String(decoding: good.stdout, as: UTF8.self).hasPrefix("<stdin>: 0 statuses"), String(decoding: good.stdout, as: UTF8.self))
        let bad = try FeedlayoutBinary.run(["validate", "-"], stdin: Data(#"{"statuses":[{"id":1}]}"#.utf8))
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("<stdin>: status 0"), bad.stderr)
    }

    func testValidateMissingFile() throws {
        let r = try run(["validate", "/nonexistent/dir/feed.json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("feed.json"), r.stderr)
    }

    func testGenerateIsDeterministic() throws {
        let a = try run(["generate", "--count", "60", "--seed", "7", "--format", "jsonl"])
        let b = try run(["generate", "--count", "60", "--seed", "7", "--format", "jsonl"])
        let c = try run(["generate", "--count", "60", "--seed", "8", "--format", "jsonl"])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(a.stdout, b.stdout)
        XCTAssertNotEqual(a.stdout, c.stdout)
        XCTAssertEqual(a.stdout.split(separator: "\n").count, 60)
    }

    func testGenerateWritesAtomicallyAndValidates() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in ["plist", "json", "jsonl"] {
            let out = dir.appendingPathComponent("gen.\(format)").path
            let g = try run(["generate", "--count", "120", "--seed", "3", "--format", format, "-o", out])
            XCTAssertEqual(g.status, 0, g.stderr)
            XCTAssertEqual(g.stdout, "")
            let v = try run(["validate", out])
            XCTAssertEqual(v.status, 0, v.stderr)
            XCTAssertTrue(v.stdout.contains("gen.\(format): 120 statuses"), v.stdout)
            XCTAssertTrue(v.stdout.hasSuffix("(\(format))\n"), v.stdout)
        }
        let stdoutJSON = try run(["generate", "--count", "120", "--seed", "3", "--format", "json"])
        XCTAssertEqual(stdoutJSON.stdout, try String(contentsOf: dir.appendingPathComponent("gen.json"), encoding: .utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["gen.json", "gen.jsonl", "gen.plist"])
    }

    func testGenerateErrors() throws {
        let bad = try run(["generate", "--count", "5", "-o", "/nonexistent-dir/x.jsonl"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("x.jsonl"), bad.stderr)
        // Usage errors exit with 2 (ArgumentParser's EX_USAGE, 64, is mapped to 2).
        XCTAssertEqual(try run(["generate", "--count", "-1"]).status, 2)
        XCTAssertEqual(try run(["generate", "--count", "1", "--format", "xml"]).status, 2)
        XCTAssertEqual(try run(["validate"]).status, 2)
    }
}
