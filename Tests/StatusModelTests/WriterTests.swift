import Foundation
import StatusModel
import XCTest

final class AtomicWriterSafetyTests: XCTestCase {
    /// Renaming a temporary file over a device or a symbolic link would replace it: refused.
    func testRefusesToReplaceAnythingButARegularFile() throws {
        XCTAssertThrowsError(try FeedWriter.writeAtomically(Data("x".utf8), to: URL(fileURLWithPath: "/dev/null"))) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fl-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.json")
        try Data("kept".utf8).write(to: target)
        let link = dir.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        XCTAssertThrowsError(try FeedWriter.writeAtomically(Data("new".utf8), to: link))
        XCTAssertEqual(try Data(contentsOf: target), Data("kept".utf8))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), target.path)
        // A regular file is replaced whole, and no temporary file is left behind.
        try FeedWriter.writeAtomically(Data("new".utf8), to: target)
        XCTAssertEqual(try Data(contentsOf: target), Data("new".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["link.json", "target.json"])
    }
}
