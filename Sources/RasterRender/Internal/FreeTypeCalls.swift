internal import CFreeType
import Foundation
import TextMeasure

/// Every FreeType call of the renderer goes through this file.
///
/// Ownership: a `GlyphRasterizer` owns one `FT_Library` and the `FT_Face`s it opens from the font
/// files of the `FontSet` (one per slot, opened on first use); `deinit` closes the faces, then the
/// library. One rasterizer serves one render on one thread: it is not Sendable and never shared.
///
/// Glyphs. Outline faces (Noto Sans CJK) are sized with `FT_Set_Char_Size` at 72 dpi (so the char
/// size is the pixel size), loaded unhinted (hinting would move stems away from the positions the
/// layout computed) and rendered to 8-bit anti-aliased coverage; the pen's fractional x position is
/// applied as a FreeType transform delta, quantized to a quarter pixel. The colour emoji face is a
/// CBDT bitmap font with one strike (109 ppem): `FT_Set_Pixel_Sizes` fails on it, so the strike is
/// selected with `FT_Select_Size(0)`, the BGRA bitmap loaded with `FT_LOAD_COLOR`, and scaled down
/// to the glyph's pixel size with a box filter. Results are cached per (slot, size, glyph, phase),
/// as cairo surfaces the canvas composites.
final class GlyphRasterizer {
    private let fonts: FontSet
    private let library: FT_Library
    private var faces: [FontSlot: FT_Face] = [:]
    /// The size each face is currently set to (26.6 pixels), to skip redundant size calls.
    private var currentSize: [FontSlot: Int] = [:]
    private var cache: [GlyphKey: CairoGlyph] = [:]
    /// Subpixel positions per pixel.
    static let phases = 4

    private struct GlyphKey: Hashable {
        var slot: FontSlot
        var size26: Int
        var glyph: UInt32
        var phase: Int
    }

    // FreeType load flags (FT_LOAD_*), spelled out: the header's macros are not all importable.
    private static let loadNoHinting: Int32 = 1 << 1
    private static let loadNoBitmap: Int32 = 1 << 3
    private static let loadColor: Int32 = 1 << 20
    private static let faceFlagScalable: Int = 1 << 0

    init(fonts: FontSet) throws(RasterRenderError) {
        self.fonts = fonts
        var lib: FT_Library?
        let err = FT_Init_FreeType(&lib)
        guard err == 0, let lib else { throw .freeType(code: Int(err), function: "FT_Init_FreeType", file: "") }
        library = lib
    }

    deinit {
        for face in faces.values { FT_Done_Face(face) }
        FT_Done_FreeType(library)
    }

    private func face(_ slot: FontSlot) throws(RasterRenderError) -> FT_Face {
        let slot = slot == .object ? .primary : slot
        if let f = faces[slot] { return f }
        let path = fonts.path(of: slot)
        var face: FT_Face?
        let err = FT_New_Face(library, path, FT_Long(fonts.faceIndex(of: slot)), &face)
        guard err == 0, let face else { throw .freeType(code: Int(err), function: "FT_New_Face", file: path) }
        faces[slot] = face
        return face
    }

    private func isScalable(_ face: FT_Face) -> Bool { Int(face.pointee.face_flags) & Self.faceFlagScalable != 0 }

    /// The glyph `glyph` of `slot` at `pixelSize` pixels per em, drawn with the pen `phase` quarter
    /// pixels right of a pixel boundary (ignored for colour bitmaps). `.empty` for blank glyphs.
    func glyph(slot: FontSlot, glyph: UInt32, pixelSize: Double, phase: Int) throws(RasterRenderError) -> CairoGlyph {
        let size26 = max(64, Int((pixelSize * 64).rounded()))
        let face = try face(slot)
        let scalable = isScalable(face)
        let key = GlyphKey(slot: slot, size26: size26, glyph: glyph, phase: scalable ? phase : 0)
        if let hit = cache[key] { return hit }
        let bitmap = try scalable
            ? renderOutline(face, slot: slot, glyph: glyph, size26: size26, phase: phase)
            : renderColorBitmap(face, slot: slot, glyph: glyph, pixelSize: Double(size26) / 64)
        let made = CairoGlyph(bitmap)
        cache[key] = made
        return made
    }

