import FeedLayoutSupport
import StatusModel
import TextMeasure

// Arranging prepared parts into frames.
//
// Pixel rounding. Every frame goes through `PixelGrid.round(_: Rect)`, which rounds each edge on
// its own, so two frames that share an edge before rounding share it after. Text sizes are first
// rounded up to the grid (`LayoutOptions.grid`), so a text is never clipped by rounding; block
// heights are sums of grid-aligned values, so block edges never need rounding at all.

/// Places a laid-out text at `frame`, with its entities, inline objects and token in cell coordinates.
/// A text cut without a token (a one-line label) has no token frame. Parts reaching past the frame's
/// sides (a single grapheme cluster wider than the line, which never splits) are clipped to it.
func makeTextBox(_ box: PreparedTextBox, _ layout: consuming TextLayout, frame: Rect, grid: PixelGrid) -> TextBox {
    box.place(layout, frame: frame, grid: grid)
}

extension PreparedTextBox {
    /// `makeTextBox`, as a method so that the stored prepared text is read in place (a copy of
    /// `prepared` retains every array it holds).
    /// The layout is consumed: it moves into the text box (no copy, no retain of its lines).
    fileprivate func place(_ layout: consuming TextLayout, frame: Rect, grid: PixelGrid) -> TextBox {
        func place(_ r: Rect) -> Rect {
            let moved = grid.round(r.offsetBy(dx: frame.minX, dy: frame.minY))
            let x0 = min(max(moved.minX, frame.minX), frame.maxX)
            let x1 = max(min(moved.maxX, frame.maxX), x0)
            return Rect(x: x0, y: moved.minY, width: x1 - x0, height: moved.height)
        }
        var hits: [EntityHit] = []
        var objects: [ImageFrame] = []
        if prepared.entityCount + prepared.attachmentCount > 0 {
            let entities = prepared.entities
            let attachments = prepared.attachments
            // A box arranged again at the same frame shares what it placed before.
            if let kept = keptPlacement(layout, frame: frame, grid: grid) {
                (hits, objects) = kept
            } else {
                // Rects are placed as the layout finds them: no intermediate arrays.
                if !entities.isEmpty {
                    hits.reserveCapacity(entities.count)
                    var current = -1
                    layout.forEachEntityRect(of: prepared) { e, rect in
                        if e == current {
                            hits[hits.count - 1].hitRects.append(place(rect))
                        } else {
                            current = e
                            // Read once: each subscript copies the entity (a retain of its value).
                            let entity = entities[e]
                            hits.append(EntityHit(kind: entity.kind, value: entity.value, hitRects: HitRects(place(rect))))
                        }
                    }
                }
                if !attachments.isEmpty {
                    objects.reserveCapacity(attachments.count)
                    layout.forEachAttachmentRect(of: prepared) { objects.append(ImageFrame(name: $0.name, frame: place($1))) }
                }
                keepPlacement(layout, frame: frame, grid: grid, entities: hits, attachments: objects)
            }
        }
        var token: Rect?
        if let t = layout.token, t.width > 0 {
            let line = layout.lines[t.line]
            token = place(Rect(x: t.x, y: line.top, width: t.width, height: line.ascent + line.descent))
        }
        return TextBox(frame: frame, layout: layout, preparedBox: self, entities: hits, attachments: objects, tokenStorage: token)
    }
}

/// A one-line label of at most `maxWidth`, its left edge at `x`, vertically centred on `centerY`.
/// `lineHeight` sets the box: natural (the fonts' extent) or a grid whose ascent + descent is the box.
func label(
    _ prepared: PreparedTextBox, x: Double, centerY: Double, maxWidth: Double, wrap: WrapMode = .word,
    lineHeight: LineHeightPolicy = .natural, grid: PixelGrid, lines: inout LineArena
) -> TextBox {
    let l = prepared.layout(
        LayoutOptions(width: max(0, maxWidth), maxLines: 1, lineHeight: lineHeight, wrap: wrap, grid: grid), into: &lines)
    let frame = grid.round(Rect(
        x: x, y: centerY - l.size.height / 2, width: min(l.size.width, grid.ceil(max(0, maxWidth))), height: l.size.height))
    return makeTextBox(prepared, l, frame: frame, grid: grid)
}

