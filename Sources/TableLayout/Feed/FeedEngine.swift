import FeedLayoutSupport
import CellLayout
import Dispatch
import Foundation
import StatusModel
import Synchronization
import TextMeasure

/// What a feed is laid out for: the cell width, style and screen scale, the read-more limit and
/// the table style.
public struct FeedOptions: Hashable, Sendable {
    public var width: Double
    public var style: CellStyle
    public var scale: Double
    /// Line limit of the main text with a "...全文" token; 0 means unlimited.
    public var maxTextLines: Int
    public var tableStyle: TableStyle

    public init(width: Double, style: CellStyle = .weibo, scale: Double = 2, maxTextLines: Int = 0, tableStyle: TableStyle = .plain) {
        self.width = width
        self.style = style
        self.scale = scale
        self.maxTextLines = maxTextLines
        self.tableStyle = tableStyle
    }

    /// Checks the options a layout can use.
    public func validate() throws(FeedError) {
        guard width.isFinite, width >= 1, width <= 100_000 else { throw .invalidOptions("width \(width) must be in [1, 100000]") }
        guard scale.isFinite, scale >= 1, scale <= 4 else { throw .invalidOptions("scale \(scale) must be in [1, 4]") }
        guard maxTextLines >= 0 else { throw .invalidOptions("maxTextLines \(maxTextLines) must be ≥ 0") }
        // The table's configuration checks its inset too, but only once every row is laid out.
        let inset = TableConfiguration(style: tableStyle, width: width, scale: scale).horizontalInset
        guard 2 * inset <= width else {
            throw .invalidOptions("width \(width) must be at least \(2 * inset) in the \(tableStyle) style (an inset of \(inset) on each side)")
        }
    }

    func key(_ statusID: Int64, _ fingerprint: UInt64) -> CellKey {
        CellKey(
            statusID: statusID, fingerprint: fingerprint, style: style.name, width: width, scale: scale,
            maxTextLines: maxTextLines)
    }
}

/// Errors of feed layout.
public enum FeedError: Error, Equatable, CustomStringConvertible, Sendable {
    case invalidOptions(String)
    /// `isCancelled` returned true; the rows before `completedRows` had been delivered.
    case cancelled(completedRows: Int)

    public var description: String {
        switch self {
        case .invalidOptions(let m): return "invalid layout options: \(m)"
        case .cancelled(let n): return "layout cancelled after \(n) rows"
        }
    }
}

/// Lays out feeds: every row's cell through two caches keyed by content, in parallel.
///
/// - Prepared cells (texts shaped and measured) are cached by (status id, fingerprint, style) in
///   the cell engine (`CellLayoutEngine.preparedCells`): a width change or a new scale re-lays
///   out from them with arithmetic only, no shaping.
/// - Cell layouts are cached by (status id, fingerprint, style, width, scale, line limit): moving,
///   inserting or deleting rows, or laying out the same statuses again, reuses them.
///
/// Thread-safety: `Sendable`; every method MAY be called concurrently.
public final class FeedEngine: Sendable {
    public let cellEngine: CellLayoutEngine
    /// Cell layouts by content, width, scale and line limit.
    package let layouts: BoundedCache<CellKey, CellGeometry>
    /// Counters of the cell-layout cache.
    public var layoutCacheStatistics: CacheStatistics { layouts.statistics }
    /// Empties the cell-layout cache (its counters are kept); prepared cells stay cached.
    public func removeCachedLayouts() { layouts.removeAll() }
    /// The default bound of the cell-layout cache. (It was 256 MiB while `CellGeometry.residentBytes`
    /// counted ~1.1 KB too little per cell; 384 MiB holds as many cells, in the same real memory.)
    public static let defaultLayoutBudgetBytes = 384 << 20
    /// The prepared-cell cache: the cell engine's.
    package var preparedCells: BoundedCache<PreparedKey, PreparedCell> { cellEngine.preparedCells }
    /// Counters of the prepared-cell cache (the cell engine's).
    public var preparedCellStatistics: CacheStatistics { cellEngine.preparedCellStatistics }

