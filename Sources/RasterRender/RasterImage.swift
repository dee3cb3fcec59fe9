// The canvas: an RGBA buffer (8 bits per channel, straight alpha, rows top to bottom) with the few
// drawing operations the renderer needs, all in integer pixel coordinates and all clipped to the
// image. Every operation composites with source-over alpha blending.

/// A colour with straight (not premultiplied) alpha.
package struct RGBA: Sendable, Hashable, CustomStringConvertible {
    package var r: UInt8
    package var g: UInt8
    package var b: UInt8
    package var a: UInt8

    package init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// A colour from 0xRRGGBB (the `Palette` form) and an opacity in 0...1.
    package init(rgb: UInt32, opacity: Double = 1) {
        self.init(
            r: UInt8((rgb >> 16) & 0xFF), g: UInt8((rgb >> 8) & 0xFF), b: UInt8(rgb & 0xFF),
            a: UInt8((max(0, min(1, opacity)) * 255).rounded()))
    }

    /// The colour with its alpha multiplied by `coverage / 255`.
    func scaled(coverage: Int) -> RGBA {
        RGBA(r: r, g: g, b: b, a: UInt8((Int(a) * coverage + 127) / 255))
    }

    /// True when the three channels are within `tolerance` of each other (a gray).
    package func isGray(tolerance: Int = 8) -> Bool {
        let (x, y, z) = (Int(r), Int(g), Int(b))
        return max(x, y, z) - min(x, y, z) <= tolerance
    }

    /// The largest channel difference to `other` (alpha included).
    package func distance(to other: RGBA) -> Int {
        max(abs(Int(r) - Int(other.r)), abs(Int(g) - Int(other.g)), abs(Int(b) - Int(other.b)), abs(Int(a) - Int(other.a)))
    }

    package var description: String {
        func h(_ v: UInt8) -> String { (v < 16 ? "0" : "") + String(v, radix: 16) }
        return "#" + h(r) + h(g) + h(b) + (a == 255 ? "" : h(a))
    }
}