    private func renderOutline(_ face: FT_Face, slot: FontSlot, glyph: UInt32, size26: Int, phase: Int) throws(RasterRenderError) -> GlyphBitmap {
        let path = fonts.path(of: slot)
        if currentSize[slot] != size26 {
            let err = FT_Set_Char_Size(face, 0, FT_F26Dot6(size26), 72, 72)
            guard err == 0 else { throw .freeType(code: Int(err), function: "FT_Set_Char_Size", file: path) }
            currentSize[slot] = size26
        }
        var delta = FT_Vector(x: FT_Pos(phase * 64 / Self.phases), y: 0)
        FT_Set_Transform(face, nil, &delta)
        var err = FT_Load_Glyph(face, FT_UInt(glyph), Self.loadNoHinting | Self.loadNoBitmap)
        guard err == 0 else { throw .freeType(code: Int(err), function: "FT_Load_Glyph", file: path) }
        let slotRec = face.pointee.glyph!
        err = FT_Render_Glyph(slotRec, FT_RENDER_MODE_NORMAL)
        guard err == 0 else { throw .freeType(code: Int(err), function: "FT_Render_Glyph", file: path) }
        let bm = slotRec.pointee.bitmap
        let w = Int(bm.width), h = Int(bm.rows)
        guard w > 0, h > 0, let buffer = bm.buffer, bm.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else { return .empty }
        var pixels = [UInt8](repeating: 0, count: w * h)
        let pitch = Int(bm.pitch)
        for row in 0..<h {
            let src = pitch >= 0 ? buffer + row * pitch : buffer + (h - 1 - row) * (-pitch)
            for col in 0..<w { pixels[row * w + col] = src[col] }
        }
        return GlyphBitmap(
            width: w, height: h, left: Int(slotRec.pointee.bitmap_left), top: Int(slotRec.pointee.bitmap_top),
            isColor: false, pixels: pixels)
    }

