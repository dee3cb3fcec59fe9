import Benchmark

/// The metrics every benchmark records.
let suiteMetrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]

extension Benchmark.Configuration {
    /// A benchmark of `passes` measured iterations (after one warm-up), stopping after `seconds`.
    /// Units are fixed (nanoseconds, plain counts and bytes) so the exported percentiles are exact.
    static func passes(_ passes: Int, seconds: Int = 10, warmup: Int = 1) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: suiteMetrics, timeUnits: .nanoseconds,
            units: [.mallocCountTotal: .count, .peakMemoryResident: .count, .throughput: .count],
            warmupIterations: warmup, maxDuration: .seconds(seconds), maxIterations: passes)
    }
}
