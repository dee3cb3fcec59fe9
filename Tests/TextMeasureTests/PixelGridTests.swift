import Foundation
import TextMeasure
import XCTest
import _LayoutTestSupport

/// `PixelGrid` rounds without libm; its results must be bit-identical to the standard library's.
final class PixelGridTests: XCTestCase {
    /// At scale 1, `grid.round(v)` is the inline round-half-away-from-zero of `v` itself: compared
    /// bit for bit (the sign of zero included) with `v.rounded()` on ties, their neighbours, random
    /// values of every magnitude, and the special values.
    func testRoundIsBitIdenticalToRounded() {
        let grid = PixelGrid(scale: 1)
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
            0x1p52, -0x1p52, 0x1p52 - 0.5, -(0x1p52 - 0.5), 0x1p53, 0x1p63, -0x1p63, 0x1p64, 1e300, -1e300,
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            .infinity, -.infinity,
            // Ties and integers just below 2⁵², where the sum with 2⁵² is near the top of its binade.
            0x1p51 + 0.5, -(0x1p51 + 0.5), 0x1p52 - 1.5, -(0x1p52 - 1.5), 0x1p52 - 1, (0x1p52 - 1).nextDown,
        ]
        for k in -2000...2000 {
            let tie = Double(k) + 0.5
            values += [tie, tie.nextUp, tie.nextDown, Double(k), Double(k).nextUp, Double(k).nextDown]
        }
        var rng = SplitMix64(seed: 11)
        for _ in 0..<200_000 {
            let bits = rng.next()
            values.append(Double(bitPattern: bits))  // every exponent, NaN payloads included
            values.append(Double(Int64(bitPattern: bits) % 4_000_000) / 64)  // pixel-like values
        }
        var mismatches = 0
        for v in values {
            let got = grid.round(v), want = v.rounded()
            if v.isNaN {
                if !got.isNaN { mismatches += 1 }
            } else if got.bitPattern != want.bitPattern {
                mismatches += 1
                if mismatches <= 5 { XCTFail("round(\(v)) = \(got), rounded() = \(want)") }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// At scales 2 and 3, positions round to the nearest pixel, ties away from zero.
    func testRoundAtScale() {
        XCTAssertEqual(PixelGrid(scale: 2).round(10.25), 10.5)
        XCTAssertEqual(PixelGrid(scale: 2).round(10.24), 10)
        XCTAssertEqual(PixelGrid(scale: 2).round(-10.25), -10.5)
        XCTAssertEqual(PixelGrid(scale: 3).round(1.0 / 6), 1.0 / 3)
        XCTAssertEqual(PixelGrid(scale: 3).round(0.1), 0)
        XCTAssertEqual(PixelGrid(scale: 2).round(-0.1).sign, .minus)
    }
}

/// The per-thread state of the text engine: each thread has its own index, stable across calls.
final class ThreadStateTests: XCTestCase {
    func testThreadsHaveDistinctStableIndices() {
        /// The indices one thread read (each thread writes only its own).
        final class Seen: @unchecked Sendable { var indices: [Int] = [] }
        let seen = [Seen(), Seen(), Seen()]
        let done = DispatchGroup()
        for k in 0..<3 {
            done.enter()
            Thread {
                seen[k].indices = [currentThreadIndex, currentThreadIndex]
                Thread.sleep(forTimeInterval: 0.05)  // all three alive at once
                done.leave()
            }.start()
        }
        done.wait()
        for s in seen { XCTAssertEqual(s.indices[0], s.indices[1]) }
        XCTAssertEqual(Set(seen.map { $0.indices[0] }).count, 3)
        XCTAssertEqual(currentThreadIndex, currentThreadIndex)
    }

    /// `ThreadLocalObject` makes one object per thread, gives it back on later calls, and
    /// releases it when its thread exits.
    func testThreadLocalObjectIsOnePerThreadAndReleasedAtExit() {
        final class A {}
        final class Seen: @unchecked Sendable {
            var ids: [ObjectIdentifier] = []
            weak var object: A?
        }
        let slot = ThreadLocalObject { A() }
        let mine = slot.current
        XCTAssertTrue(slot.current === mine, "the same object on the same thread")
        let other = Seen()
        let done = DispatchGroup()
        done.enter()
        Thread {
            let object = slot.current
            other.ids = [ObjectIdentifier(object), ObjectIdentifier(slot.current)]
            other.object = object
            done.leave()
        }.start()
        done.wait()
        XCTAssertEqual(other.ids[0], other.ids[1])
        XCTAssertNotEqual(other.ids[0], ObjectIdentifier(mine), "another thread, another object")
        // The thread's slot is released when the thread exits (shortly after `leave`).
        var waited = 0
        while other.object != nil && waited < 200 {
            Thread.sleep(forTimeInterval: 0.01)
            waited += 1
        }
        XCTAssertNil(other.object, "the exited thread's object is released")
    }
}
