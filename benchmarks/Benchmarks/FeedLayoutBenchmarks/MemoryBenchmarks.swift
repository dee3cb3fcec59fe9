import Benchmark
import CellLayout
import Foundation
import TableLayout
import TextMeasure

/// Memory: the peak resident set of a full layout of the generated feed (cells retained), and a
/// layout under small cache budgets that MUST stay within them.
func memoryBenchmarks() {
    Benchmark("Memory full layout 100k", configuration: .passes(1, seconds: 120, warmup: 0)) { benchmark, _ in
        let statuses = Inputs.generated()
        let before = ProcessMemory.highWaterMark
        let engine = FeedEngine(cellEngine: CellLayoutEngine(measurer: Inputs.measurer()))
        benchmark.startMeasurement()
        let layout = try? engine.layoutCells(statuses, options: Inputs.feedOptions(.weibo))
        benchmark.stopMeasurement()
        let after = ProcessMemory.highWaterMark
        Facts.record(
            benchmark.name, input: CellInput.generated.description + ", weibo, width 375, scale 2", unit: "cell",
            perIteration: statuses.count,
            extra: [
                "vmHWMBytes": Double(after), "vmHWMBeforeLayoutBytes": Double(before),
                "layoutCacheBytes": Double(engine.layoutCacheStatistics.bytes),
                "preparedCacheBytes": Double(engine.preparedCellStatistics.bytes),
            ],
            note: "FeedEngine.layout on all cores, every CellGeometry retained, default cache budgets; VmHWM of the process")
        precondition(layout?.layout.count == statuses.count && layout?.cells.count == statuses.count, "full layout incomplete")
        blackHole(layout)
    } setup: {
        Inputs.generated().count
    }

    let wordBudget = 1 << 20, layoutBudget = 8 << 20, preparedBudget = 16 << 20
    Benchmark("Memory cache budgets 100k", configuration: .passes(1, seconds: 120, warmup: 0)) { benchmark, expected in
        let statuses = Inputs.generated()
        let measurer = Inputs.measurer(cacheBudgetBytes: wordBudget)
        let engine = FeedEngine(
            cellEngine: CellLayoutEngine(measurer: measurer), layoutBudgetBytes: layoutBudget,
            preparedBudgetBytes: preparedBudget)
        benchmark.startMeasurement()
        let layout = try? engine.layout(statuses, options: Inputs.feedOptions(.weibo))
        benchmark.stopMeasurement()
        let words = measurer.cacheStatistics, layouts = engine.layoutCacheStatistics, prepared = engine.preparedCellStatistics
        Facts.record(
            benchmark.name, input: CellInput.generated.description + ", weibo, width 375, scale 2", unit: "cell",
            perIteration: statuses.count,
            extra: [
                "wordCacheBytes": Double(words.bytes), "wordCacheBudget": Double(wordBudget),
                "wordCacheEvictions": Double(words.evictions),
                "layoutCacheBytes": Double(layouts.bytes), "layoutCacheBudget": Double(layoutBudget),
                "layoutCacheEvictions": Double(layouts.evictions), "layoutCacheNotKept": Double(layouts.rejected),
                "preparedCacheBytes": Double(prepared.bytes), "preparedCacheBudget": Double(preparedBudget),
                "preparedCacheEvictions": Double(prepared.evictions), "preparedCacheNotKept": Double(prepared.rejected),
                "vmHWMBytes": Double(ProcessMemory.highWaterMark),
            ],
            note: "FeedEngine.layout on all cores with a 1 MiB word cache, 8 MiB layout cache, 16 MiB prepared-cell cache")
        precondition(words.bytes <= wordBudget && layouts.bytes <= layoutBudget && prepared.bytes <= preparedBudget,
                     "a cache exceeded its byte budget")
        // A bulk pass into empty caches evicts nothing of its own: past the budget it keeps no more.
        precondition(layouts.rejected > 0 && prepared.rejected > 0, "the budgets were never reached")
        let sum = layout?.heights.reduce(0, +) ?? -1
        precondition(sameHeight(sum, expected), "under small budgets heights sum to \(sum), expected \(expected)")
    } setup: {
        referenceHeight(Inputs.generated(), .weibo)
    }
}
