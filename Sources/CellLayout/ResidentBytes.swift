import TextMeasure

/// Approximate memory held by prepared and laid-out cells, for caches with byte budgets.
extension PreparedCell {
    /// Bytes held by the prepared texts and parts of this cell (an estimate: arrays and strings,
    /// not allocator overhead).
    public var residentBytes: Int {
        switch content {
        case .classic(let p):
            let v = p.value
            return 256 + v.name.residentBytes + v.date.residentBytes + v.source.residentBytes
                + (v.text?.residentBytes ?? 0) + v.token.residentBytes
        case .stacked(let p):
            let v = p.value
            var bytes = 512 + v.name.residentBytes + v.timeLine.residentBytes + v.token.residentBytes
            bytes += (v.title?.residentBytes ?? 0) + (v.text?.residentBytes ?? 0)
            bytes += (v.card?.text?.residentBytes ?? 0) + (v.tag?.label.residentBytes ?? 0)
            if let r = v.retweet { bytes += r.text.residentBytes + (r.card?.text?.residentBytes ?? 0) + r.pictures.count * 96 }
            bytes += v.pictures.count * 96
            for t in v.toolbar { bytes += t.label.residentBytes }
            return bytes
        }
    }
}

extension CellLayout {
    /// Bytes held by this layout beyond the prepared texts it shares with its `PreparedCell`
    /// (frames, lines, entity rects): an estimate for cache budgets.
    public var residentBytes: Int {
        // The value itself, its blocks and toolbar buttons (array storage has a 32-byte header),
        // and the rare blocks it keeps out of line (a 16-byte object header each).
        var bytes = MemoryLayout<CellLayout>.stride + 32 + blocks.count * MemoryLayout<CellBlock>.stride
        if let toolbar { bytes += 32 + toolbar.buttons.count * MemoryLayout<ToolbarButton>.stride }
        if titleBar != nil { bytes += 16 + MemoryLayout<TitleBarLayout>.stride }
        if let retweet {
            bytes += 16 + MemoryLayout<RetweetLayout>.stride
            if retweet.card != nil { bytes += 16 + MemoryLayout<CardLayout>.stride }
        }
        if card != nil { bytes += 16 + MemoryLayout<CardLayout>.stride }
        if tag != nil { bytes += 16 + MemoryLayout<TagLayout>.stride }
        func add(_ box: TextBox?) {
            guard let box else { return }
            bytes += 128 + box.layout.lines.count * 64 + box.entities.reduce(0) { $0 + 64 + $1.rects.count * 32 }
                + box.attachments.count * 64
        }
        add(name)
        add(time)
        add(source)
        add(text)
        add(titleBar?.label)
        add(retweet?.text)
        add(retweet?.card?.text)
        add(card?.text)
        add(tag?.label)
        bytes += ((pictures?.pictures.count ?? 0) + (retweet?.pictures?.pictures.count ?? 0)) * 96
        return bytes
    }
}
