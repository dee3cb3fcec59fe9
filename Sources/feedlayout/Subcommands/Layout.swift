import ArgumentParser
import CellLayout
import Foundation
import FeedPipeline
import FrameExport
import StatusModel
import TableLayout
import TextMeasure

/// `feedlayout layout`: every row's frames as JSON (docs/frames.schema.json) or JSON Lines.
///
/// A shell over `FrameExportJob` (module FeedPipeline): the command parses its options, opens the
/// output, draws the progress bar and reports skipped statuses; the job reads, decodes, lays out,
/// encodes and writes in order on every core.
struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lay out feeds and write every row's frames as JSON or JSON Lines (docs/frames.schema.json).",
        discussion: """
            Frames are relative to their cell; each row carries its y in the table. Several --width values \
            give one layout per width (JSON: {"layouts": [...]}; JSON Lines: each line names its width). \
            Output is byte-identical across runs and --threads values. With -o FILE the file is written \
            atomically: a failing run leaves an existing file untouched (on standard output the rows are \
            streamed, so a run that fails part way has written those before the error). Exit codes: 0 success, 1 input \
            errors, 2 usage errors. A progress bar is drawn on stderr only when it is a terminal. JSON Lines and Weibo \
            JSON (files and standard input) are streamed in batches (bounded memory); property lists are read whole. \
            A friend list (or a plist with "sections", or any feed with --group-by) is exported with its \
            sections: each one's header and footer frames, title, count, collapsed state and the rows it shows \
            (a closed section: its header only; --expand N opens section N, --expand-all every section), and the side index.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, jsonl
        var frameFormat: FrameFormat { self == .json ? .json : .jsonl }
    }

    @Argument(help: "Feed files (any format feedlayout reads), or - for standard input (default: the bundled demo feed).")
    var inputs: [String] = []

    @OptionGroup var input: FeedInputOptions

    @OptionGroup var widthOptions: WidthsOption

    @Option(help: "Output format: json (one document) or jsonl (one row per line).")
    var format: Format = .json

    @Option(name: .shortAndLong, help: "Output file, or - for standard output (default).")
    var output: String?

    @Option(help: "Worker threads for every stage (the output does not depend on it).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Only write rows A..<B (0-based, half-open; either side may be left out; cut at the feed's end); y offsets stay the whole feed's. (default: every row)")
    var rows: RowRange?

    @Option(name: .customLong("row-origin"), help: "Index of the inputs' first row, when they are one partition of a larger feed (see `feedlayout heights`).")
    var rowOrigin = 0

    @Option(name: .customLong("y-origin"), help: "y (points) of the inputs' first row, when they are one partition of a larger feed: the rows above's height.")
    var yOrigin = 0.0

    @OptionGroup var sections: SectionOptions

    @Option(name: .customLong("input-format"), help: "The inputs' format (jsonl, json, plist, classic-plist, friends-plist; default: detected from the content). A partition of one status on standard input needs jsonl: a single line reads as a JSON document.")
    var inputFormat: FeedFormat?

    func validate() throws {
        try checkInputs(inputs)
        try checkOutput(output)
        guard threads >= 1, threads <= 1024 else { throw ValidationError("--threads must be in 1...1024") }
        guard rowOrigin >= 0, rowOrigin <= FrameStream.maxRowOrigin else {
            throw ValidationError("--row-origin must be an integer in [0, 1e15)")
        }
        guard yOrigin.isFinite, yOrigin >= 0, yOrigin < FrameStream.maxYOrigin else {
            throw ValidationError("--y-origin must be a number in [0, 1e15)")
        }
    }

    func run() throws { try reportingErrors(export) }

    private func export() throws {
        let measurer = try CLIEnvironment.measurer(fontsOption: input.fonts)
        let paths = inputs.isEmpty ? [try CLIEnvironment.demoFeedURL().path] : inputs
        let widths = widthOptions.list
        let loadOptions = LoadOptions(skipInvalid: input.skipInvalid, format: inputFormat)
        let opened = try sections.openPlain(paths, options: loadOptions, rereadable: widths.count > 1)
        if opened == nil, let loaded = try sections.loadSections(paths, skipInvalid: input.skipInvalid, now: input.now) {
            return try exportSections(loaded.list, format: loaded.format, measurer: measurer)
        }
        // One width: no prepared-cell cache (a single pass over a feed of distinct statuses only
        // fills and evicts it: 7 % of an export's time). Several widths: a small one, so that
        // the next widths reuse the first rows' prepared cells, bounding RSS.
        let cells = CellLayoutEngine(measurer: measurer, now: input.now.map { Date(timeIntervalSince1970: $0) })
            .withPreparedCellCache(budgetBytes: widths.count > 1 ? 48 << 20 : 0)
        var job = FrameExportJob(
            inputs: paths, widths: widths, options: input.options(width: widths[0]), format: format.frameFormat,
            rows: rows?.range, loadOptions: loadOptions, threads: threads,
            header: FrameExportHeader(generatorVersion: FeedLayoutVersion.string, manifest: measurer.fonts.manifest))
        job.batchStatuses = 512
        job.rowOrigin = rowOrigin
        job.yOrigin = yOrigin
        let sink = try OutputSink(path: output)
        // (Inputs that can be read only once are not counted: counting would consume them.)
        let total = isatty(STDERR_FILENO) != 0 ? paths.reduce(0) { $0 + Self.countLines($1) } * widths.count : 0
        let progress = ProgressBar.ifTerminal(total: total)
        let summary = try job.run(
            opened: opened, engine: cells, progress: { progress?.update($0) },
            skipped: { _, s in printError(s.description) },
            write: { try sink.write($0) })
        progress?.finish()
        if summary.skippedCount > 0 { printError("\(summary.skippedCount) invalid statuses skipped") }
        // The rule of every command: a range cut at the feed's end is fine, one that starts after
        // its last row is an error (and no output file is left).
        if let rows, let lower = rows.lower, lower >= rowOrigin + summary.rowCount {
            throw Preview.rowsPastTheEnd(
                name: Preview.feedName(inputs), option: rows.defaultValueDescription, count: rowOrigin + summary.rowCount)
        }
        try sink.commit()
    }

    /// The export of a sectioned feed (whole, in memory: sections come from whole-loaded inputs).
    private func exportSections(_ list: [StatusSection], format feedFormat: FeedFormat, measurer: TextMeasurer) throws {
        guard rows == nil, rowOrigin == 0, yOrigin == 0 else {
            throw CLIError.input("feedlayout: --rows, --row-origin and --y-origin apply to plain feeds, not to sectioned ones")
        }
        let cells = CellLayoutEngine(measurer: measurer, now: input.now.map { Date(timeIntervalSince1970: $0) })
        let engine = FeedEngine(cellEngine: cells)
        let widths = widthOptions.list
        let doc = try sections.document(list, format: feedFormat, engine: engine, options: input.options(width: widths[0], format: feedFormat))
        let bytes = try FrameExport.data(
            doc, widths: widths, header: FrameExportHeader(generatorVersion: FeedLayoutVersion.string, manifest: measurer.fonts.manifest),
            format: format.frameFormat)
        let sink = try OutputSink(path: output)
        try sink.write(bytes)
        try sink.commit()
    }

    /// Newlines in a JSON Lines file (its statuses, for the progress bar's ETA); 0 for other
    /// inputs, whose counts are not known before they are loaded, and for inputs that can be
    /// read only once (standard input, a pipe, a FIFO, a device).
    static func countLines(_ path: String) -> Int {
        let ext = (path as NSString).pathExtension.lowercased()
        guard ext == "jsonl" || ext == "ndjson", !FeedSource.isReadOnce(path), let h = FileHandle(forReadingAtPath: path) else {
            return 0
        }
        defer { try? h.close() }
        var n = 0
        while let chunk = try? h.read(upToCount: 1 << 20), !chunk.isEmpty {
            n += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        return n
    }
}

/// Standard output, or a file written atomically (temporary sibling renamed on `commit`).
///
/// On standard output the last piece is held until the next one or `commit`: an export whose
/// output is one piece (every small export, and one whose `--rows` start after the feed's end,
/// found only once the feed is read) writes nothing when it fails.
private final class OutputSink {
    private let file: AtomicFileWriter?
    private var held: [UInt8] = []

    init(path: String?) throws {
        if let path, path != "-" {
            file = try AtomicFileWriter(url: URL(fileURLWithPath: path))
        } else {
            file = nil
        }
    }

    func write(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        if let file {
            try file.write(bytes)
        } else {
            if !held.isEmpty { try DescriptorOutput.writeStandardOutput(held) }
            held = bytes
        }
    }

    func commit() throws {
        if let file { return try file.commit() }
        if !held.isEmpty { try DescriptorOutput.writeStandardOutput(held) }
        held = []
    }
}

/// A one-line progress bar with rows/s and ETA, drawn on stderr at most 5 times a second.
private final class ProgressBar {
    private let total: Int
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0

    /// A bar when stderr is a terminal (and TERM is not "dumb"), else nil: nothing is drawn.
    static func ifTerminal(total: Int) -> ProgressBar? {
        guard isatty(STDERR_FILENO) != 0, ProcessInfo.processInfo.environment["TERM"] != "dumb" else { return nil }
        return ProgressBar(total: total)
    }

    private init(total: Int) { self.total = total }

    func update(_ done: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 200_000_000 else { return }
        lastDraw = now
        let seconds = Double(now - start) / 1e9
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = "\r"
        if total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let filled = Int(fraction * 30)
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + "] "
            line += "\(done)/\(total) rows"
        } else {
            line += "\(done) rows"
        }
        line += String(format: "  %.0f rows/s", rate)
        if total > done, rate > 0 { line += String(format: "  ETA %.0fs", Double(total - done) / rate) }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
    }

    func finish() {
        if lastDraw > 0 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

/// `--input-format`: a format named as `FeedFormat`'s raw value.
extension FeedFormat: ExpressibleByArgument {}
