import Foundation
import StatusModel
import XCTest

final class AtomicWriterSafetyTests: XCTestCase {
    /// Devices and pipes are written in place (renaming over them would replace them), a
    /// symbolic link keeps pointing at the file it names, which is replaced; a directory is refused.
    func testWritesDevicesInPlaceAndFollowsLinks() throws {
        try FeedWriter.writeAtomically(Data("x".utf8), to: URL(fileURLWithPath: "/dev/null"))
        var st = stat()
        XCTAssertEqual(stat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fl-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertThrowsError(try FeedWriter.writeAtomically(Data("x".utf8), to: dir)) { error in
            XCTAssertTrue("\(error)".contains("is a directory"), "\(error)")
        }
        let target = dir.appendingPathComponent("target.json")
        try Data("kept".utf8).write(to: target)
        let link = dir.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try FeedWriter.writeAtomically(Data("new".utf8), to: link)
        XCTAssertEqual(try Data(contentsOf: target), Data("new".utf8))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), target.path)
        // A regular file is replaced whole, and no temporary file is left behind.
        try FeedWriter.writeAtomically(Data("newer".utf8), to: target)
        XCTAssertEqual(try Data(contentsOf: target), Data("newer".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["link.json", "target.json"])
    }
}
