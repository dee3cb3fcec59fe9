import Foundation

/// Files of a package checkout, found from where the program runs.
package enum PackageFiles {
    /// The first existing `relativePath` in the current directory or one of its 7 parents, then
    /// beside the running executable or above it (a checkout's `.build/release/feedlayout` finds
    /// the checkout's files).
    package static func locate(_ relativePath: String) -> URL? {
        var starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            starts.append(exe.deletingLastPathComponent())
        }
        for start in starts {
            var dir = start
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent(relativePath)
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }
}
