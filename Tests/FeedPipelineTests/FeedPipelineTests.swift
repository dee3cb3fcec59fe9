import CellLayout
import FeedPipeline
import Foundation
import FrameExport
import StatusModel
import TableLayout
import TextMeasure
import XCTest
import _LayoutTestSupport

/// The jobs of FeedPipeline: output independent of threads and batch sizes, equal to the
/// one-shot export, errors in input order, bounded memory.
final class FeedPipelineTests: XCTestCase {
    private static let measurer = FixedAdvanceMeasurer()

    private func tempDir() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fl-pipeline-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A generated feed written as JSON Lines.
    private func feed(_ count: Int, in dir: URL, seed: UInt64 = 5) throws -> (URL, [Status]) {
        var generator = FeedGenerator(seed: seed)
        let statuses = generator.statuses(count: count)
        let url = dir.appendingPathComponent("feed.jsonl")
        try FeedWriter.data(statuses, format: .jsonLines).write(to: url)
        return (url, statuses)
    }

    private let header = FrameExportHeader(generatorVersion: "test", fonts: [])

    private func export(_ job: FrameExportJob) throws -> [UInt8] {
        var out: [UInt8] = []
        _ = try job.run(engine: CellLayoutEngine(measurer: Self.measurer)) { out += $0 }
        return out
    }

