import FeedLayoutSupport
import Foundation
import StatusModel
import TextMeasure

/// Lays out status cells: prepares a status's texts once, then arranges them at any width.
///
/// `prepare` builds the attributed texts (entities, emoticons, counts, relative time) and measures
/// them through the `TextMeasuring` protocol; `PreparedCell.layout(width:scale:maxTextLines:)` is
/// arithmetic over the prepared values (no shaping), so a table can cache prepared cells and lay
/// them out again when the width changes.
///
/// The engine never reads the wall clock: relative times are computed against `now` (absolute
/// dates when `now` is nil), in a fixed UTC offset. Thread-safety: immutable; `prepare` and
/// `layout` MAY run concurrently.
public struct CellLayoutEngine: Sendable {
    public let measurer: any TextMeasuring
    /// Known emoticon codes ("[微笑]") and their image names.
    public let emoticons: EmoticonTable
    /// The reference time of relative dates.
    public let now: Date?
    /// UTC offset of displayed times, in seconds (Beijing time by default, as in the API's dates).
    public let utcOffset: Int
    /// Prepared toolbar labels and read-more tokens, shared by copies of this engine.
    let labels: LabelCache
    /// Prepared cells by content: key = (status id, `Status.contentFingerprint`, style name), so
    /// preparing a status again (another width, another table, a reload that changed nothing)
    /// costs a hash of the status and a lookup. Bounded by bytes with LRU eviction, thread-safe,
    /// counted; shared by copies of this engine. A budget of 0 turns it off.
    package let preparedCells: BoundedCache<PreparedKey, PreparedCell>

    /// Counters of the prepared-cell cache.
    public var preparedCellStatistics: CacheStatistics { preparedCells.statistics }

    /// Empties the prepared-cell cache (its counters are kept).
    public func removeCachedPreparedCells() { preparedCells.removeAll() }

    /// Default bound of the prepared-cell cache: 256 MiB, about 39 000 corpus cells (6.8 KB each,
    /// counted with room for the layouts a cell keeps once it is arranged a second time).
    public static let defaultPreparedCellBudgetBytes = 256 << 20

    /// - Parameters:
    ///   - measurer: measures the texts (a `TextMeasurer`, or a fake in tests).
    ///   - emoticons: the emoticons that become inline images (`EmoticonTable.builtIn` by default).
    ///   - now: the reference time of relative dates; nil shows absolute dates.
    ///   - utcOffset: the offset of displayed times from UTC, in seconds (Beijing time by default).
    ///   - preparedCellBudgetBytes: bound of the prepared-cell cache (0: every `prepare` prepares).
    public init(
        measurer: some TextMeasuring, emoticons: EmoticonTable = .builtIn, now: Date? = nil, utcOffset: Int = 8 * 3600,
        preparedCellBudgetBytes: Int = defaultPreparedCellBudgetBytes
    ) {
        self.init(
            measurer: measurer, emoticons: emoticons, now: now, utcOffset: utcOffset, labels: LabelCache(),
            preparedCells: Self.makePreparedCellCache(preparedCellBudgetBytes))
    }

    private init(
        measurer: any TextMeasuring, emoticons: EmoticonTable, now: Date?, utcOffset: Int, labels: LabelCache,
        preparedCells: BoundedCache<PreparedKey, PreparedCell>
    ) {
        self.measurer = measurer
        self.emoticons = emoticons
        self.now = now
        self.utcOffset = utcOffset
        self.labels = labels
        self.preparedCells = preparedCells
    }

    private static func makePreparedCellCache(_ budgetBytes: Int) -> BoundedCache<PreparedKey, PreparedCell> {
        BoundedCache(budgetBytes: max(0, budgetBytes)) { $0.residentBytes + 64 }
    }

    /// This engine with a prepared-cell cache of its own, bounded by `budgetBytes` (the label
    /// cache stays shared).
    package func withPreparedCellCache(budgetBytes: Int) -> CellLayoutEngine {
        CellLayoutEngine(
            measurer: measurer, emoticons: emoticons, now: now, utcOffset: utcOffset, labels: labels,
            preparedCells: Self.makePreparedCellCache(budgetBytes))
    }

