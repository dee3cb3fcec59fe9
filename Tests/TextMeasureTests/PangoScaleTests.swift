import FeedLayoutSupport
import XCTest

@testable import TextMeasure

/// `PangoScale` against HarfBuzz's integer scaling for Pango (`hb_font_t::em_mult`): the
/// multiplier `(scale << 16) / upem` of the truncated scale `size × 1024`, each value
/// `(v × multiplier + 32 768) >> 16` units of 1/1024 pt.
final class PangoScaleTests: XCTestCase {
    private func harfBuzz(_ v: Int32, size: Double, upem: Int32) -> Double {
        let multiplier = (Int64(size * 1024) << 16) / Int64(upem)
        return Double((Int64(v) * multiplier + 32768) >> 16) / 1024
    }

    func testAgreesWithHarfBuzzOnEveryAdvanceAtCommonSizes() {
        var ties = 0
        for upem: Int32 in [1000, 2048, 2550] {
            for half in 1...96 {
                let size = Double(half) / 2
                let scale = PangoScale(size: size, upem: upem)
                for v in Int32(-4000)...Int32(12000) {
                    let expected = harfBuzz(v, size: size, upem: upem)
                    let got = scale.points(v)
                    if got != expected {
                        XCTFail("\(v) units at \(size) pt, \(upem) per em: \(got), HarfBuzz \(expected)")
                        return
                    }
                    // A value on an exact half unit, where rounding to even would differ.
                    let product = Int64(v) * ((Int64(size * 1024) << 16) / Int64(upem))
                    if product & 0xFFFF == 0x8000 { ties += 1 }
                }
            }
        }
        XCTAssertGreaterThan(ties, 100_000, "the cases include ties")
    }

    func testAgreesWithHarfBuzzAtOtherSizes() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let size = Double.random(in: 0.01...400, using: &generator)
            let upem = Int32.random(in: 16...16384, using: &generator)
            let scale = PangoScale(size: size, upem: upem)
            for _ in 0..<50 {
                let v = Int32.random(in: -30000...70000, using: &generator)
                XCTAssertEqual(scale.points(v), harfBuzz(v, size: size, upem: upem), "\(v) at \(size), \(upem)")
            }
        }
    }

    func testSizesBeyondHarfBuzzsScaleAreScaledExactly() {
        // No integer scale holds them: the product itself, to a unit.
        let size = 3_000_000.0
        XCTAssertEqual(PangoScale(size: size, upem: 1000).points(500), 1_500_000, accuracy: 1.0 / 1024)
        XCTAssertEqual(PangoScale(size: 0.0001, upem: 1000).points(500), 0, accuracy: 1.0 / 1024)
        XCTAssertTrue(PangoScale(size: 1e300, upem: 1000).points(500).isFinite)
    }
}
