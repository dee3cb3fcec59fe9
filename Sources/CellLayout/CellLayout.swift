import Synchronization
import TextMeasure

/// The precomputed geometry of one status cell: its height and every part's frame.
///
/// Frames are relative to the cell's top-left corner (the row's y is the table's business) and all
/// their edges lie on the pixel grid of `scale`. The value is enough to draw the cell: texts carry
/// their prepared text and line layout, so nothing is measured again at draw time.
/// Thread-safety: an immutable value, safe to share across threads.
public struct CellLayout: Sendable, Equatable {
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
    public var blocks: [CellBlock]

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
    public var contentKinds: Set<ContentKind> {
        var s: Set<ContentKind> = []
        if titleBar != nil { s.insert(.title) }
        if text != nil { s.insert(.text) }
        if let r = retweet {
            s.insert(.retweet)
            if r.pictures != nil { s.insert(.retweetPictures) }
            if r.card != nil { s.insert(.retweetCard) }
        }
        if pictures != nil { s.insert(.pictures) }
        if card != nil { s.insert(.card) }
        if tag != nil { s.insert(.tag) }
        return s
    }
}

extension CellLayout {
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
public struct ContentKindCounts: Sendable, Equatable, CustomStringConvertible {
    /// Cells counted.
    public private(set) var total = 0
    /// Cells with nothing below their text (no retweet, pictures or card).
    public private(set) var nothingBelowText = 0
    private var counts: [ContentKind: Int] = [:]

    public init() {}

    /// Counts the kinds of `layouts`.
    public init(_ layouts: some Sequence<CellLayout>) {
        for l in layouts { add(l) }
    }

    /// Adds one cell.
    public mutating func add(_ layout: CellLayout) {
        let kinds = layout.contentKinds
        total += 1
        for k in kinds { counts[k, default: 0] += 1 }
        if kinds.isDisjoint(with: [.retweet, .pictures, .card]) { nothingBelowText += 1 }
    }

    /// The number of counted cells that show `kind`.
    public subscript(kind: ContentKind) -> Int { counts[kind, default: 0] }

    /// "title=6 text=206 …" in `ContentKind` order.
    public var description: String {
        ContentKind.allCases.map { "\($0.rawValue)=\(self[$0])" }.joined(separator: " ")
            + " nothingBelowText=\(nothingBelowText) total=\(total)"
    }
}

/// Which optional content a cell shows (for statistics and tests).
public enum ContentKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case title, text, retweet, retweetPictures, retweetCard, pictures, card, tag

    public static func < (a: ContentKind, b: ContentKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A horizontal band of the cell.
public struct CellBlock: Sendable, Equatable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case topGap, title, profile, text, retweet, pictures, card, tag, padding, toolbar, bottomGap

        /// The number of kinds: a cell has at most one block of each.
        static let count = allCases.count
    }
    public var kind: Kind
    /// Full cell width, `height` tall.
    public var frame: Rect
}

/// An image drawn at a frame (badges, icons): `name` says which, renderers interpret it.
public struct ImageFrame: Sendable, Equatable {
    public var name: String
    public var frame: Rect
    public init(name: String, frame: Rect) {
        self.name = name
        self.frame = frame
    }
}

