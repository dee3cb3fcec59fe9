import CellLayout
import Foundation
import StatusModel
import Synchronization
import TextMeasure
import XCTest
import _LayoutTestSupport
@testable import TableLayout

/// A fixed-advance measurer that counts `prepare` calls: the "no shaping" assertions of the feed
/// tests (a width change or a filter must not prepare any text).
final class CountingMeasurer: TextMeasuring, Sendable {
    private let base = FixedAdvanceMeasurer()
    private let count = Atomic<Int>(0)

    var prepareCount: Int { count.load(ordering: .relaxed) }

    func prepare(_ text: AttributedText) -> PreparedText {
        count.wrappingAdd(1, ordering: .relaxed)
        return base.prepare(text)
    }

    func singleLineSize(_ string: String, attributes: TextAttributes) -> Size {
        count.wrappingAdd(1, ordering: .relaxed)
        return base.singleLineSize(string, attributes: attributes)
    }
}

enum FeedFixtures {
    /// A feed engine over a counting fixed-advance measurer (fast, no fonts needed).
    static func fakeEngine(layoutBudget: Int = 64 << 20, preparedBudget: Int = 64 << 20) -> (FeedEngine, CountingMeasurer) {
        let m = CountingMeasurer()
        let engine = FeedEngine(
            cellEngine: CellLayoutEngine(measurer: m, now: nil), layoutBudgetBytes: layoutBudget, preparedBudgetBytes: preparedBudget)
        return (engine, m)
    }

    /// A feed engine over the real text engine (pinned fonts).
    static func realEngine() throws -> (FeedEngine, TextMeasurer) {
        let m = TextMeasurer(fonts: try FontSet.loadDefault())
        return (FeedEngine(cellEngine: CellLayoutEngine(measurer: m, now: nil)), m)
    }

    static func generated(_ count: Int, seed: UInt64 = 7) -> [Status] {
        var g = FeedGenerator(seed: seed)
        return g.statuses(count: count)
    }

    /// The 206 statuses of the shared Weibo corpus, or a skip when it is absent.
    static func corpus() throws -> [Status] {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        return try files.flatMap { try FeedLoader.load(contentsOf: $0).feed.statuses }
    }

    /// A status with the same id and a changed like count (so a different fingerprint).
    static func liked(_ s: Status) -> Status {
        var c = s
        c.attitudesCount += 1
        return c
    }
}

/// Compares two feed layouts row by row: ids, fingerprints, heights and the table.
func assertSameLayout(_ a: FeedGeometry, _ b: FeedGeometry, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.statusIDs, b.statusIDs, message, file: file, line: line)
    XCTAssertEqual(a.fingerprints, b.fingerprints, message, file: file, line: line)
    XCTAssertEqual(a.heights, b.heights, message, file: file, line: line)
    XCTAssertEqual(a.geometry, b.geometry, message, file: file, line: line)
}

/// Compares two feeds with their cells row by row.
func assertSameLayout(_ a: FeedCells, _ b: FeedCells, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    assertSameLayout(a.layout, b.layout, message, file: file, line: line)
    XCTAssertEqual(a.cells.count, b.cells.count, message, file: file, line: line)
    for i in a.cells.indices where i < b.cells.count && a.cells[i] != b.cells[i] {
        XCTFail("\(message): cell \(i) differs", file: file, line: line)
        return
    }
}

/// A random-access view that repeats a few statuses to any length without holding them n times.
struct RepeatingStatuses: RandomAccessCollection, Sendable {
    let base: [Status]
    let count: Int
    var startIndex: Int { 0 }
    var endIndex: Int { count }
    subscript(i: Int) -> Status { base[i % base.count] }
}