/// An RGBA image: the renderer's canvas and its result.
///
/// Thread-safety: a value; copies are independent.
package struct RasterImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    /// `width × height × 4` bytes, RGBA, rows top to bottom.
    package internal(set) var pixels: [UInt8]

    /// An image filled with `color`.
    /// - Precondition: `width` and `height` are ≥ 0.
    package init(width: Int, height: Int, fill color: RGBA = RGBA(r: 0, g: 0, b: 0, a: 0)) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        let n = width * height
        pixels = [UInt8](unsafeUninitializedCapacity: n * 4) { buf, count in
            var p = buf.baseAddress!
            for _ in 0..<n {
                p[0] = color.r
                p[1] = color.g
                p[2] = color.b
                p[3] = color.a
                p += 4
            }
            count = n * 4
        }
    }

    /// An image over existing RGBA bytes.
    /// - Precondition: `pixels.count == width × height × 4`.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "pixel buffer does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y).
    /// - Precondition: the point lies inside the image.
    /// - Complexity: O(1).
    package func pixel(x: Int, y: Int) -> RGBA {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width) × \(height)")
        let i = (y * width + x) * 4
        return RGBA(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
    }

    // MARK: drawing (package API of the renderer)

    /// Composites `c` over the pixel at `p` (source-over, straight alpha).
    @inline(__always) private static func blend(_ p: UnsafeMutablePointer<UInt8>, _ c: RGBA) {
        let sa = Int(c.a)
        if sa == 0 { return }
        if sa == 255 {
            p[0] = c.r
            p[1] = c.g
            p[2] = c.b
            p[3] = 255
            return
        }
        let da = Int(p[3])
        // Out alpha and colours in 0...255 × 255 fixed point.
        let dw = da * (255 - sa)
        let oa255 = sa * 255 + dw
        if oa255 == 0 { return }
        let sw = sa * 255, half = oa255 / 2
        p[0] = UInt8((Int(c.r) * sw + Int(p[0]) * dw + half) / oa255)
        p[1] = UInt8((Int(c.g) * sw + Int(p[1]) * dw + half) / oa255)
        p[2] = UInt8((Int(c.b) * sw + Int(p[2]) * dw + half) / oa255)
        p[3] = UInt8((oa255 + 127) / 255)
    }

    /// Composites `c` over one pixel; points outside the image are ignored.
    package mutating func blendPixel(x: Int, y: Int, _ c: RGBA) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let i = (y * width + x) * 4
        pixels.withUnsafeMutableBufferPointer { Self.blend($0.baseAddress! + i, c) }
    }

    /// Fills the pixels x0..<x1 × y0..<y1 (clipped).
    package mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, _ c: RGBA) {
        let ax = max(0, x0), bx = min(width, x1), ay = max(0, y0), by = min(height, y1)
        guard ax < bx, ay < by, c.a > 0 else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { buf in
            let base = buf.baseAddress!
            for y in ay..<by {
                var p = base + (y * w + ax) * 4
                for _ in ax..<bx {
                    Self.blend(p, c)
                    p += 4
                }
            }
        }
    }

    /// Outlines x0..<x1 × y0..<y1 with lines `thickness` pixels wide, inside the rectangle.
    package mutating func stroke(x0: Int, y0: Int, x1: Int, y1: Int, thickness: Int = 1, _ c: RGBA) {
        guard x1 > x0, y1 > y0 else { return }
        let t = max(1, min(thickness, (x1 - x0 + 1) / 2, (y1 - y0 + 1) / 2))
        fill(x0: x0, y0: y0, x1: x1, y1: y0 + t, c)
        fill(x0: x0, y0: y1 - t, x1: x1, y1: y1, c)
        fill(x0: x0, y0: y0 + t, x1: x0 + t, y1: y1 - t, c)
        fill(x0: x1 - t, y0: y0 + t, x1: x1, y1: y1 - t, c)
    }

    /// Fills the triangle inscribed in x0..<x1 × y0..<y1 that points right (a play symbol).
    package mutating func fillPlayTriangle(x0: Int, y0: Int, x1: Int, y1: Int, _ c: RGBA) {
        let h = Double(y1 - y0)
        guard h > 0, x1 > x0 else { return }
        for y in y0..<y1 {
            // The row's distance from the middle, 0 at the tip's row and 1 at the top and bottom.
            let d = abs((Double(y - y0) + 0.5) - h / 2) / (h / 2)
            let right = x0 + Int((Double(x1 - x0) * (1 - d)).rounded())
            fill(x0: x0, y0: y, x1: right, y1: y + 1, c)
        }
    }

    /// A one-pixel line from (x0, y0) to (x1, y1), both ends included (Bresenham).
    package mutating func line(x0: Int, y0: Int, x1: Int, y1: Int, _ c: RGBA) {
        var x = x0, y = y0
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var err = dx + dy
        while true {
            blendPixel(x: x, y: y, c)
            if x == x1 && y == y1 { break }
            let e2 = 2 * err
            if e2 >= dy { err += dy; x += sx }
            if e2 <= dx { err += dx; y += sy }
        }
    }

    /// Composites `color` through a coverage mask, or a colour bitmap (straight-alpha RGBA) as is,
    /// with the bitmap's top-left pixel at (x, y).
    package mutating func draw(_ bitmap: GlyphBitmap, x: Int, y: Int, color: RGBA) {
        let cx0 = max(0, -x), cx1 = min(bitmap.width, width - x)
        let cy0 = max(0, -y), cy1 = min(bitmap.height, height - y)
        guard cx0 < cx1, cy0 < cy1 else { return }
        let w = width, bw = bitmap.width
        pixels.withUnsafeMutableBufferPointer { buf in
            bitmap.pixels.withUnsafeBufferPointer { src in
                let base = buf.baseAddress!, s = src.baseAddress!
                for row in cy0..<cy1 {
                    var p = base + ((y + row) * w + x + cx0) * 4
                    if bitmap.isColor {
                        var q = s + (row * bw + cx0) * 4
                        for _ in cx0..<cx1 {
                            Self.blend(p, RGBA(r: q[0], g: q[1], b: q[2], a: q[3]))
                            p += 4
                            q += 4
                        }
                    } else {
                        var q = s + row * bw + cx0
                        for _ in cx0..<cx1 {
                            let cov = Int(q[0])
                            if cov != 0 { Self.blend(p, color.scaled(coverage: cov)) }
                            p += 4
                            q += 1
                        }
                    }
                }
            }
        }
    }
}

/// A rendered glyph: a coverage mask (1 byte per pixel) or a colour bitmap (straight-alpha RGBA),
/// with its offset from the pen position (left: right of the pen; top: above the baseline).
package struct GlyphBitmap: Sendable {
    package var width: Int
    package var height: Int
    package var left: Int
    package var top: Int
    package var isColor: Bool
    package var pixels: [UInt8]

    package static let empty = GlyphBitmap(width: 0, height: 0, left: 0, top: 0, isColor: false, pixels: [])
}
