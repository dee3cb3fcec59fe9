import Foundation
import XCTest
import _LayoutTestSupport

/// End-to-end runs of `feedlayout bench`: the shape of its output, never its numbers.
final class BenchCommandTests: XCTestCase {
    private struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func run(_ args: [String]) throws -> Run {
        let r = try FeedlayoutBinary.run(args)
        return Run(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: r.stderr)
    }

    private var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// The demo feed (13 statuses) repeated to at least 40 rows: 52 rows; a table of every case.
    func testTableOutputOnTheDemoFeed() throws {
        let r = try run(["bench", "--min-rows", "40", "--reps", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("feedlayout bench: 52 rows (13 statuses repeated), style weibo, scale 2, \(cores) cores, load ") ?? false, r.stdout)
        XCTAssertEqual(lines.dropFirst().first?.split(separator: " ", omittingEmptySubsequences: true), ["width", "case", "threads", "cells/s", "µs/cell"])
        let threadCounts = cores > 1 ? ["1", String(cores)] : ["1"]
        var rows: [[Substring]] = []
        for line in lines.dropFirst(2) where !line.hasPrefix("speedup") && !line.hasPrefix("queries") && !line.hasPrefix("end to end") {
            rows.append(line.split(separator: " ", omittingEmptySubsequences: true))
        }
        XCTAssertEqual(rows.map { $0.count }, [Int](repeating: 5, count: 2 * threadCounts.count), r.stdout)
        XCTAssertEqual(rows.map { String($0[1]) }, threadCounts.map { _ in "cold" } + threadCounts.map { _ in "warm" })
        XCTAssertEqual(rows.map { String($0[2]) }, threadCounts + threadCounts)
        for row in rows {
            XCTAssertEqual(row[0], "375")
            XCTAssertGreaterThan(Double(row[3]) ?? 0, 0, "cells/s of \(row)")
            XCTAssertGreaterThan(Double(row[4]) ?? 0, 0, "µs/cell of \(row)")
        }
        XCTAssertEqual(lines.filter { $0.hasPrefix("speedup ") }.count, cores > 1 ? 2 : 0, r.stdout)
        let queries = lines.filter { $0.hasPrefix("queries at 375 pt, 52 rows: visible range (812 pt) ") }
        XCTAssertEqual(queries.count, 1, r.stdout)
        XCTAssertTrue(queries.first?.contains(" ns, point lookup ") ?? false)
        XCTAssertTrue(queries.first?.hasSuffix(" ns") ?? false)
        // The jobs users run, on the demo feed: validation and the export at 1 and all threads.
        let endToEnd = lines.filter { $0.hasPrefix("end to end, feed.plist (") }
        XCTAssertEqual(endToEnd.count, 1, r.stdout)
        XCTAssertTrue(endToEnd.first?.contains(" 13 statuses): validate ") ?? false, r.stdout)
        XCTAssertTrue(endToEnd.first?.contains("export to JSON Lines ") ?? false, r.stdout)
    }

    /// JSON output: one object with a case per (width, mode, threads) and a query entry per width.
    func testJSONOutputWithTwoWidthsAndTheClassicStyle() throws {
        let feed = TestPaths.fixtures.appendingPathComponent("feed.plist").path
        let r = try run(["bench", feed, "--json", "--min-rows", "20", "--reps", "1", "--width", "320", "--width", "414", "--style", "classic"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        XCTAssertEqual(object["rows"] as? Int, 26)
        XCTAssertEqual(object["source_statuses"] as? Int, 13)
        XCTAssertEqual(object["style"] as? String, "classic")
        XCTAssertEqual(object["cores"] as? Int, cores)
        let cases = try XCTUnwrap(object["cases"] as? [[String: Any]])
        let perWidth = cores > 1 ? 4 : 2
        XCTAssertEqual(cases.count, 2 * perWidth)
        XCTAssertEqual(cases.map { $0["width"] as? Double }, [Double](repeating: 320, count: perWidth) + [Double](repeating: 414, count: perWidth))
        for c in cases {
            XCTAssertTrue(["cold", "warm"].contains(c["case"] as? String ?? ""), "\(c)")
            XCTAssertGreaterThan(c["cells_per_s"] as? Double ?? 0, 0, "\(c)")
        }
        let queries = try XCTUnwrap(object["queries"] as? [[String: Any]])
        XCTAssertEqual(queries.map { $0["rows"] as? Int }, [26, 26])
        XCTAssertEqual(queries.map { $0["width"] as? Double }, [320, 414])
        for q in queries {
            XCTAssertGreaterThan(q["visible_range_ns"] as? Double ?? 0, 0)
            XCTAssertGreaterThan(q["point_lookup_ns"] as? Double ?? 0, 0)
        }
        let endToEnd = try XCTUnwrap(object["end_to_end"] as? [[String: Any]])
        XCTAssertEqual(endToEnd.map { $0["statuses"] as? Int }, [13])
        XCTAssertGreaterThan(endToEnd.first?["output_bytes"] as? Int ?? 0, 13 * 1000, "13 rows of frames written")
        XCTAssertGreaterThan(endToEnd.first?["export_all_threads_s"] as? Double ?? 0, 0)
    }

    func testMissingInputFailsWithExitCode1() throws {
        let r = try run(["bench", "/nonexistent/feed.json", "--reps", "1"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("feed.json") && r.stderr.contains("cannot read"), r.stderr)
        XCTAssertEqual(r.stdout, "")
    }

    func testInvalidOptionsAreUsageErrors() throws {
        XCTAssertEqual(try run(["bench", "--reps", "0"]).status, 2)
        XCTAssertEqual(try run(["bench", "--min-rows", "0"]).status, 2)
        XCTAssertEqual(try run(["bench", "--style", "plain"]).status, 2)
    }
}
