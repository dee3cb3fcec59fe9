import CellLayout
import Foundation
import FrameExport
import StatusModel
import TableLayout

/// A frame export from feed files to JSON or JSON Lines: what `feedlayout layout` runs.
///
/// Stages: read (inputs in order, JSON Lines as chunks of whole lines, Weibo JSON as chunks of
/// whole statuses) → decode → lay out → encode (rows without their index and y) on every worker,
/// then splice (index and y from the running sums) → write, in input order. Memory is bounded by
/// `window` batches whatever a streamed input's length; the output bytes do not depend on
/// `threads`.
///
/// ```swift
/// let measurer = try TextMeasurer(fonts: FontSet.loadDefault())
/// let job = FrameExportJob(inputs: ["feed.jsonl"], widths: [375], format: .jsonl,
///                          header: FrameExportHeader(generatorVersion: "1.0", manifest: measurer.fonts.manifest))
/// try job.run(engine: CellLayoutEngine(measurer: measurer)) { bytes in try output.write(bytes) }
/// ```
public struct FrameExportJob: Sendable {
    /// Feed files, or `-` for standard input, read in order as one feed.
    public var inputs: [String]
    /// One layout per width, in this order.
    public var widths: [Double]
    /// Style, scale, line limit and table style (the width comes from `widths`).
    public var options: FeedOptions
    public var format: FrameFormat
    /// The rows written (nil: all); y offsets and totals are still the whole feed's.
    public var rows: Range<Int>?
    public var loadOptions: LoadOptions
    /// Workers for every stage (the output does not depend on it).
    public var threads: Int
    public var header: FrameExportHeader
    /// Statuses per batch of a whole-loaded input, and bytes per batch of a streamed one (JSON
    /// Lines, Weibo JSON). A Weibo JSON batch ends at whichever limit it reaches first, so that a
    /// batch of small statuses does not make a large batch of rows.
    /// Both are clamped to at least 1 and at most 2^20 statuses and 2^26 bytes (64 MiB).
    public var batchStatuses = 512
    public var batchBytes = 1 << 20
    /// Bytes gathered before each call of `write` (clamped to [1, 2^26]).
    public var writeBytes = 1 << 20
    /// The index and y (points) of the inputs' first row, when they are one partition of a feed
    /// whose rows above were laid out elsewhere (`FeedHeightsJob` gives each partition's row count
    /// and height): the rows written are then byte-identical to the same rows of the whole feed's
    /// export. JSON Lines partitions concatenate into the whole feed's JSON Lines.
    public var rowOrigin = 0
    public var yOrigin = 0.0

    public init(
        inputs: [String], widths: [Double] = [375], options: FeedOptions = FeedOptions(width: 375), format: FrameFormat = .json,
        rows: Range<Int>? = nil, loadOptions: LoadOptions = LoadOptions(), threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        header: FrameExportHeader
    ) {
        self.inputs = inputs
        self.widths = widths
        self.options = options
        self.format = format
        self.rows = rows
        self.loadOptions = loadOptions
        self.threads = threads
        self.header = header
    }

    /// What a run did.
    public struct Summary: Sendable {
        /// Rows laid out per width (valid statuses).
        public var rowCount = 0
        /// Statuses skipped as invalid (with `loadOptions.skipInvalid`).
        public var skippedCount = 0
        /// Bytes passed to `write`.
        public var bytes = 0
    }

    /// Runs the export.
    ///
    /// - Parameters:
    ///   - engine: lays out the cells (its prepared-cell cache is used as configured).
    ///   - progress: rows done so far, over every width, called in order from the consuming worker.
    ///   - skipped: each skipped status with its file, in input order, once (not per width).
    ///   - isCancelled: polled between batches.
    ///   - write: the output bytes in order, in pieces of about `writeBytes`.
    /// - Throws: `StatusModelError` for inputs, `FeedError` for options, `PipelineCancelled`, or
    ///   what `write` throws. Nothing after the failing batch is written.
    public func run(
        engine: CellLayoutEngine,
        progress: ((Int) -> Void)? = nil,
        skipped: ((String, SkippedStatus) -> Void)? = nil,
        isCancelled: (() -> Bool)? = nil,
        write: ([UInt8]) throws -> Void
    ) throws -> Summary {
        try run(opened: nil, engine: engine, progress: progress, skipped: skipped, isCancelled: isCancelled, write: write)
    }

