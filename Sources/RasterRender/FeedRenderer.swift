import CellLayout
import TableLayout
import TextMeasure

// Drawing computed layouts into an RGBA canvas.
//
// Nothing is measured here: every frame comes from the `CellGeometry`, every line's baseline and
// every cluster's x from its `TextLayout` (`clusterPositions(onLine:of:)`), every glyph id and
// offset from the `GlyphStorage` the measurer retained when it prepared the text. The only text
// the renderer sets itself is its own annotation: the sizes written in placeholders and the
// read-more token (the layout keeps its frame, not its glyphs), with the primary face's nominal
// glyphs and advances.
//
// Coordinates: points × scale = pixels. Frames lie on the pixel grid of the layout's scale, so
// their pixel edges are exact integers; baselines are rounded to whole pixels; glyph pens keep a
// quarter-pixel horizontal phase.

/// What the renderer draws besides the cells' own content.
package struct RenderOptions: Sendable, Hashable {
    /// Outline every part's frame (blocks, texts, images, buttons, entities, inline objects).
    package var debugFrames: Bool

    package init(debugFrames: Bool = false) { self.debugFrames = debugFrames }
}

/// The colours the renderer uses for what the style's palette does not cover.
package enum RenderColors {
    /// Fill of picture, avatar and card-image placeholders.
    package static let placeholder = RGBA(rgb: 0xD5DCE6)
    /// Border, cross and size label of placeholders.
    package static let placeholderInk = RGBA(rgb: 0x7D8799)
    /// Picture badges (GIF, 长图), under their white label.
    package static let badge = RGBA(rgb: 0xFF8200, opacity: 0.85)
    /// The rounded box of an inline emoticon without an emoji, and its label and border.
    package static let emoticonBox = RGBA(rgb: 0xFFF1D6)
    package static let emoticonInk = RGBA(rgb: 0xE08A00)
    /// Hairlines (toolbar top, title bar bottom).
    package static let separator = RGBA(rgb: 0xE5E5E5)
    /// `--debug-frames` outlines, by part: blocks, texts, images, toolbar buttons, entities.
    package static let debugBlock = RGBA(rgb: 0x00A0FF, opacity: 0.6)
    package static let debugText = RGBA(rgb: 0xFF0000, opacity: 0.8)
    package static let debugImage = RGBA(rgb: 0x00B050, opacity: 0.9)
    package static let debugButton = RGBA(rgb: 0xC000C0, opacity: 0.8)
    package static let debugEntity = RGBA(rgb: 0xFF9900, opacity: 0.8)
}

