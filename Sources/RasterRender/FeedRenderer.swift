import CellLayout
import TableLayout
import TextMeasure

// Drawing computed layouts into an RGBA canvas.
//
// Nothing is measured here: every frame comes from the `CellLayout`, every line's baseline and
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
public struct RenderOptions: Sendable, Hashable {
    /// Outline every part's frame (blocks, texts, images, buttons, entities, inline objects).
    public var debugFrames: Bool

    public init(debugFrames: Bool = false) { self.debugFrames = debugFrames }
}

/// The colours the renderer uses for what the style's palette does not cover.
public enum RenderColors {
    /// Fill of picture, avatar and card-image placeholders.
    public static let placeholder = RGBA(rgb: 0xD5DCE6)
    /// Border, cross and size label of placeholders.
    public static let placeholderInk = RGBA(rgb: 0x7D8799)
    /// Badges over avatars and pictures, and name icons.
    public static let badge = RGBA(rgb: 0xFF8200, opacity: 0.85)
    /// Inline emoticon images.
    public static let emoticon = RGBA(rgb: 0xFFC82C)
    /// Hairlines (toolbar top, title bar bottom).
    public static let separator = RGBA(rgb: 0xE5E5E5)
    /// `--debug-frames` outlines, by part: blocks, texts, images, toolbar buttons, entities.
    public static let debugBlock = RGBA(rgb: 0x00A0FF, opacity: 0.6)
    public static let debugText = RGBA(rgb: 0xFF0000, opacity: 0.8)
    public static let debugImage = RGBA(rgb: 0x00B050, opacity: 0.9)
    public static let debugButton = RGBA(rgb: 0xC000C0, opacity: 0.8)
    public static let debugEntity = RGBA(rgb: 0xFF9900, opacity: 0.8)
}

/// Renders laid-out cells to an RGBA image.
///
/// Each render opens its own FreeType library and faces (from the `FontSet`'s files) and closes
/// them when it returns. Thread-safety: a value; concurrent renders MAY run, each uses its own
/// FreeType state.
public struct FeedRenderer: Sendable {
    public let fonts: FontSet
    public var options: RenderOptions

    /// A renderer drawing with the faces of `fonts` (the fonts the layouts were measured with).
    public init(fonts: FontSet, options: RenderOptions = RenderOptions()) {
        self.fonts = fonts
        self.options = options
    }

    /// Largest image side accepted, in pixels.
    public static let maxSide = 1 << 16
    /// Largest image accepted, in pixels (256 MiB of RGBA).
    public static let maxPixels = 1 << 26

    /// Renders rows `rows` of `feed`, stacked at the feed's row positions, into an image
    /// `width × scale` pixels wide and as tall as the rows (× scale).
    /// - Parameter cell: the layout of a row (`feed.cells` when it retained them); texts MUST carry
    ///   glyphs (prepared by a measurer made with `retainGlyphs: true`), else only frames are drawn.
    /// - Throws: `.rowsOutOfRange` for rows outside the feed or an empty range, `.invalidImageSize`
    ///   beyond `maxSide`, `.freeType` when a font cannot be opened or a glyph rendered.
    /// - Complexity: O(pixels + glyphs) of the rows drawn.
    public func render(
        feed: FeedLayout, rows: Range<Int>, cell: (Int) -> CellLayout
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
    public func render(
        _ cells: [(layout: CellLayout, y: Double)], width: Double, height: Double, scale: Double, style: CellStyle
    ) throws(RasterRenderError) -> RasterImage {
        let w = Int((width * scale).rounded()), h = Int((height * scale).rounded())
        guard w > 0, h > 0, w <= Self.maxSide, h <= Self.maxSide, w * h <= Self.maxPixels else {
            throw .invalidImageSize(
                width: w, height: h,
                reason: "each side must be 1...\(Self.maxSide) px and the image at most \(Self.maxPixels) px; draw fewer rows (--rows A:B)")
        }
        let rasterizer = try GlyphRasterizer(fonts: fonts)
        var painter = CellPainter(
            image: RasterImage(width: w, height: h, fill: RGBA(rgb: style.palette.fill[.cellBackground] ?? 0xFFFFFF)),
            rasterizer: rasterizer, scale: scale, palette: style.palette, readMoreToken: style.readMoreToken,
            debugFrames: options.debugFrames)
        for (layout, y) in cells {
            try painter.draw(layout, originY: y)
        }
        return painter.image
    }
}

/// Draws cells into one image (one render, one thread).
struct CellPainter {
    var image: RasterImage
    let rasterizer: GlyphRasterizer
    let scale: Double
    let palette: Palette
    let readMoreToken: String
    let debugFrames: Bool
    /// The current cell's origin in points.
    private var oy = 0.0