    /// Hits, misses and evictions of the label cache (toolbar labels, read-more tokens).
    package var labelCacheStatistics: (hits: Int, misses: Int, evictions: Int, count: Int) { labels.statistics }

    /// An engine whose known emoticons are `codes` (each drawn with the image named like its code).
    package init(
        measurer: some TextMeasuring, emoticonCodes codes: Set<String>, now: Date? = nil, utcOffset: Int = 8 * 3600,
        preparedCellBudgetBytes: Int = defaultPreparedCellBudgetBytes
    ) {
        var names: [String: String] = [:]
        for c in codes { names[c] = c }
        self.init(
            measurer: measurer, emoticons: EmoticonTable(imageNames: names), now: now, utcOffset: utcOffset,
            preparedCellBudgetBytes: preparedCellBudgetBytes)
    }

    /// Prepares and lays out in one call.
    ///
    /// - Parameters:
    ///   - status: the status to lay out.
    ///   - width: the cell width in points; MUST be finite and ≥ 0.
    ///   - style: the cell style (`.weibo`, `.classic`).
    ///   - scale: the screen scale (pixels per point); MUST be finite and positive.
    ///   - maxTextLines: a line limit for the main text (nil or 0: unlimited).
    public func layout(_ status: Status, width: Double, style: CellStyle, scale: Double, maxTextLines: Int? = nil) -> CellGeometry {
        prepare(status, style: style).layout(width: width, scale: scale, maxTextLines: maxTextLines)
    }

    /// Everything about a status's cell that does not depend on the width: its texts, measured.
    ///
    /// Served from `preparedCells` when a status with the same id, content and style was prepared
    /// before.
    /// - Complexity: O(1) expected on a hit (the fingerprint is stored in the status); on a miss,
    ///   O(text length) plus the measurer's shaping of every text of the cell.
    public func prepare(_ status: Status, style: CellStyle) -> PreparedCell {
        // The status is read in place (a copy of it retains its dozens of strings and arrays).
        cached(id: status.id, fingerprint: status.contentFingerprint, style: style, pass: nil) {
            prepareUncached(status, style: style)
        }
    }

    /// `prepare(_:style:)` with the status's id and fingerprint already read: the status is only
    /// evaluated (copied out of its collection) on a miss.
    /// A bulk pass passes the mark it took of `preparedCells` at its start, so that it evicts no
    /// cell it prepared itself (`BoundedCache.insert(_:for:evictingOnlyBefore:)`).
    /// - Precondition: `id == status.id` and `fingerprint == status.contentFingerprint`.
    package func prepare(
        _ status: @autoclosure () -> Status, id: Int64, fingerprint: UInt64, style: CellStyle,
        pass: BoundedCache<PreparedKey, PreparedCell>.Mark? = nil
    ) -> PreparedCell {
        cached(id: id, fingerprint: fingerprint, style: style, pass: pass) { prepareUncached(status(), style: style) }
    }

    /// The prepared cell from `preparedCells`, or `make()`'s (then stored).
    private func cached(
        id: Int64, fingerprint: UInt64, style: CellStyle, pass: BoundedCache<PreparedKey, PreparedCell>.Mark?,
        _ make: () -> PreparedCell
    ) -> PreparedCell {
        guard preparedCells.budgetBytes > 0 else { return make() }
        let key = PreparedKey(statusID: id, fingerprint: fingerprint, style: style.name)
        if let p = preparedCells.value(for: key) { return p }
        let p = make()
        preparedCells.insert(p, for: key, evictingOnlyBefore: pass)
        return p
    }