/// A prepared text kept for drawing, shared by reference (a cell's layouts at several widths and
/// the prepared cell hold the same one); two are equal when their text and advances are.
package final class PreparedTextBox: Sendable, Equatable {
    package let prepared: PreparedText
    /// The address of the first cluster (0 for none), for prefetching: the array is immutable.
    let clustersAddress: UInt
    package init(_ prepared: consuming PreparedText) {
        clustersAddress = prepared.clustersAddress
        self.prepared = prepared
    }
    /// Bytes held by the prepared text (shared labels, such as toolbar counts from the label
    /// cache, are counted by every holder).
    package var residentBytes: Int { prepared.residentBytes + OneLineLayout.residentBytes }

    /// The text's layout when it is one line: names, times, counts and short texts lay out the
    /// same at every width they fit, so a cell arranged again shares this one (its lines array is
    /// retained, not built). Set once, by the first layout that gives one unwrapped line.
    /// (An atomic unmanaged reference: `AtomicLazyReference.load` is not inlined across modules
    /// and looks up generic metadata on every call.) Owned: released in `deinit`.
    private let oneLine = Atomic<Unmanaged<OneLineLayout>?>(nil)

    deinit { oneLine.load(ordering: .acquiring)?.release() }

    /// `prepared.layout(options, truncationToken:)`, called on the stored text in place (reading
    /// `box.prepared` from outside copies the struct, one retain per array it holds). A text that
    /// fits on one line is laid out once per box: later requests that it fits are answered with
    /// the kept layout (equal to what `prepared.layout` gives; `PreparedTextBoxTests` checks it).
    func layout(_ options: LayoutOptions, truncationToken: PreparedTextBox? = nil) -> TextLayout {
        let kept = oneLine.load(ordering: .acquiring)
        if let kept, kept._withUnsafeGuaranteedRef({ $0.answers(options) }) {
            return kept._withUnsafeGuaranteedRef { $0.layout }
        }
        let layout =
            if let token = truncationToken {
                prepared.layout(options, truncationToken: token.prepared)
            } else {
                prepared.layout(options)
            }
        if kept == nil, layout.lines.count == 1, layout.fullLineCount == 1 {
            let made = Unmanaged.passRetained(OneLineLayout(layout, options: options, width: prepared.unwrappedWidth))
            if !oneLine.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing).exchanged {
                made.release()  // another thread kept its own first
            }
        }
        return layout
    }

    /// `prepared.lineMetrics(options)`, on the stored text in place.
    func lineMetrics(_ options: LayoutOptions) -> (lineCount: Int, height: Double, fullHeight: Double) {
        prepared.lineMetrics(options)
    }

    package static func == (a: PreparedTextBox, b: PreparedTextBox) -> Bool {
        if a === b { return true }
        let x = a.prepared, y = b.prepared
        guard x.clusterCount == y.clusterCount, x.text == y.text else { return false }
        for i in 0..<x.clusterCount where x.advance(ofCluster: i) != y.advance(ofCluster: i) { return false }
        return true
    }
}

/// A one-line layout kept by a `PreparedTextBox`, with what it depends on: the line height and
/// the pixel grid. The width and the line limit do not matter while the line fits: at any width
/// of at least `width` nothing wraps (`PreparedText.unwrappedWidth`), and one line is within any
/// limit, so no token is placed either.
private final class OneLineLayout: Sendable {
    let layout: TextLayout
    let lineHeight: LineHeightPolicy
    let grid: PixelGrid?
    let width: Double
    /// What the box counts for it: this object and a one-line lines array.
    static let residentBytes = 160

    init(_ layout: TextLayout, options: LayoutOptions, width: Double) {
        self.layout = layout
        lineHeight = options.lineHeight
        grid = options.grid
        self.width = width
    }

    /// True when `layout(options)` gives `layout`. (A NaN width never matches.)
    @inline(__always) func answers(_ options: LayoutOptions) -> Bool {
        width <= options.width && grid == options.grid && lineHeight == options.lineHeight
    }
}

/// An entity's hit-test rects, in cell coordinates.
public struct EntityHit: Sendable, Equatable {
    public var kind: EntityKind
    public var value: String
    /// One rect per line the entity spans, top to bottom (stored without an array of its own
    /// for the common single line).
    package var hitRects: HitRects
    /// One rect per line the entity spans, top to bottom.
    public var rects: [Rect] { Array(hitRects) }
}

/// The rects of a hit, one per line fragment. The first is stored inline: nearly every entity
/// sits on one line, so a hit needs no array of its own (laying out a cell made one allocation
/// per entity for it before).
package struct HitRects: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable, Equatable {
    private var head: Rect?
    /// The rects after the first (empty unless the entity wraps).
    private var tail: [Rect] = []

    package init(arrayLiteral rects: Rect...) {
        for r in rects { append(r) }
    }

    package init(_ first: Rect) { head = first }

    package var startIndex: Int { 0 }
    package var endIndex: Int { head == nil ? 0 : 1 + tail.count }
    package subscript(i: Int) -> Rect {
        precondition(i >= 0 && i < endIndex, "HitRects index out of range")
        return i == 0 ? head! : tail[i - 1]
    }

    package mutating func append(_ r: Rect) {
        if head == nil { head = r } else { tail.append(r) }
    }

    /// Bytes held outside the value (the tail's array), for cache budgets.
    var heapBytes: Int { tail.isEmpty ? 0 : 32 + tail.count * MemoryLayout<Rect>.stride }
}

