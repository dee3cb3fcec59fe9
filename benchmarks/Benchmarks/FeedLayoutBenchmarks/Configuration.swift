import Benchmark

/// The metrics every benchmark records.
let suiteMetrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]

extension Benchmark.Configuration {
    /// A benchmark of `passes` measured iterations (after one warm-up), stopping after `seconds`.
    static func passes(_ passes: Int, seconds: Int = 10, warmup: Int = 1) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: suiteMetrics, timeUnits: .microseconds, warmupIterations: warmup, maxDuration: .seconds(seconds),
            maxIterations: passes)
    }
}