// MARK: - classic (docs/cell-spec.md, section 1)

struct ClassicArranger {
    let shared: Shared<ClassicParts>
    var parts: ClassicParts { _read { yield shared.value } }
    let width: Double
    let grid: PixelGrid
    let maxLines: Int

    func arrange(statusID: Int64, styleName: String) -> CellGeometry {
        let m = parts.metrics
        let s = m.spacing
        let right = max(0, width - s)  // labels are clipped at the right padding so frames stay inside
        let avatar = grid.round(Rect(x: s, y: s, width: m.avatarSize, height: m.avatarSize))

        let nameX = avatar.maxX + s
        // A member badge follows the name: the name is clipped so that the badge stays inside too.
        let badgeRoom = parts.memberBadge == nil ? 0 : s + m.memberBadgeSize
        let nameW = min(grid.ceil(parts.nameSize.width), max(0, right - nameX - badgeRoom))
        // Name, date, source and text.
        var lines = LineArena(capacity: 3 + (parts.text.map { $0.prepared.estimatedLineCount(width: max(0, width - 2 * s)) } ?? 0))
        let name = fixedLabel(parts.name, Rect(x: nameX, y: s, width: nameW, height: grid.ceil(parts.nameSize.height)), &lines)

        var badge: ImageFrame?
        if let b = parts.memberBadge {
            badge = ImageFrame(name: b, frame: grid.round(Rect(x: name.frame.maxX + s, y: s, width: m.memberBadgeSize, height: m.memberBadgeSize)))
        }

        let dateH = grid.ceil(parts.dateSize.height)
        let dateW = min(grid.ceil(parts.dateSize.width), max(0, right - nameX))
        let date = fixedLabel(parts.date, Rect(x: nameX, y: avatar.maxY - dateH, width: dateW, height: dateH), &lines)
        let sourceX = date.frame.maxX + s
        let sourceW = min(grid.ceil(parts.sourceSize.width), max(0, right - sourceX))
        let source = fixedLabel(
            parts.source, Rect(x: sourceX, y: date.frame.minY, width: sourceW, height: grid.ceil(parts.sourceSize.height)), &lines)

        let textTop = avatar.maxY + s
        var text: TextBox?
        var textBottom = textTop
        var truncated = false
        var extra = 0.0
        if let p = parts.text {
            let l = p.layout(
                LayoutOptions(width: max(0, width - 2 * s), maxLines: maxLines, grid: grid),
                truncationToken: maxLines > 0 ? parts.token : nil, into: &lines)
            let frame = grid.round(Rect(
                x: s, y: textTop, width: min(l.size.width, grid.ceil(max(0, width - 2 * s))), height: l.size.height))
            textBottom = frame.maxY
            truncated = l.isTruncated
            extra = l.fullHeight - l.size.height
            text = makeTextBox(p, l, frame: frame, grid: grid)
        }
        let height = textBottom + s
        var frames = CellFrameArena(blocks: 2, buttons: 0, pictures: 0)
        frames.append(CellBlock(kind: .profile, frame: Rect(x: 0, y: 0, width: width, height: textTop)))
        frames.append(CellBlock(kind: .text, frame: Rect(x: 0, y: textTop, width: width, height: height - textTop)))
        return CellGeometry(
            statusID: statusID, styleName: styleName, width: width, scale: grid.scale, height: height,
            expandedHeight: height + extra, isTextTruncated: truncated, blocks: frames.blocks, avatar: avatar,
            avatarBadge: nil, name: name, memberBadge: badge, time: date, source: source, titleBarStorage: nil, text: text,
            retweetStorage: nil, pictures: nil, cardStorage: nil, tagStorage: nil, toolbar: nil)
    }

    /// A label whose frame comes from the single-line size (the tutorial's `sizeWithAttributes`).
    private func fixedLabel(_ p: PreparedTextBox, _ rect: Rect, _ lines: inout LineArena) -> TextBox {
        let frame = grid.round(rect)
        let l = p.layout(LayoutOptions(width: frame.width, maxLines: 1, wrap: .character, grid: grid), into: &lines)
        return makeTextBox(p, l, frame: frame, grid: grid)
    }
}

// MARK: - list (docs/cell-spec.md, section 3)