/// Renders laid-out cells to an RGBA image.
///
/// Each render opens its own FreeType library and faces (from the `FontSet`'s files) and closes
/// them when it returns. Thread-safety: a value; concurrent renders MAY run, each uses its own
/// FreeType state.
package struct FeedRenderer: Sendable {
    package let fonts: FontSet
    package var options: RenderOptions

    /// A renderer drawing with the faces of `fonts` (the fonts the layouts were measured with).
    package init(fonts: FontSet, options: RenderOptions = RenderOptions()) {
        self.fonts = fonts
        self.options = options
    }

    /// Largest image side accepted, in pixels: cairo's image surfaces are at most 32767 pixels a
    /// side (a larger one fails in `cairo_image_surface_create`).
    package static let maxSide = 32767
    /// Largest image accepted, in pixels (256 MiB of RGBA).
    package static let maxPixels = 1 << 26

    /// Renders rows `rows` of `feed`, stacked at the feed's row positions, into an image
    /// `width × scale` pixels wide and as tall as the rows (× scale).
    /// - Parameter cell: the layout of a row (`feed.cells` when it retained them); texts MUST carry
    ///   glyphs (prepared by a measurer made with `retainGlyphs: true`), else only frames are drawn.
    /// - Throws: `.rowsOutOfRange` for rows outside the feed or an empty range, `.invalidImageSize`
    ///   beyond `maxSide`, `.freeType` when a font cannot be opened or a glyph rendered.
    /// - Complexity: O(pixels + glyphs) of the rows drawn.
    package func render(
        feed: FeedGeometry, rows: Range<Int>, cell: (Int) -> CellGeometry
    ) throws(RasterRenderError) -> RasterImage {
        guard !rows.isEmpty, rows.lowerBound >= 0, rows.upperBound <= feed.count else {
            throw .rowsOutOfRange(requested: rows, rowCount: feed.count)
        }
        let top = feed.y(ofRow: rows.lowerBound)
        let bottom = feed.y(ofRow: rows.upperBound - 1) + feed.heights[rows.upperBound - 1]
        let placed = rows.map { (cell($0), feed.y(ofRow: $0) - top) }
        return try render(
            placed, width: feed.options.width, height: bottom - top, scale: feed.options.scale,
            style: feed.options.style)
    }

    /// Renders cells at the given y-offsets (points, from the image top) into an image of
    /// `width × height` points at `scale`.
    /// - Throws: as `render(feed:rows:cell:)`.
    package func render(
        _ cells: [(layout: CellGeometry, y: Double)], width: Double, height: Double, scale: Double, style: CellStyle
    ) throws(RasterRenderError) -> RasterImage {
        let w = Int((width * scale).rounded()), h = Int((height * scale).rounded())
        guard w > 0, h > 0, w <= Self.maxSide, h <= Self.maxSide, w * h <= Self.maxPixels else {
            throw .invalidImageSize(
                width: w, height: h,
                reason: "each side must be 1...\(Self.maxSide) px and the image at most \(Self.maxPixels) px; draw fewer rows (--rows A:B)")
        }
        let rasterizer = try GlyphRasterizer(fonts: fonts)
        let canvas = try CairoCanvas(width: w, height: h, fill: RGBA(rgb: style.palette.fill[.cellBackground] ?? 0xFFFFFF))
        let painter = CellPainter(
            canvas: canvas, rasterizer: rasterizer, scale: scale, palette: style.palette, readMoreToken: style.readMoreToken,
            debugFrames: options.debugFrames)
        for (layout, y) in cells {
            try painter.draw(layout, originY: y)
        }
        return canvas.image()
    }
}

/// Draws cells into one canvas (one render, one thread).
final class CellPainter {
    let canvas: CairoCanvas
    let rasterizer: GlyphRasterizer
    let scale: Double
    let palette: Palette
    let readMoreToken: String
    let debugFrames: Bool
    /// The current cell's origin in points.
    private var oy = 0.0

    init(canvas: CairoCanvas, rasterizer: GlyphRasterizer, scale: Double, palette: Palette, readMoreToken: String, debugFrames: Bool) {
        self.canvas = canvas
        self.rasterizer = rasterizer
        self.scale = scale
        self.palette = palette
        self.readMoreToken = readMoreToken
        self.debugFrames = debugFrames
    }

    // MARK: geometry

    private func px(_ v: Double) -> Int { Int((v * scale).rounded()) }
    /// A cell rect in whole image pixels: (x0, y0, x1, y1).
    private func box(_ r: Rect) -> (Int, Int, Int, Int) { (px(r.minX), px(oy + r.minY), px(r.maxX), px(oy + r.maxY)) }
    /// A cell rect in exact image pixels: (x, y, w, h).
    private func exact(_ r: Rect) -> (Double, Double, Double, Double) {
        (r.minX * scale, (oy + r.minY) * scale, r.width * scale, r.height * scale)
    }

    private func fill(_ r: Rect, _ c: RGBA) {
        let (x0, y0, x1, y1) = box(r)
        canvas.fillPixels(x0: x0, y0: y0, x1: x1, y1: y1, c)
    }

    private func outline(_ r: Rect, _ c: RGBA) {
        let (x0, y0, x1, y1) = box(r)
        canvas.strokePixels(x0: x0, y0: y0, x1: x1, y1: y1, thickness: 1, c)
    }

    private func hairline(y: Double, from x0: Double, to x1: Double, _ c: RGBA) {
        let yy = px(oy + y)
        canvas.fillPixels(x0: px(x0), y0: yy, x1: px(x1), y1: yy + max(1, Int(scale / 2)), c)
    }

    private func icon(_ icon: Icon, in r: Rect, ink: RGBA = RGBA(rgb: 0), filled: Bool = false) {
        let (x, y, w, h) = exact(r)
        canvas.draw(icon, x: x, y: y, w: w, h: h, ink: ink, filled: filled)
    }

    private func color(_ rgb: UInt32) -> RGBA { RGBA(rgb: rgb) }

    // MARK: cells

