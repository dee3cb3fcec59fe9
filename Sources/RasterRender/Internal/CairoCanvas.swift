internal import CCairo

/// Every cairo call of the renderer's canvas goes through this file and `Icons.swift`.
///
/// The canvas is one cairo image surface (`CAIRO_FORMAT_ARGB32`: premultiplied, native-endian
/// 32-bit pixels) and its drawing context; shapes are filled by cairo's anti-aliasing rasterizer
/// and composited by pixman, glyph bitmaps (made by `GlyphRasterizer` from the faces the layout
/// measured with) are composited through `cairo_mask_surface` at whole-pixel origins. Coordinates
/// are image pixels. Ownership: the canvas owns its surface and context and destroys both in
/// `deinit`; it serves one render on one thread and is never shared. cairo's image backend is
/// deterministic: the same calls give the same bytes on every run and thread.
final class CairoCanvas {
    let width: Int
    let height: Int
    let surface: OpaquePointer
    let cr: OpaquePointer

    init(width: Int, height: Int, fill: RGBA) throws(RasterRenderError) {
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .cairo(function: "cairo_image_surface_create", status: "no surface")
        }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS, let c = cairo_create(s) else {
            let message = String(cString: cairo_status_to_string(status))
            cairo_surface_destroy(s)
            throw .cairo(function: "cairo_image_surface_create", status: message)
        }
        surface = s
        cr = c
        self.width = width
        self.height = height
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GRAY)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        setColor(fill)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    // MARK: state

    func setColor(_ c: RGBA) {
        cairo_set_source_rgba(cr, Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255, Double(c.a) / 255)
    }

    /// Runs `body` with the state saved and restored (transform, source, line settings).
    func withSavedState(_ body: () -> Void) {
        cairo_save(cr)
        body()
        cairo_restore(cr)
    }

    // MARK: paths (pixels, or the current transform's units)

    func move(_ x: Double, _ y: Double) { cairo_move_to(cr, x, y) }
    func line(_ x: Double, _ y: Double) { cairo_line_to(cr, x, y) }
    func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double, _ y: Double) {
        cairo_curve_to(cr, x1, y1, x2, y2, x, y)
    }
    func close() { cairo_close_path(cr) }
    func newPath() { cairo_new_path(cr) }
    func newSubPath() { cairo_new_sub_path(cr) }

    /// A circular arc around (cx, cy) from angle `a0` to `a1` (radians, clockwise on screen).
    func arc(_ cx: Double, _ cy: Double, radius: Double, from a0: Double, to a1: Double) {
        cairo_arc(cr, cx, cy, radius, a0, a1)
    }

    func circle(_ cx: Double, _ cy: Double, radius: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, cx, cy, radius, 0, 2 * Double.pi)
        cairo_close_path(cr)
    }

    func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) { cairo_rectangle(cr, x, y, w, h) }

    /// A rectangle with corners of radius `r` (clamped to half the shorter side).
    func roundedRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double) {
        let r = max(0, min(radius, w / 2, h / 2))
        guard r > 0 else { return rect(x, y, w, h) }
        let pi = Double.pi
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, pi / 2, pi)
        cairo_arc(cr, x + r, y + r, r, pi, 3 * pi / 2)
        cairo_close_path(cr)
    }

    func translate(_ x: Double, _ y: Double) { cairo_translate(cr, x, y) }
    func scale(_ s: Double) { cairo_scale(cr, s, s) }
    func rotate(_ radians: Double) { cairo_rotate(cr, radians) }

    // MARK: painting

    /// Fills the current path with `c` (non-zero winding unless `evenOdd`) and clears it.
    func fill(_ c: RGBA, evenOdd: Bool = false) {
        setColor(c)
        cairo_set_fill_rule(cr, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
    }

    /// Strokes the current path with `c`, `width` wide (in the current transform's units), round
    /// joins and caps unless told otherwise, and clears it.
    func stroke(_ c: RGBA, width: Double, roundCaps: Bool = true) {
        setColor(c)
        cairo_set_line_width(cr, width)
        cairo_set_line_cap(cr, roundCaps ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, roundCaps ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER)
        cairo_stroke(cr)
    }

    /// Fills the pixels x0..<x1 × y0..<y1 (whole pixels: no anti-aliased edge).
    func fillPixels(x0: Int, y0: Int, x1: Int, y1: Int, _ c: RGBA) {
        guard x1 > x0, y1 > y0, c.a > 0 else { return }
        rect(Double(x0), Double(y0), Double(x1 - x0), Double(y1 - y0))
        fill(c)
    }

    /// Outlines x0..<x1 × y0..<y1 with a line `thickness` pixels wide, inside the rectangle.
    func strokePixels(x0: Int, y0: Int, x1: Int, y1: Int, thickness: Int = 1, _ c: RGBA) {
        guard x1 > x0, y1 > y0 else { return }
        let t = max(1, min(thickness, (x1 - x0 + 1) / 2, (y1 - y0 + 1) / 2))
        fillPixels(x0: x0, y0: y0, x1: x1, y1: y0 + t, c)
        fillPixels(x0: x0, y0: y1 - t, x1: x1, y1: y1, c)
        fillPixels(x0: x0, y0: y0 + t, x1: x0 + t, y1: y1 - t, c)
        fillPixels(x0: x1 - t, y0: y0 + t, x1: x1, y1: y1 - t, c)
    }

    /// Composites a glyph: `color` through a coverage mask, or a colour bitmap as is, with the
    /// glyph's top-left pixel at (x, y).
    func draw(_ glyph: CairoGlyph, x: Int, y: Int, color: RGBA) {
        guard let s = glyph.surface else { return }
        if glyph.isColor {
            cairo_set_source_surface(cr, s, Double(x), Double(y))
            cairo_paint(cr)
        } else {
            setColor(color)
            cairo_mask_surface(cr, s, Double(x), Double(y))
        }
    }

    /// The canvas as straight-alpha RGBA bytes.
    func image() -> RasterImage {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return RasterImage(width: width, height: height) }
        let w = width, h = height
        let bytes = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, count in
            let o = out.baseAddress!
            data.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * h) { src in
                for y in 0..<h {
                    let row = src + y * (stride / 4)
                    var d = o + y * w * 4
                    for x in 0..<w {
                        let p = row[x]
                        let a = Int(p >> 24)
                        var r = Int((p >> 16) & 0xFF), g = Int((p >> 8) & 0xFF), b = Int(p & 0xFF)
                        if a != 255 && a != 0 {
                            r = min(255, (r * 255 + a / 2) / a)
                            g = min(255, (g * 255 + a / 2) / a)
                            b = min(255, (b * 255 + a / 2) / a)
                        }
                        d[0] = UInt8(r)
                        d[1] = UInt8(g)
                        d[2] = UInt8(b)
                        d[3] = UInt8(a)
                        d += 4
                    }
                }
            }
            count = w * h * 4
        }
        return RasterImage(width: w, height: h, pixels: bytes)
    }
}

