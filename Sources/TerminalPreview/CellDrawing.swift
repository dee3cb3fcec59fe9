import CellLayout
import TextMeasure
import UnicodeText

// Drawing one laid-out cell onto the canvas.
//
// Everything drawn comes from the `CellGeometry`: frames are mapped with `PreviewScale`, texts are
// written cluster by cluster in the order and on the lines `TextLayout.lines` holds (one terminal
// line per laid-out line, consecutive from the line of the first one's middle), each cluster
// taking its East Asian Width columns. Nothing is measured again; clusters are never re-broken.
// A line with more columns than its frame gives runs on into the padding and is cut at the
// cell's frame.

/// Colours and weights of the preview, by role (256-colour palette indices).
package enum PreviewColors {
    static let name = TerminalStyle(bold: true)
    static let vipName = TerminalStyle(foreground: 208, bold: true)
    static let link = TerminalStyle(foreground: 32)
    static let gray = TerminalStyle(foreground: 244)
    static let liked = TerminalStyle(foreground: 160)
    static let frame = TerminalStyle(foreground: 245)
    static let image = TerminalStyle(foreground: 250)
    static let label = TerminalStyle(foreground: 242)
    static let badge = TerminalStyle(foreground: 166, bold: true)
    static let retweetBackground: UInt8 = 254
    static let retweetForeground: UInt8 = 238

    static func style(_ role: TextRole) -> TerminalStyle {
        switch role {
        case .cellName, .cellCardTitle: return name
        case .cellVIPName: return vipName
        case .cellLink, .cellTag: return link
        case .cellTime, .cellSource, .cellToolbar, .cellCardDesc, .cellTitle: return gray
        case .cellToolbarLiked: return liked
        default: return .plain
        }
    }
}

/// Draws cells onto a canvas at a scale.
struct CellDrawer {
    let scale: PreviewScale
    let readMoreToken: String
    /// Per terminal line of the cell being drawn: the columns of the last text written on it.
    private var flow: [Int: (Int, Int)] = [:]

    init(scale: PreviewScale, readMoreToken: String) {
        self.scale = scale
        self.readMoreToken = readMoreToken
    }

    /// Draws `cell` (row `row` of the feed) with its separator on canvas line `top`, taking
    /// `scale.lineCount(ofHeight: cell.height)` lines and the canvas's full width.
    mutating func draw(_ cell: CellGeometry, row: Int, top: Int, into canvas: inout Canvas) {
        flow = [:]
        let n = scale.lineCount(ofHeight: cell.height)
        let w = canvas.width
        canvas.clipped(x: 0..<w, y: top..<(top + n)) { c in
            c.rule(y: top, x: 0..<w, left: "├", fill: "─", right: "┤", style: PreviewColors.frame)
            c.text(" #\(row) ", x: 2, y: top, style: PreviewColors.label, maxX: w - 1)
            for line in ((top + 1)..<max(top + 1, top + n)).clamped(to: c.clipY) {
                c.put("│", columns: 1, x: 0, y: line, style: PreviewColors.frame)
                c.put("│", columns: 1, x: w - 1, y: line, style: PreviewColors.frame)
            }
        }
        canvas.clipped(x: 1..<(w - 1), y: (top + 1)..<(top + n)) { c in
            drawContent(cell, top: top, into: &c)
        }
    }