    func draw(_ cell: CellGeometry, originY: Double) throws(RasterRenderError) {
        oy = originY
        let whole = Rect(x: 0, y: 0, width: cell.width, height: cell.height)
        let cellFill = color(palette.fill[.cellBackground] ?? 0xFFFFFF)
        let content = color(palette.fill[.contentBackground] ?? 0xFFFFFF)
        fill(whole, cellFill)
        let contentBlocks = cell.blocks.filter { $0.kind != .topGap && $0.kind != .bottomGap }
        if contentBlocks.isEmpty {
            fill(whole, content)
        } else {
            for b in contentBlocks { fill(b.frame, content) }
        }

        if let bar = cell.titleBar {
            hairline(y: bar.frame.maxY - 0.5, from: bar.frame.minX, to: bar.frame.maxX, RenderColors.separator)
            if let i = bar.icon { icon(.flame, in: i) }
            try text(bar.label)
        }

        avatar(cell.avatar)
        if let b = cell.avatarBadge { try badge(b) }
        try text(cell.name)
        if let b = cell.memberBadge { try badge(b) }
        try text(cell.time)
        if let s = cell.source { try text(s) }
        if let t = cell.text { try text(t) }

        if let r = cell.retweet {
            fill(r.frame, color(palette.fill[.retweetBackground] ?? 0xF7F7F7))
            try text(r.text)
            if let p = r.pictures { try pictures(p) }
            if let c = r.card { try card(c, background: content) }
        }
        if let p = cell.pictures { try pictures(p) }
        if let c = cell.card { try card(c, background: color(palette.fill[.cardBackground] ?? 0xF7F7F7)) }
        if let tag = cell.tag {
            if let i = tag.icon {
                icon(tag.isPlace ? .pin : .topic, in: i, ink: color(palette.color(tag.label.prepared.baseAttributes.role)))
            }
            try text(tag.label)
        }
        if let bar = cell.toolbar {
            hairline(y: bar.frame.minY, from: bar.frame.minX, to: bar.frame.maxX, RenderColors.separator)
            for b in bar.buttons {
                let role = b.label.prepared.baseAttributes.role
                let ink = color(palette.color(role))
                let kind: Icon = switch b.kind {
                case .repost: .repost
                case .comment: .comment
                case .like: .like
                }
                icon(kind, in: b.icon, ink: ink, filled: role == .cellToolbarLiked)
                try text(b.label)
            }
        }
        if debugFrames { drawDebugFrames(cell) }
    }

    private func pictures(_ grid: PictureGridLayout) throws(RasterRenderError) {
        for p in grid.pictures {
            try placeholder(p.frame, label: true)
            if let b = p.badge { try badge(b) }
        }
    }

    private func card(_ card: CardLayout, background: RGBA) throws(RasterRenderError) {
        fill(card.frame, background)
        // A video card's play badge sits in the middle of the image: its size goes to the top.
        if let image = card.image { try placeholder(image, label: true, labelAtTop: card.badge?.name == "video-play") }
        if let b = card.badge { try badge(b) }
        if let t = card.text { try text(t) }
        if let button = card.button {
            let (x, y, w, h) = exact(button)
            canvas.roundedRect(x + 0.5, y + 0.5, w - 1, h - 1, radius: 3 * scale)
            canvas.stroke(color(palette.color(.cellLink)), width: 1)
        }
    }

    /// The avatar: a disc in the placeholder colour with a head and shoulders.
    private func avatar(_ r: Rect) {
        guard !r.isEmpty else { return }
        let (x, y, w, h) = exact(r)
        canvas.circle(x + w / 2, y + h / 2, radius: min(w, h) / 2)
        canvas.fill(RenderColors.placeholder)
        icon(.person, in: r)
    }