    /// Prepares without looking at or filling the prepared-cell cache.
    public func prepareUncached(_ status: Status, style: CellStyle) -> PreparedCell {
        // Each cell's bytes are summed before its parts move into their shared box (summed
        // after, the parts were copied into it). The move is spelled out (`consume`): without
        // it the parts were copied into the box and the original destroyed, a retain and a
        // release of each of their references (~840 instructions of a cold stacked cell).
        switch style.arrangement {
        case .classic(let m):
            let parts = prepareClassic(status, m, style)
            let bytes = parts.residentBytes
            return PreparedCell(statusID: status.id, styleName: style.name, content: .classic(Shared(consume parts)), residentBytes: bytes)
        case .stacked(let m):
            let parts = prepareStacked(status, m, style)
            let bytes = parts.residentBytes
            return PreparedCell(statusID: status.id, styleName: style.name, content: .stacked(Shared(consume parts)), residentBytes: bytes)
        case .list(let m):
            let parts = prepareList(status, m, style)
            let bytes = parts.residentBytes
            return PreparedCell(statusID: status.id, styleName: style.name, content: .list(Shared(consume parts)), residentBytes: bytes)
        }
    }

    /// The displayed created-at text.
    func timeText(_ status: Status) -> CellTime {
        if let date = status.createdAt {
            if let now { return .formatted(RelativeTime.formatText(date, now: now, utcOffset: utcOffset)) }
            return .formatted(RelativeTime.absoluteText(date, utcOffset: utcOffset))
        }
        return .given(status.createdAtText ?? "")
    }

    /// Prepares `text` with the engine's measurer, past its prepared-text cache: the engine caches
    /// its cells' texts itself, in `preparedCells` (keyed by the status's content), so the same
    /// texts held by a second cache would only be inserted and evicted twice (on a feed larger
    /// than the caches, that churn cost ~15 % of a precompute and, freeing memory other threads
    /// allocated, most of its waits between cores). Shaped words are still cached by the measurer;
    /// repeated labels go through `labels`.
    func prep(_ text: AttributedText) -> PreparedTextBox { PreparedTextBox(measurer.prepareUncached(text)) }

    func readMoreToken(_ style: CellStyle, size: Double, _ labels: LabelCache.ThreadShard) -> PreparedTextBox {
        labels.label(style.readMoreToken, size: size, role: .cellLink, measurer: measurer)
    }

    // MARK: classic

    private func prepareClassic(_ status: Status, _ m: ClassicMetrics, _ style: CellStyle) -> ClassicParts {
        let nameAttrs = TextAttributes(size: m.nameFontSize, role: .cellName)
        let dateAttrs = TextAttributes(size: m.dateFontSize, role: .cellTime)
        let sourceAttrs = TextAttributes(size: m.dateFontSize, role: .cellSource)
        let name = status.user.name
        let date = timeText(status).string
        let source = m.sourcePrefix + status.source
        let text: PreparedTextBox? =
            status.text.isEmpty ? nil : prep(AttributedText(status.text, size: m.textFontSize, role: .cellText))
        let badge = status.memberBadge.flatMap { $0.isEmpty ? nil : $0 }
        return ClassicParts(
            metrics: m,
            name: prep(AttributedText(name, attributes: nameAttrs)),
            nameSize: measurer.singleLineSize(name, attributes: nameAttrs),
            memberBadge: badge,
            date: prep(AttributedText(date, attributes: dateAttrs)),
            dateSize: measurer.singleLineSize(date, attributes: dateAttrs),
            source: prep(AttributedText(source, attributes: sourceAttrs)),
            sourceSize: measurer.singleLineSize(source, attributes: sourceAttrs),
            text: text,
            token: readMoreToken(style, size: m.textFontSize, labels.forThisThread()))
    }

    // MARK: list

