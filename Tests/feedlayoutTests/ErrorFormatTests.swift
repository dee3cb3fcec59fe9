import Foundation
import XCTest
import _LayoutTestSupport

/// Every command's input errors, in one format: each line on standard error starts with
/// "feedlayout: ", names the file, quotes no Foundation boilerplate, and the exit code is 1.
final class ErrorFormatTests: XCTestCase {
    private func tempDir() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fl-errors-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func testInputErrorsOfEveryCommandShareOneFormat() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("missing-feed.json").path
        let bad = dir.appendingPathComponent("bad-feed.json")
        try Data(#"[{"id":1,"text":"a"}]"#.utf8).write(to: bad)
        let badMeasure = dir.appendingPathComponent("bad-measure.jsonl")
        try Data("{\"id\":1,\"text\":7}\n".utf8).write(to: badMeasure)
        let png = dir.appendingPathComponent("out.png").path
        var cases: [(args: [String], file: String)] = []
        // Messages name the path as given (here absolute), not its last component.
        for file in [missing, bad.path] {
            let name = file
            cases += [
                (["validate", file], name), (["layout", file], name), (["layout", file, "--format", "jsonl"], name),
                (["heights", file], name), (["query", file, "--width", "375", "--at", "10"], name),
                (["preview", file, "--rows", "0:1"], name), (["render", file, "-o", png], name),
                (["bench", file, "--reps", "1", "--min-rows", "1"], name),
            ]
        }
        cases.append((["measure", missing], missing))
        cases.append((["measure", badMeasure.path], badMeasure.path))
        for (args, file) in cases {
            let r = try FeedlayoutBinary.run(args)
            let context = args.joined(separator: " ")
            XCTAssertEqual(r.status, 1, "\(context): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: true)
            XCTAssertFalse(lines.isEmpty, context)
            for line in lines {
                XCTAssertTrue(line.hasPrefix("feedlayout: "), "\(context): \(line)")
                XCTAssertFalse(line.hasPrefix("feedlayout: feedlayout:"), "\(context): doubled prefix: \(line)")
                XCTAssertFalse(line.contains("The operation could not be completed"), "\(context): \(line)")
                XCTAssertFalse(line.hasPrefix("Error:"), "\(context): \(line)")
            }
            XCTAssertTrue(r.stderr.contains(file), "\(context): the message names the file: \(r.stderr)")
            XCTAssertEqual(r.stdout.count, 0, "\(context): nothing on standard output")
        }
    }

    func testNegativeNumbersAreValuesRefusedWithTheirReason() throws {
        // "--width -1" used to read as a missing value; it is a width, refused with its range.
        for command in [["layout"], ["preview", "--rows", "0:1"], ["heights", "Fixtures/feed.plist"]] {
            let r = try FeedlayoutBinary.run(command + ["--width", "-1"])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("--width -1.0 must be a number in [1, 100000]"), r.stderr)
        }
        // A negative --now is a date before 1970, accepted.
        let r = try FeedlayoutBinary.run(["layout", "--now", "-5", "--rows", "0:1", "--format", "jsonl"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// Standard input named twice was read twice (the second time empty: "<stdin>: the file is
    /// empty"), and `-o ''` named the current directory; both are usage errors now.
    func testStandardInputOnceAndAnOutputPath() throws {
        for command in [["layout"], ["heights"], ["query", "--at", "0"], ["render", "-o", "/dev/null"], ["validate"], ["bench"]] {
            let r = try FeedlayoutBinary.run(command + ["-", "-"])
            XCTAssertEqual(r.status, 2, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("- (standard input) can be given once"), r.stderr)
        }
        for command in [["layout", "Fixtures/feed.plist"], ["render", "Fixtures/feed.plist"], ["generate", "--count", "1"]] {
            let r = try FeedlayoutBinary.run(command + ["-o", ""])
            XCTAssertEqual(r.status, 2, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("-o needs a file name"), r.stderr)
        }
    }

    func testMessagesNameThePathAsGiven() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let relative = "./Fixtures/../no-such-feed.json"
        for args in [["layout", relative], ["validate", relative], ["preview", relative, "--rows", "0:1"]] {
            let r = try FeedlayoutBinary.run(args)
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("feedlayout: \(relative): cannot read the file: "), r.stderr)
        }
        // An output that is a directory: the directory as given, once, and no doubled prefix.
        let r = try FeedlayoutBinary.run(["render", "Fixtures/feed.plist", "--rows", "0:1", "-o", dir.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stderr, "feedlayout: \(dir.path): cannot write the file: is a directory\n")
    }

    func testRowsPastTheEndFollowOneRuleInEveryCommand() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = "Fixtures/feed.plist"
        let count = try FeedlayoutBinary.run(["query", feed, "--y", "0:1e9"])
        let rows = String(decoding: count.stdout, as: UTF8.self).split(separator: "\n").count - 1  // less the header
        XCTAssertGreaterThan(rows, 1)
        let json = dir.appendingPathComponent("frames.json"), png = dir.appendingPathComponent("rows.png")
        let commands: [(args: [String], output: URL?)] = [
            (["layout", feed, "-o", json.path], json), (["layout", feed, "--format", "jsonl"], nil),
            (["render", feed, "-o", png.path], png), (["preview", feed], nil),
        ]
        for (args, output) in commands {
            // Past the end: an input error naming the feed and its row count, no output.
            let past = try FeedlayoutBinary.run(args + ["--rows", "\(rows):"])
            XCTAssertEqual(past.status, 1, "\(args): \(past.stderr)")
            XCTAssertTrue(past.stderr.contains("starts after the feed's last row (\(rows) rows: 0..<\(rows))"), past.stderr)
            if let output { XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "\(args) left \(output.path)") }
            // Nothing on standard output either (layout printed the whole document, then failed).
            XCTAssertTrue(past.stdout.isEmpty, "\(args) wrote \(past.stdout.count) bytes")
            // Cut at the end: the last row, exit 0.
            let cut = try FeedlayoutBinary.run(args + ["--rows", "\(rows - 1):\(rows + 5)"])
            XCTAssertEqual(cut.status, 0, "\(args): \(cut.stderr)")
            if let output { XCTAssertTrue(FileManager.default.fileExists(atPath: output.path), "\(args)") }
            if let output { try? FileManager.default.removeItem(at: output) }
        }
    }