    /// A picture placeholder: filled rectangle, border, and its size in points written in it
    /// when the label fits (else a cross).
    private func placeholder(_ r: Rect, label: Bool, labelAtTop: Bool = false) throws(RasterRenderError) {
        guard !r.isEmpty else { return }
        fill(r, RenderColors.placeholder)
        let (x0, y0, x1, y1) = box(r)
        canvas.strokePixels(x0: x0, y0: y0, x1: x1, y1: y1, thickness: 1, RenderColors.placeholderInk)
        let size = "\(Self.number(r.width))×\(Self.number(r.height))"
        let pixelSize = min(12, r.height / 3) * scale
        if label, pixelSize >= 8 {
            let w = try labelWidth(size, pixelSize: pixelSize)
            if w <= Double(x1 - x0) - 4 * scale {
                let x = Double(x0 + x1) / 2 - w / 2
                let baseline = labelAtTop ? Double(y0) + pixelSize * 1.5 : Double(y0 + y1) / 2 + pixelSize * 0.35
                try drawLabel(size, x: x, baseline: Int(baseline.rounded()), pixelSize: pixelSize, color: RenderColors.placeholderInk)
                return
            }
        }
        canvas.move(Double(x0) + 0.5, Double(y0) + 0.5)
        canvas.line(Double(x1) - 0.5, Double(y1) - 0.5)
        canvas.move(Double(x0) + 0.5, Double(y1) - 0.5)
        canvas.line(Double(x1) - 0.5, Double(y0) + 0.5)
        canvas.stroke(RenderColors.placeholderInk, width: 1, roundCaps: false)
    }

    /// The badge images of the layout, by name: the play mark, the card type, picture labels
    /// (GIF, 长图), verification and club badges over the avatar, member crowns.
    private func badge(_ b: ImageFrame) throws(RasterRenderError) {
        switch b.name {
        case "video-play": icon(.play, in: b.frame)
        case "card-type": icon(.article, in: b.frame)
        case "avatar-verified": icon(.verifiedPerson, in: b.frame)
        case "avatar-club": icon(.club, in: b.frame)
        default:
            if let label = Self.pictureBadgeLabel(b.name) {
                try labelledBadge(label, in: b.frame)
            } else {
                // Classic style's member badge (`mbtype_image`) and any other name: the crown.
                icon(.member, in: b.frame)
            }
        }
    }

    /// The label of a picture badge ("gif" → "GIF", "long" → "长图"), nil for other names.
    static func pictureBadgeLabel(_ name: String) -> String? {
        switch name {
        case "gif": "GIF"
        case "long": "长图"
        default: nil
        }
    }

    /// A rounded badge in the badge colour with `label` in white, sized to fit its frame.
    private func labelledBadge(_ label: String, in frame: Rect) throws(RasterRenderError) {
        let (x, y, w, h) = exact(frame)
        canvas.roundedRect(x, y, w, h, radius: min(w, h) * 0.2)
        canvas.fill(RenderColors.badge)
        var size = h * 0.68
        let natural = try labelWidth(label, pixelSize: size)
        if natural > w * 0.86 { size *= w * 0.86 / natural }
        guard size >= 4 else { return }
        let lw = try labelWidth(label, pixelSize: size)
        let baseline = Int((y + h / 2 + size * 0.36).rounded())
        try drawLabel(label, x: x + (w - lw) / 2, baseline: baseline, pixelSize: size, color: RGBA(rgb: 0xFFFFFF))
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String((v * 10).rounded() / 10)
    }

    // MARK: text