    private mutating func drawContent(_ cell: CellGeometry, top: Int, into c: inout Canvas) {
        if let t = cell.titleBar {
            if let icon = t.icon { glyph("◆", at: icon, top: top, style: PreviewColors.gray, into: &c) }
            text(t.label, top: top, into: &c)
        }
        image(cell.avatar, top: top, into: &c)
        if let b = cell.avatarBadge { badge(b, on: cell.avatar, top: top, into: &c) }
        text(cell.name, top: top, into: &c)
        if let b = cell.memberBadge { badge(b, top: top, into: &c) }
        text(cell.time, top: top, into: &c)
        if let s = cell.source { text(s, top: top, into: &c) }
        if let t = cell.text { text(t, top: top, into: &c) }
        if let r = cell.retweet {
            if let p = r.pictures { pictures(p, top: top, into: &c) }
            if let k = r.card { card(k, top: top, into: &c) }
            text(r.text, top: top, into: &c)
        }
        if let p = cell.pictures { pictures(p, top: top, into: &c) }
        if let k = cell.card { card(k, top: top, into: &c) }
        if let t = cell.tag {
            if let icon = t.icon { glyph(t.isPlace ? "⌖" : "#", at: icon, top: top, style: PreviewColors.link, into: &c) }
            text(t.label, top: top, into: &c)
        }
        if let bar = cell.toolbar {
            for b in bar.buttons {
                let icon: String
                switch b.kind {
                case .repost: icon = "⇄"
                case .comment: icon = "✎"
                case .like: icon = "♡"
                }
                let y = text(b.label, top: top, into: &c) ?? lines(b.icon, top).lowerBound
                c.text(icon, x: scale.columns(from: b.icon.minX, to: b.icon.maxX).lowerBound, y: y, style: PreviewColors.gray)
            }
        }
        // The retweet background last: it keeps characters and colours, and sets the background
        // (and a dark foreground where none was set) of the whole retweet block.
        if let r = cell.retweet {
            c.shade(
                x: scale.columns(from: r.frame.minX, to: r.frame.maxX), y: lines(r.frame, top),
                background: PreviewColors.retweetBackground, foreground: PreviewColors.retweetForeground)
        }
    }

    private func lines(_ r: Rect, _ top: Int) -> Range<Int> {
        let l = scale.lines(from: r.minY, to: r.maxY)
        return (l.lowerBound + top)..<(l.upperBound + top)
    }

    /// A shaded block labelled with its size in points ("40×40"), or its width when that is all
    /// that fits.
    /// A block too narrow for "W×H" on one line (a long picture) takes "W" over "×H" when it is
    /// two lines tall or more, so the label never reads as a cut-off number; only a block too
    /// small for that too shows its width alone.
    private func image(_ r: Rect, top: Int, lines: Range<Int>? = nil, columns: Range<Int>? = nil, into c: inout Canvas) {
        let xs = columns ?? scale.blockColumns(from: r.minX, to: r.maxX)
        let ys = (lines ?? scale.blockLines(from: r.minY, to: r.maxY)).shifted(by: top)
        c.fill(x: xs, y: ys, character: "░", style: PreviewColors.image)
        let (w, h) = (Int(r.width.rounded()), Int(r.height.rounded()))
        for label in [["\(w)×\(h)"], ["\(w)", "×\(h)"], ["\(w)"]]
        where label.allSatisfy({ $0.count <= xs.count }) && label.count <= ys.count {
            let y0 = ys.lowerBound + (ys.count - label.count) / 2
            for (i, text) in label.enumerated() {
                let x = xs.lowerBound + (xs.count - text.count) / 2
                c.text(text, x: x, y: y0 + i, style: PreviewColors.label, maxX: xs.upperBound)
            }
            break
        }
    }

    private func glyph(_ g: String, at r: Rect, top: Int, style: TerminalStyle, into c: inout Canvas) {
        let x = scale.columns(from: r.minX, to: r.maxX).lowerBound
        let y = lines(r, top).lowerBound
        c.text(g, x: x, y: y, style: style)
    }

    /// Badges by name: verification ✓, club ♣, member ♛, GIF / 长图 on pictures, ▶ on videos.
    private func badge(
        _ b: ImageFrame, on image: Rect? = nil, onLines: Range<Int>? = nil, onColumns: Range<Int>? = nil, top: Int, into c: inout Canvas
    ) {
        let label: String
        switch b.name {
        case "gif": label = "GIF"
        case "long": label = "长图"
        case "video-play": label = "▶"
        case "card-type": label = "◆"
        case "avatar-verified": label = "✓"
        case "avatar-club": label = "♣"
        default: label = "♛"
        }
        let xs = scale.blockColumns(from: b.frame.minX, to: b.frame.maxX)
        let cols = TerminalText.columns(label)
        // Right-aligned in the badge's frame (badges sit at bottom-right corners).
        // Within the picture's own columns when a grid took its last one for the gap.
        let x = max(xs.lowerBound, min(xs.upperBound, onColumns?.upperBound ?? xs.upperBound) - cols)
        // On the last line of the image it marks (badges overlap their image's bottom edge).
        let f = image ?? b.frame
        let ys = onLines ?? scale.blockLines(from: f.minY, to: f.maxY)
        c.text(label, x: x, y: ys.upperBound - 1 + top, style: PreviewColors.badge)
    }

