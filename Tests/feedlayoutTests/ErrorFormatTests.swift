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
        for file in [missing, bad.path] {
            let name = (file as NSString).lastPathComponent
            cases += [
                (["validate", file], name), (["layout", file], name), (["layout", file, "--format", "jsonl"], name),
                (["heights", file], name), (["query", file, "--width", "375", "--at", "10"], name),
                (["preview", file, "--rows", "0:1"], name), (["render", file, "-o", png], name),
                (["bench", file, "--reps", "1", "--min-rows", "1"], name),
            ]
        }
        cases.append((["measure", missing], "missing-feed.json"))
        cases.append((["measure", badMeasure.path], "bad-measure.jsonl"))
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
            XCTAssertTrue(r.stderr.contains("--width -1.0 must be a number in (0, 100000]"), r.stderr)
        }
        // A negative --now is a date before 1970, accepted.
        let r = try FeedlayoutBinary.run(["layout", "--now", "-5", "--rows", "0:1", "--format", "jsonl"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }
}
