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

package extension URL {
    /// The path as the user gave it (relative paths stay relative), for messages: errors name
    /// files the way they were named on the command line or by the caller, not by their last
    /// component or an absolute path the user never typed.
    var pathAsGiven: String { isFileURL ? relativePath : absoluteString }
}