    func testExportIsTheSameAtAnyThreadCountAndBatchSize() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, statuses) = try feed(700, in: dir)
        for format in [FrameFormat.json, .jsonl] {
            // The reference: the whole feed laid out at once and written by FrameExport's stream.
            let options = FeedOptions(width: 375)
            let layout = try FeedEngine(cellEngine: CellLayoutEngine(measurer: Self.measurer)).layoutCells(statuses, options: options, threads: 1)
            var reference: [UInt8] = []
            var stream = try FrameStream(options: options, header: header, format: format)
            stream.begin(into: &reference)
            stream.append(layout.cells, into: &reference)
            stream.finish(into: &reference)
            for (threads, batchBytes, batchStatuses) in [(1, 1 << 20, 512), (2, 4096, 7), (3, 50_000, 100), (8, 1000, 1)] {
                var job = FrameExportJob(inputs: [url.path], format: format, threads: threads, header: header)
                job.batchBytes = batchBytes
                job.batchStatuses = batchStatuses
                job.writeBytes = 10_000
                XCTAssertEqual(try export(job), reference, "\(format) at \(threads) threads, \(batchBytes)-byte batches")
            }
        }
    }

    /// Batch and write sizes outside their range are clamped: 0 statuses per batch handed out
    /// empty batches forever, -1 trapped, `Int.max` bytes was allocated or overflowed. Every
    /// format reads through the same batches (a whole-loaded plist by statuses, JSON and JSON
    /// Lines by bytes).
    func testBatchAndWriteSizesAreClamped() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, statuses) = try feed(40, in: dir)
        let plist = dir.appendingPathComponent("feed.plist")
        try FeedWriter.data(statuses, format: .modelPlist).write(to: plist)
        for input in [url, plist] {
            let reference = try export(FrameExportJob(inputs: [input.path], format: .jsonl, threads: 2, header: header))
            for size in [0, -1, Int.max] {
                var job = FrameExportJob(inputs: [input.path], format: .jsonl, threads: 2, header: header)
                job.batchStatuses = size
                job.batchBytes = size
                job.writeBytes = size
                XCTAssertEqual(try export(job), reference, "\(input.lastPathComponent), sizes \(size)")
            }
        }
        for size in [0, Int.max] {
            var heights = FeedHeightsJob(inputs: [url.path], options: FeedOptions(width: 375), threads: 2)
            heights.batchStatuses = size
            heights.batchBytes = size
            XCTAssertEqual(try heights.run(engine: CellLayoutEngine(measurer: Self.measurer)).rowCount, 40)
        }
    }

    func testRowSelectionKeepsTheWholeFeedsOffsets() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try feed(300, in: dir)
        var all = FrameExportJob(inputs: [url.path], format: .jsonl, threads: 2, header: header)
        all.batchBytes = 8192
        let every = String(decoding: try export(all), as: UTF8.self).split(separator: "\n")
        var some = all
        some.rows = 120..<135
        let selected = String(decoding: try export(some), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(selected, Array(every[120..<135]))
    }

    func testTheFirstErrorInInputOrderFailsTheRunAndNothingAfterItIsWritten() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try feed(400, in: dir)
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        // Two bad statuses; the later one sits in an earlier-finishing small batch at many threads.
        lines[150] = #"{"id":150,"text":"x"}"#
        lines[390] = "{not json"
        let bad = dir.appendingPathComponent("bad.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: bad)
        for threads in [1, 2, 4] {
            var job = FrameExportJob(inputs: [bad.path], format: .jsonl, threads: threads, header: header)
            job.batchBytes = 4096
            var written = 0
            XCTAssertThrowsError(try job.run(engine: CellLayoutEngine(measurer: Self.measurer)) { written += $0.count }) { error in
                guard case .missingKey(let loc) = error as? StatusModelError else { return XCTFail("\(error)") }
                XCTAssertEqual(loc.line, 151)
                XCTAssertEqual(loc.index, 150)
                XCTAssertEqual(loc.keyPath, "[150].user")
            }
            XCTAssertLessThan(written, 150 * 4000, "rows after the error are not written")
        }
        // With skipInvalid both are reported, in order, and the rest is written.
        var lenient = FrameExportJob(
            inputs: [bad.path], format: .jsonl, loadOptions: LoadOptions(skipInvalid: true), threads: 3, header: header)
        lenient.batchBytes = 4096
        var reported: [Int] = []
        var out: [UInt8] = []
        let summary = try lenient.run(engine: CellLayoutEngine(measurer: Self.measurer), skipped: { _, s in reported.append(s.index) }) {
            out += $0
        }
        XCTAssertEqual(reported, [150, 390])
        XCTAssertEqual(summary.rowCount, 398)
        XCTAssertEqual(String(decoding: out, as: UTF8.self).split(separator: "\n").count, 398)
    }

    func testCancellationStopsTheRun() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try feed(500, in: dir)
        var job = FrameExportJob(inputs: [url.path], format: .jsonl, threads: 2, header: header)
        job.batchBytes = 4096
        var rows = 0
        XCTAssertThrowsError(
            try job.run(engine: CellLayoutEngine(measurer: Self.measurer), progress: { rows = $0 }, isCancelled: { rows >= 100 }) { _ in }
        ) { error in
            XCTAssertTrue(error is PipelineCancelled, "\(error)")
        }
        XCTAssertLessThan(rows, 500)
    }

    func testValidationCountsInParallelLikeTheLoader() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, statuses) = try feed(900, in: dir)
        for threads in [1, 2, 5] {
            let counts = try FeedValidation.count(url.path, threads: threads)
            XCTAssertEqual(counts.statuses, 900)
            XCTAssertEqual(counts.retweets, statuses.filter(\.isRetweet).count)
            XCTAssertEqual(counts.pictures, statuses.reduce(0) { $0 + $1.pictures.count + ($1.retweetedStatus?.pictures.count ?? 0) })
            XCTAssertEqual(counts.format, .jsonLines)
        }
    }

    func testPartitionsWithOriginsConcatenateIntoTheWholeExport() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try feed(500, in: dir)
        let engine = CellLayoutEngine(measurer: Self.measurer)
        for scale in [2.0, 3.0] {
            let options = FeedOptions(width: 355, scale: scale)
            var whole = FrameExportJob(inputs: [url.path], options: options, format: .jsonl, threads: 2, header: header)
            whole.widths = [355]
            let reference = try export(whole)
            // Three partitions of the file's lines; each partition's origin from the heights pass of those before.
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var merged: [UInt8] = []
            var rowOrigin = 0
            var pixels: Int64 = 0
            for (k, range) in [0..<170, 170..<171, 171..<lines.count].enumerated() {
                let part = dir.appendingPathComponent("part\(k).jsonl")
                try Data(lines[range].joined(separator: "\n").utf8).write(to: part)
                var job = whole
                job.inputs = [part.path]
                job.rowOrigin = rowOrigin
                job.yOrigin = Double(pixels) / scale
                merged += try export(job)
                let heights = try FeedHeightsJob(inputs: [part.path], options: options, threads: 2).run(engine: engine)
                rowOrigin += heights.rowCount
                pixels += heights.heightPixels
            }
            XCTAssertEqual(rowOrigin, 500)
            XCTAssertEqual(merged, reference, "scale \(scale)")
        }
    }

    // MARK: - Weibo JSON documents, streamed

    /// A generated feed written as one Weibo JSON document (`{"statuses": [...]}`, a status a line).
    private func document(_ count: Int, in dir: URL, seed: UInt64 = 5) throws -> (URL, [Status]) {
        var generator = FeedGenerator(seed: seed)
        let statuses = generator.statuses(count: count)
        let url = dir.appendingPathComponent("feed.json")
        try FeedWriter.data(statuses, format: .weiboJSON).write(to: url)
        return (url, statuses)
    }

    func testJSONDocumentsAreStreamedLikeTheWholeLoad() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, statuses) = try document(300, in: dir)
        for format in [FrameFormat.json, .jsonl] {
            let options = FeedOptions(width: 375)
            let layout = try FeedEngine(cellEngine: CellLayoutEngine(measurer: Self.measurer)).layoutCells(statuses, options: options, threads: 1)
            var reference: [UInt8] = []
            var stream = try FrameStream(options: options, header: header, format: format)
            stream.begin(into: &reference)
            stream.append(layout.cells, into: &reference)
            stream.finish(into: &reference)
            // Large batches; small ones (by bytes, by statuses); one status a batch.
            for (threads, batchBytes, batchStatuses) in [(1, 1 << 20, 512), (2, 4096, 512), (2, 1 << 20, 7), (3, 1, 512)] {
                var job = FrameExportJob(inputs: [url.path], format: format, threads: threads, header: header)
                job.batchBytes = batchBytes
                job.batchStatuses = batchStatuses
                XCTAssertEqual(
                    try export(job), reference, "\(format) at \(threads) threads, batches of \(batchBytes) bytes or \(batchStatuses) statuses")
            }
        }
        let counts = try FeedValidation.count(url.path, threads: 2)
        XCTAssertEqual(counts.statuses, 300)
        XCTAssertEqual(counts.format, .weiboJSON)
        let heights = try FeedHeightsJob(inputs: [url.path], options: FeedOptions(width: 375), threads: 2).run(engine: CellLayoutEngine(measurer: Self.measurer))
        XCTAssertEqual(heights.rowCount, 300)
    }

    /// A status error in the middle comes first; a syntax error after the array fails the run
    /// too, after every row before it, skipInvalid or not.
    func testJSONDocumentErrorsComeInInputOrder() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try document(400, in: dir)
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        // Line 0 is `{"statuses":[`; status k is on line k + 1; the last line closes the document.
        lines[151] = #"{"id":150,"text":"x"},"#
        lines[lines.count - 1] = "]"
        let bad = dir.appendingPathComponent("bad.json")
        try Data(lines.joined(separator: "\n").utf8).write(to: bad)
        for threads in [1, 2, 4] {
            var job = FrameExportJob(inputs: [bad.path], format: .jsonl, threads: threads, header: header)
            job.batchBytes = 4096
            var written = 0
            XCTAssertThrowsError(try job.run(engine: CellLayoutEngine(measurer: Self.measurer)) { written += $0.count }) { error in
                guard case .missingKey(let loc) = error as? StatusModelError else { return XCTFail("\(error)") }
                XCTAssertEqual(loc.file, bad.path)
                XCTAssertEqual(loc.index, 150)
                XCTAssertEqual(loc.id, 150)
                XCTAssertEqual(loc.keyPath, "statuses[150].user")
            }
            XCTAssertLessThan(written, 150 * 4000, "rows after the error are not written")
        }
        var lenient = FrameExportJob(
            inputs: [bad.path], format: .jsonl, loadOptions: LoadOptions(skipInvalid: true), threads: 3, header: header)
        lenient.batchBytes = 4096
        var reported: [Int] = []
        var rows = 0
        XCTAssertThrowsError(
            try lenient.run(engine: CellLayoutEngine(measurer: Self.measurer), progress: { rows = $0 }, skipped: { _, s in reported.append(s.index) }) { _ in }
        ) { error in
            XCTAssertEqual((error as? StatusModelError)?.caseName, "malformed", "\(error)")
            XCTAssertTrue("\(error)".contains("unexpected end of the data at line \(lines.count), column 2"), "\(error)")
        }
        XCTAssertEqual(reported, [150])
        XCTAssertEqual(rows, 399, "every row before the error was consumed")
        // The whole load gives the same error.
        XCTAssertThrowsError(try FeedLoader.load(contentsOf: bad, options: LoadOptions(skipInvalid: true))) { error in
            XCTAssertTrue("\(error)".contains("unexpected end of the data at line \(lines.count), column 2"), "\(error)")
        }
        var counted: FeedValidation.Counts?
        XCTAssertThrowsError(counted = try FeedValidation.count(bad.path, options: LoadOptions(skipInvalid: true))) { error in
            XCTAssertEqual((error as? StatusModelError)?.caseName, "malformed", "\(error)")
        }
        XCTAssertNil(counted)
    }
}
