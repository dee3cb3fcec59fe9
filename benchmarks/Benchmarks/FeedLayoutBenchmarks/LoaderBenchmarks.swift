import Benchmark
import Foundation
import StatusModel

/// Loader: MB/s of decoding into the status model on one core: the first 10 000 generated
/// statuses as JSON Lines (`JSONLinesDecoder` over one in-memory chunk, the unit a pipeline
/// worker decodes) and as an XML property list (`FeedLoader.load(data:)`), and the corpus's
/// Weibo API JSON files (`FeedLoader.load(data:)`).
func loaderBenchmarks() {
    Benchmark("Loader JSON Lines", configuration: .passes(10, seconds: 30)) { (benchmark: Benchmark, state: (JSONLinesChunk, Int)) in
        let (chunk, expected) = state
        var decoder = JSONLinesDecoder(fileName: "generated.jsonl")
        var count = 0
        var ids: Int64 = 0
        _ = try? decoder.decode(chunk) {
            count += 1
            ids &+= $0.id
        }
        benchmark.stopMeasurement()
        Facts.record(
            benchmark.name, input: "FeedGenerator(seed: 42), first 10 000 statuses as JSON Lines", unit: "byte",
            perIteration: chunk.bytes.count, extra: ["statuses": Double(count)],
            note: "JSONLinesDecoder on one core; 1 MB = 10^6 bytes")
        precondition(count == expected, "\(benchmark.name): \(count) statuses, expected \(expected)")
        blackHole(ids)
    } setup: {
        let statuses = Inputs.generated(10_000)
        let bytes = [UInt8](FeedWriter.data(statuses, format: .jsonLines))
        let lines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        return (JSONLinesChunk(bytes: bytes, firstLine: 1, firstIndex: 0, lineCount: lines, statusCount: statuses.count), statuses.count)
    }

    Benchmark("Loader Weibo JSON", configuration: .passes(20, seconds: 30)) { (benchmark: Benchmark, files: [(String, Data)]) in
        guard !files.isEmpty else {
            benchmark.stopMeasurement()
            Facts.skipped(benchmark.name, reason: Inputs.corpusMissingMessage)
            return
        }
        var count = 0
        for (name, data) in files { count += (try? FeedLoader.load(data: data, fileName: name))?.feed.statuses.count ?? 0 }
        benchmark.stopMeasurement()
        Facts.record(
            benchmark.name, input: "the corpus's weibo_*.json files", unit: "byte",
            perIteration: files.reduce(0) { $0 + $1.1.count }, extra: ["statuses": Double(count)],
            note: "FeedLoader.load(data:) on one core; 1 MB = 10^6 bytes")
        precondition(count == Inputs.corpus?.count, "\(benchmark.name): \(count) statuses")
    } setup: {
        guard let dir = Inputs.corpusDirectory else { return [] }
        return (0..<8).compactMap { i in
            let url = dir.appendingPathComponent("weibo_\(i).json")
            return (try? Data(contentsOf: url)).map { (url.lastPathComponent, $0) }
        }
    }

    Benchmark("Loader XML plist", configuration: .passes(10, seconds: 30)) { (benchmark: Benchmark, state: (Data, Int)) in
        let (data, expected) = state
        let count = (try? FeedLoader.load(data: data, fileName: "generated.plist"))?.feed.statuses.count ?? 0
        benchmark.stopMeasurement()
        Facts.record(
            benchmark.name, input: "FeedGenerator(seed: 42), first 10 000 statuses as an XML property list", unit: "byte",
            perIteration: data.count, extra: ["statuses": Double(count)],
            note: "FeedLoader.load(data:) on one core (XMLPlistReader, then the tape decoder); 1 MB = 10^6 bytes")
        precondition(count == expected, "\(benchmark.name): \(count) statuses, expected \(expected)")
    } setup: {
        let statuses = Inputs.generated(10_000)
        return (FeedWriter.data(statuses, format: .modelPlist), statuses.count)
    }
}
