import ArgumentParser
import CellLayout
import Foundation
import FrameExport
import StatusModel
import TableLayout

/// `feedlayout layout`: every row's frames as JSON (docs/frames.schema.json) or JSON Lines.
///
/// Statuses go through the layout and the writer in batches of `batchSize`: a batch is laid out in
/// parallel, encoded in parallel, then written in order. JSON Lines inputs are read with
/// `FeedLoader.forEachStatus`, so with them memory stays bounded by a batch whatever the feed's
/// length (both output formats stream: the document's totals come after its rows). Other inputs
/// are loaded whole first, so an invalid status fails the run before anything is written.
struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lay out feeds and write every row's frames as JSON or JSON Lines (docs/frames.schema.json).",
        discussion: """
            Frames are relative to their cell; each row carries its y in the table. Several --width values \
            give one layout per width (JSON: {"layouts": [...]}; JSON Lines: each line names its width). \
            Output is byte-identical across runs and --threads values. With -o FILE the file is written \
            atomically: a failing run leaves an existing file untouched. Exit codes: 0 success, 1 input \
            errors, 2 usage errors. A progress bar is drawn on stderr only when it is a terminal. JSON Lines \
            files are streamed in batches (bounded memory); other formats and standard input are read whole.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, jsonl
        var frameFormat: FrameFormat { self == .json ? .json : .jsonl }
    }

    @Argument(help: "Feed files (any format feedlayout reads), or - for standard input (default: the bundled demo feed).")
    var inputs: [String] = []

    @OptionGroup var input: FeedInputOptions

    @Option(help: "Output format: json (one document) or jsonl (one row per line).")
    var format: Format = .json

    @Option(name: .shortAndLong, help: "Output file, or - for standard output (default).")
    var output: String?

    @Option(help: "Layout and encoding threads (the output does not depend on it).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Only write rows A..<B (0-based, half-open; A: or :B allowed); y offsets stay the whole feed's.")
    var rows: String?

    @Flag(name: .customLong("report-speed"), help: .hidden)
    var reportSpeed = false

    /// Statuses laid out and written per step (bounds memory when streaming).
    static let batchSize = 1024

    func validate() throws {
        guard threads >= 1, threads <= 1024 else { throw ValidationError("--threads must be in 1...1024") }
        if let rows, Self.parseRows(rows) == nil {
            throw ValidationError("--rows must be A:B with 0 ≤ A ≤ B (A: or :B allowed), got \"\(rows)\"")
        }
    }

    /// "A:B", "A:" or ":B" as a half-open range.
    static func parseRows(_ s: String) -> Range<Int>? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let a = parts[0].isEmpty ? 0 : Int(parts[0])
        let b = parts[1].isEmpty ? Int.max : Int(parts[1])
        guard let a, let b, a >= 0, a <= b else { return nil }
        return a..<b
    }

    func run() throws {
        do {
            try export()
        } catch let error as ExitCode {
            throw error
        } catch let error as CLIError {
            printErrorLine(error.description)
            throw ExitCode(1)
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }

    private func export() throws {
        let measurer = try CLIEnvironment.measurer(fontsOption: input.fonts)
        let cells = CellLayoutEngine(measurer: measurer, now: input.now.map { Date(timeIntervalSince1970: $0) })
        // Small cache budgets: one pass over the feed gains little from them, and they bound RSS.
        let engine = FeedEngine(cellEngine: cells, layoutBudgetBytes: 16 << 20, preparedBudgetBytes: 48 << 20)
        let header = FrameExportHeader(generatorVersion: FeedLayoutVersion.string, manifest: measurer.fonts.manifest)
        let sources = try loadSources()
        let sink = try OutputSink(path: output)
        let widths = input.widthList
        let progress = ProgressBar.ifTerminal(total: sources.reduce(0) { $0 + $1.countForProgress } * widths.count)
        let selected = rows.flatMap(Self.parseRows)

        var out: [UInt8] = []
        out.reserveCapacity(2 << 20)
        let nested = format == .json && widths.count > 1
        if nested { FrameExport.beginLayouts(header: header, into: &out) }
        var rowsDone = 0
        var speed = (layoutNanos: UInt64(0), encodeNanos: UInt64(0), encodeCPUNanos: UInt64(0), bytes: 0)
        for (w, width) in widths.enumerated() {
            if nested && w > 0 { FrameExport.separateLayouts(into: &out) }
            let options = input.options(width: width)
            var stream = try FrameStream(options: options, header: header, format: format.frameFormat, rows: selected, isNested: nested)
            stream.begin(into: &out)
            // Lays out one batch and appends its rows; flushes the buffer when it is large.
            func step(_ batch: [Status]) throws {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let layout = try engine.layout(batch, options: options, threads: threads, chunkSize: 64)
                let t1 = DispatchTime.now().uptimeNanoseconds
                let before = out.count
                let cpu0 = Self.threadCPUNanos()
                stream.append(layout.cells!, threads: threads, into: &out)
                speed.encodeCPUNanos += Self.threadCPUNanos() - cpu0
                speed.layoutNanos += t1 - t0
                speed.encodeNanos += DispatchTime.now().uptimeNanoseconds - t1
                speed.bytes += out.count - before
                if out.count >= 1 << 20 {
                    try sink.write(out)
                    out.removeAll(keepingCapacity: true)
                }
                rowsDone += batch.count
                progress?.update(rowsDone)
            }
            for source in sources {
                switch source {
                case .loaded(let statuses):
                    var start = 0
                    while start < statuses.count {
                        let end = min(statuses.count, start + Self.batchSize)
                        try step(Array(statuses[start..<end]))
                        start = end
                    }
                case .jsonLines(let url, _):
                    var batch: [Status] = []
                    batch.reserveCapacity(Self.batchSize)
                    var failure: (any Error)?
                    let skipped = try FeedLoader.forEachStatus(inJSONLines: url, options: LoadOptions(skipInvalid: input.skipInvalid)) {
                        guard failure == nil else { return }
                        batch.append($0)
                        if batch.count == Self.batchSize {
                            do { try step(batch) } catch { failure = error }
                            batch.removeAll(keepingCapacity: true)
                        }
                    }
                    if let failure { throw failure }
                    if !batch.isEmpty { try step(batch) }
                    if w == 0 { Self.reportSkipped(skipped) }
                }
            }
            stream.finish(into: &out)
        }
        if nested { FrameExport.endLayouts(into: &out) }
        try sink.write(out)
        progress?.finish()
        try sink.commit()
        if reportSpeed {
            // Time spent laying out and encoding rows (writing excluded), for benchmarks. With
            // --threads 1 the encoding runs on this thread, and its CPU time is the one-core cost.
            let mb = Double(speed.bytes) / 1e6, encode = Double(speed.encodeNanos) / 1e9
            let cpu = Double(speed.encodeCPUNanos) / 1e9
            printError(String(
                format: "rows %d, layout %.3f s, encode %.3f s wall (%.1f MB/s), %.3f s CPU of this thread (%.1f MB/s), %.1f MB of rows, %d threads",
                rowsDone, Double(speed.layoutNanos) / 1e9, encode, encode > 0 ? mb / encode : 0, cpu, cpu > 0 ? mb / cpu : 0, mb, threads))
        }
    }

    /// Where statuses come from: loaded whole, or streamed from a JSON Lines file.
    enum Source {
        case loaded([Status])
        /// The file and its line count when a progress bar needs it (else 0).
        case jsonLines(URL, lines: Int)

        var countForProgress: Int {
            switch self {
            case .loaded(let s): s.count
            case .jsonLines(_, let n): n
            }
        }
    }

    /// Loads every input that is not JSON Lines (so their errors come before any output) and
    /// checks that the JSON Lines ones can be opened.
    private func loadSources() throws -> [Source] {
        var sources: [Source] = []
        let options = LoadOptions(skipInvalid: input.skipInvalid)
        let wantsCounts = isatty(STDERR_FILENO) != 0
        for path in inputs.isEmpty ? [try CLIEnvironment.demoFeedURL().path] : inputs {
            if path == "-" {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                let result = try FeedLoader.load(data: data, fileName: "<stdin>", options: options)
                Self.reportSkipped(result.skipped)
                sources.append(.loaded(result.feed.statuses))
                continue
            }
            let url = URL(fileURLWithPath: path)
            if try FeedLoader.detectFormat(of: url) == .jsonLines {
                sources.append(.jsonLines(url, lines: wantsCounts ? Self.countLines(url) : 0))
            } else {
                let result = try FeedLoader.load(contentsOf: url, options: options)
                Self.reportSkipped(result.skipped)
                sources.append(.loaded(result.feed.statuses))
            }
        }
        return sources
    }

    static func reportSkipped(_ skipped: [SkippedStatus]) {
        guard !skipped.isEmpty else { return }
        for s in skipped { printError("skipped status \(s.index)\(s.id.map { " (id \($0))" } ?? ""): \(s.error)") }
        printError("\(skipped.count) invalid statuses skipped")
    }

    /// CPU time of the calling thread.
    static func threadCPUNanos() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// Newlines in a file (an estimate of its statuses, for the progress bar's ETA).
    static func countLines(_ url: URL) -> Int {
        guard let h = try? FileHandle(forReadingFrom: url) else { return 0 }
        defer { try? h.close() }
        var n = 0
        while let chunk = try? h.read(upToCount: 1 << 20), !chunk.isEmpty {
            n += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        return n
    }
}

/// Standard output, or a file written atomically (temporary sibling renamed on `commit`).
private final class OutputSink {
    private let file: AtomicFileWriter?

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
            try file.write(Data(bytes))
        } else {
            try DescriptorOutput.writeStandardOutput(bytes)
        }
    }

    func commit() throws { try file?.commit() }
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
