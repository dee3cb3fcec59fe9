import Foundation
import XCTest
import _LayoutTestSupport

/// End-to-end runs of the built `feedlayout render`.
final class RenderCommandTests: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    private func run(_ args: [String]) throws -> Run {
        let r = try FeedlayoutBinary.run(args)
        return Run(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    private func tempDir() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fl-render-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Width and height from the IHDR chunk, after checking the signature.
    private func pngSize(_ url: URL) throws -> (Int, Int) {
        let d = try Data(contentsOf: url)
        XCTAssertGreaterThan(d.count, 33)
        XCTAssertEqual(Array(d.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG signature")
        XCTAssertEqual(String(decoding: d[12..<16], as: UTF8.self), "IHDR")
        func be32(_ i: Int) -> Int { d[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    func testRenderDemoRows() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png"), b = dir.appendingPathComponent("b.png")
        let ab = dir.appendingPathComponent("ab.png")
        for (rows, url) in [("0:1", a), ("1:2", b), ("0:2", ab)] {
            let r = try run(["render", "-o", url.path, "--rows", rows])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let (wa, ha) = try pngSize(a), (wb, hb) = try pngSize(b), (w, h) = try pngSize(ab)
        XCTAssertEqual([wa, wb, w], [750, 750, 750])
        XCTAssertGreaterThan(ha, 100)
        XCTAssertEqual(h, ha + hb, "two rows are as tall as each row")
        // Width and scale set the image width; nothing is left behind but the PNG.
        let small = dir.appendingPathComponent("small.png")
        let r = try run(["render", "-o", small.path, "--rows", ":1", "--width", "320", "--scale", "1", "--debug-frames"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try pngSize(small).0, 320)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["a.png", "ab.png", "b.png", "small.png"])
    }

    func testRenderErrors() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.png").path
        var r = try run(["render"])
        XCTAssertEqual(r.status, 2, "missing -o is a usage error: \(r.stderr)")
        // Empty ranges are usage errors with or without a lower bound (":0" was taken as a range
        // outside "the feed's 0 rows").
        for rows in ["5:2", "3:3", ":0"] {
            r = try run(["render", "-o", out, "--rows", rows])
            XCTAssertEqual(r.status, 2, "\(rows): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--rows"), r.stderr)
        }
        r = try run(["render", "-o", out, "--rows", "500:"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("starts after the feed's last row"), r.stderr)
        r = try run(["render", "-o", dir.appendingPathComponent("missing/dir/x.png").path, "--rows", "0:1"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        // A symlink is followed: the file it names is replaced atomically, the link stays.
        let target = dir.appendingPathComponent("target.txt"), link = dir.appendingPathComponent("link.png")
        try Data("keep".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        r = try run(["render", "-o", link.path, "--rows", "0:1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), target.path)
        XCTAssertTrue(try Data(contentsOf: target).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    func testRenderToStandardOutput() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("f.png")
        let toFile = try run(["render", "-o", file.path, "--rows", "0:1", "--scale", "1"])
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        let toStdout = try run(["render", "-o", "-", "--rows", "0:1", "--scale", "1"])
        XCTAssertEqual(toStdout.status, 0, toStdout.stderr)
        XCTAssertEqual(toStdout.stdout, try Data(contentsOf: file), "the same PNG on standard output")
    }
}
