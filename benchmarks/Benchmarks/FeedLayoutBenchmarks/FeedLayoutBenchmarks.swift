// FeedLayout benchmark suite (ordo-one/package-benchmark). Inputs are fixed and named in
// Inputs.swift; every benchmark ends with a correctness precondition; `run.sh` joins the
// harness's timings with the facts each benchmark records (Facts.swift) into results/latest.*.
import Benchmark

let benchmarks: @Sendable () -> Void = {
    textBenchmarks()
    cellBenchmarks()
    feedBenchmarks()
    tableBenchmarks()
    memoryBenchmarks()
    exportBenchmarks()
    loaderBenchmarks()
}