    init(image: RasterImage, rasterizer: GlyphRasterizer, scale: Double, palette: Palette, readMoreToken: String, debugFrames: Bool) {
        self.image = image
        self.rasterizer = rasterizer
        self.scale = scale
        self.palette = palette
        self.readMoreToken = readMoreToken
        self.debugFrames = debugFrames
    }

    // MARK: geometry

    private func px(_ v: Double) -> Int { Int((v * scale).rounded()) }
    /// A cell rect in image pixels: (x0, y0, x1, y1).
    private func box(_ r: Rect) -> (Int, Int, Int, Int) { (px(r.minX), px(oy + r.minY), px(r.maxX), px(oy + r.maxY)) }

    private mutating func fill(_ r: Rect, _ c: RGBA) {
        let (x0, y0, x1, y1) = box(r)
        image.fill(x0: x0, y0: y0, x1: x1, y1: y1, c)
    }

    private mutating func outline(_ r: Rect, _ c: RGBA) {
        let (x0, y0, x1, y1) = box(r)
        image.stroke(x0: x0, y0: y0, x1: x1, y1: y1, thickness: 1, c)
    }

    private mutating func hairline(y: Double, from x0: Double, to x1: Double, _ c: RGBA) {
        let yy = px(oy + y)
        image.fill(x0: px(x0), y0: yy, x1: px(x1), y1: yy + max(1, Int(scale / 2)), c)
    }

    private func color(_ rgb: UInt32) -> RGBA { RGBA(rgb: rgb) }

    // MARK: cells

    mutating func draw(_ cell: CellLayout, originY: Double) throws(RasterRenderError) {
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
            if let icon = bar.icon { try placeholder(icon, label: false) }
            try text(bar.label)
        }