    /// The name and signature are cut with the style's read-more token ("…" for `.friend`).
    private func prepareList(_ status: Status, _ m: ListMetrics, _ style: CellStyle) -> ListParts {
        let labels = self.labels.forThisThread()
        let vip = status.memberBadge != nil || status.user.mbtype > 2
        let shown = status.user.shownName
        let detail: PreparedTextBox? =
            status.text.isEmpty ? nil : prep(AttributedText(status.text, size: m.detailFontSize, role: .cellText))
        return ListParts(
            metrics: m, name: prep(AttributedText(shown, size: m.nameFontSize, role: vip ? .cellVIPName : .cellName)),
            detail: detail, empty: labels.label("", size: m.detailFontSize, role: .cellTime, measurer: measurer),
            nameEllipsis: labels.label(style.readMoreToken, size: m.nameFontSize, role: vip ? .cellVIPName : .cellName, measurer: measurer),
            detailEllipsis: labels.label(style.readMoreToken, size: m.detailFontSize, role: .cellText, measurer: measurer))
    }

    // MARK: stacked

    private func prepareStacked(_ status: Status, _ m: StackedMetrics, _ style: CellStyle) -> StackedParts {
        let labels = self.labels.forThisThread()
        // The user is read field by field, in place (a copy of it retains each of its strings).
        let displayName = status.user.shownName
        let mbrank = status.user.mbrank, verifiedType = status.user.verifiedType
        let nameAttrs = TextAttributes(size: m.nameFontSize, role: status.user.mbtype > 2 ? .cellVIPName : .cellName)
        let verified = (1...7).contains(verifiedType), member = mbrank > 0
        // Shared with the other cells of the same user (by content: `NameLabel`).
        let nameKey = NameLabel(
            name: displayName, size: m.nameFontSize, role: nameAttrs.role, verified: verified, memberRank: member ? mbrank : 0,
            ascentFraction: m.ascentFraction)
        let name = labels.name(nameKey) {
            guard verified || member else { return measurer.prepareUncached(AttributedText(displayName, attributes: nameAttrs)) }
            let icons = (verified ? 1 : 0) + (member ? 1 : 0)
            return prepareBuilt(nameAttrs, capacity: displayName.utf8.count + 1 + 3 * icons, runs: 1, attachments: icons) { name in
                name.append(displayName, " ", attributes: nameAttrs)
                let s = m.nameFontSize
                func icon(_ icon: String) {
                    name.appendAttachment(
                        width: s, ascent: m.ascentFraction * s, descent: (1 - m.ascentFraction) * s, name: icon, attributes: nameAttrs)
                }
                if verified { icon("verified-organization") }
                if member { icon("member-level-\(mbrank)") }
            }
        }
        let avatarBadge: String? =
            switch verifiedType {
            case 0: "avatar-verified"
            case 220: "avatar-club"
            default: nil
            }

        let time = timeText(status)
        let timeAttrs = TextAttributes(size: m.sourceFontSize, role: .cellTime)
        let source = status.source
        let sourceAttrs = TextAttributes(size: m.sourceFontSize, role: .cellSource)
        func makeTimeLine(like template: PreparedText?) -> PreparedText {
            // A line found is copied with this line's digits, in the order the line holds them,
            // without building the line (`prepareUncached(like:digits:)`; `withTimeLineDigits`
            // reads the pieces appended below, in the same order).
            if let template,
                let made = Self.withTimeLineDigits(time, source, m, { measurer.prepareUncached(like: template, digits: $0) })
            {
                return made
            }
            let capacity = time.utf8Count + m.timeSourceSeparator.utf8.count + m.sourcePrefix.utf8.count + source.utf8.count
            return prepareBuilt(timeAttrs, capacity: capacity, runs: source.isEmpty ? 1 : 2, attachments: 0, like: template) { line in
                time.withUTF8 { _ = line.append(utf8: $0, attributes: timeAttrs) }
                guard !source.isEmpty else { return }
                if line.count > 0 { line.append(m.timeSourceSeparator, attributes: timeAttrs) }
                line.append(m.sourcePrefix, source, attributes: sourceAttrs)
            }
        }
        // Time lines are shared by the shape of their digits (`TimeLineLabel`): "11-24 14:32" and
        // "03-05 09:17" with one source are one entry, whose prepared line is copied with the
        // digits of the time shown (`prepareUncached(built:like:)`). The corpus's 206 absolute
        // times are unique to their minute but make 34 lines.
        let timeLine = labels.timeLine(
            TimeLineLabel(time: time, source: source, separator: m.timeSourceSeparator, prefix: m.sourcePrefix, size: m.sourceFontSize),
            make: makeTimeLine)

        var title: PreparedTextBox?
        if let bar = status.titleBar, !bar.text.isEmpty {
            title = prep(AttributedText(bar.text, size: m.titleFontSize, role: .cellTitle))
        }

        // What is shown below the text: a retweet, else own pictures, else own card.
        var retweet: RetweetParts?
        var pictures: [Picture] = []
        var card: CardParts?
        if status.isRetweet {
            retweet = status.withRetweetedStatus { rt in
                let rtPictures = Self.shown(rt.pictures)
                let rtCard = rtPictures.isEmpty ? rt.pageInfo.map { prepareCard($0, m, labels) } : nil
                let rtText = StatusTextBuilder.build(
                    rt.text, urls: rt.urlEntities, topics: rt.topics,
                    prefixName: rt.user.name.isEmpty ? nil : rt.user.name,
                    removingTrailingURLOf: rtCard == nil ? nil : rt.pageInfo?.pageID,
                    style: entityStyle(m, size: m.retweetTextFontSize, role: .cellRetweetText)
                ) { PreparedTextBox(measurer.prepareUncached(built: $0)) }
                return RetweetParts(text: rtText, pictures: rtPictures, card: rtCard)
            }
        } else if !status.pictures.isEmpty {
            pictures = Self.shown(status.pictures)
        } else if let page = status.pageInfo {
            card = prepareCard(page, m, labels)
        }

        var text: PreparedTextBox?
        if !status.text.isEmpty {
            text = StatusTextBuilder.build(
                status.text, urls: status.urlEntities, topics: status.topics, prefixName: nil,
                removingTrailingURLOf: card == nil ? nil : status.pageInfo?.pageID,
                style: entityStyle(m, size: m.textFontSize, role: .cellText)
            ) { $0.count > 0 ? PreparedTextBox(measurer.prepareUncached(built: $0)) : nil }
        }

        var tag: TagParts?
        if let t = status.tag, !t.name.isEmpty {
            tag = TagParts(isPlace: t.isPlace, label: prep(AttributedText(t.name, size: m.tagFontSize, role: .cellTag)))
        }

        // Stored inline in the parts (an array of them was one allocation per cell).
        func button(_ kind: ToolbarButton.Kind, _ count: Int, _ word: String) -> ToolbarParts {
            let role: TextRole = kind == .like && status.liked ? .cellToolbarLiked : .cellToolbar
            let label = labels.label(word, count: count, size: m.toolbarFontSize, role: role, measurer: measurer)
            return ToolbarParts(kind: kind, label: label)
        }
        let repost = button(.repost, status.repostsCount, "转发")
        let comment = button(.comment, status.commentsCount, "评论")
        let toolbar = ToolbarPartsList(repost, comment, button(.like, status.attitudesCount, "赞"))

        // Estimated before the parts are moved into the cell, reading the retweet's parts in
        // place (`retweet?.card ?? card` copied them: a retain and a release of each reference).
        let hasCard = (retweet?.card).isSome || card.isSome
        let lineEstimate = LineEstimate(
            labels: 2 + toolbar.count + (title.isSome ? 1 : 0) + (tag.isSome ? 1 : 0) + (hasCard ? m.cardMaxLines : 0),
            wrapped: text, retweet?.text)
        return StackedParts(
            sharedMetrics: style.box.stackedMetrics ?? Shared(m), title: title, titleIcon: status.titleBar.map { !$0.iconURL.isEmpty } ?? false,
            name: name, avatarBadge: avatarBadge,
            timeLine: timeLine, text: text, retweet: retweet, pictures: pictures, card: card,
            tag: tag, toolbar: toolbar, token: readMoreToken(style, size: m.textFontSize, labels),
            lineEstimate: lineEstimate)
    }

