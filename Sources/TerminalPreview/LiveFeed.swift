// LiveFeed: the viewer's model of a feed of any size.
//
// Rows start with an estimated line count (the running mean of the rows measured so far, as
// `UITableView.estimatedRowHeight` stands in for rows not yet asked for) and get their real one
// either when they are drawn (their cell is laid out anyway) or when a background worker, walking
// the feed in order from its first row, delivers their heights. Corrections are applied on the
// viewer's thread between frames, each one O(log n) row reload of the line table; the viewer keeps
// its first row on screen where it was, so a correction above the screen moves nothing on it.
// A second background worker finds the rows themselves (a JSON Lines file's line index) in steps,
// so the first screen is drawn from the first rows while the rest of the file is scanned.

import CellLayout
import Foundation
import Synchronization

/// Where a live preview's rows come from, at one width.
package struct PreviewRowSource: Sendable {
    /// Rows known so far, and whether that is all of them.
    package var progress: @Sendable () -> (count: Int, complete: Bool)
    /// Finds more rows (one step of a scan); true once all are known. Nil when all are known.
    package var findMoreRows: (@Sendable () throws -> Bool)?
    /// The heights (points) of rows `range`, called on a background thread, ranges in order.
    package var heights: @Sendable (Range<Int>) throws -> [Double]
    /// The layout of row `row`, called on the viewer's thread.
    package var cell: @Sendable (Int) throws -> CellGeometry
    /// The header title for the rows known so far.
    package var title: @Sendable (_ rows: Int, _ complete: Bool) -> String

    package init(
        progress: @escaping @Sendable () -> (count: Int, complete: Bool), findMoreRows: (@Sendable () throws -> Bool)?,
        heights: @escaping @Sendable (Range<Int>) throws -> [Double], cell: @escaping @Sendable (Int) throws -> CellGeometry,
        title: @escaping @Sendable (_ rows: Int, _ complete: Bool) -> String
    ) {
        self.progress = progress
        self.findMoreRows = findMoreRows
        self.heights = heights
        self.cell = cell
        self.title = title
    }
}

/// What the background workers hand to the viewer's thread.
private final class BackgroundWork: Sendable {
    struct State {
        var results: [(start: Int, heights: [Double])] = []
        var error: String?
        var cancelled = false
        var lastWake = 0.0
    }
    let state = Mutex<State>(State())
    let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Wakes the viewer at most every 200 ms (and always when `force`).
    func nudge(force: Bool = false) {
        let now = monotonicSeconds()
        let due = state.withLock { s -> Bool in
            guard force || now - s.lastWake >= 0.2 else { return false }
            s.lastWake = now
            return true
        }
        if due { wake() }
    }