    /// Draws a laid-out text: every line at its baseline, every cluster at its computed x, every
    /// glyph at its shaped offset, in its run's colour and from the face the layout measured it
    /// in; inline objects and the read-more token.
    private func text(_ box: TextBox) throws(RasterRenderError) {
        let p = box.prepared
        let emoticons = box.entities.filter { $0.kind == .emoticon }
        for a in box.attachments {
            if a.name == "link-icon" {
                icon(.link, in: a.frame, ink: color(palette.color(.cellLink)))
            } else if let e = emoticons.first(where: { $0.rects.contains { $0.overlaps(a.frame) } }) {
                try emoticon(imageName: a.name, code: e.value, in: a.frame)
            } else if a.name.hasPrefix("verified") {
                icon(.verifiedOrganization, in: a.frame)
            } else if a.name.hasPrefix("member") {
                icon(.member, in: a.frame)
            } else {
                try emoticon(imageName: a.name, code: a.name, in: a.frame)
            }
        }
        if let t = box.token, let lineIndex = box.layout.token?.line {
            let size = p.baseAttributes.size * scale
            let baseline = px(oy + box.frame.minY + box.layout.lines[lineIndex].baseline)
            try drawLabel(readMoreToken, x: t.minX * scale, baseline: baseline, pixelSize: size, color: color(palette.color(.cellLink)))
        }
        guard let glyphs = p.glyphs, !glyphs.glyphID.isEmpty else { return }
        let firstGlyph = Self.glyphIndex(glyphs, clusterCount: p.clusterCount)
        let runs = p.runs
        for (li, line) in box.layout.lines.enumerated() {
            let xs = box.layout.clusterPositions(onLine: li, of: p)
            let baseline = px(oy + box.frame.minY + line.baseline)
            var run = 0
            for (k, c) in line.clusters.enumerated() {
                if p.isAttachment(c) || p.isHanging(c) { continue }
                let start = p.utf16Range(ofCluster: c).lowerBound
                while run + 1 < runs.count && runs[run].range.upperBound <= start { run += 1 }
                let ink = color(palette.color(runs[run].attributes.role))
                let font = p.font(ofCluster: c)
                var pen = (box.frame.minX + xs[k]) * scale
                for g in firstGlyph[c]..<firstGlyph[c + 1] {
                    if glyphs.glyphID[g] == 0 {
                        // No face maps the character: a box with its code point, as Pango draws it
                        // (the layout measured the box's width).
                        let scalar = p.withUTF16 { String(decoding: $0[p.utf16Range(ofCluster: c)], as: UTF16.self) }
                            .unicodeScalars.first?.value ?? 0xFFFD
                        try hexBox(scalar, x: pen, advance: Double(glyphs.xAdvance[g]) * scale, baseline: baseline,
                                   size: font.size * scale, color: ink)
                        pen += Double(glyphs.xAdvance[g]) * scale
                        continue
                    }
                    let gx = pen + Double(glyphs.xOffset[g]) * scale
                    let gy = baseline - Int((Double(glyphs.yOffset[g]) * scale).rounded())
                    try drawGlyph(glyphs.glyphID[g], slot: font.slot, pixelSize: font.size * scale, x: gx, baseline: gy, color: ink)
                    pen += Double(glyphs.xAdvance[g]) * scale
                }
            }
        }
    }

    /// The box drawn for a character no face maps: an outline the advance wide and the digits
    /// of its code point in two rows (4 digits in the BMP, 6 above), at size / 2.2.
    private func hexBox(_ scalar: UInt32, x: Double, advance: Double, baseline: Int, size: Double, color: RGBA) throws(RasterRenderError) {
        let hex = String(scalar, radix: 16, uppercase: true)
        let digits = String(repeating: "0", count: max(0, (scalar > 0xFFFF ? 6 : 4) - hex.count)) + hex
        let half = digits.count / 2
        let pad = max(1, size / 16)
        let top = Double(baseline) - size * 0.82, height = size * 0.94
        canvas.rect(x + pad + 0.5, top + 0.5, max(1, advance - 2 * pad - 1), height - 1)
        canvas.stroke(color, width: max(1, size / 24), roundCaps: false)
        let mini = size / 2.2
        for (row, text) in [String(digits.prefix(half)), String(digits.suffix(half))].enumerated() {
            let w = try labelWidth(text, pixelSize: mini)
            let rowBaseline = top + height / 2 + (row == 0 ? -mini * 0.12 : mini * 0.86)
            try drawLabel(text, x: x + (advance - w) / 2, baseline: Int(rowBaseline.rounded()), pixelSize: mini, color: color)
        }
    }