    /// The pictures a cell shows: the first nine (the status's own array when it holds no more,
    /// shared rather than copied).
    private static func shown(_ pictures: [Picture]) -> [Picture] {
        pictures.count <= 9 ? pictures : Array(pictures.prefix(9))
    }

    /// `body` of the ASCII digits of the time line of `time` and `source`, in the line's order:
    /// the pieces `makeTimeLine` appends (the time; with a source, the separator after a time,
    /// then the prefix and the source).
    private static func withTimeLineDigits<R>(
        _ time: CellTime, _ source: String, _ m: StackedMetrics, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        let withSource = !source.isEmpty
        let timeCount = time.utf8Count
        let withSeparator = withSource && timeCount > 0
        let separator = m.timeSourceSeparator, prefix = m.sourcePrefix
        let capacity = timeCount + (withSource ? separator.utf8.count + prefix.utf8.count + source.utf8.count : 0)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { out in
            var n = time.withUTF8 { appendDigits(of: $0, to: out, at: 0) }
            if withSeparator { n = appendDigits(of: separator, to: out, at: n) }
            if withSource {
                n = appendDigits(of: prefix, to: out, at: n)
                n = appendDigits(of: source, to: out, at: n)
            }
            return body(UnsafeBufferPointer(rebasing: out[..<n]))
        }
    }

