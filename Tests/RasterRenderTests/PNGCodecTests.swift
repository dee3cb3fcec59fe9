import Foundation
import RasterRender
import XCTest
import _LayoutTestSupport

final class PNGCodecTests: XCTestCase {
    func testOpaqueAndTranslucentRoundTrips() throws {
        var rng = SplitMix64(seed: 7)
        for (w, h, opaque) in [(1, 1, true), (17, 5, true), (9, 13, false)] {
            var bytes = [UInt8](repeating: 0, count: w * h * 4)
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
            if opaque { for i in stride(from: 3, to: bytes.count, by: 4) { bytes[i] = 255 } }
            let image = RasterImage(width: w, height: h, pixels: bytes)
            let png = try PNGCodec.encode(image)
            XCTAssertEqual(png[25], opaque ? 2 : 6, "IHDR colour type")
            XCTAssertEqual(try PNGCodec.decode(png), image)
        }
    }

    func testGarbageAndEmptyImagesFail() {
        XCTAssertThrowsError(try PNGCodec.decode(Data("not a png".utf8))) { error in
            guard case .png(let function, let message)? = error as? RasterRenderError else { return XCTFail("\(error)") }
            XCTAssertEqual(function, "png_image_begin_read_from_memory")
            XCTAssertFalse(message.isEmpty)
        }
        XCTAssertThrowsError(try PNGCodec.encode(RasterImage(width: 0, height: 4))) { error in
            XCTAssertEqual(error as? RasterRenderError, .invalidImageSize(width: 0, height: 4, reason: "a PNG needs at least one pixel"))
        }
    }

    func testBlendingIsSourceOver() {
        var image = RasterImage(width: 2, height: 1, fill: RGBA(rgb: 0xFFFFFF))
        image.fill(x0: 0, y0: 0, x1: 1, y1: 1, RGBA(rgb: 0x000000, opacity: 0.5))
        image.fill(x0: 1, y0: 0, x1: 5, y1: 9, RGBA(rgb: 0xFF0000))
        XCTAssertEqual(image.pixel(x: 0, y: 0).distance(to: RGBA(r: 128, g: 128, b: 128)), 1, "\(image.pixel(x: 0, y: 0))")
        XCTAssertEqual(image.pixel(x: 1, y: 0), RGBA(rgb: 0xFF0000))
    }
}
