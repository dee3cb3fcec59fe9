import FeedLayoutSupport
import TextMeasure

/// The precomputed geometry of one status cell: its height and every part's frame.
///
/// Frames are relative to the cell's top-left corner (the row's y is the table's business) and all
/// their edges lie on the pixel grid of `scale`. The value is enough to draw the cell: texts carry
/// their prepared text and line layout, so nothing is measured again at draw time.
/// Thread-safety: an immutable value, safe to share across threads.
public struct CellGeometry: Sendable, Equatable {
    public var statusID: Int64
    /// The name of the style it was laid out with.
    public var styleName: String
    /// The cell width in points.
    public var width: Double
    /// The screen scale whose pixel grid every frame edge lies on.
    public var scale: Double
    /// The row height.
    public var height: Double
    /// The row height with the main text expanded (equal to `height` when it is not truncated).
    public var expandedHeight: Double
    /// True when the main text was cut by the line limit (a read-more token is shown).
    public var isTextTruncated: Bool

    /// The vertical blocks, top to bottom; their heights sum to `height`.
    public var blocks: CellFrames<CellBlock>

    /// The avatar image (40 × 40 in both built-in styles).
    public var avatar: Rect
    /// The verification badge over the avatar's bottom-right corner.
    public var avatarBadge: ImageFrame?
    /// The user name; its attachments are the name's inline icons (verification, member level).
    public var name: TextBox
    /// The classic style's member badge, right of the name.
    public var memberBadge: ImageFrame?
    /// The created-at label (classic) or the whole time + source line (stacked styles).
    public var time: TextBox
    /// The classic style's "来自 source" label.
    public var source: TextBox?
    @OutOfLine package var titleBarStorage: TitleBarLayout?
    public var titleBar: TitleBarLayout? {
        get { titleBarStorage }
        set { titleBarStorage = newValue }
    }
    /// The main text (nil when the status has no text).
    public var text: TextBox?
    @OutOfLine package var retweetStorage: RetweetLayout?
    public var retweet: RetweetLayout? {
        get { retweetStorage }
        set { retweetStorage = newValue }
    }
    /// The status's own picture grid (not the retweet's).
    public var pictures: PictureGridLayout?
    /// The status's own card (not the retweet's).
    @OutOfLine package var cardStorage: CardLayout?
    public var card: CardLayout? {
        get { cardStorage }
        set { cardStorage = newValue }
    }
    @OutOfLine package var tagStorage: TagLayout?
    public var tag: TagLayout? {
        get { tagStorage }
        set { tagStorage = newValue }
    }
    public var toolbar: ToolbarLayout?

    /// The block of `kind`, if present.
    /// - Complexity: O(blocks).
    public func block(_ kind: CellBlock.Kind) -> CellBlock? { blocks.first { $0.kind == kind } }

    /// The content blocks present (retweet, pictures, card, tag, title and their nested kinds).
    package var contentKinds: Set<ContentKind> {
        var s: Set<ContentKind> = []
        if titleBar.isSome { s.insert(.title) }
        if text.isSome { s.insert(.text) }
        if let r = retweet {
            s.insert(.retweet)
            if r.pictures.isSome { s.insert(.retweetPictures) }
            if r.card.isSome { s.insert(.retweetCard) }
        }
        if pictures.isSome { s.insert(.pictures) }
        if card.isSome { s.insert(.card) }
        if tag.isSome { s.insert(.tag) }
        return s
    }
}

extension CellGeometry {
    /// The entity under `point` (cell coordinates) in the main or retweeted text, if any: what a
    /// tap at that point opens. The read-more token hits as a `.token` entity.
    /// - Complexity: O(entity rects of the cell's texts).
    public func entity(at point: Point) -> EntityHit? {
        func inside(_ r: Rect) -> Bool { point.x >= r.minX && point.x < r.maxX && point.y >= r.minY && point.y < r.maxY }
        for box in [text, retweet?.text].compactMap({ $0 }) {
            if let t = box.token, inside(t) { return EntityHit(kind: .token, value: "read-more", hitRects: [t]) }
            if let hit = box.entities.first(where: { $0.rects.contains(where: inside) }) { return hit }
        }
        return nil
    }
}

/// Counts of cells per content kind, e.g. over a feed (for statistics and tests).
package struct ContentKindCounts: Sendable, Equatable, CustomStringConvertible {
    /// Cells counted.
    package private(set) var total = 0
    /// Cells with nothing below their text (no retweet, pictures or card).
    package private(set) var nothingBelowText = 0
    private var counts: [ContentKind: Int] = [:]

    package init() {}

    /// Counts the kinds of `layouts`.
    package init(_ layouts: some Sequence<CellGeometry>) {
        for l in layouts { add(l) }
    }

    /// Adds one cell.
    package mutating func add(_ layout: CellGeometry) {
        let kinds = layout.contentKinds
        total += 1
        for k in kinds { counts[k, default: 0] += 1 }
        if kinds.isDisjoint(with: [.retweet, .pictures, .card]) { nothingBelowText += 1 }
    }

    /// The number of counted cells that show `kind`.
    package subscript(kind: ContentKind) -> Int { counts[kind, default: 0] }

    /// "title=6 text=206 …" in `ContentKind` order.
    package var description: String {
        ContentKind.allCases.map { "\($0.rawValue)=\(self[$0])" }.joined(separator: " ")
            + " nothingBelowText=\(nothingBelowText) total=\(total)"
    }
}

/// Which optional content a cell shows (for statistics and tests).
package enum ContentKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case title, text, retweet, retweetPictures, retweetCard, pictures, card, tag

    package static func < (a: ContentKind, b: ContentKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