    /// - Parameters:
    ///   - cellEngine: prepares and arranges the cells (its prepared-cell cache is shared unless
    ///     `preparedBudgetBytes` is given).
    ///   - layoutBudgetBytes: bound of the cell-layout cache (default 384 MiB: about 100 000 cells
    ///     of the generated feed at 375 pt, 3.7 KB each by `CellGeometry.residentBytes`).
    ///   - preparedBudgetBytes: when given, the engine prepares through a copy of `cellEngine`
    ///     with a prepared-cell cache of its own of this bound; nil shares `cellEngine`'s.
    public init(cellEngine: CellLayoutEngine, layoutBudgetBytes: Int = defaultLayoutBudgetBytes, preparedBudgetBytes: Int? = nil) {
        self.cellEngine = preparedBudgetBytes.map { cellEngine.withPreparedCellCache(budgetBytes: $0) } ?? cellEngine
        layouts = BoundedCache(budgetBytes: layoutBudgetBytes) { $0.residentBytes + 64 }
    }

    /// The prepared cell of a status (cached by content and style).
    public func preparedCell(for status: Status, style: CellStyle) -> PreparedCell {
        cellEngine.prepare(status, style: style)
    }

    /// The layout of one status's cell (cached by content, style, width, scale and line limit).
    /// - Precondition: `options.validate()` passes.
    public func cell(for status: Status, options: FeedOptions) -> CellGeometry {
        cell(for: status, id: status.id, fingerprint: status.contentFingerprint, options: options)
    }

    /// `cell(for:options:)` with the status's id and fingerprint already read; the status itself
    /// is only evaluated on a miss of both caches.
    func cell(
        for status: @autoclosure () -> Status, id: Int64, fingerprint: UInt64, options: FeedOptions, pass: PassMarks? = nil
    ) -> CellGeometry {
        cell(prepared: cellEngine.prepare(status(), id: id, fingerprint: fingerprint, style: options.style, pass: pass?.prepared),
             id: id, fingerprint: fingerprint, options: options, pass: pass)
    }

    /// `cell(for:options:)` from the status's prepared cell, which is only evaluated on a miss of
    /// the cell-layout cache.
    func cell(
        prepared: @autoclosure () -> PreparedCell, id: Int64, fingerprint: UInt64, options: FeedOptions, pass: PassMarks? = nil
    ) -> CellGeometry {
        let key = options.key(id, fingerprint)
        if let c = layouts.value(for: key) { return c }
        let c = prepared().layout(width: options.width, scale: options.scale, maxTextLines: options.maxTextLines)
        layouts.insert(c, for: key, evictingOnlyBefore: pass?.layouts)
        return c
    }

    /// Where both caches stood when a bulk pass began: the pass evicts only what is older, so a
    /// feed larger than the caches keeps its first rows cached (see `BoundedCache`).
    struct PassMarks: Sendable {
        var layouts: BoundedCache<CellKey, CellGeometry>.Mark
        var prepared: BoundedCache<PreparedKey, PreparedCell>.Mark
    }

    func passMarks() -> PassMarks { PassMarks(layouts: layouts.mark(), prepared: preparedCells.mark()) }

    /// The row height of one status's cell, from its prepared cell without building frames
    /// (`PreparedCell.heights`, equal to the full layout's height bit for bit). The cell-layout
    /// cache is neither read nor filled: this is the path of million-row feeds and width changes,
    /// where frames are built later for the rows on screen only.
    /// - Precondition: `options.validate()` passes.
    /// - Complexity: O(clusters of the cell's variable texts) on a prepared-cell hit, no shaping.
    public func height(for status: Status, options: FeedOptions) -> Double {
        height(for: status, id: status.id, fingerprint: status.contentFingerprint, options: options)
    }

    /// `height(for:options:)` with the status's id and fingerprint already read; the status itself
    /// is only evaluated on a prepared-cell miss.
    func height(for status: @autoclosure () -> Status, id: Int64, fingerprint: UInt64, options: FeedOptions) -> Double {
        cellEngine.prepare(status(), id: id, fingerprint: fingerprint, style: options.style)
            .heights(width: options.width, scale: options.scale, maxTextLines: options.maxTextLines).height
    }

