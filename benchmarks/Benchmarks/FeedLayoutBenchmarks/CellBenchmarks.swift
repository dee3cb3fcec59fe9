import Benchmark
import CellLayout
import Foundation
import StatusModel
import TableLayout
import TextMeasure

/// The statuses a cell benchmark runs on (loaded when a benchmark's setup asks, not at registration).
enum CellInput {
    case corpus
    case generated
    /// The naive baseline on the generated feed runs on its first 10 000 statuses (a pass over
    /// 100 000 would take minutes); cells/s is per cell either way.
    case generatedPrefix

    static let naivePrefix = 10_000

    var name: String { self == .corpus ? "corpus" : "generated" }

    var description: String {
        switch self {
        case .corpus: return "shared corpus, \(Inputs.corpus?.count ?? 0) statuses"
        case .generated: return "FeedGenerator(seed: 42), 100 000 statuses"
        case .generatedPrefix: return "FeedGenerator(seed: 42), first 10 000 statuses"
        }
    }

    var statuses: [Status]? {
        switch self {
        case .corpus: return Inputs.corpus
        case .generated: return Inputs.generated()
        case .generatedPrefix: return Inputs.generated(Self.naivePrefix)
        }
    }
}

/// Sum of the cell heights of `statuses`: the correctness check of every cell benchmark, computed
/// through the feed engine (another path than `CellLayoutEngine.layout`) on all cores.
func referenceHeight(_ statuses: [Status], _ style: CellStyle, width: Double = Inputs.cellWidth, now: Date? = nil) -> Double {
    let engine = FeedEngine(cellEngine: CellLayoutEngine(measurer: Inputs.measurer(), now: now))
    do {
        return try engine.layout(statuses, options: Inputs.feedOptions(style, width: width))
            .heights.reduce(0, +)
    } catch {
        fatalError("reference layout: \(error)")
    }
}

func sameHeight(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 * max(1, abs(b)) }

/// The median of per-iteration samples (the upper middle one of an even count).
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// One pass of `CellLayoutEngine.layout` over `statuses` (width 375, scale 2): the sum of the
/// heights. With `naive`, that measurer's caches are emptied before every cell.
func cellPass(
    _ engine: CellLayoutEngine, _ statuses: [Status], _ style: CellStyle, clearingBeforeEachCell naive: TextMeasurer? = nil
) -> Double {
    var sum = 0.0
    for s in statuses {
        naive?.clearCaches()
        sum += engine.layout(s, width: Inputs.cellWidth, style: style, scale: Inputs.scale).height
    }
    return sum
}

/// One core: `CellLayoutEngine.layout` (prepare + arrange) of every status: cold (a new engine,
/// shaped-word and prepared-text caches emptied before the pass), warm (the same engine again: its
/// prepared cells found by content, so a pass is fingerprint lookups and arranging), warm texts
/// (a new engine each pass on a warm measurer: cells prepared again from cached shaped words),
/// and the naive baseline (no prepared-cell cache, measurer caches emptied before every cell:
/// each height request measures from scratch).
func cellBenchmarks() {
    for style in [CellStyle.weibo, .classic] {
        for input in [CellInput.corpus, .generated] {
            cellCase(style, input, mode: "cold")
            cellCase(style, input, mode: "warm")
            cellCase(style, input, mode: "warm texts")
            cellCase(style, input == .generated ? .generatedPrefix : input, mode: "naive")
            cachedCase(style, input)
        }
    }
    // A feed laid out against a `now`, as a server does: relative times, whose time lines
    // repeat and are shared by content.
    cellCase(.weibo, .corpus, mode: "cold", now: Inputs.corpusNow)
    coldCellBreakdownBenchmark()
}

/// Passes per measured iteration of the sub-millisecond corpus benchmarks (warm and cached cells).
let corpusRounds = 10

