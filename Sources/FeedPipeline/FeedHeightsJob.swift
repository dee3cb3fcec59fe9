import CellLayout
import Foundation
import FrameExport
import StatusModel
import TableLayout

/// The heights pass: how many rows a feed has and how tall it is at a width, without frames or
/// encoding (each cell is prepared and only its height computed, `PreparedCell.heights`).
///
/// It is the first pass of a partitioned export: the heights of the partitions give each one its
/// row and y origin (prefix sums), and a `FrameExportJob` with those origins writes the partition's
/// rows exactly as the whole feed's export would.
public struct FeedHeightsJob: Sendable {
    public var inputs: [String]
    /// Width, style, scale and line limit.
    public var options: FeedOptions
    public var loadOptions: LoadOptions
    public var threads: Int
    /// Statuses per batch of a whole-loaded input, and bytes per batch of a streamed one
    /// (clamped to at least 1 and at most 2^20 statuses and 2^26 bytes, 64 MiB).
    public var batchStatuses = 512
    public var batchBytes = 1 << 20

    public init(
        inputs: [String], options: FeedOptions, loadOptions: LoadOptions = LoadOptions(),
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.inputs = inputs
        self.options = options
        self.loadOptions = loadOptions
        self.threads = threads
    }

    /// What a run measured: its rows, their total height in pixels (and each row's, when asked
    /// for) and the statuses skipped.
    public struct Result: Sendable, Equatable {
        /// Rows (valid statuses).
        public var rowCount = 0
        /// The rows' heights summed on the pixel grid of the scale, in device pixels: exact, and
        /// what a following partition's y origin is (`heightPixels / scale` points).
        public var heightPixels: Int64 = 0
        /// Each row's height in device pixels, when asked for.
        public var rowHeightPixels: [Int64]?
        /// Statuses skipped as invalid (with `loadOptions.skipInvalid`).
        public var skippedCount = 0
        /// The scale the pixels are of.
        public var scale: Double = 1

        /// The height in points.
        public var height: Double { Double(heightPixels) / scale }
    }

    /// Runs the pass.
    /// - Parameters:
    ///   - engine: prepares the cells (its prepared-cell cache is used as configured).
    ///   - perRow: keep each row's height (memory: 8 bytes a row).
    ///   - isCancelled: polled between batches.
    public func run(engine: CellLayoutEngine, perRow: Bool = false, isCancelled: (() -> Bool)? = nil) throws -> Result {
        try run(opened: nil, engine: engine, perRow: perRow, isCancelled: isCancelled)
    }

    /// `run(engine:perRow:isCancelled:)` on `opened`, the inputs already opened in the order of
    /// `inputs` (nil: the job opens them), as `FrameExportJob.run(opened:engine:progress:skipped:isCancelled:write:)`.
    package func run(
        opened: [FeedSource]?, engine: CellLayoutEngine, perRow: Bool = false, isCancelled: (() -> Bool)? = nil
    ) throws -> Result {
        try options.validate()
        let sources = try opened ?? openSources(inputs, options: loadOptions)
        var result = Result()
        result.scale = options.scale
        if perRow { result.rowHeightPixels = [] }
        for case .loaded(let loaded) in sources { result.skippedCount += loaded.skipped.count }
        let options = options
        try runStatusPipeline(
            sources: sources, loadOptions: loadOptions, threads: threads, batchStatuses: batchStatuses,
            batchBytes: batchBytes, isCancelled: isCancelled,
            process: { _, decoded in
                var rows = EncodedRows(scale: options.scale)
                for status in decoded.statuses {
                    rows.appendHeight(
                        engine.prepare(status, style: options.style)
                            .heights(width: options.width, scale: options.scale, maxTextLines: options.maxTextLines).height)
                }
                return (rows.heightPixels, decoded.skipped.count)
            },
            consume: { (batch: ([Int64], Int)) in
                result.rowCount += batch.0.count
                for h in batch.0 { result.heightPixels += h }
                result.rowHeightPixels? += batch.0
                result.skippedCount += batch.1
            })
        return result
    }
}