    /// Lays out every status as one row of a single-section table: the rows' heights and the
    /// table that places them. Each row's cell is laid out (and cached by content, so
    /// `cell(for:options:)` of a row on screen is a lookup), but not kept in the result: for
    /// feeds of millions of rows, cells are asked for by range. `layoutCells` keeps them,
    /// `layoutHeights` computes heights without frames, `prepareFeed` keeps the prepared cells
    /// for width changes.
    ///
    /// Rows are computed in chunks on `threads` workers; the result is identical to a serial run,
    /// whatever the thread count. `onRows` receives completed row ranges in order (a prefix at a
    /// time, serialized); `progress` the number of rows done; `isCancelled` is polled between chunks.
    ///
    /// Caching: the pass fills the prepared-cell and cell-layout caches, evicting only what was
    /// cached (or used) before it began. On a feed larger than a cache, the rows laid out first
    /// stay cached and the later ones are not kept: the top of the feed, which is read first,
    /// is not evicted by the bottom, and the pass frees no cell it made except those it does not
    /// keep. `cell(for:options:)` and `height(for:options:)` evict least recently used entries.
    /// - Parameters:
    ///   - statuses: any random-access collection indexed from 0 (an array, or a view that makes
    ///     statuses on demand, so a feed of millions of rows need not be held as `Status` values).
    ///   - options: width, style, scale, line limit and table style; validated first.
    ///   - threads: workers (all cores by default); the result does not depend on it.
    ///   - chunkSize: rows per unit of work handed to a worker.
    ///   - progress: the number of rows done so far.
    ///   - onRows: each completed range of rows, in order, one call at a time.
    ///   - isCancelled: polled between chunks; true ends the pass.
    /// - Throws: `.invalidOptions`, or `.cancelled(completedRows:)` with the delivered prefix.
    /// - Complexity: O(n) cell layouts divided over the workers, plus O(n) to build the table.
    public func layout<C: RandomAccessCollection & Sendable>(
        _ statuses: C, options: FeedOptions, threads: Int = ProcessInfo.processInfo.activeProcessorCount, chunkSize: Int = 256,
        progress: (@Sendable (Int) -> Void)? = nil, onRows: (@Sendable (Range<Int>) -> Void)? = nil,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) throws(FeedError) -> FeedGeometry where C.Element == Status, C.Index == Int {
        let rows = try pass(
            statuses, options: options, threads: threads, mode: .cells(retained: false), chunkSize: chunkSize, progress: progress,
            onRows: onRows, isCancelled: isCancelled)
        return try FeedGeometry(options: options, statusIDs: rows.ids, fingerprints: rows.fingerprints, heights: rows.heights)
    }

    /// `layout`, keeping every row's cell in the result (snapshot tests, exports of a whole feed).
    /// - Complexity: as `layout`; memory: every cell for as long as the result lives.
    public func layoutCells<C: RandomAccessCollection & Sendable>(
        _ statuses: C, options: FeedOptions, threads: Int = ProcessInfo.processInfo.activeProcessorCount, chunkSize: Int = 256,
        progress: (@Sendable (Int) -> Void)? = nil, onRows: (@Sendable (Range<Int>) -> Void)? = nil,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) throws(FeedError) -> FeedCells where C.Element == Status, C.Index == Int {
        let rows = try pass(
            statuses, options: options, threads: threads, mode: .cells(retained: true), chunkSize: chunkSize, progress: progress,
            onRows: onRows, isCancelled: isCancelled)
        let layout = try FeedGeometry(options: options, statusIDs: rows.ids, fingerprints: rows.fingerprints, heights: rows.heights)
        return FeedCells(layout: layout, cells: rows.cells ?? [])
    }

    /// The rows' heights from their prepared cells (`height(for:options:)`: no frames, no
    /// cell-layout cache): the fast path of width changes on huge feeds whose prepared cells
    /// are cached.
    public func layoutHeights<C: RandomAccessCollection & Sendable>(
        _ statuses: C, options: FeedOptions, threads: Int = ProcessInfo.processInfo.activeProcessorCount, chunkSize: Int = 256,
        progress: (@Sendable (Int) -> Void)? = nil, onRows: (@Sendable (Range<Int>) -> Void)? = nil,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) throws(FeedError) -> FeedGeometry where C.Element == Status, C.Index == Int {
        let rows = try pass(
            statuses, options: options, threads: threads, mode: .heights(keepingPrepared: false), chunkSize: chunkSize,
            progress: progress, onRows: onRows, isCancelled: isCancelled)
        return try FeedGeometry(options: options, statusIDs: rows.ids, fingerprints: rows.fingerprints, heights: rows.heights)
    }