/// A height request served warm by the product: `FeedEngine.cell(for:options:)` with every cell
/// in its layout cache (what a table asks again and again while scrolling), one core.
private func cachedCase(_ style: CellStyle, _ input: CellInput) {
    let name = "Cells \(style.name) cached \(input.name)"
    Benchmark(name, configuration: .passes(input == .corpus ? 50 : 5, seconds: 10)) {
        (benchmark: Benchmark, state: (FeedEngine, [Status]?, Double)) in
        let (engine, statuses, expected) = state
        guard let statuses else {
            Facts.skipped(benchmark.name, reason: Inputs.corpusMissingMessage)
            return
        }
        let options = Inputs.feedOptions(style)
        let misses = engine.layoutCacheStatistics.misses
        let rounds = input == .corpus ? corpusRounds : 1
        var sum = 0.0
        for _ in 0..<rounds {
            for s in statuses { sum += engine.cell(for: s, options: options).height }
        }
        sum /= Double(rounds)
        benchmark.stopMeasurement()
        Facts.record(
            benchmark.name, input: input.description + ", width 375, scale 2", unit: "cell", perIteration: statuses.count * rounds,
            note: "FeedEngine.cell(for:options:) answered from the layout cache (filled by one FeedEngine.layout)")
        precondition(engine.layoutCacheStatistics.misses == misses, "\(benchmark.name): a cached pass missed the cache")
        precondition(sameHeight(sum, expected), "\(benchmark.name): heights sum to \(sum), expected \(expected)")
    } setup: {
        let engine = FeedEngine(
            cellEngine: CellLayoutEngine(measurer: Inputs.measurer()), layoutBudgetBytes: 4 << 30, preparedBudgetBytes: 4 << 30)
        guard let statuses = input.statuses else { return (engine, [Status]?.none, 0.0) }
        let layout = try engine.layout(statuses, options: Inputs.feedOptions(style))
        return (engine, Optional(statuses), layout.heights.reduce(0, +))
    }
}

/// - Parameter now: the reference of relative times (nil: absolute times, as every other cell
///   benchmark); a benchmark with one is named "... relative times".
private func cellCase(_ style: CellStyle, _ input: CellInput, mode: String, now: Date? = nil) {
    let isCorpus = input == .corpus
    let fullName = "Cells \(style.name) \(mode) \(isCorpus ? "corpus" : "generated")" + (now == nil ? "" : " relative times")
    let passes = isCorpus ? (mode == "naive" ? 10 : 30) : 3
    // A warm pass over the 206 corpus statuses takes well under a millisecond, short enough for
    // the harness's own per-iteration work and the timer to show in the figure: an iteration
    // then runs `corpusRounds` passes (cold passes cannot repeat: their caches are emptied first).
    let rounds = isCorpus && mode == "warm" ? corpusRounds : 1
    /// The engine a pass runs on: the warm case's own (kept), else a new one on the measurer.
    func engine(_ measurer: TextMeasurer, _ kept: CellLayoutEngine) -> CellLayoutEngine {
        switch mode {
        case "warm": return kept
        case "naive": return CellLayoutEngine(measurer: measurer, preparedCellBudgetBytes: 0)
        default: return CellLayoutEngine(measurer: measurer, now: now)
        }
    }

    Benchmark(fullName, configuration: .passes(passes, seconds: isCorpus ? 5 : 60)) {
        (benchmark: Benchmark, state: (TextMeasurer, CellLayoutEngine, [Status]?, Double)) in
        let (measurer, kept, statuses, expected) = state
        guard let statuses else {
            Facts.skipped(benchmark.name, reason: Inputs.corpusMissingMessage)
            return
        }
        if mode == "cold" {
            measurer.clearCaches()
        }
        let cells = engine(measurer, kept)
        benchmark.startMeasurement()
        var sum = 0.0
        for _ in 0..<rounds { sum += cellPass(cells, statuses, style, clearingBeforeEachCell: mode == "naive" ? measurer : nil) }
        sum /= Double(rounds)
        benchmark.stopMeasurement()
        // The pass's engine (and the prepared cells it cached) is freed outside the measurement.
        withExtendedLifetime(cells) {}
        blackHole(sum)
        let note: String
        switch mode {
        case "naive": note = "baseline: no prepared-cell cache, shaped-word and prepared-text caches emptied before every cell"
        case "cold" where now != nil:
            note = "new engine, shaped-word and prepared-text caches emptied before each pass; times relative to half an hour after the newest status"
        case "cold": note = "new engine, shaped-word and prepared-text caches emptied before each pass"
        case "warm": note = "the same engine each pass: prepared cells found by content, then arranged"
        default: note = "new engine each pass (cells prepared again from the warm shaped-word cache)"
        }
        Facts.record(
            benchmark.name, input: input.description + ", width 375, scale 2", unit: "cell",
            perIteration: statuses.count * rounds, note: note)
        precondition(sameHeight(sum, expected), "\(benchmark.name): heights sum to \(sum), expected \(expected)")
    } setup: {
        let measurer = Inputs.measurer()
        let kept = CellLayoutEngine(measurer: measurer, now: now, preparedCellBudgetBytes: 4 << 30)
        guard let statuses = input.statuses else { return (measurer, kept, [Status]?.none, 0.0) }
        if mode.hasPrefix("warm") { _ = cellPass(kept, statuses, style) }
        return (measurer, kept, Optional(statuses), referenceHeight(statuses, style, now: now))
    }
}

