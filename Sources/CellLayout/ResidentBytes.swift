import FeedLayoutSupport
import TextMeasure

// Approximate memory held by prepared and laid-out cells, for caches with byte budgets: the
// parts of a prepared cell (summed once into `PreparedCell.residentBytes`), and a layout.

extension ClassicParts {
    /// Bytes held by the prepared texts and parts (an estimate: arrays and strings, not
    /// allocator overhead). The other parts' are counted alike.
    var residentBytes: Int {
        256 + name.residentBytes + date.residentBytes + source.residentBytes + (text?.residentBytes ?? 0) + token.residentBytes
    }
}

extension ListParts {
    var residentBytes: Int { 192 + name.residentBytes + (detail?.residentBytes ?? 0) }
}

extension StackedParts {
    var residentBytes: Int {
        var bytes = 512 + name.residentBytes + timeLine.residentBytes + token.residentBytes
        bytes += (title?.residentBytes ?? 0) + (text?.residentBytes ?? 0)
        bytes += (card?.text?.residentBytes ?? 0) + (tag?.label.residentBytes ?? 0)
        // Optional chains rather than `if let r = retweet`, which copied the retweet's parts.
        bytes += (retweet?.text.residentBytes ?? 0) + (retweet?.card?.text?.residentBytes ?? 0)
        bytes += ((retweet?.pictures.count ?? 0) + pictures.count) * 96
        for i in 0..<toolbar.count { bytes += toolbar[i].label.residentBytes }
        return bytes
    }
}

extension CellGeometry {
    /// Bytes held by this layout beyond the prepared texts it shares with its `PreparedCell`
    /// (frames, lines, entity rects): an estimate for cache budgets, from the sizes of the values
    /// and their arrays' storage (not counting the allocator's rounding).
    public var residentBytes: Int {
        // The value itself; the one object of its blocks, toolbar buttons and picture frames (a
        // 16-byte object header and the counts); and the rare blocks it keeps out of line (a
        // 16-byte object header each).
        var bytes = MemoryLayout<CellGeometry>.stride + 16 + MemoryLayout<CellFrameCounts>.stride
        bytes += blocks.count * MemoryLayout<CellBlock>.stride
        if let toolbar { bytes += toolbar.buttons.count * MemoryLayout<ToolbarButton>.stride }
        bytes += ((pictures ?? retweet?.pictures)?.pictures.count ?? 0) * MemoryLayout<PictureFrame>.stride
        if titleBar.isSome { bytes += 16 + MemoryLayout<TitleBarLayout>.stride }
        if let retweet {
            bytes += 16 + MemoryLayout<RetweetLayout>.stride
            if retweet.card.isSome { bytes += 16 + MemoryLayout<CardLayout>.stride }
        }
        if card.isSome { bytes += 16 + MemoryLayout<CardLayout>.stride }
        if tag.isSome { bytes += 16 + MemoryLayout<TagLayout>.stride }
        // A text box's own arrays (the box itself is inside its parent): lines (in the storage
        // the cell's texts share, or a kept layout's, counted per box anyway), entities with
        // their rects, inline objects; and a truncated text's token frame, kept out of line.
        func array<T>(_ count: Int, of _: T.Type) -> Int { count == 0 ? 0 : 32 + count * MemoryLayout<T>.stride }
        func add(_ box: TextBox?) {
            guard let box else { return }
            bytes += array(box.layout.lines.count, of: TextLine.self) + array(box.entities.count, of: EntityHit.self)
                + array(box.attachments.count, of: ImageFrame.self)
            for e in box.entities { bytes += e.hitRects.heapBytes }
            if box.token != nil { bytes += 16 + MemoryLayout<Rect>.stride }
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
        if let toolbar {
            for button in toolbar.buttons { add(button.label) }
        }
        return bytes
    }
}