    /// `layoutHeights`, keeping every row's prepared cell in the result, so that `relayout`
    /// lays the feed out at another width without looking anything up (rotation, split view).
    /// Costs the cells' memory for as long as the result lives, whatever the cache's budget.
    public func prepareFeed<C: RandomAccessCollection & Sendable>(
        _ statuses: C, options: FeedOptions, threads: Int = ProcessInfo.processInfo.activeProcessorCount, chunkSize: Int = 256,
        progress: (@Sendable (Int) -> Void)? = nil, onRows: (@Sendable (Range<Int>) -> Void)? = nil,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) throws(FeedError) -> PreparedFeed where C.Element == Status, C.Index == Int {
        let rows = try pass(
            statuses, options: options, threads: threads, mode: .heights(keepingPrepared: true), chunkSize: chunkSize,
            progress: progress, onRows: onRows, isCancelled: isCancelled)
        let layout = try FeedGeometry(options: options, statusIDs: rows.ids, fingerprints: rows.fingerprints, heights: rows.heights)
        return PreparedFeed(layout: layout, prepared: rows.prepared ?? [])
    }

    /// What a bulk pass computes and keeps.
    enum PassMode {
        /// Full cells (through the cell-layout cache), kept in the result or not.
        case cells(retained: Bool)
        /// Heights from prepared cells, the prepared cells kept in the result or not.
        case heights(keepingPrepared: Bool)
    }

    private func pass<C: RandomAccessCollection & Sendable>(
        _ statuses: C, options: FeedOptions, threads: Int, mode: PassMode, chunkSize: Int,
        progress: (@Sendable (Int) -> Void)?, onRows: (@Sendable (Range<Int>) -> Void)?, isCancelled: (@Sendable () -> Bool)?
    ) throws(FeedError) -> Rows where C.Element == Status, C.Index == Int {
        let (retainCells, heightsOnly, retainPrepared): (Bool, Bool, Bool) =
            switch mode {
            case .cells(let retained): (retained, false, false)
            case .heights(let keeping): (false, true, keeping)
            }
        // An array (the common case) goes through the copy of `computeRows` specialized for it in
        // this module: callers in other modules would otherwise reach every status through the
        // collection's protocol witnesses.
        if let array = statuses as? [Status] {
            return try computeRows(
                array, options: options, threads: threads, retainCells: retainCells, heightsOnly: heightsOnly,
                retainPrepared: retainPrepared, chunkSize: chunkSize, progress: progress, onRows: onRows, isCancelled: isCancelled)
        }
        return try computeRows(
            statuses, options: options, threads: threads, retainCells: retainCells, heightsOnly: heightsOnly,
            retainPrepared: retainPrepared, chunkSize: chunkSize, progress: progress, onRows: onRows, isCancelled: isCancelled)
    }

    typealias Rows = (heights: [Double], ids: [Int64], fingerprints: [UInt64], cells: [CellGeometry]?, prepared: [PreparedCell]?)

