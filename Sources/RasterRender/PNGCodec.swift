internal import CPNG
import Foundation

/// PNG encoding and decoding through libpng's simplified API (`png_image_*`).
///
/// The simplified API reports errors through a return value and a message in the `png_image`
/// (no `setjmp`, which Swift cannot use), and frees its own state on failure or after
/// `finish_read`/`write_to_memory`; `png_image_free` is still called on every path, as the
/// manual allows. Thread-safety: stateless; calls MAY run concurrently.
package enum PNGCodec {
    // png.h's format flags (`PNG_FORMAT_RGB`, `PNG_FORMAT_RGBA`), spelled out as plain constants.
    private static let formatRGB: UInt32 = 0x02
    private static let formatRGBA: UInt32 = 0x03

    /// The PNG of `image`: 8-bit RGB when every pixel is opaque, else 8-bit RGBA.
    /// - Throws: `RasterRenderError.png` with libpng's message; `.invalidImageSize` for an empty image.
    package static func encode(_ image: RasterImage) throws(RasterRenderError) -> Data {
        guard image.width > 0, image.height > 0 else {
            throw .invalidImageSize(width: image.width, height: image.height, reason: "a PNG needs at least one pixel")
        }
        let pixelCount = image.width * image.height
        let opaque = image.pixels.withUnsafeBufferPointer { src in
            (0..<pixelCount).allSatisfy { src[$0 &* 4 &+ 3] == 255 }
        }
        let channels = opaque ? 3 : 4
        let bytes: [UInt8] = opaque
            ? image.pixels.withUnsafeBufferPointer { src in
                [UInt8](unsafeUninitializedCapacity: pixelCount * 3) { dst, count in
                    var s = src.baseAddress!, d = dst.baseAddress!
                    for _ in 0..<pixelCount {
                        d[0] = s[0]
                        d[1] = s[1]
                        d[2] = s[2]
                        s += 4
                        d += 3
                    }
                    count = pixelCount * 3
                }
            }
            : image.pixels
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = opaque ? formatRGB : formatRGBA
        defer { png_image_free(&png) }
        let stride = png_int_32(image.width * channels)
        var size: png_alloc_size_t = 0
        // First call: the size of the PNG; second: the PNG itself.
        var ok = bytes.withUnsafeBytes { png_image_write_to_memory(&png, nil, &size, 0, $0.baseAddress, stride, nil) }
        guard ok != 0, size > 0 else { throw .png(function: "png_image_write_to_memory", message: message(png)) }
        var out = Data(count: Int(size))
        ok = out.withUnsafeMutableBytes { dst in
            bytes.withUnsafeBytes { png_image_write_to_memory(&png, dst.baseAddress, &size, 0, $0.baseAddress, stride, nil) }
        }
        guard ok != 0 else { throw .png(function: "png_image_write_to_memory", message: message(png)) }
        out.count = Int(size)
        return out
    }

    /// Decodes a PNG into 8-bit RGBA (any PNG libpng reads: gray, palette, 16-bit are converted).
    /// - Throws: `RasterRenderError.png` with libpng's message.
    package static func decode(_ data: Data) throws(RasterRenderError) -> RasterImage {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&png) }
        var ok = data.withUnsafeBytes { png_image_begin_read_from_memory(&png, $0.baseAddress, $0.count) }
        guard ok != 0 else { throw .png(function: "png_image_begin_read_from_memory", message: message(png)) }
        png.format = formatRGBA
        let w = Int(png.width), h = Int(png.height)
        guard w > 0, h > 0, w * h <= 1 << 28 else {
            throw .invalidImageSize(width: w, height: h, reason: "too large to decode")
        }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&png, nil, $0.baseAddress, png_int_32(w * 4), nil) }
        guard ok != 0 else { throw .png(function: "png_image_finish_read", message: message(png)) }
        return RasterImage(width: w, height: h, pixels: pixels)
    }

    private static func message(_ png: png_image) -> String {
        withUnsafeBytes(of: png.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
