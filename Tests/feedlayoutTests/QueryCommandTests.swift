import Foundation
import XCTest
import _LayoutTestSupport

/// End-to-end runs of `feedlayout query` against the built binary.
final class QueryCommandTests: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    struct Row: Equatable {
        var section: Int
        var row: Int
        var id: String
        var y: Double
        var height: Double
    }

    private func run(_ args: [String]) throws -> Run {
        let r = try FeedlayoutBinary.run(args)
        return Run(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: r.stderr)
    }

    private func rows(_ r: Run, file: StaticString = #filePath, line: UInt = #line) -> [Row] {
        var lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "section\trow\tid\ty\theight", file: file, line: line)
        lines.removeFirst()
        return lines.compactMap { l in
            let f = l.split(separator: "\t").map(String.init)
            guard f.count == 5, let s = Int(f[0]), let row = Int(f[1]), let y = Double(f[3]), let h = Double(f[4]) else {
                XCTFail("bad line \(l)", file: file, line: line)
                return nil
            }
            return Row(section: s, row: row, id: f[2], y: y, height: h)
        }
    }

    var feed: String { TestPaths.fixtures.appendingPathComponent("feed.plist").path }

    func testRangeListsContiguousIntersectingRows() throws {
        let all = try run(["query", feed, "--width", "375", "--style", "weibo", "--y", "0:1000000"])
        XCTAssertEqual(all.status, 0, all.stderr)
        let every = rows(all)
        XCTAssertEqual(every.count, 13, "the demo feed has 13 statuses")
        XCTAssertEqual(every.map(\.row), Array(0..<13))
        XCTAssertEqual(every.first?.y, 0)
        for k in every.indices.dropFirst() {
            XCTAssertEqual(every[k].y, every[k - 1].y + every[k - 1].height, accuracy: 1e-9)
            XCTAssertEqual(every[k].section, 0)
        }
        XCTAssertEqual(Set(every.map(\.id)).count, 13)

        // A window in the middle: exactly the rows whose frames intersect it.
        let lo = every[3].y + 1, hi = every[6].y + 2
        let window = try run(["query", feed, "--width", "375", "--y", "\(lo):\(hi)"])
        XCTAssertEqual(window.status, 0, window.stderr)
        XCTAssertEqual(rows(window), every.filter { $0.y < hi && $0.y + $0.height > lo })
        XCTAssertEqual(rows(window).map(\.row), [3, 4, 5, 6])

        // --at: the row containing the point; nothing past the end.
        let at = try run(["query", feed, "--at", "\(every[8].y + every[8].height / 2)"])
        XCTAssertEqual(rows(at), [every[8]])
        let boundary = try run(["query", feed, "--at", "\(every[8].y)"])
        XCTAssertEqual(rows(boundary).map(\.row), [8], "a row's top belongs to it")
        let past = try run(["query", feed, "--at", "1e9"])
        XCTAssertEqual(past.status, 0)
        XCTAssertEqual(rows(past), [])

        // No input: the bundled demo feed, same answer.
        let demo = try run(["query", "--y", "0:1000000"])
        XCTAssertEqual(rows(demo), every)
    }

    func testWidthAndStyleChangeTheAnswer() throws {
        let wide = rows(try run(["query", feed, "--width", "414", "--style", "classic", "--y", "0:1000000"]))
        let narrow = rows(try run(["query", feed, "--width", "320", "--style", "classic", "--scale", "3", "--y", "0:1000000"]))
        XCTAssertEqual(wide.count, 13)
        XCTAssertEqual(narrow.count, 13)
        XCTAssertNotEqual(wide.map(\.height), narrow.map(\.height))
        for r in narrow { XCTAssertEqual((r.height * 3).rounded(), r.height * 3, accuracy: 2e-4, "heights on the 3x pixel grid (printed with 4 decimals)") }
    }

    func testUsageAndInputErrors() throws {
        let neither = try run(["query", feed])
        XCTAssertEqual(neither.status, 2)
        XCTAssertTrue(neither.stderr.contains("--y FROM:TO or --at Y"), neither.stderr)
        let both = try run(["query", feed, "--y", "0:10", "--at", "3"])
        XCTAssertEqual(both.status, 2)
        let reversed = try run(["query", feed, "--y", "10:0"])
        XCTAssertEqual(reversed.status, 2)
        XCTAssertTrue(reversed.stderr.contains("FROM ≤ TO"), reversed.stderr)
        let garbage = try run(["query", feed, "--y", "a:b"])
        XCTAssertEqual(garbage.status, 2)
        // One width: the last --width given counts, as the usage line says ([--width <width>]).
        let twoWidths = try run(["query", feed, "--width", "320", "--width", "414", "--y", "0:2000"])
        XCTAssertEqual(twoWidths.status, 0, twoWidths.stderr)
        XCTAssertEqual(twoWidths.stdout, try run(["query", feed, "--width", "414", "--y", "0:2000"]).stdout)
        XCTAssertNotEqual(twoWidths.stdout, try run(["query", feed, "--width", "320", "--y", "0:2000"]).stdout)
        let missing = try run(["query", "/nonexistent/feed.json", "--at", "0"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("feed.json"), missing.stderr)
        let invalid = try run(["query", TestPaths.fixtures.appendingPathComponent("invalid").path + "/does-not-exist.json", "--at", "0"])
        XCTAssertEqual(invalid.status, 1)
    }
}
