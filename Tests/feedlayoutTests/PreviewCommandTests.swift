import Foundation
import XCTest
import _LayoutTestSupport

/// End-to-end runs of `feedlayout preview` (static mode; the interactive mode is driven through
/// tmux by scripts/test-interactive.sh).
final class PreviewCommandTests: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func run(_ args: [String], environment: [String: String] = [:]) throws -> Run {
        let r = try FeedlayoutBinary.run(args, environment: environment)
        return Run(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: r.stderr)
    }

    private func golden(_ name: String) throws -> String {
        try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("Tests/TerminalPreviewTests/Goldens/\(name)"), encoding: .utf8)
    }

    /// The command prints exactly the module's goldens (same layout path, same drawing).
    func testAllRowsMatchTheGoldens() throws {
        for (style, width) in [("weibo", "414"), ("classic", "320")] {
            let r = try run(["preview", "--rows", ":", "--width", width, "--style", style])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, try golden("demo-\(style)-\(width).txt"), "\(style) \(width)")
        }
    }

    /// Without --rows: the first screenful ($LINES, else 24 lines when stdout is not a terminal).
    func testDefaultIsTheFirstScreenful() throws {
        let all = try golden("demo-weibo-414.txt").split(separator: "\n", omittingEmptySubsequences: false)
        let r = try run(["preview", "--width", "414"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, all.prefix(24).joined(separator: "\n") + "\n")
        let ten = try run(["preview", "--width", "414"], environment: ["LINES": "10"])
        XCTAssertEqual(ten.stdout, all.prefix(10).joined(separator: "\n") + "\n")
    }

    func testRowRangeStartsAtTheRowSeparator() throws {
        let r = try run(["preview", "--rows", "2:4", "--width", "414"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("├─ #2 ") ?? false, r.stdout)
        XCTAssertEqual(lines.filter { $0.hasPrefix("├─ #") }.count, 2)
        XCTAssertFalse(r.stdout.contains("└"), "the closing line only ends the feed")
        let last = try run(["preview", "--rows", "12:", "--width", "414"])
        XCTAssertTrue(last.stdout.hasSuffix("┘\n"))
    }

    /// Not a terminal: no colour in auto mode, even with TERM set; --color always gives SGR only.
    func testColourChoice() throws {
        let auto = try run(["preview", "--rows", "0:3"], environment: ["TERM": "xterm-256color"])
        XCTAssertFalse(auto.stdout.utf8.contains(0x1B))
        let always = try run(["preview", "--rows", "0:3", "--color", "always"])
        XCTAssertTrue(always.stdout.contains("\u{1B}[0;1;38;5;208m"), "VIP name colour")
        let sgr = try NSRegularExpression(pattern: #"\x1B\[[0-9;]*m"#)
        let stripped = sgr.stringByReplacingMatches(
            in: always.stdout, range: NSRange(always.stdout.startIndex..., in: always.stdout), withTemplate: "")
        XCTAssertFalse(stripped.utf8.contains(0x1B), "only SGR sequences")
        XCTAssertEqual(stripped.split(separator: "\n").map { $0.replacingOccurrences(of: " ", with: "") },
                       auto.stdout.split(separator: "\n").map { $0.replacingOccurrences(of: " ", with: "") })
    }

    func testHostileStatusesCannotEscape() throws {
        let fixture = TestPaths.fixtures.appendingPathComponent("hostile-escapes.plist").path
        let plain = try run(["preview", fixture, "--rows", ":"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertFalse(plain.stdout.utf8.contains(0x1B))
        XCTAssertFalse(plain.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) })
        XCTAssertTrue(plain.stdout.contains("\u{FFFD}[2J"))
        let colour = try run(["preview", fixture, "--rows", ":", "--color", "always"])
        let own = try NSRegularExpression(pattern: #"\x1B\[0(;1)?(;38;5;\d{1,3})?(;48;5;\d{1,3})?m"#)
        let stripped = own.stringByReplacingMatches(
            in: colour.stdout, range: NSRange(colour.stdout.startIndex..., in: colour.stdout), withTemplate: "")
        XCTAssertFalse(stripped.utf8.contains(0x1B), "an escape sequence other than the renderer's SGR")
    }

    func testUsageErrors() throws {
        for args in [["preview", "--rows", "5"], ["preview", "--rows", "4:2"],
                     ["preview", "--style", "fancy"], ["preview", "--interactive", "--rows", "0:1"]] {
            let r = try run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
        }
        // One width: the last --width given counts, as the usage line says ([--width <width>]).
        let two = try run(["preview", "--width", "320", "--width", "414", "--rows", "0:1"])
        XCTAssertEqual(two.status, 0, two.stderr)
        XCTAssertEqual(two.stdout, try run(["preview", "--width", "414", "--rows", "0:1"]).stdout)
        let missing = try run(["preview", "/nonexistent/feed.json"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("feed.json"), missing.stderr)
        let notTTY = try run(["preview", "--interactive"])
        XCTAssertEqual(notTTY.status, 1)
        XCTAssertTrue(notTTY.stderr.contains("terminal"), notTTY.stderr)
    }

    /// One rule for --rows in preview and render: cut at the feed's end; a range that starts after
    /// the last row is an input error naming the feed (preview exited 0 with no output).
    func testRowsPastTheEndAreOneRuleInPreviewAndRender() throws {
        let cut = try run(["preview", "--rows", "11:40", "--width", "414"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        XCTAssertEqual(cut.stdout.split(separator: "\n").filter { $0.hasPrefix("├─ #") }.count, 2, "rows 11 and 12")
        XCTAssertTrue(cut.stdout.hasSuffix("┘\n"))
        let past = try run(["preview", "--rows", "13:20"])
        XCTAssertEqual(past.status, 1)
        XCTAssertEqual(past.stdout, "")
        XCTAssertTrue(past.stderr.contains("demo feed: --rows 13:20 starts after the feed's last row (13 rows"), past.stderr)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let render = try FeedlayoutBinary.run(["render", "-o", out, "--rows", "13:20"])
        XCTAssertEqual(render.status, 1)
        XCTAssertTrue(render.stderr.contains("demo feed: --rows 13:20 starts after the feed's last row (13 rows"), render.stderr)
        let empty = try run(["preview", "--rows", "3:3"])
        XCTAssertEqual(empty.status, 2, "an empty range is a usage error, as in render")
    }

    /// A JSON Lines file is indexed and only the rows needed are decoded: the same lines as the
    /// same feed loaded whole from standard input, at any thread count of the heights.
    func testIndexedJSONLinesMatchesTheFeedLoadedWhole() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = dir.appendingPathComponent("feed.jsonl")
        let gen = try run(["generate", "--count", "300", "--seed", "5", "--format", "jsonl", "-o", feed.path])
        XCTAssertEqual(gen.status, 0, gen.stderr)
        let data = try Data(contentsOf: feed)
        for rows in ["250:260", "295:", ":3"] {
            let indexed = try run(["preview", feed.path, "--rows", rows, "--width", "375"])
            XCTAssertEqual(indexed.status, 0, indexed.stderr)
            let whole = try FeedlayoutBinary.run(["preview", "-", "--rows", rows, "--width", "375"], stdin: data)
            XCTAssertEqual(whole.status, 0, whole.stderr)
            // The header names the input: compared without it.
            let body = { (s: String) in s.split(separator: "\n").filter { !$0.hasPrefix("┌") }.joined(separator: "\n") }
            let a = body(indexed.stdout)
            XCTAssertEqual(a, body(String(decoding: whole.stdout, as: UTF8.self)), rows)
            XCTAssertFalse(a.isEmpty)
        }
        // A bad line far down is not decoded for rows above it, and is reported for rows on it.
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        lines[280] = #"{"id": "bad"}"#
        let bad = dir.appendingPathComponent("bad.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: bad)
        XCTAssertEqual(try run(["preview", bad.path, "--rows", "0:5"]).status, 0)
        let onIt = try run(["preview", bad.path, "--rows", "270:290"])
        XCTAssertEqual(onIt.status, 1)
        XCTAssertTrue(onIt.stderr.contains("bad.jsonl:281:"), onIt.stderr)
    }
}
