import TextMeasure
import XCTest
import _LayoutTestSupport

/// Layouts whose lines share one storage (`LineArena`, as a cell lays out its texts) against the
/// same layouts each with storage of its own.
final class LineArenaTests: XCTestCase {
    let fake = FixedAdvanceMeasurer()

    /// Texts that give no line, one, several, hard breaks and a run broken at clusters.
    private let strings = [
        "", "a", "我们今天去公园", "aaaa bb cc dddd eeeeeeee f", "line one\nline two\n\nline four", "xx abcdefghij klmnop",
        String(repeating: "长文本测试 ", count: 40),
    ]

    /// Options that wrap, do not wrap, cut with and without a token, and use a grid.
    private let options: [LayoutOptions] = [
        LayoutOptions(width: 30), LayoutOptions(width: 1000), LayoutOptions(width: 0),
        LayoutOptions(width: 45, maxLines: 2), LayoutOptions(width: 45, maxLines: 1, wrap: .character),
        LayoutOptions(width: 52, lineHeight: .grid(size: 10, multiple: 1.34, ascentFraction: 0.86), grid: PixelGrid(scale: 3)),
    ]

    /// Every text at every option, into arenas of every starting room from 1 line (it grows at
    /// almost every text) to more than all the lines: each layout equals the one made alone, and
    /// keeps its lines after later texts were written (and storage replaced).
    func testSharedLayoutsEqualLayoutsOfTheirOwn() {
        let token = fake.prepare(AttributedText("…全文", size: 10))
        let prepared = strings.map { fake.prepare(AttributedText($0, size: 10)) }
        var alone: [TextLayout] = []
        for o in options {
            for p in prepared { alone.append(p.layout(o, truncationToken: o.maxLines > 0 ? token : nil)) }
        }
        XCTAssertGreaterThan(alone.map(\.lines.count).reduce(0, +), 60)
        XCTAssertTrue(alone.contains(where: \.isTruncated))
        for room in [1, 2, 5, 200] {
            var arena = LineArena(capacity: room)
            var shared: [TextLayout] = []
            for o in options {
                for p in prepared {
                    shared.append(p.layout(o, truncationToken: o.maxLines > 0 ? token : nil, into: &arena))
                }
            }
            XCTAssertEqual(shared, alone, "arena of \(room) lines")
            for (s, a) in zip(shared, alone) {
                XCTAssertEqual(Array(s.lines), Array(a.lines))
                XCTAssertEqual(s.hashValue, a.hashValue)
            }
        }
    }

    /// With room for all of them, the texts' lines are in one storage: consecutive layouts are
    /// ranges of the same object, and no two views overlap.
    func testOneStorageHoldsTheLinesOfSeveralTexts() {
        let a = fake.prepare(AttributedText("aaaa bb cc dddd", size: 10))
        let b = fake.prepare(AttributedText("我们今天去公园", size: 10))
        var arena = LineArena(capacity: 16)
        let la = a.layout(LayoutOptions(width: 30), into: &arena)
        let lb = b.layout(LayoutOptions(width: 35), into: &arena)
        XCTAssertEqual(la.lines.count, 3)
        XCTAssertEqual(lb.lines.count, 3)
        XCTAssertEqual(lb.lines.map(\.range), [0..<3, 3..<6, 6..<7])
        XCTAssertNotNil(la.lines.storageIdentity)
        XCTAssertEqual(la.lines.storageIdentity, lb.lines.storageIdentity)
        XCTAssertFalse(la.lines.isSameStorage(as: lb.lines))
        XCTAssertEqual(la.lines, a.layout(LayoutOptions(width: 30)).lines)
        // A copy of a view is the same lines of the same storage.
        let copy = la.lines
        XCTAssertTrue(copy.isSameStorage(as: la.lines))
    }

    /// Lines given as an array make a view with storage of its own, equal to the array.
    func testLinesFromAnArray() {
        let layout = fake.prepare(AttributedText("aaaa bb cc dddd eeee", size: 10)).layout(LayoutOptions(width: 30))
        let array = Array(layout.lines)
        let made = TextLines(array)
        XCTAssertEqual(made, layout.lines)
        XCTAssertEqual(Array(made), array)
        XCTAssertFalse(made.isSameStorage(as: layout.lines))
        XCTAssertEqual(TextLines([]), TextLines())
        XCTAssertTrue(TextLines().isEmpty)
        XCTAssertNotEqual(TextLines(array.dropLast()), layout.lines)
    }
}