    /// A grid's pictures keep a gap line between rows and a gap column between columns: a
    /// picture that touches the one below (or to its right) once both are rounded to cells loses
    /// its last line (or column). The 4 pt gaps of a grid are narrower than a column, so without
    /// this two columns of pictures ran together.
    private func pictures(_ grid: PictureGridLayout, top: Int, into c: inout Canvas) {
        let lineStarts = Set(grid.pictures.map { scale.blockLines(from: $0.frame.minY, to: $0.frame.maxY).lowerBound })
        let columnStarts = Set(grid.pictures.map { scale.blockColumns(from: $0.frame.minX, to: $0.frame.maxX).lowerBound })
        var pictureLines: [Range<Int>] = []
        var pictureColumns: [Range<Int>] = []
        for p in grid.pictures {
            var ys = scale.blockLines(from: p.frame.minY, to: p.frame.maxY)
            if ys.count > 1, lineStarts.contains(ys.upperBound) { ys = ys.lowerBound..<(ys.upperBound - 1) }
            var xs = scale.blockColumns(from: p.frame.minX, to: p.frame.maxX)
            if xs.count > 1, columnStarts.contains(xs.upperBound) { xs = xs.lowerBound..<(xs.upperBound - 1) }
            pictureLines.append(ys)
            pictureColumns.append(xs)
            image(p.frame, top: top, lines: ys, columns: xs, into: &c)
        }
        for (i, p) in grid.pictures.enumerated() {
            if let b = p.badge { badge(b, onLines: pictureLines[i], onColumns: pictureColumns[i], top: top, into: &c) }
        }
    }

    private mutating func card(_ k: CardLayout, top: Int, into c: inout Canvas) {
        // A card is about three lines tall: its frame is drawn as its left and right edges only,
        // so that its text lines keep all their lines.
        let xs = scale.columns(from: k.frame.minX, to: k.frame.maxX)
        for y in lines(k.frame, top) {
            c.put("▕", columns: 1, x: xs.upperBound - 1, y: y, style: PreviewColors.frame)
        }
        if let i = k.image { image(i, top: top, into: &c) }
        if let b = k.badge { badge(b, on: k.image, top: top, into: &c) }
        if let t = k.text { text(t, top: top, into: &c) }
        if let b = k.button {
            let xs = scale.columns(from: b.minX, to: b.maxX)
            c.rule(y: lines(b, top).lowerBound, x: xs, left: "[", fill: " ", right: "]", style: PreviewColors.gray)
        }
    }

