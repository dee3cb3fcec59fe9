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
        var feeds: [Feed] = []
        var skipped: [SkippedStatus] = []
        for url in urls {
            let result = try load(contentsOf: url, options: options)
            feeds.append(result.feed)
            skipped += result.skipped
        }
        return LoadResult(feed: Feed(joining: feeds), skipped: skipped)
    }
}

extension Feed {
    /// Feeds loaded one after another as one: their statuses in order, the first one's format,
    /// `sourceName` their names joined by ", ". When one of them is sectioned (a friend list, a
    /// model plist with `sections`), so is the result: each sectioned feed gives its sections and
    /// each plain one a section titled with its file's name (the last component of its
    /// `sourceName`).
    package init(joining feeds: [Feed]) {
        let name = feeds.map(\.sourceName).joined(separator: ", ")
        let format = feeds.first?.format ?? .weiboJSON
        guard feeds.contains(where: { $0.sections != nil }) else {
            self.init(statuses: feeds.flatMap(\.statuses), sourceName: name, format: format)
            return
        }
        let sections = feeds.flatMap { feed in
            feed.sections ?? [StatusSection(title: (feed.sourceName as NSString).lastPathComponent, statuses: feed.statuses)]
        }
        self.init(sections: sections, sourceName: name, format: format)
    }
}