/// The friend-list row: a fixed height (`ListMetrics.rowHeight`) whatever the texts, the avatar
/// centred vertically at the left, the name and the one-line signature right of it, both cut with
/// an ellipsis at the right padding; the pair is centred vertically (the name alone when there is
/// no signature).
struct ListArranger {
    let parts: ListParts
    let width: Double
    let grid: PixelGrid

    func arrange(statusID: Int64, styleName: String) -> CellGeometry {
        let m = parts.metrics
        let height = grid.ceil(m.rowHeight)
        let avatar = grid.round(Rect(x: m.padding, y: (height - m.avatarSize) / 2, width: m.avatarSize, height: m.avatarSize))
        let x = avatar.maxX + m.textGap
        let room = max(0, width - m.trailingPadding - x)
        var lines = LineArena(capacity: 2)  // the name's and the detail's
        let nameLayout = parts.name.layout(
            LayoutOptions(width: room, maxLines: 1, wrap: .character, grid: grid), truncationToken: parts.nameEllipsis, into: &lines)
        var detailLayout: TextLayout?
        if let d = parts.detail {
            detailLayout = d.layout(
                LayoutOptions(width: room, maxLines: 1, wrap: .character, grid: grid), truncationToken: parts.detailEllipsis,
                into: &lines)
        }
        let nameH = nameLayout.size.height
        let detailH = detailLayout?.size.height ?? 0
        let total = nameH + (detailLayout.isNone ? 0 : m.lineGap + detailH)
        let top = (height - total) / 2
        let nameFrame = grid.round(Rect(x: x, y: top, width: min(nameLayout.size.width, grid.ceil(room)), height: nameH))
        let name = makeTextBox(parts.name, nameLayout, frame: nameFrame, grid: grid)
        var text: TextBox?
        var truncated = false
        if let p = parts.detail, let l = detailLayout.take() {
            truncated = l.isTruncated
            let frame = grid.round(Rect(x: x, y: nameFrame.maxY + m.lineGap, width: min(l.size.width, grid.ceil(room)), height: detailH))
            text = makeTextBox(p, l, frame: frame, grid: grid)
        }
        let emptyLayout = parts.empty.layout(LayoutOptions(width: 0, maxLines: 1, grid: grid), into: &lines)
        let time = makeTextBox(parts.empty, emptyLayout, frame: Rect(x: x, y: nameFrame.maxY, width: 0, height: 0), grid: grid)
        var frames = CellFrameArena(blocks: 1, buttons: 0, pictures: 0)
        frames.append(CellBlock(kind: .profile, frame: Rect(x: 0, y: 0, width: width, height: height)))
        return CellGeometry(
            statusID: statusID, styleName: styleName, width: width, scale: grid.scale, height: height,
            expandedHeight: height, isTextTruncated: truncated, blocks: frames.blocks, avatar: avatar,
            avatarBadge: nil, name: name, memberBadge: nil, time: time, source: nil, titleBarStorage: nil, text: text,
            retweetStorage: nil, pictures: nil, cardStorage: nil, tagStorage: nil, toolbar: nil)
    }
}

// MARK: - stacked (docs/cell-spec.md, section 2)

struct StackedArranger {
    let shared: Shared<StackedParts>
    var parts: StackedParts { _read { yield shared.value } }
    let width: Double
    let grid: PixelGrid
    let maxLines: Int

    /// The metrics, borrowed in place (a plain getter copies the whole struct on every `m.` access).
    var m: StackedMetrics { _read { yield shared.value.metrics } }
    /// Content width `W − 2·padding` (never negative).
    var contentWidth: Double { max(0, width - 2 * m.padding) }

