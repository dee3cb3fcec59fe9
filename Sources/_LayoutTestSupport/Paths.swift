import Foundation

/// Where the package's own files and the optional shared corpus are, found from this file's path
/// so tests run the same from any working directory.
public enum TestPaths {
    /// The package root (the folder that holds Package.swift).
    public static let packageRoot: URL = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // _LayoutTestSupport
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()
    }()

    public static var fixtures: URL { packageRoot.appendingPathComponent("Fixtures") }
    public static var fonts: URL { packageRoot.appendingPathComponent("Fonts") }

    /// `../shared/corpus/yykit-weibo` beside the package, or nil when it is absent (users of the
    /// package do not have it). Tests that need it skip with `sharedCorpusSkipMessage`.
    public static var sharedCorpus: URL? {
        let url = packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/yykit-weibo")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    public static let sharedCorpusSkipMessage =
        "../shared/corpus/yykit-weibo is absent: the shared Weibo corpus is only on the project's machines"

    /// The eight Weibo timeline files of the shared corpus, in order, or nil when it is absent.
    public static var weiboCorpusFiles: [URL]? {
        guard let dir = sharedCorpus else { return nil }
        return (0..<8).map { dir.appendingPathComponent("weibo_\($0).json") }
    }

    /// The Unicode Character Database of Debian's unicode-data package, installed by setup.
    public static let unicodeData = URL(fileURLWithPath: "/usr/share/unicode")
}