    /// The feed at another width (and optionally scale and line limit), from the prepared cells
    /// it holds: every row's height by arithmetic (`PreparedCell.heights`), no lookup, no
    /// shaping, no frames; bit-identical to laying the statuses out again with the new options.
    /// - Parameters:
    ///   - feed: a feed from `prepareFeed` (or from this method).
    ///   - width: the new width.
    ///   - scale: the new scale; nil keeps the feed's.
    ///   - maxTextLines: the new line limit; nil keeps the feed's (its style and table style are
    ///     kept too).
    ///   - threads: workers computing the heights.
    ///   - chunkSize: rows per work item.
    /// - Throws: `.invalidOptions` for invalid options.
    /// - Complexity: O(clusters of the rows' variable texts) divided over the workers, plus O(n)
    ///   to build the table.
    public func relayout(
        _ feed: PreparedFeed, width: Double, scale: Double? = nil, maxTextLines: Int? = nil,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount, chunkSize: Int = 1024
    ) throws(FeedError) -> PreparedFeed {
        let layout = feed.layout
        let prepared = feed.prepared
        var newOptions = layout.options
        newOptions.width = width
        if let scale { newOptions.scale = scale }
        if let maxTextLines { newOptions.maxTextLines = maxTextLines }
        try newOptions.validate()
        let options = newOptions
        let n = prepared.count
        let heights = UnsafeMutableBufferPointer<Double>.allocate(capacity: max(n, 1))
        defer { heights.deallocate() }
        nonisolated(unsafe) let h = heights
        // (At most the row count: a chunk of `Int.max` rows overflowed the count of chunks.)
        let chunk = min(max(1, chunkSize), max(1, n))
        let chunkCount = (n + chunk - 1) / chunk
        let next = Atomic<Int>(0)
        // Each index is written by exactly one worker and read after `concurrentPerform` returns.
        let work: @Sendable (Int) -> Void = { _ in
            prepared.withUnsafeBufferPointer { cells in
                while true {
                    let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    if k >= chunkCount { return }
                    let rows = (k * chunk)..<min(n, (k + 1) * chunk)
                    Self.heights(of: UnsafeBufferPointer(rebasing: cells[rows]), options: options, into: h.baseAddress! + rows.lowerBound)
                }
            }
        }
        let workers = max(1, min(threads, chunkCount))
        if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        return PreparedFeed(
            layout: try FeedGeometry(
                options: options, statusIDs: layout.statusIDs, fingerprints: layout.fingerprints,
                heights: Array(UnsafeBufferPointer(rebasing: heights[0..<n]))),
            prepared: prepared)
    }

    /// Each cell's row height at `options` (`PreparedCell.heights`) into `out`, with the memory of
    /// the cell `prefetchDistance` rows ahead requested first, so that the misses of independent
    /// rows overlap (the cells of a large feed are cold): the core of the heights-only pass and
    /// of `relayout`.
    private static func heights(of cells: UnsafeBufferPointer<PreparedCell>, options: FeedOptions, into out: UnsafeMutablePointer<Double>) {
        for i in cells.indices {
            if i + prefetchDistance < cells.count { cells[i + prefetchDistance].prefetchForHeights() }
            out[i] = cells[i].heights(width: options.width, scale: options.scale, maxTextLines: options.maxTextLines).height
        }
    }

    /// How many rows ahead the heights-only pass and `relayout` prefetch (8 measured best among 2,
    /// 4 and 8 on the 100 000-row generated feed: the heights-only pass went from 0.51–0.59 M
    /// rows/s without prefetching to 0.72–0.76 M).
    static let prefetchDistance = 8

    /// The heights (and optionally cells) of every status at `options`, computed in ordered
    /// parallel chunks: the shared core of `layout` and of `FeedDocument`'s bulk work.
    func computeRows<C: RandomAccessCollection & Sendable>(
        _ statuses: C, options: FeedOptions, threads: Int, retainCells: Bool, heightsOnly: Bool = false,
        retainPrepared: Bool = false, chunkSize: Int = 256,
        progress: (@Sendable (Int) -> Void)? = nil,
        onRows: (@Sendable (Range<Int>) -> Void)? = nil,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) throws(FeedError) -> Rows where C.Element == Status, C.Index == Int {
        try options.validate()
        precondition(statuses.startIndex == 0, "FeedEngine.layout: statuses must be indexed from 0")
        let n = statuses.count
        let heights = UnsafeMutableBufferPointer<Double>.allocate(capacity: max(n, 1))
        defer { heights.deallocate() }
        let prints = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(n, 1))
        defer { prints.deallocate() }
        let ids = UnsafeMutableBufferPointer<Int64>.allocate(capacity: max(n, 1))
        defer { ids.deallocate() }
        let cells = retainCells ? UnsafeMutableBufferPointer<CellGeometry?>.allocate(capacity: max(n, 1)) : nil
        cells?.initialize(repeating: nil)
        defer {
            if let cells {
                cells.deinitialize()
                cells.deallocate()
            }
        }
        let preparedRows = retainPrepared ? UnsafeMutableBufferPointer<PreparedCell?>.allocate(capacity: max(n, 1)) : nil
        preparedRows?.initialize(repeating: nil)
        defer {
            if let preparedRows {
                preparedRows.deinitialize()
                preparedRows.deallocate()
            }
        }
        // (At most the row count: a chunk of `Int.max` rows overflowed the count of chunks.)
        let chunk = min(max(1, chunkSize), max(1, n))
        let chunkCount = (n + chunk - 1) / chunk
        let workers = max(1, min(threads, chunkCount))
        let next = Atomic<Int>(0)
        let cancelled = Atomic<Bool>(false)
        let marks = passMarks()
        let order = Locked(OrderedCompletion(chunks: chunkCount))
        // Each index is written by exactly one worker (chunks are handed out once through `next`)
        // and read only after `concurrentPerform` returns, which orders the writes before the reads.
        nonisolated(unsafe) let h = heights
        nonisolated(unsafe) let f = prints
        nonisolated(unsafe) let d = ids
        nonisolated(unsafe) let c = cells
        nonisolated(unsafe) let pr = preparedRows