/// All cores: `FeedEngine.layout` of the generated feed with fresh cell caches, on one thread and
/// on every core (the speedup is their ratio), cold and warm; and a width change 320 → 414 from
/// prepared cells, found in the engine's cache by content or held by the layout.
func feedBenchmarks() {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    for mode in ["cold", "warm"] {
        for threads in [1, cores] {
            let name = "Feed weibo \(mode) \(threads == 1 ? "1 thread" : "all cores")"
            Benchmark(name, configuration: .passes(3, seconds: 60)) { (benchmark: Benchmark, state: (TextMeasurer, Double)) in
                let (measurer, expected) = state
                let statuses = Inputs.generated()
                if mode == "cold" { measurer.clearCaches() }
                let engine = FeedEngine(cellEngine: CellLayoutEngine(measurer: measurer))
                benchmark.startMeasurement()
                let layout = try? engine.layout(
                    statuses, options: Inputs.feedOptions(.weibo), threads: threads)
                benchmark.stopMeasurement()
                // Freeing the engine's caches (100 000 cells) is serial work outside the layout:
                // it happens after the measurement, not at the engine's last use inside it.
                withExtendedLifetime(engine) {}
                let sum = layout?.heights.reduce(0, +) ?? -1
                Facts.record(
                    benchmark.name, input: CellInput.generated.description + ", width 375, scale 2", unit: "cell",
                    perIteration: statuses.count, extra: ["threads": Double(threads), "cores": Double(cores)],
                    note: "FeedEngine.layout, fresh cell caches each pass; "
                        + (mode == "cold" ? "shaped-word cache emptied before each pass" : "shaped-word cache warm"))
                precondition(sameHeight(sum, expected), "\(benchmark.name): heights sum to \(sum), expected \(expected)")
            } setup: {
                let statuses = Inputs.generated()
                let measurer = Inputs.measurer()
                if mode == "warm" {
                    _ = try FeedEngine(cellEngine: CellLayoutEngine(measurer: measurer))
                        .layout(statuses, options: Inputs.feedOptions(.weibo))
                }
                return (measurer, referenceHeight(statuses, .weibo))
            }
        }
    }

    // The speedup measured as a ratio within one process: each iteration runs a 1-thread pass and
    // an all-core pass back to back (fresh engines, warm measurer), alternating which goes first,
    // so that a change of the machine's load between two benchmark processes does not enter it.
    // The figure is the median of the per-iteration ratios.
    Benchmark("Feed weibo speedup paired", configuration: .passes(7, seconds: 120)) {
        (benchmark: Benchmark, state: (TextMeasurer, Double)) in
        let (measurer, expected) = state
        let statuses = Inputs.generated()
        func pass(_ threads: Int) -> Double {
            let engine = FeedEngine(cellEngine: CellLayoutEngine(measurer: measurer))
            let start = DispatchTime.now().uptimeNanoseconds
            let layout = try? engine.layout(statuses, options: Inputs.feedOptions(.weibo), threads: threads)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            withExtendedLifetime(engine) {}
            let sum = layout?.heights.reduce(0, +) ?? -1
            precondition(sameHeight(sum, expected), "\(benchmark.name): heights sum to \(sum), expected \(expected)")
            return seconds
        }
        let oneFirst = PairedRatios.shared.count % 2 == 0
        let one: Double, many: Double
        if oneFirst {
            one = pass(1)
            many = pass(cores)
        } else {
            many = pass(cores)
            one = pass(1)
        }
        benchmark.stopMeasurement()
        PairedRatios.shared.append(one / many)
        Facts.record(
            benchmark.name, input: CellInput.generated.description + ", width 375, scale 2", unit: "pair",
            perIteration: 1,
            extra: ["medianRatio": median(PairedRatios.shared), "pairs": Double(PairedRatios.shared.count), "cores": Double(cores)],
            note: "1-thread and all-core passes back to back in one process (order alternating), shaped-word cache warm; median of the per-pair ratios")
    } setup: {
        let statuses = Inputs.generated()
        let measurer = Inputs.measurer()
        _ = try FeedEngine(cellEngine: CellLayoutEngine(measurer: measurer))
            .layout(statuses, options: Inputs.feedOptions(.weibo))
        return (measurer, referenceHeight(statuses, .weibo))
    }

    for threads in [1, cores] {
        let name = "Feed width change 320→414 \(threads == 1 ? "1 thread" : "all cores")"
        Benchmark(name, configuration: .passes(5, seconds: 30)) { (benchmark: Benchmark, state: (FeedEngine, Double)) in
            let (engine, expected) = state
            let statuses = Inputs.generated()
            engine.removeCachedLayouts()
            let prepares = engine.preparedCellStatistics.misses
            benchmark.startMeasurement()
            let layout = try? engine.layoutHeights(
                statuses, options: Inputs.feedOptions(.weibo, width: 414), threads: threads)
            benchmark.stopMeasurement()
            let sum = layout?.heights.reduce(0, +) ?? -1
            Facts.record(
                benchmark.name, input: CellInput.generated.description + ", weibo, scale 2", unit: "row",
                perIteration: statuses.count, extra: ["threads": Double(threads)],
                note: "FeedEngine.layoutHeights at 414 pt from the prepared-cell cache filled at 320 pt: heights without frames")
            precondition(engine.preparedCellStatistics.misses == prepares, "a width change prepared cells again")
            precondition(sameHeight(sum, expected), "\(benchmark.name): heights sum to \(sum), expected \(expected)")
        } setup: {
            let statuses = Inputs.generated()
            let engine = FeedEngine(
                cellEngine: CellLayoutEngine(measurer: Inputs.measurer()), layoutBudgetBytes: 4 << 30,
                preparedBudgetBytes: 4 << 30)
            _ = try engine.layout(statuses, options: Inputs.feedOptions(.weibo, width: 320))
            return (engine, referenceHeight(statuses, .weibo, width: 414))
        }
    }

    // A width change of a laid-out feed that holds its rows' prepared cells (`prepareFeed`):
    // `FeedEngine.relayout`, no lookup at all.
    for threads in [1, cores] {
        let name = "Feed relayout 320→414 \(threads == 1 ? "1 thread" : "all cores")"
        Benchmark(name, configuration: .passes(5, seconds: 30)) { (benchmark: Benchmark, state: (FeedEngine, PreparedFeed, Double)) in
            let (engine, base, expected) = state
            benchmark.startMeasurement()
            let layout = try? engine.relayout(base, width: 414, threads: threads)
            benchmark.stopMeasurement()
            let sum = layout?.layout.heights.reduce(0, +) ?? -1
            Facts.record(
                benchmark.name, input: CellInput.generated.description + ", weibo, scale 2", unit: "row",
                perIteration: base.layout.count, extra: ["threads": Double(threads)],
                note: "FeedEngine.relayout at 414 pt of a layout made at 320 pt by prepareFeed: heights from the rows' prepared cells, no lookup")
            precondition(sameHeight(sum, expected), "\(benchmark.name): heights sum to \(sum), expected \(expected)")
        } setup: {
            let statuses = Inputs.generated()
            let engine = FeedEngine(cellEngine: CellLayoutEngine(measurer: Inputs.measurer()))
            let base = try engine.prepareFeed(statuses, options: Inputs.feedOptions(.weibo, width: 320))
            return (engine, base, referenceHeight(statuses, .weibo, width: 414))
        }
    }
}

/// The per-iteration ratios of the paired speedup benchmark (one process runs one benchmark).
final class PairedRatios: @unchecked Sendable {
    nonisolated(unsafe) static var shared: [Double] = []
}
