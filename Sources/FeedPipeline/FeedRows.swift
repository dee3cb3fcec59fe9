// FeedRows: a feed's statuses by row, without holding a big feed in memory.
//
// A JSON Lines file is indexed (`JSONLinesIndex`: the offset of every line, found by a scan for
// newlines) and its statuses are decoded when a row is asked for; a range of rows is one read
// and one decoder pass. Other inputs (property lists, Weibo JSON, standard input) are held, as
// loaded. Heights of a range of rows are computed batch by batch (decode, prepare, heights only:
// no frames), so a prefix of a million-row feed is measured in memory bounded by a batch.

import CellLayout
import Foundation
import StatusModel
import TableLayout

/// The statuses of a feed, by row.
///
/// Thread-safety: every method may be called from any thread.
package final class FeedRows: Sendable {
    package enum Storage: Sendable {
        /// Decoded on demand from a JSON Lines file.
        case indexed(JSONLinesIndex)
        /// Held in memory.
        case held([Status])
    }

    package let storage: Storage

    package init(index: JSONLinesIndex) { storage = .indexed(index) }
    package init(statuses: [Status]) { storage = .held(statuses) }

    /// An index over the file at `path` when it is a JSON Lines file (by content, or
    /// `options.format`) that can be read at offsets; nil for standard input (`-`), other formats
    /// and special files, and when invalid statuses are to be skipped (which statuses are rows
    /// is then only known once every line is decoded): those are loaded whole.
    /// - Throws: `StatusModelError` naming the file when it cannot be read.
    package static func indexed(path: String, options: LoadOptions) throws(StatusModelError) -> FeedRows? {
        guard path != "-", !options.skipInvalid else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let url = URL(fileURLWithPath: path)
        let format: FeedFormat
        if let forced = options.format { format = forced } else { format = try FeedLoader.detectFormat(of: url) }
        guard format == .jsonLines else { return nil }
        return FeedRows(index: try JSONLinesIndex(url: url, options: options))
    }

    /// Whether rows are decoded on demand (and found by a scan that may still be running).
    package var isIndexed: Bool {
        if case .indexed = storage { return true }
        return false
    }

    /// Rows known so far, and whether that is all of them.
    package var progress: (count: Int, complete: Bool) {
        switch storage {
        case .indexed(let index): return index.progress
        case .held(let statuses): return (statuses.count, true)
        }
    }

    /// Finds more rows (one step of the index's scan); true once all are known.
    package func findMoreRows(maxBytes: Int = 16 << 20) throws(StatusModelError) -> Bool {
        switch storage {
        case .indexed(let index): return try index.extend(maxBytes: maxBytes)
        case .held: return true
        }
    }

    /// Finds every row; returns the row count.
    package func countAll() throws(StatusModelError) -> Int {
        switch storage {
        case .indexed(let index): return try index.scanToEnd()
        case .held(let statuses): return statuses.count
        }
    }

    /// The statuses of rows `range`.
    /// - Precondition: the rows are known (`progress.count ≥ range.upperBound`).
    /// - Throws: the first invalid status's error, naming the file and line.
    package func statuses(_ range: Range<Int>) throws(StatusModelError) -> [Status] {
        switch storage {
        case .indexed(let index): return try index.statuses(range)
        case .held(let statuses): return Array(statuses[range])
        }
    }

    /// The status of row `row`.
    package func status(_ row: Int) throws(StatusModelError) -> Status {
        switch storage {
        case .indexed(let index): return try index.statuses(row..<(row + 1))[0]
        case .held(let statuses): return statuses[row]
        }
    }

    /// The heights of rows `range`, in order: each batch of `batchRows` decoded and measured
    /// (`FeedEngine.layoutHeights`, on `threads` workers: the same heights at any
    /// thread count, bit for bit those of a full layout).
    /// - Throws: `StatusModelError` for an invalid status, `FeedError` for invalid options.
    package func heights(
        _ range: Range<Int>, engine: FeedEngine, options: FeedOptions, threads: Int = 1, batchRows: Int = 4096
    ) throws -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(range.count)
        var start = range.lowerBound
        while start < range.upperBound {
            let batch = start..<min(range.upperBound, start + max(1, batchRows))
            let statuses = try statuses(batch)
            out += try engine.layoutHeights(statuses, options: options, threads: threads).heights
            start = batch.upperBound
        }
        return out
    }
}