    /// Inlined into `PreparedCell.layout`: as a call, its result was returned into a temporary
    /// and then copied field by field into the caller's (1.1 % of a warm pass's instructions).
    @inline(__always) func arrange(statusID: Int64, styleName: String) -> CellGeometry {
        var lines = LineArena(capacity: parts.lineEstimate.count(width: contentWidth))
        // The cell's blocks, buttons and pictures, counted: the four blocks every cell has (top
        // gap, profile, toolbar, bottom gap), the title, text and content shown, and the tag or
        // the gap below own pictures or card.
        let shown = parts.retweet.map { $0.pictures.count } ?? parts.pictures.count
        let content = parts.retweet.isSome || !parts.pictures.isEmpty || parts.card.isSome
        let blockCount =
            4 + (parts.title.isSome ? 1 : 0) + (parts.text.isSome ? 1 : 0) + (content ? 1 : 0)
            + (parts.tag.isSome || (parts.retweet.isNone && content) ? 1 : 0)
        var frames = CellFrameArena(blocks: blockCount, buttons: parts.toolbar.count, pictures: shown)
        var y = 0.0
        func push(_ kind: CellBlock.Kind, _ h: Double) -> Rect {
            let r = Rect(x: 0, y: y, width: width, height: h)
            frames.append(CellBlock(kind: kind, frame: r))
            y += h
            return r
        }

        _ = push(.topGap, m.topGap)

        var titleBar: TitleBarLayout?
        if let t = parts.title {
            let band = push(.title, m.titleHeight)
            var x = m.padding
            var icon: Rect?
            if parts.titleIcon {
                icon = grid.round(Rect(x: x, y: band.midY - m.titleIconSize / 2, width: m.titleIconSize, height: m.titleIconSize))
                x = icon!.maxX + m.toolbarIconGap
            }
            titleBar = TitleBarLayout(
                frame: band, icon: icon,
                label: label(
                    t, x: x, centerY: band.midY, maxWidth: width - m.padding - x, lineHeight: box(m.titleFontSize), grid: grid,
                    lines: &lines))
        }

        // Profile.
        let profile = push(.profile, m.profileHeight)
        let avatar = grid.round(Rect(x: m.padding, y: profile.minY + m.avatarTop, width: m.avatarSize, height: m.avatarSize))
        let avatarBadge = parts.avatarBadge.map {
            ImageFrame(name: $0, frame: grid.round(Rect(
                x: avatar.maxX - m.avatarBadgeSize, y: avatar.maxY - m.avatarBadgeSize,
                width: m.avatarBadgeSize, height: m.avatarBadgeSize)))
        }
        let nameX = m.padding + m.avatarSize + m.nameGap
        let nameWidth = max(0, width - m.nameWidthInset)
        let name = label(
            parts.name, x: nameX, centerY: profile.minY + m.nameCenterY, maxWidth: nameWidth, wrap: .character,
            lineHeight: box(m.nameFontSize), grid: grid, lines: &lines)
        let time = label(
            parts.timeLine, x: nameX, centerY: profile.minY + m.sourceCenterY, maxWidth: nameWidth,
            lineHeight: box(m.sourceFontSize), grid: grid, lines: &lines)

        // Main text.
        var text: TextBox?
        var truncated = false
        var extra = 0.0
        if let p = parts.text {
            let (box, h) = textBlock(
                p, top: y, size: m.textFontSize, maxLines: maxLines, token: maxLines > 0 ? parts.token : nil, lines: &lines)
            text = box
            truncated = box.layout.isTruncated
            extra = box.layout.fullHeight - box.layout.size.height
            _ = push(.text, h)
        }

        // Retweet, or pictures, or card.
        var retweet: RetweetLayout?
        var pictures: PictureGridLayout?
        var card: CardLayout?
        if let rt = parts.retweet {
            let top = y
            let (box, textH) = textBlock(
                rt.text, top: top, size: m.retweetTextFontSize, maxLines: 0, token: nil, lines: &lines)
            var h = textH
            var rtPictures: PictureGridLayout?
            var rtCard: CardLayout?
            if !rt.pictures.isEmpty {
                let g = pictureGrid(rt.pictures, top: top + h, into: &frames)
                rtPictures = g
                h += g.frame.height + m.gapWithoutTag
            } else if let c = rt.card {
                let cl = cardLayout(c, top: top + h, lines: &lines)
                rtCard = cl
                h += cl.frame.height + m.gapWithoutTag
            }
            let band = push(.retweet, h)
            retweet = RetweetLayout(frame: band, text: box, pictures: rtPictures, cardStorage: rtCard)
        } else if !parts.pictures.isEmpty {
            let g = pictureGrid(parts.pictures, top: y, into: &frames)
            pictures = g
            _ = push(.pictures, g.frame.height)
        } else if let c = parts.card {
            let cl = cardLayout(c, top: y, lines: &lines)
            card = cl
            _ = push(.card, cl.frame.height)
        }

        // Tag, or the gap below own pictures or card.
        var tag: TagLayout?
        if let t = parts.tag {
            let band = push(.tag, t.isPlace ? m.placeTagHeight : m.tagHeight)
            var x = m.padding
            var icon: Rect?
            if t.isPlace {
                icon = grid.round(Rect(x: x, y: band.midY - m.tagIconSize / 2, width: m.tagIconSize, height: m.tagIconSize))
                x = icon!.maxX + m.tagIconGap
            }
            tag = TagLayout(
                frame: band, isPlace: t.isPlace, icon: icon,
                label: label(
                    t.label, x: x, centerY: band.midY, maxWidth: width - m.padding - x, lineHeight: box(m.tagFontSize), grid: grid,
                    lines: &lines))
        } else if pictures.isSome || card.isSome {
            _ = push(.padding, m.gapWithoutTag)
        }

        // Toolbar: three equal buttons over the full width; edges rounded once, so they tile.
        let bar = push(.toolbar, m.toolbarHeight)
        let n = Double(parts.toolbar.count)
        for i in 0..<parts.toolbar.count {
            let b = parts.toolbar[i]
            let x0 = grid.round(width * Double(i) / n), x1 = grid.round(width * Double(i + 1) / n)
            let frame = Rect(x: x0, y: bar.minY, width: x1 - x0, height: bar.height)
            let labelW = min(grid.ceil(b.label.prepared.naturalWidth), max(0, frame.width - m.toolbarIconSize - m.toolbarIconGap))
            let contentW = m.toolbarIconSize + m.toolbarIconGap + labelW
            let icon = grid.round(Rect(
                x: frame.minX + (frame.width - contentW) / 2, y: bar.midY - m.toolbarIconSize / 2,
                width: m.toolbarIconSize, height: m.toolbarIconSize))
            let l = label(
                b.label, x: icon.maxX + m.toolbarIconGap, centerY: bar.midY, maxWidth: labelW,
                lineHeight: box(m.toolbarFontSize), grid: grid, lines: &lines)
            frames.append(ToolbarButton(kind: b.kind, frame: frame, icon: icon, label: l))
        }
        let toolbar = ToolbarLayout(frame: bar, buttons: frames.buttons)

        _ = push(.bottomGap, m.bottomGap)

        return CellGeometry(
            statusID: statusID, styleName: styleName, width: width, scale: grid.scale, height: y,
            expandedHeight: y + extra, isTextTruncated: truncated, blocks: frames.blocks, avatar: avatar,
            avatarBadge: avatarBadge, name: name, memberBadge: nil, time: time, source: nil, titleBarStorage: titleBar,
            text: text, retweetStorage: retweet, pictures: pictures, cardStorage: card, tagStorage: tag, toolbar: toolbar)
    }