        try placeholder(cell.avatar, label: true)
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
            if let icon = tag.icon { try placeholder(icon, label: false) }
            try text(tag.label)
        }
        if let bar = cell.toolbar {
            hairline(y: bar.frame.minY, from: bar.frame.minX, to: bar.frame.maxX, RenderColors.separator)
            for b in bar.buttons {
                let ink = color(palette.color(b.label.text.prepared.text.baseAttributes.role))
                outline(b.icon, ink)
                let inner = b.icon.insetBy(b.icon.width / 4)
                fill(inner, ink.scaled(coverage: 96))
                try text(b.label)
            }
        }
        if debugFrames { drawDebugFrames(cell) }
    }

    private mutating func pictures(_ grid: PictureGridLayout) throws(RasterRenderError) {
        for p in grid.pictures {
            try placeholder(p.frame, label: true)
            if let b = p.badge { try badge(b) }
        }
    }

    private mutating func card(_ card: CardLayout, background: RGBA) throws(RasterRenderError) {
        fill(card.frame, background)
        // A video card's play badge sits in the middle of the image: its size goes to the top.
        if let image = card.image { try placeholder(image, label: true, labelAtTop: card.badge?.name == "video-play") }
        if let b = card.badge { try badge(b) }
        if let t = card.text { try text(t) }
        if let button = card.button { outline(button, color(palette.color(.cellLink))) }
    }

    /// A placeholder: filled rectangle, border, and its size in points written in it when the
    /// label fits (else a cross).
    private mutating func placeholder(_ r: Rect, label: Bool, labelAtTop: Bool = false) throws(RasterRenderError) {
        guard !r.isEmpty else { return }
        fill(r, RenderColors.placeholder)
        let (x0, y0, x1, y1) = box(r)
        image.stroke(x0: x0, y0: y0, x1: x1, y1: y1, thickness: 1, RenderColors.placeholderInk)
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
        image.line(x0: x0, y0: y0, x1: x1 - 1, y1: y1 - 1, RenderColors.placeholderInk)
        image.line(x0: x0, y0: y1 - 1, x1: x1 - 1, y1: y0, RenderColors.placeholderInk)
    }

    private mutating func badge(_ b: ImageFrame) throws(RasterRenderError) {
        if b.name == "video-play" {
            fill(b.frame, RGBA(rgb: 0x000000, opacity: 0.45))
            let (x0, y0, x1, y1) = box(b.frame)
            let dx = (x1 - x0) / 3, dy = (y1 - y0) / 4
            image.fillPlayTriangle(x0: x0 + dx + dx / 4, y0: y0 + dy, x1: x1 - dx + dx / 4, y1: y1 - dy, RGBA(rgb: 0xFFFFFF))
            return
        }
        fill(b.frame, RenderColors.badge)
        let pixelSize = b.frame.height * 0.6 * scale
        let text = b.name.uppercased()
        if pixelSize >= 8, text.count <= 4, let w = try? labelWidth(text, pixelSize: pixelSize), w <= b.frame.width * scale - 2 {
            let (x0, y0, x1, y1) = box(b.frame)
            try drawLabel(
                text, x: Double(x0 + x1) / 2 - w / 2, baseline: Int((Double(y0 + y1) / 2 + pixelSize * 0.35).rounded()),
                pixelSize: pixelSize, color: RGBA(rgb: 0xFFFFFF))
        }
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String((v * 10).rounded() / 10)
    }

    // MARK: text

    /// Draws a laid-out text: every line at its baseline, every cluster at its computed x, every
    /// glyph at its shaped offset, in its run's colour; inline objects and the read-more token.
    private mutating func text(_ box: TextBox) throws(RasterRenderError) {
        let p = box.text.prepared
        let emoticons = box.entities.filter { $0.kind == .emoticon }.flatMap(\.rects)
        for a in box.attachments {
            if a.name == "link-icon" {
                fill(a.frame.insetBy(a.frame.width / 6), color(palette.color(.cellLink)).scaled(coverage: 200))
            } else if emoticons.contains(where: { $0.overlaps(a.frame) }) {
                fill(a.frame.insetBy(a.frame.width / 12), RenderColors.emoticon)
            } else {
                fill(a.frame.insetBy(a.frame.width / 12), RenderColors.badge)
            }
        }
        if let t = box.token, let lineIndex = box.layout.token?.line {
            let size = p.text.baseAttributes.size * scale
            let baseline = px(oy + box.frame.minY + box.layout.lines[lineIndex].baseline)
            try drawLabel(readMoreToken, x: t.minX * scale, baseline: baseline, pixelSize: size, color: color(palette.color(.cellLink)))
        }
        guard let glyphs = p.glyphs, !glyphs.glyphID.isEmpty else { return }
        let firstGlyph = Self.glyphIndex(glyphs, clusterCount: p.clusterCount)
        let runs = p.text.runs
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
                    let gx = pen + Double(glyphs.xOffset[g]) * scale
                    let gy = baseline - Int((Double(glyphs.yOffset[g]) * scale).rounded())
                    try drawGlyph(glyphs.glyphID[g], slot: font.slot, pixelSize: font.size * scale, x: gx, baseline: gy, color: ink)
                    pen += Double(glyphs.xAdvance[g]) * scale
                }
            }
        }
    }

    /// `result[c]..<result[c + 1]` are the glyphs of cluster `c` (a counting sort by cluster that
    /// keeps the shaped order inside each cluster).
    static func glyphIndex(_ g: GlyphStorage, clusterCount: Int) -> [Int] {
        var start = [Int](repeating: 0, count: clusterCount + 1)
        for c in g.cluster where Int(c) < clusterCount { start[Int(c) + 1] += 1 }
        for i in 0..<clusterCount { start[i + 1] += start[i] }
        return start
    }

    private mutating func drawGlyph(
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
        image.draw(bitmap, x: left, y: baseline - bitmap.top, color: color)
    }

    // MARK: the renderer's own labels

    private func labelWidth(_ s: String, pixelSize: Double) throws(RasterRenderError) -> Double {
        var w = 0.0
        for u in s.unicodeScalars {
            let g = try rasterizer.nominalGlyph(slot: .primary, scalar: u.value)
            w += try rasterizer.advance(slot: .primary, glyph: g, pixelSize: pixelSize)
        }
        return w
    }

    private mutating func drawLabel(_ s: String, x: Double, baseline: Int, pixelSize: Double, color: RGBA) throws(RasterRenderError) {
        var pen = x
        for u in s.unicodeScalars {
            let g = try rasterizer.nominalGlyph(slot: .primary, scalar: u.value)
            try drawGlyph(g, slot: .primary, pixelSize: pixelSize, x: pen, baseline: baseline, color: color)
            pen += try rasterizer.advance(slot: .primary, glyph: g, pixelSize: pixelSize)
        }
    }

    // MARK: debug frames

    private mutating func drawDebugFrames(_ cell: CellLayout) {
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
        for b in cell.toolbar?.buttons ?? [] {
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