    /// Writes the ASCII digits of `s` to `out` from `start` and returns the offset after them.
    /// (A nested function counting into a captured variable paid a dynamic exclusivity check
    /// per digit: ~500 instructions a cold cell.)
    private static func appendDigits(of s: String, to out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        StringBytes.withUTF8(s) { appendDigits(of: $0, to: out, at: start) }
    }

    private static func appendDigits(of bytes: UnsafeBufferPointer<UInt8>, to out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var n = start
        for b in bytes where b &- 0x30 < 10 {
            out[n] = b
            n += 1
        }
        return n
    }

    /// The prepared text `body` builds in the thread's buffers (`ParseBuffers`), reserved at the
    /// given capacities: prepared from the builder, with no string or parts object made for it;
    /// made from `template` when given and the measurer can (`prepareUncached(built:like:)`).
    private func prepareBuilt(
        _ attributes: TextAttributes, capacity: Int, runs: Int, attachments: Int, like template: PreparedText? = nil,
        _ body: (inout AttributedTextBuilder) -> Void
    ) -> PreparedText {
        let buffers = ParseBuffers.current
        var taken = buffers.take()
        defer { buffers.giveBack(&taken) }
        var out = AttributedTextBuilder(
            attributes: attributes, capacity: capacity, buffers: taken.takeText(), runs: runs, attachments: attachments, entities: 0)
        body(&out)
        let prepared = template.map { measurer.prepareUncached(built: out, like: $0) } ?? measurer.prepareUncached(built: out)
        out.release(returning: &taken.text)
        return prepared
    }

    private func entityStyle(_ m: StackedMetrics, size: Double, role: TextRole) -> EntityStyle {
        EntityStyle(
            plain: TextAttributes(size: size, role: role), link: TextAttributes(size: size, role: .cellLink),
            linkTitleMaxLength: m.linkTitleMaxLength, emoticons: emoticons, ascentFraction: m.ascentFraction)
    }

    private func prepareCard(_ page: PageInfo, _ m: StackedMetrics, _ labels: LabelCache.ThreadShard) -> CardParts {
        if page.isVideo { return CardParts(page, text: nil, token: nil) }
        if page.title.isEmpty && page.desc.isEmpty { return CardParts(page, text: nil, token: nil) }
        let titleAttrs = TextAttributes(size: m.cardTitleFontSize, role: .cellCardTitle)
        let descAttrs = TextAttributes(size: m.cardDescFontSize, role: .cellCardDesc)
        let text = prepareBuilt(titleAttrs, capacity: page.title.utf8.count + 1 + page.desc.utf8.count, runs: 2, attachments: 0) { text in
            if !page.title.isEmpty { text.append(page.title, attributes: titleAttrs) }
            if !page.desc.isEmpty {
                if text.count > 0 { text.append("\n", attributes: titleAttrs) }
                text.append(page.desc, attributes: descAttrs)
            }
        }
        let ellipsis = labels.label("…", size: m.cardDescFontSize, role: .cellCardDesc, measurer: measurer)
        return CardParts(page, text: PreparedTextBox(text), token: ellipsis)
    }
}

