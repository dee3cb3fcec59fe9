import Benchmark
import CellLayout
import FrameExport
import TableLayout

/// Export: MB/s of `FrameExport.data` (one encoding thread) of the first 10 000 generated statuses
/// laid out at 375 pt (weibo, scale 2, cells retained), as JSON and as JSON Lines.
func exportBenchmarks() {
    let rows = 10_000
    for format in [FrameFormat.json, .jsonl] {
        let name = format == .json ? "Export JSON" : "Export JSON Lines"
        Benchmark(name, configuration: .passes(10, seconds: 30)) { (benchmark: Benchmark, state: (FeedCells, FrameExportHeader, Int)) in
            let (layout, header, expectedBytes) = state
            let bytes = try? FrameExport.data(layout, header: header, format: format, threads: 1)
            benchmark.stopMeasurement()
            Facts.record(
                benchmark.name, input: "FeedGenerator(seed: 42), first 10 000 statuses, weibo, width 375, scale 2",
                unit: "byte", perIteration: expectedBytes, extra: ["rows": Double(rows)],
                note: "FrameExport.data on one encoding thread; 1 MB = 10^6 bytes")
            precondition(bytes?.count == expectedBytes, "\(benchmark.name): \(bytes?.count ?? -1) bytes, expected \(expectedBytes)")
            precondition(bytes?.first == UInt8(ascii: "{") && bytes?.last == UInt8(ascii: "\n"), "\(benchmark.name): not JSON text")
            blackHole(bytes)
        } setup: {
            let engine = FeedEngine(cellEngine: CellLayoutEngine(measurer: Inputs.measurer()))
            let layout = try engine.layoutCells(Inputs.generated(rows), options: Inputs.feedOptions(.weibo))
            let header = FrameExportHeader(fonts: Inputs.fonts, generatorVersion: "benchmarks")
            let reference = try FrameExport.data(layout, header: header, format: format, threads: 2)
            return (layout, header, reference.count)
        }
    }
}