    /// An inline emoticon: its emoji (`EmoticonEmoji`) fitted into the frame, else the first
    /// character of its code in a rounded box.
    private func emoticon(imageName: String, code: String, in frame: Rect) throws(RasterRenderError) {
        let (x, y, w, h) = exact(frame)
        let side = min(w, h) * 0.96
        if let scalar = EmoticonEmoji.emoji(forImage: imageName),
            let glyph = try? rasterizer.nominalGlyph(slot: .emoji, scalar: scalar), glyph != 0 {
            // The face's bitmaps are wider than its em: sized once at the side, then so that the
            // larger dimension is the side.
            let probe = try rasterizer.glyph(slot: .emoji, glyph: glyph, pixelSize: side, phase: 0)
            if probe.width > 0 {
                let size = side * side / Double(max(probe.width, probe.height))
                let bitmap = try rasterizer.glyph(slot: .emoji, glyph: glyph, pixelSize: size, phase: 0)
                let bx = Int((x + (w - Double(bitmap.width)) / 2).rounded())
                let by = Int((y + (h - Double(bitmap.height)) / 2).rounded())
                canvas.draw(bitmap, x: bx, y: by, color: RGBA(rgb: 0))
                return
            }
        }
        let inset = min(w, h) * 0.06
        canvas.roundedRect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, radius: min(w, h) * 0.22)
        canvas.fill(RenderColors.emoticonBox)
        canvas.roundedRect(x + inset + 0.5, y + inset + 0.5, w - 2 * inset - 1, h - 2 * inset - 1, radius: min(w, h) * 0.22)
        canvas.stroke(RenderColors.emoticonInk, width: max(1, scale * 0.5))
        let label = EmoticonEmoji.boxLabel(forCode: code)
        var size = h * 0.62
        let natural = try labelWidth(label, pixelSize: size)
        if natural > w * 0.8 { size *= w * 0.8 / natural }
        let lw = try labelWidth(label, pixelSize: size)
        try drawLabel(label, x: x + (w - lw) / 2, baseline: Int((y + h / 2 + size * 0.36).rounded()), pixelSize: size,
                      color: RenderColors.emoticonInk)
    }

    /// `result[c]..<result[c + 1]` are the glyphs of cluster `c` (a counting sort by cluster that
    /// keeps the shaped order inside each cluster).
    static func glyphIndex(_ g: GlyphStorage, clusterCount: Int) -> [Int] {
        var start = [Int](repeating: 0, count: clusterCount + 1)
        for c in g.cluster where Int(c) < clusterCount { start[Int(c) + 1] += 1 }
        for i in 0..<clusterCount { start[i + 1] += start[i] }
        return start
    }

    private func drawGlyph(
        _ glyph: UInt32, slot: FontSlot, pixelSize: Double, x: Double, baseline: Int, color: RGBA
    ) throws(RasterRenderError) {
        let fx = x.rounded(.down)
        var ix = Int(fx)
        var phase = Int(((x - fx) * Double(GlyphRasterizer.phases)).rounded())
        if phase == GlyphRasterizer.phases {
            ix += 1
            phase = 0
        }
        let bitmap = try rasterizer.glyph(slot: slot, glyph: glyph, pixelSize: pixelSize, phase: phase)
        guard bitmap.width > 0 else { return }
        let left = (bitmap.isColor ? Int(x.rounded()) : ix) + bitmap.left
        canvas.draw(bitmap, x: left, y: baseline - bitmap.top, color: color)
    }

    // MARK: the renderer's own labels

    /// The width of a label in pixels: the primary face's glyphs, or the fallback face's for
    /// characters the primary face lacks.
    private func labelWidth(_ s: String, pixelSize: Double) throws(RasterRenderError) -> Double {
        var w = 0.0
        for u in s.unicodeScalars where !(0xFE00...0xFE0F).contains(u.value) && u.value != 0x200D {
            let (slot, g) = try labelGlyph(u.value)
            w += try rasterizer.advance(slot: slot, glyph: g, pixelSize: pixelSize)
        }
        return w
    }

    private func labelGlyph(_ scalar: UInt32) throws(RasterRenderError) -> (FontSlot, UInt32) {
        let g = try rasterizer.nominalGlyph(slot: .primary, scalar: scalar)
        if g != 0 { return (.primary, g) }
        // Emoji of section titles ("游戏好友 🎮"); the renderer's other labels are ASCII.
        let e = try rasterizer.nominalGlyph(slot: .emoji, scalar: scalar)
        if e != 0 { return (.emoji, e) }
        return (.fallback, try rasterizer.nominalGlyph(slot: .fallback, scalar: scalar))
    }

    private func drawLabel(_ s: String, x: Double, baseline: Int, pixelSize: Double, color: RGBA) throws(RasterRenderError) {
        var pen = x
        // Variation selectors and joiners have no glyph of their own in a label.
        for u in s.unicodeScalars where !(0xFE00...0xFE0F).contains(u.value) && u.value != 0x200D {
            let (slot, g) = try labelGlyph(u.value)
            try drawGlyph(g, slot: slot, pixelSize: pixelSize, x: pen, baseline: baseline, color: color)
            pen += try rasterizer.advance(slot: slot, glyph: g, pixelSize: pixelSize)
        }
    }

    // MARK: debug frames

    private func drawDebugFrames(_ cell: CellGeometry) {
        for b in cell.blocks { outline(b.frame, RenderColors.debugBlock) }
        var texts: [TextBox] = [cell.name, cell.time]
        texts += [cell.source, cell.text, cell.retweet?.text, cell.titleBar?.label, cell.tag?.label, cell.card?.text,
                  cell.retweet?.card?.text].compactMap { $0 }
        texts += cell.toolbar?.buttons.map(\.label) ?? []
        var images: [Rect] = [cell.avatar]
        images += [cell.avatarBadge?.frame, cell.memberBadge?.frame, cell.titleBar?.icon, cell.tag?.icon,
                   cell.card?.image, cell.card?.badge?.frame, cell.card?.button, cell.retweet?.card?.image,
                   cell.retweet?.card?.badge?.frame, cell.retweet?.card?.button].compactMap { $0 }
        for grid in [cell.pictures, cell.retweet?.pictures].compactMap({ $0 }) {
            images += grid.pictures.map(\.frame) + grid.pictures.compactMap(\.badge?.frame)
        }
        for t in texts {
            outline(t.frame, RenderColors.debugText)
            for e in t.entities { for r in e.rects { outline(r, RenderColors.debugEntity) } }
            for a in t.attachments { outline(a.frame, RenderColors.debugImage) }
            if let token = t.token { outline(token, RenderColors.debugEntity) }
        }
        for r in images { outline(r, RenderColors.debugImage) }
        for b in cell.toolbar?.buttons ?? CellFrames() {
            outline(b.frame, RenderColors.debugButton)
            outline(b.icon, RenderColors.debugImage)
        }
        for f in [cell.retweet?.frame, cell.card?.frame, cell.retweet?.card?.frame, cell.tag?.frame,
                  cell.titleBar?.frame, cell.toolbar?.frame].compactMap({ $0 }) {
            outline(f, RenderColors.debugBlock)
        }
    }
}