        let work: @Sendable (Int) -> Void = { _ in
            // Heights-only chunks go in two passes: the prepared cells of the chunk are found
            // first, then their heights are computed with the memory of the cell
            // `prefetchDistance` rows ahead requested (`PreparedCell.prefetchForHeights`), so that
            // the misses of independent rows overlap: on a feed larger than the caches a row's
            // parts, text boxes and clusters are all cold.
            var prepared: [PreparedCell] = []
            while true {
                if cancelled.load(ordering: .relaxed) { return }
                if let isCancelled, isCancelled() {
                    cancelled.store(true, ordering: .relaxed)
                    return
                }
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if k >= chunkCount { return }
                let range = (k * chunk)..<min(n, (k + 1) * chunk)
                if heightsOnly {
                    prepared.removeAll(keepingCapacity: true)
                    for i in range {
                        // The id and fingerprint are read in place; the status is copied out of
                        // the collection only when its cell must be prepared (a cache miss).
                        let id = statuses[i].id
                        let fingerprint = statuses[i].contentFingerprint
                        d[i] = id
                        f[i] = fingerprint
                        prepared.append(
                            self.cellEngine.prepare(statuses[i], id: id, fingerprint: fingerprint, style: options.style, pass: marks.prepared))
                    }
                    prepared.withUnsafeBufferPointer { Self.heights(of: $0, options: options, into: h.baseAddress! + range.lowerBound) }
                    if let pr { for (j, p) in prepared.enumerated() { pr[range.lowerBound + j] = p } }
                } else {
                    for i in range {
                        let id = statuses[i].id
                        let fingerprint = statuses[i].contentFingerprint
                        d[i] = id
                        f[i] = fingerprint
                        let cell: CellGeometry
                        if let pr {
                            let p = self.cellEngine.prepare(
                                statuses[i], id: id, fingerprint: fingerprint, style: options.style, pass: marks.prepared)
                            pr[i] = p
                            cell = self.cell(prepared: p, id: id, fingerprint: fingerprint, options: options, pass: marks)
                        } else {
                            cell = self.cell(for: statuses[i], id: id, fingerprint: fingerprint, options: options, pass: marks)
                        }
                        h[i] = cell.height
                        if let c { c[i] = cell }
                    }
                }
                order.withLock { o in
                    o.done[k] = true
                    o.rows += range.count
                    progress?(o.rows)
                    let first = o.next
                    while o.next < chunkCount && o.done[o.next] { o.next += 1 }
                    if o.next > first, let onRows { onRows((first * chunk)..<min(n, o.next * chunk)) }
                }
            }
        }
        if workers == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers, execute: work)
        }
        if cancelled.load(ordering: .relaxed) {
            let completed = order.withLock { min(n, $0.next * chunk) }
            throw .cancelled(completedRows: completed)
        }
        let heightArray = Array(UnsafeBufferPointer(rebasing: heights[0..<n]))
        let printArray = Array(UnsafeBufferPointer(rebasing: prints[0..<n]))
        let idArray = Array(UnsafeBufferPointer(rebasing: ids[0..<n]))
        let cellArray = cells.map { c in (0..<n).map { c[$0]! } }
        let preparedArray = preparedRows.map { p in (0..<n).map { p[$0]! } }
        return (heightArray, idArray, printArray, cellArray, preparedArray)
    }
}