    private func renderColorBitmap(_ face: FT_Face, slot: FontSlot, glyph: UInt32, pixelSize: Double) throws(RasterRenderError) -> GlyphBitmap {
        let path = fonts.path(of: slot)
        guard face.pointee.num_fixed_sizes > 0, let sizes = face.pointee.available_sizes else {
            throw .freeType(code: 0x17, function: "FT_Select_Size (the face has no strike)", file: path)
        }
        if currentSize[slot] != 0 {
            let err = FT_Select_Size(face, 0)
            guard err == 0 else { throw .freeType(code: Int(err), function: "FT_Select_Size", file: path) }
            currentSize[slot] = 0
        }
        let strike = Double(sizes[0].y_ppem) / 64
        var err = FT_Load_Glyph(face, FT_UInt(glyph), Self.loadColor)
        guard err == 0 else { throw .freeType(code: Int(err), function: "FT_Load_Glyph", file: path) }
        let slotRec = face.pointee.glyph!
        if slotRec.pointee.format != FT_GLYPH_FORMAT_BITMAP {
            err = FT_Render_Glyph(slotRec, FT_RENDER_MODE_NORMAL)
            guard err == 0 else { throw .freeType(code: Int(err), function: "FT_Render_Glyph", file: path) }
        }
        let bm = slotRec.pointee.bitmap
        let w = Int(bm.width), h = Int(bm.rows)
        guard w > 0, h > 0, strike > 0, let buffer = bm.buffer, bm.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue) else {
            return .empty
        }
        let pitch = Int(bm.pitch)
        // Premultiplied BGRA rows → premultiplied RGBA samples.
        var src = [Int](repeating: 0, count: w * h * 4)
        for row in 0..<h {
            let line = pitch >= 0 ? buffer + row * pitch : buffer + (h - 1 - row) * (-pitch)
            for col in 0..<w {
                let s = col * 4, d = (row * w + col) * 4
                src[d] = Int(line[s + 2])
                src[d + 1] = Int(line[s + 1])
                src[d + 2] = Int(line[s])
                src[d + 3] = Int(line[s + 3])
            }
        }
        let k = pixelSize / strike
        let (scaled, ow, oh) = Self.boxScale(src, width: w, height: h, factor: k)
        return GlyphBitmap(
            width: ow, height: oh, left: Int((Double(slotRec.pointee.bitmap_left) * k).rounded()),
            top: Int((Double(slotRec.pointee.bitmap_top) * k).rounded()), isColor: true, pixels: scaled)
    }

    /// Scales premultiplied RGBA samples by `factor` (a box filter: each output pixel averages the
    /// source pixels it covers) and returns straight-alpha RGBA bytes.
    static func boxScale(_ src: [Int], width w: Int, height h: Int, factor k: Double) -> ([UInt8], Int, Int) {
        let ow = max(1, Int((Double(w) * k).rounded())), oh = max(1, Int((Double(h) * k).rounded()))
        let fx = Double(w) / Double(ow), fy = Double(h) / Double(oh)
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        for oy in 0..<oh {
            let y0 = Int(Double(oy) * fy), y1 = max(y0 + 1, min(h, Int((Double(oy + 1) * fy).rounded(.up))))
            for ox in 0..<ow {
                let x0 = Int(Double(ox) * fx), x1 = max(x0 + 1, min(w, Int((Double(ox + 1) * fx).rounded(.up))))
                var acc = (0, 0, 0, 0)
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let i = (y * w + x) * 4
                        acc.0 += src[i]
                        acc.1 += src[i + 1]
                        acc.2 += src[i + 2]
                        acc.3 += src[i + 3]
                    }
                }
                let n = (y1 - y0) * (x1 - x0)
                let a = (acc.3 + n / 2) / n
                let d = (oy * ow + ox) * 4
                out[d + 3] = UInt8(a)
                if a > 0 {
                    // Un-premultiply: channel = sum / sumAlpha.
                    out[d] = UInt8(min(255, (acc.0 * 255 + acc.3 / 2) / acc.3))
                    out[d + 1] = UInt8(min(255, (acc.1 * 255 + acc.3 / 2) / acc.3))
                    out[d + 2] = UInt8(min(255, (acc.2 * 255 + acc.3 / 2) / acc.3))
                }
            }
        }
        return (out, ow, oh)
    }

    /// The glyph of `scalar` in `slot`'s cmap (0 when missing), for the renderer's own labels.
    func nominalGlyph(slot: FontSlot, scalar: UInt32) throws(RasterRenderError) -> UInt32 {
        UInt32(FT_Get_Char_Index(try face(slot), FT_ULong(scalar)))
    }

    /// The unhinted advance of `glyph` in pixels at `pixelSize`, for the renderer's own labels
    /// (outline faces only).
    func advance(slot: FontSlot, glyph: UInt32, pixelSize: Double) throws(RasterRenderError) -> Double {
        let face = try face(slot)
        let path = fonts.path(of: slot)
        guard isScalable(face) else { return pixelSize }
        let size26 = max(64, Int((pixelSize * 64).rounded()))
        if currentSize[slot] != size26 {
            let err = FT_Set_Char_Size(face, 0, FT_F26Dot6(size26), 72, 72)
            guard err == 0 else { throw .freeType(code: Int(err), function: "FT_Set_Char_Size", file: path) }
            currentSize[slot] = size26
        }
        let err = FT_Load_Glyph(face, FT_UInt(glyph), Self.loadNoHinting | Self.loadNoBitmap)
        guard err == 0 else { throw .freeType(code: Int(err), function: "FT_Load_Glyph", file: path) }
        // linearHoriAdvance: the scaled, unhinted advance in 16.16 pixels.
        return Double(face.pointee.glyph.pointee.linearHoriAdvance) / 65536
    }
}
