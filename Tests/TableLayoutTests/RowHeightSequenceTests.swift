import XCTest
import _LayoutTestSupport
@testable import TableLayout

/// `RowHeightSequence` against a plain `[Int32]` with linear scans, over seeded random edits.
final class RowHeightSequenceTests: XCTestCase {
    func testRandomEditsMatchAnArray() {
        for (seed, shape) in [(UInt64(5), TreeShape(leafCapacity: 4, fanout: 4)), (6, TreeShape(leafCapacity: 6, fanout: 5)), (7, .standard)] {
            var rng = SplitMix64(seed: seed)
            var model: [Int32] = (0..<Int.random(in: 0...50, using: &rng)).map { _ in Int32.random(in: 0...99, using: &rng) }
            var seq = RowHeightSequence(pixelHeights: model, shape: shape)
            for op in 0..<700 {
                switch Int.random(in: 0..<8, using: &rng) {
                case 0:
                    let i = Int.random(in: 0...model.count, using: &rng)
                    let h = Int32.random(in: 0...99, using: &rng)
                    seq.insert(h, at: i)
                    model.insert(h, at: i)
                case 1:
                    let i = Int.random(in: 0...model.count, using: &rng)
                    let hs = (0..<Int.random(in: 0...(shape == .standard ? 600 : 30), using: &rng)).map { _ in Int32.random(in: 0...99, using: &rng) }
                    seq.insert(contentsOf: hs, at: i)
                    model.insert(contentsOf: hs, at: i)
                case 2:
                    let hs = (0..<20).map { _ in Int32.random(in: 0...99, using: &rng) }
                    seq.append(contentsOf: hs)
                    model.append(contentsOf: hs)
                case 3 where !model.isEmpty:
                    let i = Int.random(in: 0..<model.count, using: &rng)
                    XCTAssertEqual(seq.remove(at: i), model.remove(at: i))
                case 4 where !model.isEmpty:
                    let a = Int.random(in: 0..<model.count, using: &rng)
                    let b = Int.random(in: a...min(model.count, a + (model.count > 400 ? 700 : 40)), using: &rng)
                    let removed = seq.removeSubrange(a..<b)
                    XCTAssertEqual(removed, model[a..<b].reduce(0) { $0 + Int64($1) })
                    model.removeSubrange(a..<b)
                case 6 where !model.isEmpty:
                    let i = Int.random(in: 0..<model.count, using: &rng)
                    let hs = (0..<Int.random(in: 0...(model.count - i), using: &rng)).map { _ in Int32.random(in: 0...99, using: &rng) }
                    seq.replace(from: i, with: hs)
                    model.replaceSubrange(i..<(i + hs.count), with: hs)
                case 5 where !model.isEmpty:
                    let i = Int.random(in: 0..<model.count, using: &rng)
                    let h = Int32.random(in: 0...99, using: &rng)
                    XCTAssertEqual(seq.replace(at: i, with: h), model[i])
                    model[i] = h
                default:
                    break
                }
                seq._checkInvariants()
                guard compare(seq, model, &rng) else {
                    XCTFail("seed \(seed) op \(op): sequence differs from the array model")
                    return
                }
            }
        }
    }

    func compare(_ seq: RowHeightSequence, _ model: [Int32], _ rng: inout SplitMix64) -> Bool {
        guard seq.count == model.count, seq.pixelHeights(in: 0..<seq.count) == model else { return false }
        var prefix: [Int64] = [0]
        for h in model { prefix.append(prefix.last! + Int64(h)) }
        guard seq.totalPixels == prefix.last! else { return false }
        for _ in 0..<10 {
            let i = Int.random(in: 0...model.count, using: &rng)
            if seq.pixelOffset(before: i) != prefix[i] { return false }
            let y = Int64.random(in: -2...(prefix.last! + 2), using: &rng)
            let expected = model.indices.first { prefix[$0] <= y && y < prefix[$0 + 1] }
            let got = seq.row(atPixelOffset: y)
            if got?.index != expected || (expected != nil && got?.top != prefix[expected!]) { return false }
        }
        return true
    }

    func testCopiesShareNodesUntilWrittenAndStayIndependent() {
        var rng = SplitMix64(seed: 9)
        let original = (0..<3000).map { _ in Int32.random(in: 0...99, using: &rng) }
        let a = RowHeightSequence(pixelHeights: original, shape: TreeShape(leafCapacity: 8, fanout: 4))
        var b = a
        for _ in 0..<300 {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: b.insert(1, at: Int.random(in: 0...b.count, using: &rng))
            case 1: b.remove(at: Int.random(in: 0..<b.count, using: &rng))
            case 2: b.replace(at: Int.random(in: 0..<b.count, using: &rng), with: 7)
            default: b.removeSubrange(10..<Int.random(in: 10...40, using: &rng))
            }
        }
        a._checkInvariants()
        b._checkInvariants()
        XCTAssertEqual(a.pixelHeights(in: 0..<a.count), original, "edits of a copy never reach the original")
        XCTAssertNotEqual(a, b)
    }

    func testBulkBuildFillsLeavesAndStaysCompact() {
        let seq = RowHeightSequence(pixelHeights: [Int32](repeating: 132, count: 100_000))
        seq._checkInvariants()
        XCTAssertEqual(seq.totalPixels, 13_200_000)
        XCTAssertLessThan(Double(seq.residentBytes) / 100_000, 5, "Int32 per row plus under 25% of node overhead")
        XCTAssertEqual(seq.row(atPixelOffset: 13_199_999)?.index, 99_999)
        XCTAssertNil(seq.row(atPixelOffset: 13_200_000))
    }

    func testZeroHeightRowsAreSkippedByOffsetSearch() {
        let seq = RowHeightSequence(pixelHeights: [0, 5, 0, 0, 3, 0])
        XCTAssertEqual(seq.row(atPixelOffset: 0)?.index, 1)
        XCTAssertEqual(seq.row(atPixelOffset: 5)?.index, 4)
        XCTAssertEqual(seq.row(atPixelOffset: 5)?.top, 5)
        XCTAssertNil(seq.row(atPixelOffset: 8))
    }
}