/// A glyph bitmap as a cairo surface (`A8` coverage or premultiplied `ARGB32` colour), with its
/// offset from the pen (left: right of the pen; top: above the baseline). Owns its surface.
final class CairoGlyph {
    let surface: OpaquePointer?
    let width: Int
    let height: Int
    let left: Int
    let top: Int
    let isColor: Bool

    /// A surface holding `bitmap`'s pixels (colour bitmaps are straight RGBA: premultiplied here).
    init(_ bitmap: GlyphBitmap) {
        width = bitmap.width
        height = bitmap.height
        left = bitmap.left
        top = bitmap.top
        isColor = bitmap.isColor
        guard bitmap.width > 0, bitmap.height > 0,
            let s = cairo_image_surface_create(bitmap.isColor ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_A8,
                                               Int32(bitmap.width), Int32(bitmap.height)),
            cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(s)
        else {
            surface = nil
            return
        }
        cairo_surface_flush(s)
        let stride = Int(cairo_image_surface_get_stride(s))
        let w = bitmap.width
        bitmap.pixels.withUnsafeBufferPointer { src in
            for row in 0..<bitmap.height {
                let line = data + row * stride
                if bitmap.isColor {
                    line.withMemoryRebound(to: UInt32.self, capacity: w) { px in
                        for col in 0..<w {
                            let i = (row * w + col) * 4
                            let a = UInt32(src[i + 3])
                            func pm(_ v: UInt8) -> UInt32 { (UInt32(v) * a + 127) / 255 }
                            px[col] = a << 24 | pm(src[i]) << 16 | pm(src[i + 1]) << 8 | pm(src[i + 2])
                        }
                    }
                } else {
                    for col in 0..<w { line[col] = src[row * w + col] }
                }
            }
        }
        cairo_surface_mark_dirty(s)
        surface = s
    }

    deinit {
        if let surface { cairo_surface_destroy(surface) }
    }
}
