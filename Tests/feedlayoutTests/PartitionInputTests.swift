import Foundation
import XCTest
import _LayoutTestSupport

/// `--input-format jsonl` on standard input: the partitions a distributed engine pipes into
/// `feedlayout heights -` and `feedlayout layout -` may hold a single status or none.
final class PartitionInputTests: XCTestCase {
    private func run(_ args: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: Data, stderr: String) {
        try FeedlayoutBinary.run(args, stdin: stdin)
    }

    func testOneStatusPartitionsNeedTheFormatAndMatchTheWholeExport() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fl-partition-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = dir.appendingPathComponent("feed.jsonl")
        let gen = try run(["generate", "--count", "3", "--seed", "11", "--format", "jsonl", "-o", feed.path])
        XCTAssertEqual(gen.status, 0, gen.stderr)
        let whole = try run(["layout", feed.path, "--format", "jsonl", "--width", "375"])
        XCTAssertEqual(whole.status, 0, whole.stderr)
        let lines = try Data(contentsOf: feed).split(separator: 0x0A).map { Data($0) + Data([0x0A]) }
        XCTAssertEqual(lines.count, 3)

        // Detected from the content, one line of JSON is a document whose root lacks "statuses".
        let detected = try run(["heights", "-", "--width", "375"], stdin: lines[0])
        XCTAssertEqual(detected.status, 1)

        // One partition a status: heights, prefix sums, then frames at the origins.
        var out = Data()
        var rowsBefore = 0
        var pixelsBefore: Int64 = 0
        for line in lines {
            let h = try run(["heights", "-", "--input-format", "jsonl", "--width", "375"], stdin: line)
            XCTAssertEqual(h.status, 0, h.stderr)
            let totals = try XCTUnwrap(JSONSerialization.jsonObject(with: h.stdout) as? [String: Any])
            XCTAssertEqual(totals["rows"] as? Int, 1)
            let pixels = try XCTUnwrap((totals["heightPixels"] as? NSNumber)?.int64Value)
            let f = try run(
                ["layout", "-", "--input-format", "jsonl", "--format", "jsonl", "--width", "375",
                 "--row-origin", String(rowsBefore), "--y-origin", String(Double(pixelsBefore) / 2)],
                stdin: line)
            XCTAssertEqual(f.status, 0, f.stderr)
            out += f.stdout
            rowsBefore += 1
            pixelsBefore += pixels
        }
        XCTAssertEqual(out, whole.stdout)

        // A partition of blank lines has no row and writes nothing.
        let blank = try run(["heights", "-", "--input-format", "jsonl", "--width", "375"], stdin: Data("\n \t\n".utf8))
        XCTAssertEqual(blank.status, 0, blank.stderr)
        XCTAssertTrue(blank.stdout.starts(with: Data("{\"width\":375,\"scale\":2,\"rows\":0,\"heightPixels\":0,".utf8)))
        let none = try run(["layout", "-", "--input-format", "jsonl", "--format", "jsonl"], stdin: Data("\n".utf8))
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertEqual(none.stdout, Data())
    }
}
