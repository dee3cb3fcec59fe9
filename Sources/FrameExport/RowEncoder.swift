import CellLayout
import TextMeasure

// One row of the export: a `CellLayout` written as a JSON object, keys in the fixed order of
// docs/frames.schema.json. Optional parts are left out when the cell has none; arrays (lines,
// entities, attachments) are always present, possibly empty. Every frame is relative to the cell's
// top-left corner; the row's own `y` places the cell in the table.

extension JSONBytes {
    /// Appends the row object (no trailing newline).
    /// - Parameters:
    ///   - yPixels: the row's top in device pixels (the running sum of the heights above it).
    ///   - width: when non-nil, a leading `"width"` key (the JSON Lines row form).
    mutating func row(_ cell: CellLayout, section: Int, row: Int, yPixels: Int64, width: Double?) {
        rowHead(section: section, row: row, width: width)
        rowID(cell)
        pixelNumber(yPixels)
        rowRest(cell)
    }

    /// The start of a row object, up to and including its row index.
    mutating func rowHead(section: Int, row: Int, width: Double?) {
        byte(UInt8(ascii: "{"))
        if let width {
            raw("\"width\":")
            plainNumber(width)
            raw(",\"section\":")
        } else {
            raw("\"section\":")
        }
        int(section)
        raw(",\"row\":")
        int(row)
    }

    /// The row's id and the `y` key; its value follows.
    mutating func rowID(_ cell: CellLayout) {
        raw(",\"id\":")
        int(cell.statusID)
        raw(",\"y\":")
    }

    /// Everything after the row's `y`: its height and frames, and the closing brace.
    mutating func rowRest(_ cell: CellLayout) {
        raw(",\"height\":")
        number(cell.height)
        raw(",\"expandedHeight\":")
        number(cell.expandedHeight)
        raw(",\"truncated\":")
        bool(cell.isTextTruncated)
        raw(",\"blocks\":[")
        for (i, b) in cell.blocks.enumerated() {
            if i > 0 { byte(UInt8(ascii: ",")) }
            raw("{\"kind\":\"")
            blockKind(b.kind)
            raw("\",\"y\":")
            number(b.frame.minY)
            raw(",\"height\":")
            let top = pixels(b.frame.minY)
            pixelNumber(pixels(b.frame.maxY) - top)
            byte(UInt8(ascii: "}"))
        }
        raw("],\"avatar\":")
        rect(cell.avatar)
        if let b = cell.avatarBadge {
            raw(",\"avatarBadge\":")
            image(b)
        }
        raw(",\"name\":")
        textBox(cell.name)
        if let b = cell.memberBadge {
            raw(",\"memberBadge\":")
            image(b)
        }
        raw(",\"time\":")
        textBox(cell.time)
        if let s = cell.source {
            raw(",\"source\":")
            textBox(s)
        }
        if let t = cell.titleBar {
            raw(",\"title\":{\"frame\":")
            rect(t.frame)
            if let icon = t.icon {
                raw(",\"icon\":")
                rect(icon)
            }
            raw(",\"label\":")
            textBox(t.label)
            byte(UInt8(ascii: "}"))
        }
        if let t = cell.text {
            raw(",\"text\":")
            textBox(t)
        }
        if let r = cell.retweet {
            raw(",\"retweet\":{\"frame\":")
            rect(r.frame)
            raw(",\"text\":")
            textBox(r.text)
            if let p = r.pictures {
                raw(",\"pictures\":")
                pictures(p)
            }
            if let c = r.card {
                raw(",\"card\":")
                card(c)
            }
            byte(UInt8(ascii: "}"))
        }
        if let p = cell.pictures {
            raw(",\"pictures\":")
            pictures(p)
        }
        if let c = cell.card {
            raw(",\"card\":")
            card(c)
        }
        if let t = cell.tag {
            raw(",\"tag\":{\"frame\":")
            rect(t.frame)
            raw(",\"place\":")
            bool(t.isPlace)
            if let icon = t.icon {
                raw(",\"icon\":")
                rect(icon)
            }
            raw(",\"label\":")
            textBox(t.label)
            byte(UInt8(ascii: "}"))
        }
        if let bar = cell.toolbar {
            raw(",\"toolbar\":{\"frame\":")
            rect(bar.frame)
            raw(",\"buttons\":[")
            for (i, b) in bar.buttons.enumerated() {
                if i > 0 { byte(UInt8(ascii: ",")) }
                raw("{\"kind\":\"")
                switch b.kind {
                case .repost: raw("repost")
                case .comment: raw("comment")
                case .like: raw("like")
                }
                raw("\",\"frame\":")
                rect(b.frame)
                raw(",\"icon\":")
                rect(b.icon)
                raw(",\"label\":")
                textBox(b.label)
                byte(UInt8(ascii: "}"))
            }
            raw("]}")
        }
        byte(UInt8(ascii: "}"))
    }

