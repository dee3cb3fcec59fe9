import ArgumentParser
import CellLayout
import FeedLayoutSupport
import Dispatch
import FeedPipeline
import Foundation
import FrameExport
import StatusModel
import TableLayout
import TextMeasure

/// `feedlayout bench [INPUT...]`: a quick in-process timing of the layout of a feed, for users
/// without the benchmark package (`benchmarks/`, `make bench`), which measures much more and
/// with a real harness.
///
/// Cases: `FeedEngine.layout` of every row with fresh cell caches, on one thread and on every
/// core, cold (the shaped-word cache emptied before each pass; fonts stay loaded) and warm; then
/// the visible-range query and the point lookup on the laid-out table. The feed is repeated, each
/// copy with new ids, until it has `--min-rows` rows, so no row is a cache hit of another.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time feed layout in-process: cells/s cold and warm on one core and all cores, and query latency.",
        discussion: """
            The default input is the bundled demo feed, repeated to at least --min-rows rows for stable \
            numbers. Each case runs --reps timed passes and reports the median. Timings depend on the machine \
            and its load: the output names both. For the full suite (text, tables of a million rows, memory, \
            the naive baseline) run `make bench` in the package checkout.
            """)

    @Argument(help: "Feed files (plist, Weibo JSON or JSON Lines; - for standard input). Default: the bundled demo feed.")
    var inputs: [String] = []

    @OptionGroup var feed: FeedInputOptions

    @OptionGroup var widths: WidthsOption

    @Option(name: .customLong("min-rows"), help: "Repeat the feed until it has at least this many rows.")
    var minRows = 10_000

    @Option(help: "Timed passes per case (the median is reported).")
    var reps = 3

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    func validate() throws {
        try checkInputs(inputs)
        guard minRows >= 1, minRows <= 10_000_000 else { throw ValidationError("--min-rows must be in 1...10000000") }
        guard reps >= 1, reps <= 100 else { throw ValidationError("--reps must be in 1...100") }
    }

    func run() throws { try reportingErrors(runCommand) }

    private func runCommand() throws {
        let feedLoaded = try CLIEnvironment.loadFeed(inputs, skipInvalid: feed.skipInvalid)
        let loaded = feedLoaded.statuses
        guard !loaded.isEmpty else { throw CLIError.input("feedlayout: \(Preview.feedName(inputs)): the input holds no status") }
        let statuses = Self.repeated(loaded, toAtLeast: minRows)
        let measurer = try CLIEnvironment.measurer(fontsOption: feed.fonts)
        let cellEngine = CellLayoutEngine(measurer: measurer, now: feed.now.map { Date(timeIntervalSince1970: $0) })
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var report = Report(
            rows: statuses.count, sourceRows: loaded.count, style: feed.options(width: 375, format: feedLoaded.format).style.name, scale: feed.scale, cores: cores,
            load: Self.loadAverage())

        for width in widths.list {
            // (The style `layout` gives these inputs: friend for a friend list.)
            let options = feed.options(width: width, format: feedLoaded.format)
            var last: FeedGeometry?
            for mode in [Mode.cold, .warm] {
                for threads in cores > 1 ? [1, cores] : [1] {
                    if mode == .warm { _ = try layout(statuses, options, cellEngine, threads: cores) }
                    var seconds: [Double] = []
                    for _ in 0..<reps {
                        if mode == .cold { measurer.clearCaches() }
                        let t0 = DispatchTime.now().uptimeNanoseconds
                        let (result, engine) = try layout(statuses, options, cellEngine, threads: threads)
                        seconds.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
                        withExtendedLifetime(engine) {}
                        last = result
                    }
                    let median = seconds.sorted()[seconds.count / 2]
                    report.cases.append(
                        Case(width: width, mode: mode, threads: threads, cellsPerSecond: Double(statuses.count) / median))
                }
            }
            if let last { report.queries.append(Self.queries(last, width: width)) }
        }
        for path in inputs.isEmpty ? [try CLIEnvironment.demoFeedURL().path] : inputs where path != "-" {
            report.endToEnd.append(try endToEnd(path, measurer: measurer, cores: cores))
        }
        var out = OutputBuffer()
        try out.write((json ? report.json() : report.table()) + "\n")
        try out.flush()
    }

    enum Mode: String {
        case cold, warm
    }

    /// The jobs users run on `path`, timed end to end (file in, bytes out): validation on every
    /// core, and the JSON Lines export (`FrameExportJob`, output discarded) on one thread and on
    /// every core; medians of `reps` runs, the runs of each case alternating.
    private func endToEnd(_ path: String, measurer: TextMeasurer, cores: Int) throws -> EndToEnd {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let header = FrameExportHeader(generatorVersion: FeedLayoutVersion.string, manifest: measurer.fonts.manifest)
        let now = feed.now.map { Date(timeIntervalSince1970: $0) }
        var validate: [Double] = []
        var export: [Int: [Double]] = [:]
        var statuses = 0
        var outBytes = 0
        for _ in 0..<reps {
            let t0 = DispatchTime.now().uptimeNanoseconds
            statuses = try FeedValidation.count(path, options: LoadOptions(skipInvalid: feed.skipInvalid), threads: cores).statuses
            validate.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
            for threads in Set([1, cores]).sorted() {
                let job = FrameExportJob(
                    inputs: [path], widths: [widths.list[0]], options: feed.options(width: widths.list[0]), format: .jsonl,
                    loadOptions: LoadOptions(skipInvalid: feed.skipInvalid), threads: threads, header: header)
                let engine = CellLayoutEngine(measurer: measurer, now: now).withPreparedCellCache(budgetBytes: 0)
                measurer.clearCaches()
                let t1 = DispatchTime.now().uptimeNanoseconds
                outBytes = try job.run(engine: engine) { _ in }.bytes
                export[threads, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9)
            }
        }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        return EndToEnd(
            file: (path as NSString).lastPathComponent, bytes: bytes, statuses: statuses, outBytes: outBytes,
            validateSeconds: median(validate), exportOneSeconds: median(export[1] ?? []),
            exportAllSeconds: median(export[cores] ?? export[1] ?? []), cores: cores)
    }

    struct EndToEnd {
        var file: String
        var bytes: Int
        var statuses: Int
        var outBytes: Int
        var validateSeconds: Double
        var exportOneSeconds: Double
        var exportAllSeconds: Double
        var cores: Int
    }

    /// One pass: a fresh feed engine (empty layout and prepared-cell caches) on the shared measurer.
    /// The engine is returned so that the caller stops its clock before the engine's caches are freed.
    private func layout(
        _ statuses: [Status], _ options: FeedOptions, _ cells: CellLayoutEngine, threads: Int
    ) throws -> (FeedGeometry, FeedEngine) {
        do {
            let engine = FeedEngine(cellEngine: cells, preparedBudgetBytes: CellLayoutEngine.defaultPreparedCellBudgetBytes)
            return (try engine.layout(statuses, options: options, threads: threads), engine)
        } catch {
            throw CLIError.input("feedlayout: \(error)")
        }
    }

    /// `statuses` repeated until there are at least `count`; copy k's ids are shifted by k × 2^40 so
    /// every row has its own cache key.
    static func repeated(_ statuses: [Status], toAtLeast count: Int) -> [Status] {
        var out = statuses
        var copy: Int64 = 1
        while out.count < count {
            for var s in statuses {
                s.id = s.id &+ copy << 40
                out.append(s)
            }
            copy += 1
        }
        return out
    }

    /// Median latency of 812 pt visible-range queries and point lookups at fixed pseudo-random offsets.
    static func queries(_ layout: FeedGeometry, width: Double) -> Queries {
        let viewport = 812.0
        let height = layout.contentHeight
        var rng = SplitMix64(seed: 11)
        let ys = (0..<2_000).map { _ in Double(rng.below(max(1, Int(height - viewport)))) + 0.25 }
        var sink = 0
        func median(_ body: (Double) -> Int) -> Double {
            var runs: [Double] = []
            for _ in 0..<5 {
                let t0 = DispatchTime.now().uptimeNanoseconds
                for y in ys { sink &+= body(y) }
                runs.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / Double(ys.count))
            }
            return runs.sorted()[2]
        }
        let range = median { layout.rows(intersecting: $0..<($0 + viewport)).count }
        let point = median { layout.geometry.indexPathForRow(at: $0)?.row ?? 0 }
        precondition(sink != Int.min)
        return Queries(width: width, rows: layout.count, rangeNanoseconds: range, pointNanoseconds: point)
    }

    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    struct Case {
        var width: Double
        var mode: Mode
        var threads: Int
        var cellsPerSecond: Double
    }

    struct Queries {
        var width: Double
        var rows: Int
        var rangeNanoseconds: Double
        var pointNanoseconds: Double
    }

    struct Report {
        var rows: Int
        var sourceRows: Int
        var style: String
        var scale: Double
        var cores: Int
        var load: String
        var cases: [Case] = []
        var queries: [Queries] = []
        var endToEnd: [EndToEnd] = []

        func table() -> String {
            var lines = [
                "feedlayout bench: \(rows) rows (\(sourceRows) statuses repeated), style \(style), scale \(JSONNumber.fixed(scale, 2)), "
                    + "\(cores) cores, load \(load)",
                pad("width", 7) + pad("case", 8) + pad("threads", 9) + pad("cells/s", 12) + "µs/cell",
            ]
            for c in cases {
                lines.append(
                    pad(JSONNumber.fixed(c.width, 2), 7) + pad(c.mode.rawValue, 8) + pad(String(c.threads), 9)
                        + pad(String(Int(c.cellsPerSecond.rounded())), 12) + JSONNumber.fixed(1e6 / c.cellsPerSecond, 2))
            }
            for c in cases where c.threads > 1 {
                if let one = cases.first(where: { $0.width == c.width && $0.mode == c.mode && $0.threads == 1 }) {
                    lines.append(
                        "speedup \(c.mode.rawValue) at \(JSONNumber.fixed(c.width, 2)) pt on \(c.threads) threads: "
                            + "\(JSONNumber.fixed(c.cellsPerSecond / one.cellsPerSecond, 2))×")
                }
            }
            for q in queries {
                lines.append(
                    "queries at \(JSONNumber.fixed(q.width, 2)) pt, \(q.rows) rows: visible range (812 pt) "
                        + "\(JSONNumber.fixed(q.rangeNanoseconds, 1)) ns, point lookup \(JSONNumber.fixed(q.pointNanoseconds, 1)) ns")
            }
            for e in endToEnd {
                let mb = Double(e.bytes) / 1e6
                lines.append(
                    "end to end, \(DisplaySafe.escaped(e.file)) (\(JSONNumber.fixed(mb, 1)) MB, \(e.statuses) statuses): "
                        + "validate \(JSONNumber.fixed(e.validateSeconds, 3)) s (\(JSONNumber.fixed(mb / e.validateSeconds, 1)) MB/s, \(e.cores) threads); "
                        + "export to JSON Lines \(JSONNumber.fixed(e.exportOneSeconds, 3)) s on 1 thread, "
                        + "\(JSONNumber.fixed(e.exportAllSeconds, 3)) s on \(e.cores) (\(JSONNumber.fixed(e.exportOneSeconds / e.exportAllSeconds, 2))×, "
                        + "\(Int((Double(e.statuses) / e.exportAllSeconds).rounded())) statuses/s, \(JSONNumber.fixed(Double(e.outBytes) / 1e6, 1)) MB out)")
            }
            return lines.joined(separator: "\n")
        }

        private func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }

        func json() -> String {
            let caseObjects = cases.map {
                "{\"width\": \(JSONNumber.fixed($0.width, 2)), \"case\": \"\($0.mode.rawValue)\", \"threads\": \($0.threads), "
                    + "\"cells_per_s\": \(JSONNumber.fixed($0.cellsPerSecond, 1))}"
            }
            let queryObjects = queries.map {
                "{\"width\": \(JSONNumber.fixed($0.width, 2)), \"rows\": \($0.rows), "
                    + "\"visible_range_ns\": \(JSONNumber.fixed($0.rangeNanoseconds, 1)), "
                    + "\"point_lookup_ns\": \(JSONNumber.fixed($0.pointNanoseconds, 1))}"
            }
            let endObjects = endToEnd.map {
                "{\"file\": \(JSONNumber.string($0.file)), \"bytes\": \($0.bytes), \"statuses\": \($0.statuses), "
                    + "\"validate_s\": \(JSONNumber.fixed($0.validateSeconds, 4)), \"export_1_thread_s\": \(JSONNumber.fixed($0.exportOneSeconds, 4)), "
                    + "\"export_all_threads_s\": \(JSONNumber.fixed($0.exportAllSeconds, 4)), \"output_bytes\": \($0.outBytes)}"
            }
            return "{\"rows\": \(rows), \"source_statuses\": \(sourceRows), \"style\": \(JSONNumber.string(style)), "
                + "\"scale\": \(JSONNumber.fixed(scale, 2)), \"cores\": \(cores), \"load\": \(JSONNumber.string(load)), "
                + "\"cases\": [\(caseObjects.joined(separator: ", "))], \"queries\": [\(queryObjects.joined(separator: ", "))], "
                + "\"end_to_end\": [\(endObjects.joined(separator: ", "))]}"
        }
    }
}