    /// The box of a one-line label at `size`: the em box split like the text grid (ascent
    /// `ascentFraction·size`, descent the rest), so a label's height never depends on its fonts
    /// (emoji, fallback faces, tall CJK line gaps) and stacked labels never overlap.
    private func box(_ size: Double) -> LineHeightPolicy {
        .grid(pitch: size, ascent: m.ascentFraction * size, descent: (1 - m.ascentFraction) * size)
    }

    /// A text block: `textPadding` above and below lines on the baseline grid of `size` (0 tall
    /// without lines).
    /// - Returns: the text and the block's height.
    private func textBlock(
        _ p: PreparedTextBox, top: Double, size: Double, maxLines: Int, token: PreparedTextBox?, lines: inout LineArena
    ) -> (TextBox, Double) {
        let l = p.layout(
            LayoutOptions(width: contentWidth, maxLines: maxLines, lineHeight: m.lineGrid(size: size), grid: grid),
            truncationToken: token, into: &lines)
        let frame = grid.round(Rect(x: m.padding, y: top + m.textPadding, width: contentWidth, height: l.size.height))
        // A text without lines (an empty retweet text) takes no space, paddings included.
        let height = l.lines.isEmpty ? 0 : 2 * m.textPadding + l.size.height
        return (makeTextBox(p, l, frame: frame, grid: grid), height)
    }