extension Rect {
    /// The rect shrunk by `d` on every side (never below zero size).
    fileprivate func insetBy(_ d: Double) -> Rect {
        Rect(x: minX + d, y: minY + d, width: max(0, width - 2 * d), height: max(0, height - 2 * d))
    }
}

// MARK: - sectioned feeds

extension FeedRenderer {
    /// Renders the part `top..<bottom` (points) of a sectioned feed at its primary width: section
    /// headers (band, disclosure mark pointing right when closed and down when open, title cut
    /// with "…", count at the right), footers' texts, and the rows of open sections, from the
    /// document's cells (laid out by a measurer that retains glyphs, for the texts to be drawn).
    /// - Throws: `.invalidImageSize` for an empty or too large range, `.freeType` as `render`.
    /// - Complexity: O(pixels + glyphs) of what is drawn, plus O(log n) to find it.
    package func render(document: FeedDocument, from top: Double, to bottom: Double) throws(RasterRenderError) -> RasterImage {
        let o = document.options
        let w = Int((o.width * o.scale).rounded()), h = Int(((bottom - top) * o.scale).rounded())
        guard w > 0, h > 0, w <= Self.maxSide, h <= Self.maxSide, w * h <= Self.maxPixels else {
            throw .invalidImageSize(
                width: w, height: h,
                reason: "each side must be 1...\(Self.maxSide) px and the image at most \(Self.maxPixels) px; draw fewer rows (--rows A:B)")
        }
        let style = o.style
        let rasterizer = try GlyphRasterizer(fonts: fonts)
        let canvas = try CairoCanvas(width: w, height: h, fill: RGBA(rgb: style.palette.fill[.cellBackground] ?? 0xFFFFFF))
        let painter = CellPainter(
            canvas: canvas, rasterizer: rasterizer, scale: o.scale, palette: style.palette, readMoreToken: style.readMoreToken,
            debugFrames: options.debugFrames)
        let g = document.geometry
        for ip in g.indexPathsForRows(in: top..<bottom) where !g.isCollapsed(ip.section) {
            let r = g.rectForRow(ip)
            try painter.draw(document.cell(at: ip), originY: r.y - top)
        }
        for s in 0..<g.numberOfSections {
            let hr = g.rectForHeader(inSection: s), fr = g.rectForFooter(inSection: s)
            if hr.height > 0 && hr.maxY > top && hr.minY < bottom {
                try painter.drawHeader(
                    document.header(ofSection: s), rowCount: document.numberOfRows(inSection: s), in: hr, top: top,
                    isOpen: !g.isCollapsed(s), metrics: style.sections)
            }
            if fr.height > 0 && fr.maxY > top && fr.minY < bottom, case .title(let t) = document.footer(ofSection: s) {
                try painter.drawFooter(t, in: fr, top: top)
            }
        }
        return canvas.image()
    }
}

