import FeedLayoutSupport
import StatusModel
import TextMeasure

/// Row heights without frames: what a table needs for every row, computed from the prepared texts
/// with the arrangers' own arithmetic but without building a `CellGeometry` (no labels, entity
/// rects, picture frames or allocation of parts). A width change of a million-row feed re-computes
/// heights this way; frames are built only for the rows on screen.
extension PreparedCell {
    /// The row height and the height with the read-more text expanded, at `width` on the pixel grid
    /// of `scale`.
    ///
    /// MUST equal `layout(width:scale:maxTextLines:)`'s `height` and `expandedHeight`
    /// (`HeightTests` checks it on every fixture and corpus status at many widths and scales).
    /// - Complexity: O(clusters of the variable texts), no shaping.
    public func heights(width: Double, scale: Double, maxTextLines: Int? = nil) -> (height: Double, expandedHeight: Double) {
        precondition(width.isFinite && width >= 0, "cell width must be finite and non-negative")
        let grid = PixelGrid(scale: scale)
        let limit = max(0, maxTextLines ?? 0)
        switch content {
        case .classic:
            let l = layout(width: width, scale: scale, maxTextLines: maxTextLines)
            return (l.height, l.expandedHeight)
        case .list(let parts):
            // A fixed height: the texts are cut, never wrapped.
            let h = grid.ceil(parts.value.metrics.rowHeight)
            return (h, h)
        case .stacked(let parts):
            return StackedArranger(shared: parts, width: width, grid: grid, maxLines: limit).heights()
        }
    }
}

extension StackedArranger {
    /// `arrange()`'s block heights, added one by one in the same order (so the floating-point sums
    /// are bit-identical).
    func heights() -> (height: Double, expandedHeight: Double) {
        var y = 0.0
        y += m.topGap
        if parts.title.isSome { y += m.titleHeight }
        y += m.profileHeight
        var extra = 0.0
        if let p = parts.text {
            // On the line grid the token changes no height: the line count is all that matters.
            let l = p.lineMetrics(
                LayoutOptions(width: contentWidth, maxLines: maxLines, lineHeight: m.lineGrid(size: m.textFontSize), grid: grid))
            extra = l.fullHeight - l.height
            y += l.lineCount == 0 ? 0 : 2 * m.textPadding + l.height
        }
        var shownOwnMedia = false
        if let rt = parts.retweet {
            let top = y
            let l = rt.text.lineMetrics(
                LayoutOptions(width: contentWidth, lineHeight: m.lineGrid(size: m.retweetTextFontSize), grid: grid))
            var h = l.lineCount == 0 ? 0 : 2 * m.textPadding + l.height
            if !rt.pictures.isEmpty {
                h += gridHeight(rt.pictures, top: top + h) + m.gapWithoutTag
            } else if let c = rt.card {
                h += cardHeight(c, top: top + h) + m.gapWithoutTag
            }
            y += h
        } else if !parts.pictures.isEmpty {
            y += gridHeight(parts.pictures, top: y)
            shownOwnMedia = true
        } else if let c = parts.card {
            y += cardHeight(c, top: y)
            shownOwnMedia = true
        }
        if let t = parts.tag {
            y += t.isPlace ? m.placeTagHeight : m.tagHeight
        } else if shownOwnMedia {
            y += m.gapWithoutTag
        }
        y += m.toolbarHeight
        y += m.bottomGap
        return (y, y + extra)
    }

    /// Height of a picture grid placed at `top`: its lowest frame edge, measured from `top`.
    private func gridHeight(_ pictures: [Picture], top: Double) -> Double {
        let len = PictureGrid.itemLength(contentWidth: contentWidth, gap: m.pictureGap, grid: grid)
        var height = 0.0
        for i in pictures.indices {
            let frame = PictureGrid.frame(i, of: pictures[...], len: len, contentWidth: contentWidth, gap: m.pictureGap, grid: grid)
            height = max(height, frame.offsetBy(dx: m.padding, dy: top).maxY - top)
        }
        return height
    }

    /// Height of a card placed at `top` (its frame is rounded edge by edge).
    private func cardHeight(_ c: CardParts, top: Double) -> Double {
        let h = c.isVideo ? max(0, (2 * contentWidth - m.pictureGap) / 3) : m.cardHeight
        return grid.round(Rect(x: m.padding, y: top, width: contentWidth, height: h)).height
    }
}

// Prefetching for walks over many cold prepared cells (`FeedEngine`'s heights-only pass): on a
// feed larger than the caches a row's parts, text boxes and clusters are all cold, and reading
// them through references costs one dependent miss after another (each retain on the way is a
// locked instruction, which also stops the processor from overlapping them). The addresses are
// taken once, when the cell is prepared, and kept as plain integers beside the content, so the
// pass can ask for a row's memory a few rows ahead without touching a reference. No effect on
// any result.

/// The memory `PreparedCell.heights` reads, as addresses: the parts object, the main and retweet
/// texts' objects (their fields) and the starts of their clusters (0 where absent). The objects are immutable
/// and owned by the cell's content, so the addresses stay valid as long as the cell.
struct HeightsMemory: Sendable {
    var parts: UInt = 0
    var textBox: UInt = 0
    var textClusters: UInt = 0
    var retweetBox: UInt = 0
    var retweetClusters: UInt = 0

    init(_ content: PreparedCell.Content) {
        guard case .stacked(let shared) = content else { return }
        parts = UInt(bitPattern: Unmanaged.passUnretained(shared).toOpaque())
        // Read through optional chains, in place: `if let` copied the text box and the whole
        // retweet parts (a retain and a release of each of their references).
        textBox = shared.value.text?.prepared.objectAddress ?? 0
        textClusters = shared.value.text?.clustersAddress ?? 0
        retweetBox = shared.value.retweet?.text.prepared.objectAddress ?? 0
        retweetClusters = shared.value.retweet?.text.clustersAddress ?? 0
    }
}

extension PreparedCell {
    /// Asks the processor to start loading what `heights` reads (no effect on results).
    package func prefetchForHeights() {
        let m = heightsMemory
        prefetchLines(m.parts, 4)
        prefetchLines(m.textBox, 3)
        prefetchLines(m.textClusters, 4)
        prefetchLines(m.retweetBox, 3)
        prefetchLines(m.retweetClusters, 4)
    }
}