    @inline(__always) mutating func rect(_ r: Rect) { rect(r.minX, r.minY, r.width, r.height) }

    mutating func image(_ i: ImageFrame) {
        raw("{\"name\":")
        string(i.name)
        raw(",\"frame\":")
        rect(i.frame)
        byte(UInt8(ascii: "}"))
    }

    /// A text: its frame (cell coordinates), string, truncation state, lines (UTF-16 range, baseline
    /// from the frame's top, width), read-more token, entities and inline objects (cell coordinates).
    mutating func textBox(_ box: TextBox) {
        let l = box.layout
        raw("{\"frame\":")
        rect(box.frame)
        raw(",\"string\":")
        string(box.string)
        raw(",\"truncated\":")
        bool(l.isTruncated)
        raw(",\"fullLineCount\":")
        int(l.fullLineCount)
        raw(",\"fullHeight\":")
        number(l.fullHeight)
        raw(",\"lines\":[")
        for (i, line) in l.lines.enumerated() {
            if i > 0 { byte(UInt8(ascii: ",")) }
            raw("{\"range\":[")
            int(line.range.lowerBound)
            byte(UInt8(ascii: ","))
            int(line.range.upperBound)
            raw("],\"baseline\":")
            number(line.baseline)
            raw(",\"width\":")
            number(line.width)
            byte(UInt8(ascii: "}"))
        }
        byte(UInt8(ascii: "]"))
        if let t = box.token {
            raw(",\"token\":")
            rect(t)
        }
        raw(",\"entities\":[")
        for (i, e) in box.entities.enumerated() {
            if i > 0 { byte(UInt8(ascii: ",")) }
            raw("{\"kind\":\"")
            entityKind(e.kind)
            raw("\",\"value\":")
            string(e.value)
            raw(",\"rects\":[")
            for (j, r) in e.rects.enumerated() {
                if j > 0 { byte(UInt8(ascii: ",")) }
                rect(r)
            }
            raw("]}")
        }
        raw("],\"attachments\":[")
        for (i, a) in box.attachments.enumerated() {
            if i > 0 { byte(UInt8(ascii: ",")) }
            image(a)
        }
        raw("]}")
    }

    mutating func pictures(_ g: PictureGridLayout) {
        raw("{\"frame\":")
        rect(g.frame)
        raw(",\"items\":[")
        for (i, p) in g.pictures.enumerated() {
            if i > 0 { byte(UInt8(ascii: ",")) }
            raw("{\"id\":")
            string(p.pictureID)
            raw(",\"frame\":")
            rect(p.frame)
            if let b = p.badge {
                raw(",\"badge\":")
                image(b)
            }
            byte(UInt8(ascii: "}"))
        }
        raw("]}")
    }

    mutating func card(_ c: CardLayout) {
        raw("{\"frame\":")
        rect(c.frame)
        raw(",\"video\":")
        bool(c.isVideo)
        if let i = c.image {
            raw(",\"image\":")
            rect(i)
        }
        if let b = c.badge {
            raw(",\"badge\":")
            image(b)
        }
        if let t = c.text {
            raw(",\"text\":")
            textBox(t)
        }
        if let b = c.button {
            raw(",\"button\":")
            rect(b)
        }
        byte(UInt8(ascii: "}"))
    }

    mutating func blockKind(_ k: CellBlock.Kind) {
        switch k {
        case .topGap: raw("topGap")
        case .title: raw("title")
        case .profile: raw("profile")
        case .text: raw("text")
        case .retweet: raw("retweet")
        case .pictures: raw("pictures")
        case .card: raw("card")
        case .tag: raw("tag")
        case .padding: raw("padding")
        case .toolbar: raw("toolbar")
        case .bottomGap: raw("bottomGap")
        }
    }

    mutating func entityKind(_ k: EntityKind) {
        switch k {
        case .mention: raw("mention")
        case .topic: raw("topic")
        case .link: raw("link")
        case .emoticon: raw("emoticon")
        case .token: raw("token")
        }
    }
}