extension CellPainter {
    /// A section header: its band, disclosure mark, title and count (of `rowCount` rows).
    func drawHeader(
        _ header: FeedSectionDecoration, rowCount: Int, in r: TableRect, top: Double, isOpen: Bool, metrics m: SectionMetrics
    ) throws(RasterRenderError) {
        let y0 = (r.y - top) * scale, y1 = (r.maxY - top) * scale
        let x0 = r.x * scale, x1 = (r.x + r.width) * scale
        canvas.fillPixels(
            x0: Int(x0.rounded()), y0: Int(y0.rounded()), x1: Int(x1.rounded()), y1: Int(y1.rounded()),
            RGBA(rgb: palette.fill[.sectionHeader] ?? 0xF2F2F2))
        let line = max(1, Int(scale / 2))
        canvas.fillPixels(
            x0: Int(x0.rounded()), y0: Int(y1.rounded()) - line, x1: Int(x1.rounded()), y1: Int(y1.rounded()), RenderColors.separator)
        var title = "", detail: String?, disclosure = false
        switch header {
        case .header(let h): (title, detail, disclosure) = (h.title, h.detail(rowCount: rowCount), h.showsDisclosure)
        case .title(let t): title = t
        case .none, .fixed: return
        }
        let mid = (y0 + y1) / 2
        var x = x0 + m.headerPadding * scale
        if disclosure && m.disclosureSize > 0 {
            let d = m.disclosureSize * scale
            canvas.newPath()
            if isOpen {
                canvas.move(x, mid - d * 0.35)
                canvas.line(x + d, mid - d * 0.35)
                canvas.line(x + d / 2, mid + d * 0.45)
            } else {
                canvas.move(x + d * 0.15, mid - d / 2)
                canvas.line(x + d * 0.95, mid)
                canvas.line(x + d * 0.15, mid + d / 2)
            }
            canvas.close()
            canvas.fill(RGBA(rgb: 0x808080))
            x += d + m.disclosureGap * scale
        }
        var right = x1 - m.headerPadding * scale
        if let detail {
            let size = m.detailFontSize * scale
            let dw = try labelWidth(detail, pixelSize: size)
            right -= dw
            try drawLabel(
                detail, x: right, baseline: Int((mid + size * 0.36).rounded()), pixelSize: size, color: RGBA(rgb: palette.color(.cellTime)))
            right -= m.disclosureGap * scale
        }
        let size = m.titleFontSize * scale
        try drawLabel(
            fitted(title, width: right - x, pixelSize: size), x: x, baseline: Int((mid + size * 0.36).rounded()), pixelSize: size,
            color: RGBA(rgb: palette.color(.cellName)))
    }

    /// A footer's text on one line (cut with "…"), gray, at the footer's padding.
    func drawFooter(_ text: String, in r: TableRect, top: Double) throws(RasterRenderError) {
        let size = FeedTitleMetrics.fontSize * 0.86 * scale
        let x = (r.x + FeedTitleMetrics.horizontalPadding) * scale
        let baseline = (r.y - top + FeedTitleMetrics.verticalPadding) * scale + size
        try drawLabel(
            fitted(text, width: (r.x + r.width - FeedTitleMetrics.horizontalPadding) * scale - x, pixelSize: size), x: x,
            baseline: Int(baseline.rounded()), pixelSize: size, color: RGBA(rgb: palette.color(.cellTime)))
    }

    /// `s`, or its longest prefix of whole characters followed by "…", that fits `width` pixels.
    private func fitted(_ s: String, width: Double, pixelSize: Double) throws(RasterRenderError) -> String {
        if try labelWidth(s, pixelSize: pixelSize) <= width { return s }
        var kept = ""
        for c in s {
            let next = kept + String(c)
            if try labelWidth(next + "…", pixelSize: pixelSize) > width { break }
            kept = next
        }
        return kept + "…"
    }
}