/// Which chunks are done, and the first one not yet delivered.
private struct OrderedCompletion {
    var done: [Bool]
    var next = 0
    var rows = 0
    init(chunks: Int) { done = [Bool](repeating: false, count: chunks) }
}

/// A laid-out feed: its rows' heights and the table that places them.
///
/// Thread-safety: an immutable value.
public struct FeedGeometry: Sendable {
    public let options: FeedOptions
    public let statusIDs: [Int64]
    /// Each row's status content fingerprint (`Status.contentFingerprint`), next to its id: the
    /// cache key of its cell without the options.
    public let fingerprints: [UInt64]
    public let heights: [Double]
    /// Row placement: one section, plain or grouped as the options say.
    public let geometry: TableGeometry

    init(options: FeedOptions, statusIDs: [Int64], fingerprints: [UInt64], heights: [Double]) throws(FeedError) {
        precondition(statusIDs.count == heights.count && fingerprints.count == heights.count, "FeedGeometry: per-row arrays disagree")
        self.options = options
        self.statusIDs = statusIDs
        self.fingerprints = fingerprints
        self.heights = heights
        do {
            geometry = try TableGeometry(
                configuration: TableConfiguration(style: options.tableStyle, width: options.width, scale: options.scale),
                sections: [SectionSpec(rowHeights: heights)])
        } catch {
            throw .invalidOptions("\(error)")
        }
    }

    /// Number of rows.
    public var count: Int { heights.count }

    /// Height of the whole feed.
    public var contentHeight: Double { geometry.contentHeight }

    /// The rows that intersect `yRange` (row indices in the single section).
    /// - Complexity: O(log n + k).
    public func rows(intersecting yRange: Range<Double>) -> [Int] {
        geometry.indexPathsForRows(in: yRange).map(\.row)
    }

    /// The top of row `row`.
    /// - Complexity: O(log n).
    public func y(ofRow row: Int) -> Double { geometry.rectForRow(TableIndexPath(section: 0, row: row)).y }

    /// The row at `y`, nil outside every row.
    /// - Complexity: O(log n).
    public func row(at y: Double) -> Int? { geometry.indexPathForRow(at: y)?.row }

    /// Bytes this layout keeps in its own structures: the geometry trees and the per-row arrays
    /// (ids, fingerprints, heights), at their allocated capacity: about 29 bytes per row
    /// (8 id + 8 fingerprint + 8 height + ~4.3 geometry).
    /// - Complexity: O(n / 256).
    public var residentBytes: Int {
        var bytes = geometry.residentBytes
        bytes += statusIDs.capacity * MemoryLayout<Int64>.stride
        bytes += fingerprints.capacity * MemoryLayout<UInt64>.stride
        bytes += heights.capacity * MemoryLayout<Double>.stride
        return bytes
    }
}

/// A laid-out feed with every row's cell (`FeedEngine.layoutCells`).
public struct FeedCells: Sendable {
    public let layout: FeedGeometry
    /// Row `i`'s cell.
    public let cells: [CellGeometry]

    /// The layout's bytes, the array and every cell's (`CellGeometry.residentBytes`).
    /// - Complexity: O(n).
    public var residentBytes: Int {
        layout.residentBytes + cells.capacity * MemoryLayout<CellGeometry>.stride + cells.reduce(0) { $0 + $1.residentBytes }
    }
}

/// A laid-out feed with every row's prepared cell (`FeedEngine.prepareFeed`), ready to be laid
/// out at another width by arithmetic (`FeedEngine.relayout`).
public struct PreparedFeed: Sendable {
    public let layout: FeedGeometry
    /// Row `i`'s prepared cell.
    public let prepared: [PreparedCell]

    /// The layout's bytes and the array of prepared cells (`MemoryLayout<PreparedCell>.stride`
    /// per row); the cells themselves are shared with the engine's prepared-cell cache while they
    /// are in it (`PreparedCell.residentBytes` each).
    public var residentBytes: Int { layout.residentBytes + prepared.capacity * MemoryLayout<PreparedCell>.stride }
}

