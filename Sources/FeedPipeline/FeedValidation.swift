import Foundation
import StatusModel

/// Checks a feed file: decodes every status on every core and counts them, or reports what is
/// invalid. What `feedlayout validate` runs.
public enum FeedValidation {
    /// What a valid (or partly valid) feed holds.
    public struct Counts: Sendable, Hashable {
        public var statuses = 0
        public var retweets = 0
        /// Pictures shown: the statuses' own and their retweets'.
        public var pictures = 0
        public var format = FeedFormat.weiboJSON
        /// Invalid statuses left out, in input order (only with `LoadOptions.skipInvalid`).
        public var skipped: [SkippedStatus] = []

        public init() {}

        mutating func add(_ s: Status) {
            statuses += 1
            retweets += s.isRetweet ? 1 : 0
            pictures += s.pictures.count
            s.withRetweetedStatus { pictures += $0.pictures.count }
        }

        mutating func add(_ other: Counts) {
            statuses += other.statuses
            retweets += other.retweets
            pictures += other.pictures
        }
    }

    /// Counts the statuses of `path` (`-` for standard input). JSON Lines and Weibo JSON are
    /// decoded in parallel chunks in bounded memory; a large model property list is read whole
    /// and decoded in parallel batches; other formats are loaded whole.
    /// - Throws: the first invalid status as a `StatusModelError` (unless `options.skipInvalid`),
    ///   or a file-level error.
    public static func count(
        _ path: String, options: LoadOptions = LoadOptions(), threads: Int = defaultThreads
    ) throws(StatusModelError) -> Counts {
        let source = try FeedSource.open(path, options: options)
        var total = Counts()
        switch source {
        case .loaded(let result):
            for s in result.feed.statuses { total.add(s) }
            total.format = result.feed.format
            total.skipped = result.skipped
            return total
        case .jsonLines:
            total.format = .jsonLines
        case .jsonDocument:
            total.format = .weiboJSON
        case .plistElements:
            total.format = .modelPlist
        }
        do {
            try runStatusPipeline(
                sources: [source], loadOptions: options, threads: threads,
                process: { _, decoded in
                    var counts = Counts()
                    for s in decoded.statuses { counts.add(s) }
                    return (counts, decoded.skipped)
                },
                consume: { (result: (Counts, [SkippedStatus])) in
                    total.add(result.0)
                    total.skipped += result.1
                })
        } catch let error as StatusModelError {
            throw error
        } catch {
            preconditionFailure("the validation pipeline throws only StatusModelError, not \(error)")
        }
        return total
    }

    /// The machine's processors.
    public static var defaultThreads: Int { ProcessInfo.processInfo.activeProcessorCount }
}