    func testUsageAndHelpShowWhatEachCommandAccepts() throws {
        // One width: the usage line shows one (or, past 12 options, ArgumentParser's "[<options>]",
        // and the parser's description says --width does not repeat); several: a second --width
        // is a second layout.
        for command in ["query", "render", "preview"] {
            let help = try FeedlayoutBinary.run([command, "--help"])
            let usage = String(decoding: help.stdout, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("USAGE:") } ?? ""
            if usage.contains("[<options>]") {
                let dump = try FeedlayoutBinary.run([command, "--experimental-dump-help"])
                let root = try XCTUnwrap(JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
                let arguments = try XCTUnwrap((root["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
                let width = arguments.first { ($0["names"] as? [[String: Any]])?.contains { $0["name"] as? String == "width" } == true }
                XCTAssertEqual(width?["isRepeating"] as? Bool, false, "\(command): one --width")
            } else {
                XCTAssertTrue(usage.contains("[--width <width>]"), "\(command): \(usage)")
            }
        }
        let two = try FeedlayoutBinary.run(["heights", "Fixtures/feed.plist", "--width", "320", "--width", "414"])
        XCTAssertEqual(two.status, 0, two.stderr)
        XCTAssertEqual(String(decoding: two.stdout, as: UTF8.self).split(separator: "\n").count, 2)
        // Every option that takes a value states its default, its values or that it is required.
        for command in ["layout", "heights", "query", "preview", "render", "bench", "validate", "generate", "measure"] {
            let help = String(decoding: try FeedlayoutBinary.run([command, "--help"]).stdout, as: UTF8.self)
            guard let start = help.range(of: "OPTIONS:") else { XCTFail("\(command): no OPTIONS"); continue }
            // One entry per option: its continuation lines joined to it.
            var entries: [String] = []
            for line in help[start.upperBound...].split(separator: "\n") {
                if line.hasPrefix("  -") { entries.append(String(line)) } else if !entries.isEmpty { entries[entries.count - 1] += " " + line }
            }
            for entry in entries where entry.contains("<") {
                let squeezed = entry.split(separator: " ").joined(separator: " ")
                XCTAssertTrue(
                    squeezed.contains("default") || squeezed.contains("required"), "\(command): \(squeezed)")
            }
        }
    }
}