    private func pictureGrid(_ pictures: [Picture], top: Double, into frames: inout CellFrameArena) -> PictureGridLayout {
        let len = PictureGrid.itemLength(contentWidth: contentWidth, gap: m.pictureGap, grid: grid)
        var bounds = Rect(x: m.padding, y: top, width: 0, height: 0)
        let all = pictures[...]
        // The pictures are read in place: iterating the array copies each one, retaining its
        // id and URL (about 1 000 instructions of a warm cell with pictures).
        pictures.withUnsafeBufferPointer { ps in
            for i in ps.indices {
                let f = PictureGrid.frame(i, of: all, len: len, contentWidth: contentWidth, gap: m.pictureGap, grid: grid)
                    .offsetBy(dx: m.padding, dy: top)
                var badge: ImageFrame?
                let w = ps[i].width, h = ps[i].height
                let kind = ps[i].isGIF ? "gif" : (w > 0 && Double(h) > m.longPictureRatio * Double(w) ? "long" : nil)
                if let kind, f.width >= m.pictureBadgeWidth, f.height >= m.pictureBadgeHeight {
                    badge = ImageFrame(name: kind, frame: grid.round(Rect(
                        x: f.maxX - m.pictureBadgeWidth, y: f.maxY - m.pictureBadgeHeight,
                        width: m.pictureBadgeWidth, height: m.pictureBadgeHeight)))
                }
                frames.append(PictureFrame(pictureID: ps[i].id, frame: f, badge: badge))
                bounds = Rect(
                    x: bounds.minX, y: top, width: max(bounds.width, f.maxX - bounds.minX), height: max(bounds.height, f.maxY - top))
            }
        }
        return PictureGridLayout(frame: bounds, pictures: frames.pictures)
    }

    private func cardLayout(_ c: CardParts, top: Double, lines: inout LineArena) -> CardLayout {
        let x = m.padding
        let cW = contentWidth
        if c.isVideo {
            let frame = grid.round(Rect(x: x, y: top, width: cW, height: max(0, (2 * cW - m.pictureGap) / 3)))
            let s = min(m.videoPlayBadgeSize, frame.width, frame.height)
            let badge = ImageFrame(name: "video-play", frame: grid.round(Rect(
                x: frame.minX + (frame.width - s) / 2, y: frame.minY + (frame.height - s) / 2, width: s, height: s)))
            return CardLayout(frame: frame, isVideo: true, image: frame, badge: badge, text: nil, button: nil)
        }
        let frame = grid.round(Rect(x: x, y: top, width: cW, height: m.cardHeight))
        let hasBadge = c.hasTypeIcon
        let image = grid.round(Rect(
            x: frame.minX, y: frame.minY, width: min(cW, hasBadge ? m.cardBadgedImageWidth : m.cardImageWidth), height: frame.height))
        var badge: ImageFrame?
        if hasBadge {
            let s = min(m.cardBadgeSize, image.width, image.height)
            badge = ImageFrame(name: "card-type", frame: grid.round(Rect(x: image.minX, y: image.minY, width: s, height: s)))
        }
        var button: Rect?
        var right = frame.maxX - m.cardTextInset
        if c.hasButton && frame.maxX - m.cardTextInset - m.cardButtonWidth > image.maxX + m.cardTextInset {
            let b = grid.round(Rect(
                x: frame.maxX - m.cardTextInset - m.cardButtonWidth, y: frame.midY - m.cardButtonHeight / 2,
                width: m.cardButtonWidth, height: m.cardButtonHeight))
            button = b
            right = b.minX - m.cardTextInset
        }
        var text: TextBox?
        if let p = c.text {
            let tx = image.maxX + m.cardTextInset
            let tw = max(0, right - tx)
            let pitch = m.cardLinePitch
            let l = p.layout(
                LayoutOptions(
                    width: tw, maxLines: m.cardMaxLines,
                    lineHeight: .grid(pitch: pitch, ascent: 0.8 * pitch, descent: 0.2 * pitch), grid: grid),
                truncationToken: c.token, into: &lines)
            let f = grid.round(Rect(x: tx, y: frame.midY - l.size.height / 2, width: tw, height: l.size.height))
            text = makeTextBox(p, l, frame: f, grid: grid)
        }
        return CardLayout(frame: frame, isVideo: false, image: image, badge: badge, text: text, button: button)
    }
}
