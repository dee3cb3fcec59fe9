// Load for ThreadSanitizer (`make sanitize` runs the tests whose names hold Parallel, Concurrent
// or Cache under TSan): the parallel precompute and concurrent cache access with small budgets,
// so that evictions race with lookups.
import CellLayout
import Dispatch
import Foundation
import StatusModel
import TableLayout
import XCTest
import _LayoutTestSupport

final class ConcurrencyTests: XCTestCase {
    /// Parallel feed layouts and concurrent `cell(for:)` calls on one engine with caches too small
    /// for the feed give the same heights as a serial layout on a fresh engine.
    func testParallelPrecomputeAndConcurrentCacheAccessUnderEviction() throws {
        let measurer = try Hardening.requireMeasurer()
        let cells = CellLayoutEngine(measurer: measurer, now: Date(timeIntervalSince1970: 1_700_000_000))
        var generator = FeedGenerator(seed: 21)
        let statuses = generator.statuses(count: 120)
        let options = FeedOptions(width: 375, style: .weibo, scale: 2)
        let reference = try FeedEngine(cellEngine: cells).layout(statuses, options: options, threads: 1).heights

        // Budgets of a few cells: every pass evicts what another thread is about to read.
        let shared = FeedEngine(cellEngine: cells, layoutBudgetBytes: 64 << 10, preparedBudgetBytes: 256 << 10)
        let mismatches = Mismatches()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker % 2 == 0 {
                for _ in 0..<2 {
                    guard let heights = try? shared.layout(statuses, options: options, threads: 2, chunkSize: 8).heights else {
                        return mismatches.add("layout threw")
                    }
                    if heights != reference { mismatches.add("parallel layout heights differ") }
                }
            } else {
                for (i, s) in statuses.enumerated().reversed() where shared.cell(for: s, options: options).height != reference[i] {
                    mismatches.add("cell \(i) differs")
                }
            }
        }
        XCTAssertEqual(mismatches.all, [])
    }
}

/// Failures collected from several threads.
private final class Mismatches: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.withLock { items.append(s) } }
    var all: [String] { lock.withLock { items } }
}
