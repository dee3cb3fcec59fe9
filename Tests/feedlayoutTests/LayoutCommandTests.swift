import Foundation
import XCTest
import _LayoutTestSupport

/// End-to-end runs of the built `feedlayout layout`.
final class LayoutCommandTests: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs the binary with `args` (stdin from `stdin` when given, else empty).
    private func run(_ args: [String], stdin: Data? = nil) throws -> Run {
        let r = try FeedlayoutBinary.run(args, stdin: stdin)
        return Run(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    private func tempDir() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fl-layout-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A generated JSON Lines feed of `count` statuses.
    private func generated(_ count: Int, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("feed-\(count).jsonl")
        let r = try run(["generate", "--count", String(count), "--seed", "5", "--format", "jsonl", "-o", url.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return url
    }

    /// A property list is opened once: a plain one goes to the export as loaded (it was read
    /// and parsed twice, to look for sections and then to export it), and an invalid status in
    /// it is reported once (it was reported twice, with the count).
    func testAPlainPropertyListIsReadOnceAndItsSkippedStatusesReportedOnce() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plist = dir.appendingPathComponent("g.plist")
        XCTAssertEqual(try run(["generate", "--count", "3", "--seed", "5", "--format", "plist", "-o", plist.path]).status, 0)
        var root = try XCTUnwrap(PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil) as? [String: Any])
        var statuses = try XCTUnwrap(root["statuses"] as? [[String: Any]])
        statuses[1]["text"] = nil
        root["statuses"] = statuses
        try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0).write(to: plist)
        let r = try run(["layout", plist.path, "--skip-invalid", "--format", "jsonl"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "statuses[1].text").count, 2, r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "1 invalid statuses skipped").count, 2, r.stderr)
        XCTAssertEqual(r.text.split(separator: "\n").filter { $0.contains("\"row\"") }.count, 2, "the two valid statuses")
    }

    func testDemoFeedDocument() throws {
        let r = try run(["layout", "--width", "375", TestPaths.fixtures.appendingPathComponent("feed.plist").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "nothing on stderr when it is not a terminal")
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        XCTAssertEqual(root["schemaVersion"] as? Int, 1)
        XCTAssertEqual((root["generator"] as? [String: Any])?["name"] as? String, "feedlayout")
        XCTAssertEqual(root["rowCount"] as? Int, 13)
        let fonts = try XCTUnwrap(root["fonts"] as? [[String: Any]])
        XCTAssertEqual(fonts.count, 4)  // the cascade of Fonts/fonts.json
        XCTAssertTrue(fonts.allSatisfy { ($0["sha256"] as? String)?.count == 64 })
    }

    func testByteIdenticalAcrossThreadCountsAndRuns() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = try generated(100, in: dir)
        for format in ["json", "jsonl"] {
            let runs = try [1, 2, 4].map { try run(["layout", feed.path, "--format", format, "--threads", String($0), "--max-lines", "4"]) }
            for r in runs { XCTAssertEqual(r.status, 0, r.stderr) }
            XCTAssertGreaterThan(runs[0].stdout.count, 30_000)
            for r in runs.dropFirst() { XCTAssertTrue(r.stdout == runs[0].stdout, "\(format): output differs across --threads") }
        }
    }

    func testFailingRunLeavesExistingOutputUntouched() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 1200 valid statuses, then an invalid one: the first batch (1024 rows) is already encoded
        // and written to the temporary file when the error comes.
        let good = try Data(contentsOf: try generated(1300, in: dir))
        var lines = good.split(separator: 0x0A).map { Data($0) }
        lines.insert(Data(#"{"id": "not a number", "text": "x"}"#.utf8), at: 1200)
        let bad = dir.appendingPathComponent("bad.jsonl")
        try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: bad)

        let existing = dir.appendingPathComponent("frames.jsonl")
        let before = Data("previous contents\n".utf8)
        try before.write(to: existing)
        let r = try run(["layout", bad.path, "--format", "jsonl", "-o", existing.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("bad.jsonl"), r.stderr)
        XCTAssertTrue(r.stderr.contains("1201"), "the message names the line: \(r.stderr)")
        XCTAssertEqual(try Data(contentsOf: existing), before, "an existing file must stay byte-identical")

        // A missing output file is not created by a failing run (a short input fails the same way).
        let shortBad = dir.appendingPathComponent("short-bad.jsonl")
        try Data((lines[0..<5] + [lines[1200]]).joined(separator: [0x0A]) + [0x0A]).write(to: shortBad)
        let fresh = dir.appendingPathComponent("new.json")
        let r2 = try run(["layout", shortBad.path, "-o", fresh.path])
        XCTAssertEqual(r2.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh.path), "no partial file")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [], "temporary files are removed")

        // A successful run replaces the file.
        let shortGood = dir.appendingPathComponent("short-good.jsonl")
        try Data(lines[0..<5].joined(separator: [0x0A]) + [0x0A]).write(to: shortGood)
        let ok = try run(["layout", shortGood.path, "--format", "jsonl", "-o", existing.path])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stdout.count, 0)
        let written = try Data(contentsOf: existing)
        XCTAssertEqual(written.split(separator: 0x0A).count, 5)
    }

    /// A Weibo JSON document is streamed like JSON Lines: from a file or standard input, at any
    /// --threads, the same bytes; an error after its array (here the document's last `}` is
    /// missing) fails the run after rows were written to the temporary file, and leaves no file.
    func testJSONDocumentIsStreamedAndAnErrorAfterItsArrayLeavesNoFile() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.json")
        let generate = try run(["generate", "--count", "1300", "--seed", "5", "--format", "json", "-o", good.path])
        XCTAssertEqual(generate.status, 0, generate.stderr)
        let bytes = try Data(contentsOf: good)
        let runs = try [1, 2].map { try run(["layout", good.path, "--format", "jsonl", "--threads", String($0)]) }
        let viaStdin = try run(["layout", "-", "--format", "jsonl", "--threads", "2"], stdin: bytes)
        for r in runs + [viaStdin] { XCTAssertEqual(r.status, 0, r.stderr) }
        XCTAssertEqual(runs[0].stdout.split(separator: 0x0A).count, 1300)
        XCTAssertTrue(runs[1].stdout == runs[0].stdout && viaStdin.stdout == runs[0].stdout, "the same rows from a file, a pipe, at any --threads")

        let bad = dir.appendingPathComponent("bad.json")
        XCTAssertEqual(bytes.suffix(3), Data("]}\n".utf8))
        try bytes.dropLast(2).write(to: bad)
        let existing = dir.appendingPathComponent("frames.jsonl")
        let before = Data("previous contents\n".utf8)
        try before.write(to: existing)
        let r = try run(["layout", bad.path, "--format", "jsonl", "-o", existing.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("bad.json") && r.stderr.contains("unexpected end of the data at line 1302, column 2"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: existing), before, "an existing file must stay byte-identical")
        let fresh = dir.appendingPathComponent("new.json")
        XCTAssertEqual(try run(["layout", bad.path, "-o", fresh.path]).status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh.path), "no partial file")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [], "temporary files are removed")
        let validate = try run(["validate", bad.path])
        XCTAssertEqual(validate.status, 1)
        XCTAssertTrue(validate.stderr.contains("unexpected end of the data at line 1302, column 2"), validate.stderr)
    }

    func testJSONLinesRowsRangeAndStdin() throws {
        let feed = TestPaths.fixtures.appendingPathComponent("feed.plist")
        let all = try run(["layout", feed.path, "--format", "jsonl", "--width", "320", "--width", "414"])
        XCTAssertEqual(all.status, 0, all.stderr)
        let lines = all.stdout.split(separator: 0x0A)
        XCTAssertEqual(lines.count, 26)
        for l in lines {
            let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(l)) as? [String: Any], "one object per line")
            XCTAssertNotNil(o["width"])
            XCTAssertNotNil(o["y"])
        }
        let part = try run(["layout", feed.path, "--format", "jsonl", "--rows", "2:5", "--width", "320"])
        XCTAssertEqual(part.status, 0, part.stderr)
        let partLines = part.stdout.split(separator: 0x0A)
        XCTAssertEqual(partLines.map { Data($0) }, lines[2..<5].map { Data($0) })

        let viaStdin = try run(["layout", "-", "--format", "jsonl", "--width", "320", "--width", "414"], stdin: try Data(contentsOf: feed))
        XCTAssertEqual(viaStdin.status, 0, viaStdin.stderr)
        XCTAssertEqual(viaStdin.stdout, all.stdout)

        let multi = try run(["layout", feed.path, "--width", "320", "--width", "414", "--style", "classic"])
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: multi.stdout) as? [String: Any])
        let layouts = try XCTUnwrap(root["layouts"] as? [[String: Any]])
        XCTAssertEqual(layouts.map { $0["width"] as? Double }, [320, 414])
        XCTAssertEqual(layouts.map { $0["style"] as? String }, ["classic", "classic"])
    }

    func testJSONFormStreamsJSONLinesInputLikeLoadedInput() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = try generated(120, in: dir)
        let streamed = try run(["layout", feed.path, "--rows", "100:"])
        XCTAssertEqual(streamed.status, 0, streamed.stderr)
        let loaded = try run(["layout", "-", "--rows", "100:"], stdin: try Data(contentsOf: feed))
        XCTAssertEqual(loaded.status, 0, loaded.stderr)
        XCTAssertEqual(streamed.stdout, loaded.stdout)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: streamed.stdout) as? [String: Any])
        XCTAssertEqual(root["rowRange"] as? [Int], [100, 120])
    }

    func testUsageAndInputErrors() throws {
        // Usage errors exit with 2 (ArgumentParser's EX_USAGE, 64, is mapped to 2), like every subcommand.
        XCTAssertEqual(try run(["layout", "--rows", "5:2"]).status, 2)
        XCTAssertEqual(try run(["layout", "--rows", "x"]).status, 2)
        XCTAssertEqual(try run(["layout", "--threads", "0"]).status, 2)
        XCTAssertEqual(try run(["layout", "--format", "xml"]).status, 2)
        XCTAssertEqual(try run(["layout", "--scale", "5"]).status, 2)
        let missing = try run(["layout", "/nonexistent/feed.json"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("feed.json"), missing.stderr)
        XCTAssertEqual(missing.stdout.count, 0)
    }
}
