import Foundation
import XCTest
import _LayoutTestSupport

/// Runs the built `feedlayout` binary for end-to-end tests.
enum FeedlayoutBinary {
    /// The binary beside the test bundle (same build configuration), else .build/debug/feedlayout.
    static func url() throws -> URL {
        var candidates: [URL] = []
        if let exe = Bundle.main.executableURL { candidates.append(exe.deletingLastPathComponent().appendingPathComponent("feedlayout")) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("feedlayout"))
        candidates.append(TestPaths.packageRoot.appendingPathComponent(".build/debug/feedlayout"))
        for c in candidates where FileManager.default.isExecutableFile(atPath: c.path) { return c }
        XCTFail("feedlayout binary not found (looked at \(candidates.map(\.path))); run `swift build` first")
        throw XCTSkip("no binary")
    }

    /// Runs `feedlayout args` in the package root, standard input from `stdin` (empty when nil),
    /// with `environment` added to the test's own. Output goes through files, so a large output
    /// never blocks on a pipe.
    static func run(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: Data, stderr: String)
    {
        let dir = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let inp = dir.appendingPathComponent("fl-in-\(id)")
        let out = dir.appendingPathComponent("fl-out-\(id)")
        let err = dir.appendingPathComponent("fl-err-\(id)")
        _ = FileManager.default.createFile(atPath: inp.path, contents: stdin ?? Data())
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            for f in [inp, out, err] { try? FileManager.default.removeItem(at: f) }
        }
        let p = Process()
        p.executableURL = try url()
        p.arguments = args
        p.currentDirectoryURL = TestPaths.packageRoot
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        p.standardInput = try FileHandle(forReadingFrom: inp)
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        p.waitUntilExit()
        return (p.terminationStatus, try Data(contentsOf: out), try String(contentsOf: err, encoding: .utf8))
    }
}