/// A laid-out text placed in the cell.
public struct TextBox: Sendable, Equatable {
    /// The text's frame: lines are positioned relative to its origin.
    public var frame: Rect
    public var layout: TextLayout
    package var preparedBox: PreparedTextBox
    /// The prepared text the box's lines break.
    public var prepared: PreparedText { preparedBox.prepared }
    /// Entities (mentions, topics, links, emoticons) with rects in cell coordinates.
    public var entities: [EntityHit]
    /// Inline objects (emoticons, link icons, name icons) in cell coordinates.
    public var attachments: [ImageFrame]
    /// The read-more token's frame in cell coordinates, when the text was truncated (kept out of
    /// line: most boxes have none, and the box stays small enough to be copied inline).
    @OutOfLine package var tokenStorage: Rect?
    public var token: Rect? {
        get { tokenStorage }
        set { tokenStorage = newValue }
    }
    /// The plain string (inline objects are U+FFFC).
    public var string: String { preparedBox.prepared.text.string }
}

/// The title bar above the profile (e.g. "热门"): its band, optional icon and label.
public struct TitleBarLayout: Sendable, Equatable {
    public var frame: Rect
    public var icon: Rect?
    public var label: TextBox
}

/// One picture of a grid and its optional badge.
public struct PictureFrame: Sendable, Equatable {
    public var pictureID: String
    public var frame: Rect
    /// "gif" or "long" badge at the picture's bottom-right.
    public var badge: ImageFrame?
}

/// A picture grid (one to nine pictures, docs/cell-spec.md section 2).
public struct PictureGridLayout: Sendable, Equatable {
    /// The bounding frame of the pictures.
    public var frame: Rect
    public var pictures: [PictureFrame]
}

/// The card (`page_info`): image, optional type badge, title/description text and button; a video
/// card is one large image with a play badge.
public struct CardLayout: Sendable, Equatable {
    public var frame: Rect
    public var isVideo: Bool
    public var image: Rect?
    /// The type icon over the image, or the play badge of a video card.
    public var badge: ImageFrame?
    /// Title + newline + description.
    public var text: TextBox?
    public var button: Rect?
}

/// The retweet block: background, "@name:" text and the retweet's pictures or card.
public struct RetweetLayout: Sendable, Equatable {
    /// The background (full cell width).
    public var frame: Rect
    /// The retweet's text ("@name:" + text).
    public var text: TextBox
    public var pictures: PictureGridLayout?
    @OutOfLine package var cardStorage: CardLayout?
    public var card: CardLayout? {
        get { cardStorage }
        set { cardStorage = newValue }
    }
}

/// The tag row below the content (a place tag has an icon and is taller).
public struct TagLayout: Sendable, Equatable {
    public var frame: Rect
    public var isPlace: Bool
    public var icon: Rect?
    public var label: TextBox
}

/// One toolbar button: its third of the toolbar, icon and count label.
public struct ToolbarButton: Sendable, Equatable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case repost, comment, like
    }
    public var kind: Kind
    public var frame: Rect
    public var icon: Rect
    public var label: TextBox
    public var string: String
}

/// The toolbar: repost, comment and like buttons over the full cell width.
public struct ToolbarLayout: Sendable, Equatable {
    public var frame: Rect
    public var buttons: [ToolbarButton]
}

/// An optional block stored behind one immutable reference: the blocks most cells lack (title,
/// retweet, card, tag) take 8 bytes of the cell value instead of hundreds, so building, returning
/// and copying a `CellLayout` moves a pointer, not the blocks' bytes. Value semantics are kept:
/// the box is never mutated, a set stores a new one.
@propertyWrapper
package struct OutOfLine<Value: Sendable & Equatable>: Sendable, Equatable {
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
    private var box: Box?

    package init(wrappedValue: Value?) { box = wrappedValue.map(Box.init) }

    package var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }

    package static func == (a: OutOfLine, b: OutOfLine) -> Bool { a.box === b.box || a.wrappedValue == b.wrappedValue }
}