    func fail(_ error: any Error) {
        state.withLock { if $0.error == nil { $0.error = "\(error)" } }
        nudge(force: true)
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A feed whose rows carry estimated line counts until they are measured.
///
/// Thread-safety: used by one thread (the viewer's); its workers only talk to it through
/// `sync()`.
package final class LiveFeed {
    package private(set) var preview: FeedPreview
    package let source: PreviewRowSource
    /// Rows measured (real line counts).
    package private(set) var measuredCount = 0
    private var measured: [UInt64] = []
    private var measuredLines = 0
    private var cells: [Int: CellGeometry] = [:]
    private var started = false
    /// Rows measured before the table shows them (the worker ahead of the rows known).
    private var early: [(start: Int, heights: [Double])] = []
    /// Rows measured per background batch.
    package static let batchRows = 64
    /// Cells kept for redrawing (a few screens).
    package static let cellCacheRows = 256

    /// Builds the table: the first rows that fill `firstLines` lines measured, the others known so
    /// far estimated. Nothing runs in the background until `start(wake:)`.
    /// - Throws: what the source throws (bad input), `TerminalPreviewError` for a bad height.
    package init(source: PreviewRowSource, scale: PreviewScale, columns: Int, readMoreToken: String, firstLines: Int) throws {
        self.source = source
        var (count, complete) = source.progress()
        preview = try FeedPreview(scale: scale, columns: columns, title: "", readMoreToken: readMoreToken, complete: false)
        var lines = 1
        var row = 0
        while lines < firstLines {
            if row >= count {
                guard !complete, let more = source.findMoreRows else { break }
                _ = try more()
                (count, complete) = source.progress()
                continue
            }
            let cell = try source.cell(row)
            let n = scale.lineCount(ofHeight: cell.height)
            preview.appendRows(lineCounts: [n])
            markMeasured(row, lines: n)
            remember(cell, row: row)
            lines += n
            row += 1
        }
        try syncRows()
    }

    /// The line count given to rows not measured yet: the mean of the rows measured.
    package var estimatedLineCount: Int {
        measuredCount == 0 ? 8 : max(2, Int((Double(measuredLines) / Double(measuredCount)).rounded()))
    }

    /// Whether row `row` has its real line count.
    package func isMeasured(_ row: Int) -> Bool {
        row >> 6 < measured.count && measured[row >> 6] & (1 << UInt64(row & 63)) != 0
    }

    private func markMeasured(_ row: Int, lines: Int) {
        while measured.count <= row >> 6 { measured.append(0) }
        if !isMeasured(row) {
            measured[row >> 6] |= 1 << UInt64(row & 63)
            measuredCount += 1
            measuredLines += lines
        }
    }

    private func remember(_ cell: CellGeometry, row: Int) {
        if cells.count >= Self.cellCacheRows { cells.removeAll(keepingCapacity: true) }
        cells[row] = cell
    }

    /// Starts the workers: one finding rows (when the source has more to find), one measuring
    /// every row in order. `wake` is called (from their threads) when there is something to sync.
    package func start(wake: @escaping @Sendable () -> Void) {
        guard !started else { return }
        started = true
        let work = BackgroundWork(wake: wake)
        self.workHandle = work
        let source = source
        if let more = source.findMoreRows, !source.progress().complete {
            Thread.detachNewThread {
                do {
                    while !work.isCancelled, try !more() { work.nudge() }
                    work.nudge(force: true)
                } catch {
                    work.fail(error)
                }
            }
        }
        Thread.detachNewThread {
            var row = 0
            do {
                while !work.isCancelled {
                    let (count, complete) = source.progress()
                    if row >= count {
                        if complete { break }
                        usleep(2000)
                        continue
                    }
                    let range = row..<min(count, row + Self.batchRows)
                    let heights = try source.heights(range)
                    work.state.withLock { $0.results.append((range.lowerBound, heights)) }
                    work.nudge()
                    row = range.upperBound
                }
                work.nudge(force: true)
            } catch {
                work.fail(error)
            }
        }
    }

    private var workHandle: BackgroundWork?

    /// Stops the workers (they finish the batch they are on and exit).
    package func stop() {
        workHandle?.state.withLock { $0.cancelled = true }
    }

    deinit { stop() }

    /// Whether the workers are done (every row known and measured).
    package var isSettled: Bool { preview.isComplete && measuredCount == preview.rowCount }

    /// Applies what the workers found: new rows (estimated) and measured heights.
    /// - Returns: whether the table changed.
    /// - Throws: `TerminalPreviewError.feed` when a worker met bad input.
    @discardableResult
    package func sync() throws -> Bool {
        let before = (preview.rowCount, measuredCount, preview.isComplete)
        try syncRows()
        if let handle = workHandle {
            let (results, error) = handle.state.withLock { s -> ([(start: Int, heights: [Double])], String?) in
                defer { s.results.removeAll() }
                return (s.results, s.error)
            }
            if let error { throw TerminalPreviewError.feed(error) }
            early += results
        }
        var waiting: [(start: Int, heights: [Double])] = []
        for (start, heights) in early {
            for (i, h) in heights.enumerated() {
                let row = start + i
                guard row < preview.rowCount else {
                    waiting.append((row, Array(heights[i...])))
                    break
                }
                if !isMeasured(row) {
                    let n = preview.scale.lineCount(ofHeight: h)
                    preview.setLineCount(n, ofRow: row)
                    markMeasured(row, lines: n)
                }
            }
        }
        early = waiting
        return before != (preview.rowCount, measuredCount, preview.isComplete)
    }

    private func syncRows() throws {
        let (count, complete) = source.progress()
        if count > preview.rowCount {
            preview.appendRows(lineCounts: Array(repeating: estimatedLineCount, count: count - preview.rowCount))
        }
        if complete && count == preview.rowCount { preview.markComplete() }
        preview.title = source.title(preview.rowCount, preview.isComplete)
    }

    /// Finds every row now (on this thread, alongside the worker), then syncs.
    package func findAllRows() throws {
        if let more = source.findMoreRows {
            while try !more() {}
        }
        try sync()
    }

    /// The cell of `row`, measuring the row if it was estimated.
    package func cell(_ row: Int) throws -> CellGeometry {
        if let c = cells[row] { return c }
        let c = try source.cell(row)
        remember(c, row: row)
        if !isMeasured(row) {
            let n = preview.scale.lineCount(ofHeight: c.height)
            preview.setLineCount(n, ofRow: row)
            markMeasured(row, lines: n)
        }
        return c
    }

    /// Measures the rows of `rows` still estimated. - Returns: whether any was.
    @discardableResult
    package func measure(rows: [Int]) throws -> Bool {
        var any = false
        for r in rows where !isMeasured(r) {
            _ = try cell(r)
            any = true
        }
        return any
    }
}
