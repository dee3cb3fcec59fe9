import CellLayout
import TextMeasure

// One row of the export: a `CellGeometry` written as a JSON object, keys in the fixed order of
// docs/frames.schema.json. Optional parts are left out when the cell has none; arrays (lines,
// entities, attachments) are always present, possibly empty. Every frame is relative to the cell's
// top-left corner; the row's own `y` places the cell in the table.

extension JSONBytes {
    /// Appends the row object (no trailing newline).
    /// - Parameters:
    ///   - yPixels: the row's top in device pixels (the running sum of the heights above it).
    ///   - width: when non-nil, a leading `"width"` key (the JSON Lines row form).
    mutating func row(_ cell: CellGeometry, section: Int, row: Int, yPixels: Int64, width: Double?) {
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
    mutating func rowID(_ cell: CellGeometry) {
        raw(",\"id\":")
        int(cell.statusID)
        raw(",\"y\":")
    }

    /// Everything after the row's `y`: its height and frames, and the closing brace.
    mutating func rowRest(_ cell: CellGeometry) {
        reserve(literal: 64, numbers: 2)
        put(",\"height\":")
        putNumber(cell.height)
        put(",\"expandedHeight\":")
        putNumber(cell.expandedHeight)
        put(",\"truncated\":")
        putBool(cell.isTextTruncated)
        put(",\"blocks\":[")
        let blocks = cell.blocks
        reserve(literal: 48 * blocks.count, numbers: 2 * blocks.count)
        for (i, b) in blocks.enumerated() {
            if i > 0 { put(byte: UInt8(ascii: ",")) }
            put("{\"kind\":\"")
            blockKind(b.kind)
            put("\",\"y\":")
            let top = pixels(b.frame.minY)
            putPixels(top)
            put(",\"height\":")
            putPixels(pixels(b.frame.maxY) &- top)
            put(byte: UInt8(ascii: "}"))
        }
        reserve(literal: 16, rects: 1)
        put("],\"avatar\":")
        putRect(cell.avatar)
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
            reserve(literal: 32, rects: 2)
            put(",\"title\":{\"frame\":")
            putRect(t.frame)
            if let icon = t.icon {
                put(",\"icon\":")
                putRect(icon)
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
            reserve(literal: 32, rects: 1)
            put(",\"retweet\":{\"frame\":")
            putRect(r.frame)
            put(",\"text\":")
            textBox(r.text)
            media(r.pictures, r.card)
            byte(UInt8(ascii: "}"))
        }
        media(cell.pictures, cell.card)
        if let t = cell.tag {
            reserve(literal: 64, rects: 2)
            put(",\"tag\":{\"frame\":")
            putRect(t.frame)
            put(",\"place\":")
            putBool(t.isPlace)
            if let icon = t.icon {
                put(",\"icon\":")
                putRect(icon)
            }
            put(",\"label\":")
            textBox(t.label)
            byte(UInt8(ascii: "}"))
        }
        if let bar = cell.toolbar {
            reserve(literal: 48, rects: 1)
            put(",\"toolbar\":{\"frame\":")
            putRect(bar.frame)
            put(",\"buttons\":[")
            // Read in place: the list's subscript copies a whole button for each field read (a
            // retain and a release of its label's references: about 4 400 instructions a row).
            bar.buttons.withUnsafeElements { buttons in
                for i in buttons.indices {
                    reserve(literal: 64, rects: 2)
                    if i > 0 { put(byte: UInt8(ascii: ",")) }
                    put("{\"kind\":\"")
                    switch buttons[i].kind {
                    case .repost: put("repost")
                    case .comment: put("comment")
                    case .like: put("like")
                    }
                    put("\",\"frame\":")
                    putRect(buttons[i].frame)
                    put(",\"icon\":")
                    putRect(buttons[i].icon)
                    put(",\"label\":")
                    textBox(buttons[i].label)
                    byte(UInt8(ascii: "}"))
                }
            }
            raw("]}")
        }
        byte(UInt8(ascii: "}"))
    }

    /// Makes room for a group of unchecked writes: `literal` bytes of keys and punctuation, and
    /// the numbers, rects and integers the group writes.
    @inline(__always) mutating func reserve(literal: Int, numbers: Int = 0, rects: Int = 0, ints: Int = 0) {
        reserve(literal + numbers * PixelNumberForm.bound + rects * Self.rectBound + ints * Self.intBound)
    }

    /// The `pictures` and `card` keys of a status or of its retweet, when it has them.
    mutating func media(_ pictures: PictureGridLayout?, _ card: CardLayout?) {
        if let p = pictures {
            raw(",\"pictures\":")
            self.pictures(p)
        }
        if let c = card {
            raw(",\"card\":")
            self.card(c)
        }
    }

    mutating func image(_ i: ImageFrame) {
        raw("{\"name\":")
        string(i.name)
        reserve(literal: 16, rects: 1)
        put(",\"frame\":")
        putRect(i.frame)
        put(byte: UInt8(ascii: "}"))
    }

    /// A text: its frame (cell coordinates), string, truncation state, lines (UTF-16 range, baseline
    /// from the frame's top, width), read-more token, entities and inline objects (cell coordinates).
    mutating func textBox(_ box: TextBox) {
        let l = box.layout
        reserve(literal: 24, rects: 1)
        put("{\"frame\":")
        putRect(box.frame)
        put(",\"string\":")
        box.prepared.withUTF16 { string(utf16: $0) }
        let lines = l.lines
        reserve(literal: 80 + 40 * lines.count, numbers: 1 + 2 * lines.count, ints: 1 + 2 * lines.count)
        put(",\"truncated\":")
        putBool(l.isTruncated)
        put(",\"fullLineCount\":")
        putInt(Int64(l.fullLineCount))
        put(",\"fullHeight\":")
        putNumber(l.fullHeight)
        put(",\"lines\":[")
        for (i, line) in lines.enumerated() {
            if i > 0 { put(byte: UInt8(ascii: ",")) }
            put("{\"range\":[")
            putInt(Int64(line.range.lowerBound))
            put(byte: UInt8(ascii: ","))
            putInt(Int64(line.range.upperBound))
            put("],\"baseline\":")
            putNumber(line.baseline)
            put(",\"width\":")
            putNumber(line.width)
            put(byte: UInt8(ascii: "}"))
        }
        put(byte: UInt8(ascii: "]"))
        if let t = box.token {
            raw(",\"token\":")
            rect(t)
        }
        raw(",\"entities\":[")
        let entities = box.entities
        for i in entities.indices {
            reserve(literal: 40)
            if i > 0 { put(byte: UInt8(ascii: ",")) }
            put("{\"kind\":\"")
            entityKind(entities[i].kind)
            put("\",\"value\":")
            string(entities[i].value)
            let rects = entities[i].hitRects
            let count = rects.endIndex
            reserve(literal: 16 + count, rects: count)
            put(",\"rects\":[")
            for j in 0..<count {
                if j > 0 { put(byte: UInt8(ascii: ",")) }
                putRect(rects[j])
            }
            put("]}")
        }
        raw("],\"attachments\":[")
        let attachments = box.attachments
        for i in attachments.indices {
            if i > 0 { byte(UInt8(ascii: ",")) }
            image(attachments[i])
        }
        raw("]}")
    }

    mutating func pictures(_ g: PictureGridLayout) {
        reserve(literal: 24, rects: 1)
        put("{\"frame\":")
        putRect(g.frame)
        put(",\"items\":[")
        // By index: iterating copies each picture frame (its fields are few and plain enough
        // that the subscript's copy per field read costs nothing measurable).
        let pictures = g.pictures
        for i in pictures.indices {
            reserve(literal: 16)
            if i > 0 { put(byte: UInt8(ascii: ",")) }
            put("{\"id\":")
            string(pictures[i].pictureID)
            reserve(literal: 16, rects: 1)
            put(",\"frame\":")
            putRect(pictures[i].frame)
            if let b = pictures[i].badge {
                raw(",\"badge\":")
                image(b)
            }
            byte(UInt8(ascii: "}"))
        }
        raw("]}")
    }

    mutating func card(_ c: CardLayout) {
        reserve(literal: 48, rects: 2)
        put("{\"frame\":")
        putRect(c.frame)
        put(",\"video\":")
        putBool(c.isVideo)
        if let i = c.image {
            put(",\"image\":")
            putRect(i)
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
            reserve(literal: 16, rects: 1)
            put(",\"button\":")
            putRect(b)
        }
        byte(UInt8(ascii: "}"))
    }

    /// The block kind's name (at most 9 bytes; room made by the caller).
    mutating func blockKind(_ k: CellBlock.Kind) {
        switch k {
        case .topGap: put("topGap")
        case .title: put("title")
        case .profile: put("profile")
        case .text: put("text")
        case .retweet: put("retweet")
        case .pictures: put("pictures")
        case .card: put("card")
        case .tag: put("tag")
        case .padding: put("padding")
        case .toolbar: put("toolbar")
        case .bottomGap: put("bottomGap")
        }
    }

    /// The entity kind's name (at most 8 bytes; room made by the caller).
    mutating func entityKind(_ k: EntityKind) {
        switch k {
        case .mention: put("mention")
        case .topic: put("topic")
        case .link: put("link")
        case .emoticon: put("emoticon")
        case .token: put("token")
        }
    }
}
