import Benchmark
import CellLayout
import Foundation
import StatusModel
import TextMeasure

/// Where the time of a cold weibo cell goes (corpus, 375 pt, one core), measured in one process so
/// that the parts are comparable on a noisy host. Each iteration runs three passes over the
/// corpus, in an order that rotates from one iteration to the next:
///
/// - **cold**: `Cells weibo cold corpus`'s pass (a new engine, the measurer's caches emptied);
/// - **texts**: the text engine's part of it: the `prepare`, `prepareUncached` (from a template
///   too: time lines copied with their digits) and `singleLineSize` calls such a pass makes,
///   recorded once in setup through a wrapper and replayed in the same order on the emptied
///   measurer (so its word cache fills as in the pass);
/// - **warm**: `Cells weibo warm corpus`'s pass (prepared cells found by content, then arranged):
///   the arranging part. The second of two passes is timed: in a cold pass a cell is arranged
///   right after it was prepared, its data in the processor's caches; a single warm pass after
///   the others found them evicted and read 5.2 µs per cell, against 2.4 in back-to-back passes.
///
/// The rest of the cold pass (status-text parsing, building the attributed texts, the label
/// cache, picture grids, the prepared-cell cache) is cold − texts − warm. The figures are the
/// medians of the per-iteration values, per cell. The replay prepares each text from its string,
/// which it decodes to UTF-16; the pass decodes the texts it builds from pieces as it builds
/// them (about 2 500 instructions a corpus cell), so that decoding counts in both the texts and
/// the cold pass, and the rest comes out that much smaller.
func coldCellBreakdownBenchmark() {
    let name = "Cells weibo cold breakdown corpus"
    Benchmark(name, configuration: .passes(40, seconds: 60)) { (benchmark: Benchmark, state: BreakdownState?) in
        guard let state else {
            Facts.skipped(benchmark.name, reason: Inputs.corpusMissingMessage)
            return
        }
        let iteration = BreakdownSamples.shared.count
        var micros = [Double](repeating: 0, count: 3)
        for k in 0..<3 {
            let part = (k + iteration) % 3
            micros[part] = state.timedPass(part) / Double(state.statuses.count)
        }
        benchmark.stopMeasurement()
        BreakdownSamples.shared.append(micros)
        Facts.record(
            benchmark.name, input: CellInput.corpus.description + ", width 375, scale 2", unit: "cell",
            perIteration: 3 * state.statuses.count, extra: BreakdownSamples.medians(),
            note: "cold pass, the same texts replayed on an emptied measurer, warm pass; order rotating; medians per cell")
    } setup: {
        guard let statuses = Inputs.corpus else { return BreakdownState?.none }
        return BreakdownState(statuses)
    }
}

/// What a breakdown iteration runs on.
final class BreakdownState: @unchecked Sendable {
    let statuses: [Status]
    let measurer = Inputs.measurer()
    /// The engine of the warm passes (its prepared cells stay cached).
    let kept: CellLayoutEngine
    /// The measurer calls of a cold pass, in order.
    let calls: [RecordingMeasurer.Call]
    let expectedHeight: Double
    /// What replaying `calls` gives (the check of the text pass): clusters prepared, plus one per
    /// label of non-zero width.
    let expectedClusters: Int

    init(_ statuses: [Status]) {
        self.statuses = statuses
        let recorder = RecordingMeasurer(measurer)
        measurer.clearCaches()
        let sum = cellPass(CellLayoutEngine(measurer: recorder), statuses, .weibo)
        calls = recorder.calls
        kept = CellLayoutEngine(measurer: measurer, preparedCellBudgetBytes: 4 << 30)
        expectedHeight = referenceHeight(statuses, .weibo)
        precondition(sameHeight(sum, expectedHeight), "breakdown: the recorded pass's heights sum to \(sum), expected \(expectedHeight)")
        expectedClusters = Self.replay(calls, on: measurer)
        _ = cellPass(kept, statuses, .weibo)
    }

    /// Runs part 0 (cold), 1 (texts) or 2 (warm) once, checks its result, and returns its
    /// duration in microseconds.
    func timedPass(_ part: Int) -> Double {
        let engine = part == 0 ? CellLayoutEngine(measurer: measurer) : kept
        if part < 2 { measurer.clearCaches() } else { _ = cellPass(kept, statuses, .weibo) }
        let start = DispatchTime.now().uptimeNanoseconds
        let result = part == 1 ? Double(Self.replay(calls, on: measurer)) : cellPass(engine, statuses, .weibo)
        let micros = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3
        withExtendedLifetime(engine) {}
        if part == 1 {
            precondition(Int(result) == expectedClusters, "breakdown: the replayed texts gave \(result) clusters, expected \(expectedClusters)")
        } else {
            precondition(sameHeight(result, expectedHeight), "breakdown: heights sum to \(result), expected \(expectedHeight)")
        }
        return micros
    }

    /// Makes the recorded calls on `measurer` and returns the number of clusters prepared, plus one
    /// per label of non-zero width.
    static func replay(_ calls: [RecordingMeasurer.Call], on measurer: TextMeasurer) -> Int {
        var clusters = 0
        for call in calls {
            switch call {
            case .prepare(let text): clusters += measurer.prepare(text).clusterCount
            case .prepareUncached(let text): clusters += measurer.prepareUncached(text).clusterCount
            case .prepareLike(let text, let template): clusters += measurer.prepareUncached(text, like: template).clusterCount
            case .singleLine(let string, let attributes):
                clusters += measurer.singleLineSize(string, attributes: attributes).width > 0 ? 1 : 0
            }
        }
        return clusters
    }
}

/// A measurer that forwards to a `TextMeasurer` and records every call (one thread).
final class RecordingMeasurer: TextMeasuring, @unchecked Sendable {
    enum Call {
        case prepare(AttributedText)
        case prepareUncached(AttributedText)
        case prepareLike(AttributedText, PreparedText)
        case singleLine(String, TextAttributes)
    }

    let inner: TextMeasurer
    private(set) var calls: [Call] = []

    init(_ inner: TextMeasurer) { self.inner = inner }

    func prepare(_ text: AttributedText) -> PreparedText {
        calls.append(.prepare(text))
        return inner.prepare(text)
    }

    func prepareUncached(_ text: AttributedText) -> PreparedText {
        calls.append(.prepareUncached(text))
        return inner.prepareUncached(text)
    }

    func prepareUncached(_ text: AttributedText, like template: PreparedText) -> PreparedText {
        calls.append(.prepareLike(text, template))
        return inner.prepareUncached(text, like: template)
    }

    func singleLineSize(_ string: String, attributes: TextAttributes) -> Size {
        calls.append(.singleLine(string, attributes))
        return inner.singleLineSize(string, attributes: attributes)
    }
}

/// The per-iteration [cold, texts, warm] microseconds per cell (one process runs one benchmark).
final class BreakdownSamples: @unchecked Sendable {
    nonisolated(unsafe) static var shared: [[Double]] = []

    /// Medians per cell of each part, of the rest and of each part's share of the cold cell.
    static func medians() -> [String: Double] {
        let rest = shared.map { $0[0] - $0[1] - $0[2] }
        return [
            "coldMicros": median(shared.map { $0[0] }),
            "textsMicros": median(shared.map { $0[1] }),
            "warmMicros": median(shared.map { $0[2] }),
            "restMicros": median(rest),
            "textsShare": median(shared.map { $0[1] / $0[0] }),
            "warmShare": median(shared.map { $0[2] / $0[0] }),
            "restShare": median(zip(rest, shared).map { $0 / $1[0] }),
            "iterations": Double(shared.count),
        ]
    }
}
