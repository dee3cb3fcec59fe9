import FeedLayoutSupport
import Foundation

extension FeedLoader {
    /// Loads several files into one feed: their statuses in file order, each file's format
    /// detected on its own (a plist and a JSON Lines file may be mixed).
    ///
    /// The feed's `sourceName` is the paths as given joined by ", " and its `format` the first file's.
    /// `skipped` lists every file's skipped statuses in file order (each error names its file).
    /// When a file is sectioned (a friend list, a model plist with `sections`), the feed is
    /// sectioned: each sectioned file gives its sections and each plain file one section titled
    /// with its file name.
    /// - Throws: the first file's problem, as `load(contentsOf:options:)` does, naming the file;
    ///   nothing is returned for a partial set of files.
    public static func load(contentsOf urls: [URL], options: LoadOptions = LoadOptions()) throws(StatusModelError)
        -> LoadResult
    {
        var statuses: [Status] = []
        var skipped: [SkippedStatus] = []
        var format: FeedFormat?
        var sections: [StatusSection] = []
        var sectioned = false
        for url in urls {
            let result = try load(contentsOf: url, options: options)
            statuses += result.feed.statuses
            skipped += result.skipped
            if format == nil { format = result.feed.format }
            if let s = result.feed.sections {
                sections += s
                sectioned = true
            } else {
                sections.append(StatusSection(title: url.lastPathComponent, statuses: result.feed.statuses))
            }
        }
        let name = urls.map(\.pathAsGiven).joined(separator: ", ")
        if sectioned {
            return LoadResult(feed: Feed(sections: sections, sourceName: name, format: format ?? .weiboJSON), skipped: skipped)
        }
        return LoadResult(feed: Feed(statuses: statuses, sourceName: name, format: format ?? .weiboJSON), skipped: skipped)
    }
}