/// A status's cell with every text prepared: lay it out at any width without shaping.
///
/// Thread-safety: an immutable value; `layout` MAY run concurrently.
public struct PreparedCell: Sendable {
    public let statusID: Int64
    public let styleName: String
    let content: Content
    /// Where `heights` will read: addresses only, for prefetching (see `prefetchForHeights`).
    let heightsMemory: HeightsMemory
    /// Bytes held by the prepared texts and parts of this cell (an estimate: arrays and strings,
    /// not allocator overhead; see `ClassicParts.residentBytes` and the other parts'). Computed
    /// once from the parts while they are built: read through the shared reference later, the
    /// parts were copied out of it (a retain and release of each of their references), and the
    /// prepared-cell cache sizes every cell it inserts (~660 instructions a stacked cell).
    public let residentBytes: Int

    init(statusID: Int64, styleName: String, content: Content, residentBytes: Int) {
        self.statusID = statusID
        self.styleName = styleName
        self.content = content
        self.residentBytes = residentBytes
        heightsMemory = HeightsMemory(content)
    }

    /// The parts sit behind one reference, so copying a prepared cell (caches, arrangers) is one
    /// retain instead of one per text.
    enum Content: Sendable {
        case classic(Shared<ClassicParts>)
        case stacked(Shared<StackedParts>)
        case list(Shared<ListParts>)
    }

    /// The cell's geometry at `width` on the pixel grid of `scale`.
    ///
    /// MUST give the same value as `CellLayoutEngine.layout` with the same inputs.
    /// - Parameters:
    ///   - width: the cell width in points; MUST be finite and ≥ 0.
    ///   - scale: pixels per point; MUST be finite and positive.
    ///   - maxTextLines: a line limit for the main text (nil or 0: unlimited).
    /// - Complexity: O(clusters of the cell's texts), no shaping.
    public func layout(width: Double, scale: Double, maxTextLines: Int? = nil) -> CellGeometry {
        precondition(width.isFinite && width >= 0, "cell width must be finite and non-negative")
        let grid = PixelGrid(scale: scale)
        let limit = max(0, maxTextLines ?? 0)
        switch content {
        case .classic(let parts):
            return ClassicArranger(shared: parts, width: width, grid: grid, maxLines: limit)
                .arrange(statusID: statusID, styleName: styleName)
        case .stacked(let parts):
            return StackedArranger(shared: parts, width: width, grid: grid, maxLines: limit)
                .arrange(statusID: statusID, styleName: styleName)
        case .list(let parts):
            return ListArranger(parts: parts.value, width: width, grid: grid).arrange(statusID: statusID, styleName: styleName)
        }
    }
}

/// An immutable value behind a reference.
final class Shared<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

struct ListParts: Sendable {
    var metrics: ListMetrics
    var name: PreparedTextBox
    /// The signature (the status text); nil when empty.
    var detail: PreparedTextBox?
    /// The empty label standing for the time, which a list row does not show.
    var empty: PreparedTextBox
    var nameEllipsis: PreparedTextBox
    var detailEllipsis: PreparedTextBox
}

struct ClassicParts: Sendable {
    var metrics: ClassicMetrics
    var name: PreparedTextBox
    var nameSize: Size
    var memberBadge: String?
    var date: PreparedTextBox
    var dateSize: Size
    var source: PreparedTextBox
    var sourceSize: Size
    var text: PreparedTextBox?
    var token: PreparedTextBox
}