    /// `run(engine:progress:skipped:isCancelled:write:)` on `opened`, the inputs already opened in
    /// the order of `inputs` (nil: the job opens them): a caller that had to load a property list
    /// whole to look at it hands it over rather than have it read and parsed again.
    package func run(
        opened: [FeedSource]?,
        engine: CellLayoutEngine,
        progress: ((Int) -> Void)? = nil,
        skipped: ((String, SkippedStatus) -> Void)? = nil,
        isCancelled: (() -> Bool)? = nil,
        write: ([UInt8]) throws -> Void
    ) throws -> Summary {
        var summary = Summary()
        var out: [UInt8] = []
        let writeBytes = min(max(1, self.writeBytes), FeedBatchReader.maxBatchBytes)
        out.reserveCapacity(writeBytes + (1 << 16))
        let nested = format == .json && widths.count > 1
        var sources = try opened ?? openSources(inputs, options: loadOptions, rereadable: widths.count > 1)
        for case .loaded(let result) in sources {
            for s in result.skipped { skipped?(result.feed.sourceName, s) }
            summary.skippedCount += result.skipped.count
        }
        if nested { FrameExport.beginLayouts(header: header, into: &out) }
        var rowsDone = 0
        for (w, width) in widths.enumerated() {
            if w > 0 {
                // Streamed files are read again; whole-loaded inputs are kept.
                sources = try zip(inputs, sources).map { (path, source) throws(StatusModelError) -> FeedSource in
                    source.isStreamed ? try FeedSource.open(path, options: loadOptions) : source
                }
                if nested { FrameExport.separateLayouts(into: &out) }
            }
            var layoutOptions = options
            layoutOptions.width = width
            try layoutOptions.validate()
            var stream = try FrameStream(
                options: layoutOptions, header: header, format: format, rows: rows, isNested: nested, rowOrigin: rowOrigin,
                yOrigin: yOrigin)
            stream.begin(into: &out)
            let selection = rows ?? 0..<Int.max
            let exact = !loadOptions.skipInvalid
            let firstPass = w == 0
            try runStatusPipeline(
                sources: sources, loadOptions: loadOptions, threads: threads, batchStatuses: batchStatuses,
                batchBytes: batchBytes, isCancelled: isCancelled,
                process: { batch, decoded in
                    var encoded = EncodedRows(scale: layoutOptions.scale)
                    for (k, status) in decoded.statuses.enumerated() {
                        // A row's index is at most the count of statuses before it (equal without skips).
                        let bound = rowOrigin + batch.statusesBefore + k
                        let written = exact ? selection.contains(bound) : bound >= selection.lowerBound
                        let prepared = engine.prepare(status, style: layoutOptions.style)
                        if written {
                            encoded.append(
                                prepared.layout(width: width, scale: layoutOptions.scale, maxTextLines: layoutOptions.maxTextLines))
                        } else {
                            encoded.appendHeight(
                                prepared.heights(width: width, scale: layoutOptions.scale, maxTextLines: layoutOptions.maxTextLines).height)
                        }
                    }
                    // The statuses are freed here, on the worker that made them.
                    return (encoded, decoded.skipped, decoded.file)
                },
                consume: { (result: (EncodedRows, [SkippedStatus], String)) in
                    let (encoded, skippedHere, file) = result
                    if firstPass {
                        for s in skippedHere { skipped?(file, s) }
                        summary.skippedCount += skippedHere.count
                    }
                    stream.append(encoded, into: &out)
                    rowsDone += encoded.count
                    if out.count >= writeBytes {
                        try write(out)
                        summary.bytes += out.count
                        out.removeAll(keepingCapacity: true)
                    }
                    progress?(rowsDone)
                })
            stream.finish(into: &out)
            if firstPass { summary.rowCount = stream.rowCount - rowOrigin }
        }
        if nested { FrameExport.endLayouts(into: &out) }
        if !out.isEmpty {
            try write(out)
            summary.bytes += out.count
        }
        return summary
    }
}
