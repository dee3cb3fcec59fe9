import Foundation
import StatusModel
import XCTest

/// The line index of JSON Lines files: statuses by row, the same as a streamed load.
final class JSONLinesIndexTests: XCTestCase {
    private func write(_ text: String, bom: Bool = false) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString).jsonl")
        try Data((bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func line(_ id: Int, _ text: String = "hello") -> String {
        #"{"id":\#(id),"created_at":"Wed Sep 09 10:11:34 +0800 2015","text":"\#(text)","user":{"id":\#(id),"screen_name":"u\#(id)"}}"#
    }

    func testStatusesMatchTheLoaderWithBlankLinesCRLFAndBOM() throws {
        let text = line(1) + "\r\n\n   \n" + line(2) + "\n" + line(3) + "\r\n\n" + line(4)
        let url = try write(text, bom: true)
        let index = try JSONLinesIndex(url: url)
        XCTAssertEqual(try index.scanToEnd(), 4)
        XCTAssertEqual(index.progress.complete, true)
        let loaded = try FeedLoader.load(contentsOf: url).feed.statuses
        XCTAssertEqual(try index.statuses(0..<4), loaded)
        XCTAssertEqual(try index.statuses(2..<3), [loaded[2]])
        XCTAssertEqual((0..<4).map { index.line(ofStatus: $0) }, [1, 4, 5, 7])
    }

    /// Scanned in small steps, the index is the same as in one; statuses are usable before the
    /// scan is complete.
    func testStepwiseScan() throws {
        let text = (0..<3000).map { line($0, String(repeating: "字", count: $0 % 40)) }.joined(separator: "\n") + "\n"
        let url = try write(text)
        let index = try JSONLinesIndex(url: url)
        XCTAssertFalse(try index.extend(maxBytes: 1))
        let first = index.progress.count
        XCTAssertGreaterThan(first, 0)
        XCTAssertLessThan(first, 3000)
        XCTAssertEqual(try index.statuses(0..<1).first?.id, 0)
        var steps = 1
        while try !index.extend(maxBytes: 1) { steps += 1 }
        XCTAssertGreaterThan(steps, 2)
        XCTAssertEqual(index.progress.count, 3000)
        XCTAssertEqual(try index.statuses(2990..<3000).map(\.id), Array(2990..<3000).map(Int64.init))
        XCTAssertEqual(index.line(ofStatus: 2999), 3000)
    }

    /// A bad status is found when its row is decoded: the error names the file and its line.
    func testInvalidStatusNamesFileAndLine() throws {
        let url = try write(line(1) + "\n\n" + #"{"id": "x"}"# + "\n" + line(3) + "\n")
        let index = try JSONLinesIndex(url: url)
        XCTAssertEqual(try index.scanToEnd(), 3)
        XCTAssertEqual(try index.statuses(2..<3).first?.id, 3)
        XCTAssertThrowsError(try index.statuses(1..<2)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains(url.lastPathComponent + ":3:"), "the file and line 3: \(message)")
        }
        XCTAssertThrowsError(try JSONLinesIndex(url: url.appendingPathExtension("missing"))) { error in
            XCTAssertTrue("\(error)".contains("missing"), "\(error)")
        }
    }
}