    /// Writes a laid-out text: line i of the layout on terminal line `first + i`, its clusters in
    /// order from the frame's left column.
    /// - Returns: the terminal line of the text's first line (nil for an empty text).
    @discardableResult
    private mutating func text(_ box: TextBox, top: Int, into c: inout Canvas) -> Int? {
        let layout = box.layout
        guard let firstLine = layout.lines.first else { return nil }
        let prepared = box.prepared
        let x0 = scale.column(ofX: box.frame.minX)
        let first = top + scale.line(ofY: box.frame.minY + (firstLine.top + firstLine.bottom) / 2)
        // Only the lines inside the clip are visited, and only their UTF-16 units decoded: the
        // preview draws a long text a screen at a time, so the work per screen is that screen's.
        let visibleLow = max(0, c.clipY.lowerBound - first)
        let visibleHigh = min(layout.lines.count, c.clipY.upperBound - first)
        guard visibleLow < visibleHigh else { return first }
        let visible = visibleLow..<visibleHigh
        let span = layout.lines[visible.lowerBound].range.lowerBound..<layout.lines[visible.upperBound - 1].range.upperBound
        let count = prepared.utf16Count
        let unitBase = min(span.lowerBound, count)
        let units = prepared.withUTF16 { Array($0[unitBase..<max(unitBase, min(span.upperBound, count))]) }
        // Entities as sorted, merged ranges (binary search per cluster) and attachments by offset:
        // a check against every entity per cluster made 262 000 mentions take 143 s to draw.
        let links = Self.mergedRanges(prepared.entities.map(\.range))
        var attachmentNames: [Int: String] = [:]
        for a in prepared.attachments where attachmentNames[a.offset] == nil { attachmentNames[a.offset] = a.name }
        // (The line's own start: the empty line after a trailing hard break holds no cluster.)
        let runs = prepared.runs
        var run = Self.runIndex(containing: span.lowerBound, count: runs.count) { runs[$0].range }
        for i in visible {
            let line = layout.lines[i]
            let y = first + i
            // Texts side by side (time and source, toolbar labels) keep their order: one that
            // would start inside the text before it on the same line moves right past it.
            var x = x0
            if let (start, end) = flow[y], x0 >= start, x0 <= end { x = end + 1 }
            let lineStart = x
            defer { flow[y] = (lineStart, x) }
            for k in line.clusters {
                let r = prepared.utf16Range(ofCluster: k)
                while run + 1 < runs.count && runs[run].range.upperBound <= r.lowerBound { run += 1 }
                var style = PreviewColors.style(runs[run].attributes.role)
                if Self.contains(links, r.lowerBound) { style = PreviewColors.link }
                if prepared.isAttachment(k) {
                    let cols = max(1, Int((prepared.advance(ofCluster: k) / scale.pointsPerColumn).rounded()))
                    let name = attachmentNames[r.lowerBound] ?? ""
                    let mark = name.hasPrefix("verified") ? "✓" : name.hasPrefix("member") ? "♛" : "▒"
                    for col in 0..<cols {
                        let m = mark == "▒" || col == 0 ? mark : " "
                        c.put(m, columns: 1, x: x, y: y, style: mark == "▒" ? PreviewColors.image : PreviewColors.badge)
                        x += 1
                    }
                    continue
                }
                let local = (r.lowerBound - unitBase)..<(r.upperBound - unitBase)
                let piece = String(decoding: units[local.clamped(to: 0..<units.count)], as: UTF16.self)
                if k == line.clusters.upperBound - 1, piece.unicodeScalars.allSatisfy({ Self.isLineBreak($0.value) }) {
                    continue  // the hard break that ended the line
                }
                // Marks the engine split from their base (a mark on a space) join the character
                // before them on the same line; at the start of a line a space carries them.
                let carry = x > lineStart
                for ch in TerminalText.sanitized(piece, carryingOrphanMarks: !carry) {
                    let cols = UnicodeProperties.terminalColumns(ofCluster: ch.unicodeScalars.lazy.map(\.value))
                    if cols == 0 {
                        if carry { c.combine(String(ch), x: x - 1, y: y) }
                        continue
                    }
                    c.put(String(ch), columns: cols, x: x, y: y, style: style)
                    x += cols
                }
            }
            if box.token != nil, let token = layout.token, token.line == i {
                x = c.text(readMoreToken, x: x, y: y, style: PreviewColors.link)
            }
        }
        return first
    }

    /// `ranges` sorted by start, overlapping or touching ones merged.
    static func mergedRanges(_ ranges: [Range<Int>]) -> [Range<Int>] {
        let sorted = ranges.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        var out: [Range<Int>] = []
        for r in sorted {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }

    /// Whether one of the sorted, disjoint `ranges` holds `v`. O(log n).
    static func contains(_ ranges: [Range<Int>], _ v: Int) -> Bool {
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].upperBound <= v { lo = mid + 1 } else { hi = mid }
        }
        return lo < ranges.count && ranges[lo].contains(v)
    }

    /// The index of the last run starting at or before `v` (runs are sorted and contiguous).
    static func runIndex(containing v: Int, count: Int, range: (Int) -> Range<Int>) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if range(mid).upperBound <= v { lo = mid + 1 } else { hi = mid }
        }
        return min(lo, max(0, count - 1))
    }

    /// The characters lines end at by force (VT, FF and NEL do not: they are drawn).
    static func isLineBreak(_ v: UInt32) -> Bool {
        v == 0x0A || v == 0x0D || v == 0x2028 || v == 0x2029
    }
}