/// What arranging a card needs of its page (the parts are read on every layout and copied when
/// bound, so they hold flags rather than the page's strings).
struct CardParts: Sendable {
    var isVideo: Bool
    var hasTypeIcon: Bool
    var hasButton: Bool
    var text: PreparedTextBox?
    /// "…" ending a card text cut at `cardMaxLines`.
    var token: PreparedTextBox?

    init(_ page: PageInfo, text: PreparedTextBox?, token: PreparedTextBox?) {
        isVideo = page.isVideo
        hasTypeIcon = !page.typeIconURL.isEmpty
        hasButton = page.hasButton
        self.text = text
        self.token = token
    }
}

struct RetweetParts: Sendable {
    var text: PreparedTextBox
    var pictures: [Picture]
    var card: CardParts?
}

struct TagParts: Sendable {
    var isPlace: Bool
    var label: PreparedTextBox
}

struct ToolbarParts: Sendable {
    var kind: ToolbarButton.Kind
    var label: PreparedTextBox
}

/// The three toolbar buttons of a stacked cell, in order (repost, comment, like), stored inline.
/// (Indexed rather than a `Collection`: enumerating one looked up its conformances at run time
/// on first use.)
struct ToolbarPartsList: Sendable {
    private let repost: ToolbarParts
    private let comment: ToolbarParts
    private let like: ToolbarParts

    init(_ repost: ToolbarParts, _ comment: ToolbarParts, _ like: ToolbarParts) {
        self.repost = repost
        self.comment = comment
        self.like = like
    }

    var count: Int { 3 }
    /// - Precondition: `0 <= i < count`.
    subscript(i: Int) -> ToolbarParts {
        switch i {
        case 0: repost
        case 1: comment
        case 2: like
        default: preconditionFailure("toolbar index out of range")
        }
    }
}

struct StackedParts: Sendable {
    /// The style's metrics, the one instance its style value holds (`CellStyleBox`), shared by
    /// every cell prepared in that style (a copy per cell would be ~0.5 KB more per prepared
    /// cell, read on every layout).
    let sharedMetrics: Shared<StackedMetrics>
    var metrics: StackedMetrics { _read { yield sharedMetrics.value } }
    var title: PreparedTextBox?
    var titleIcon: Bool
    var name: PreparedTextBox
    var avatarBadge: String?
    var timeLine: PreparedTextBox
    var text: PreparedTextBox?
    var retweet: RetweetParts?
    var pictures: [Picture]
    var card: CardParts?
    var tag: TagParts?
    var toolbar: ToolbarPartsList
    var token: PreparedTextBox
    /// How many lines the texts take, for the storage their lines share when arranged.
    let lineEstimate: LineEstimate
}

/// An estimate of the lines a cell's texts take at a width, kept with its prepared parts so that
/// arranging reads two numbers: one line per label (and the card text's limit), and for the
/// texts that wrap, one line per hard break and per line width of their advance.
struct LineEstimate: Sendable {
    private let fixed: Int
    private let advance: Double
    /// The wrapped texts' clusters: no text has more lines than clusters besides its breaks, so
    /// a narrow width or a huge advance never reserves more than the texts can fill.
    private let clusters: Int

    init(labels: Int, wrapped first: PreparedTextBox?, _ second: PreparedTextBox?) {
        var fixed = labels, advance = 0.0, clusters = 0
        func add(_ t: PreparedTextBox?) {
            guard let t else { return }
            fixed += 1 + Int(t.prepared.hardBreakCount)
            advance += t.prepared.totalAdvance
            clusters += t.prepared.clusterCount
        }
        add(first)
        add(second)
        self.fixed = fixed
        self.advance = advance
        self.clusters = clusters
    }

    /// The estimate at line width `width`: the labels and breaks, plus the advance over the
    /// width, at most the clusters (all the clusters when the ratio is not finite: a width of 0
    /// puts one cluster on each line).
    func count(width: Double) -> Int {
        let ratio = advance / width
        return fixed + (ratio.isFinite && ratio >= 0 ? Int(min(ratio, Double(clusters))) : clusters)
    }
}
