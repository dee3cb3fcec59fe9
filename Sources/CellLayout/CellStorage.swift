import Synchronization
import TextMeasure

// Storage behind the cell's public values: the shared prepared text of a text box, the hit
// rects with their first rect inline, and the property wrapper that keeps rare blocks out of line.

/// A prepared text kept for drawing, with the layout and placement caches its cells keep in it.
/// A value of one reference: the prepared text's object, which a cell's layouts at several widths
/// and the prepared cell share; two are equal when their text and advances are.
package struct PreparedTextBox: Sendable, Equatable {
    package let prepared: PreparedText

    package init(_ prepared: consuming PreparedText) {
        self.prepared = prepared
    }

    /// The address of the first cluster (0 for none), for prefetching: the records are immutable.
    var clustersAddress: UInt { prepared.clustersAddress }

    /// Bytes held by the prepared text (shared labels, such as toolbar counts from the label
    /// cache, are counted by every holder).
    /// The kept layout (`layout`) is counted at its largest, `keptLineLimit` lines; a text with
    /// entities or inline objects also counts a kept placement (`keepPlacement`): one hit per
    /// entity and one frame per object (an entity that wraps holds a rect more per extra line).
    package var residentBytes: Int {
        let sizes = prepared.sizes
        let entities = sizes.entityCount, objects = sizes.attachmentCount
        let placement =
            entities + objects == 0
            ? 0
            : KeptLayout.placementBytes + entities * MemoryLayout<EntityHit>.stride
                + objects * MemoryLayout<ImageFrame>.stride
        return sizes.residentBytes + KeptLayout.residentBytes
            + (Self.keptLineLimit(sizes) - 1) * MemoryLayout<TextLine>.stride + placement
    }

    /// The most lines a kept layout of several lines may have: about the lines of the text at a
    /// width of 250 points (its hard breaks, plus one per 250 points of advance; a phone's text
    /// column is wider), so that what a box keeps stays proportional to its text. (A layout with
    /// more lines is not kept.)
    var keptLineLimit: Int { Self.keptLineLimit(prepared.sizes) }

    private static func keptLineLimit(_ sizes: PreparedText.Sizes) -> Int {
        let byWidth = sizes.totalAdvance.isFinite ? min(sizes.totalAdvance / 250, Double(sizes.clusterCount)) : 0
        return 1 + sizes.hardBreakCount + Int(max(0, byWidth))
    }

    /// A kept layout of the text, so that a cell arranged again shares it (its lines array is
    /// retained, not built). When the text is one line: names, times, counts and short texts lay
    /// out the same at every width they fit, and the kept layout answers all of them. Otherwise
    /// (a text that wraps) it answers the same options and token only: a feed arranged again at
    /// its width. Kept by the second layout, not the first: a cell laid out once (a cold cell)
    /// makes no object for it, and a box laid out again keeps one from then on; the first kept
    /// layout stays (a box arranged at several widths answers the others by laying out).
    /// The word (the prepared text's first holder word) is 0 (no layout yet), `seenOnce` (one was
    /// given, none kept), or the address of a retained `KeptLayout`, released with the text.
    private var keptWord: UnsafeMutablePointer<Atomic<UInt>> { prepared.holderWords }
    private static let seenOnce: UInt = 1

    /// The entity and object frames of a kept layout, placed once (see `keptPlacement`): the
    /// second holder word, 0 or the address of a retained `KeptPlacement`, set at most once and
    /// released with the text.
    private var placement: UnsafeMutablePointer<Atomic<UInt>> { prepared.holderWords + 1 }

    /// The `KeptPlacement` whose address is `word` (not 0).
    @inline(__always) private static func placed(_ word: UInt) -> Unmanaged<KeptPlacement> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
    }

    /// The entity hits and inline-object frames placing `layout` at `frame` on `grid` gives, when
    /// they were kept for exactly these inputs; nil otherwise. Placing is a pure function of the
    /// prepared text, the layout, the frame and the grid, so the kept arrays are equal to placing
    /// again; a cell arranged again shares them (retains, no allocation).
    /// - Complexity: O(1) when `layout` shares the kept lines (a kept layout), else O(lines).
    /// Thread-safety: safe to call concurrently.
    @inline(__always)
    func keptPlacement(_ layout: borrowing TextLayout, frame: Rect, grid: PixelGrid) -> ([EntityHit], [ImageFrame])? {
        let word = placement.pointee.load(ordering: .acquiring)
        if word == 0 { return nil }
        return Self.placed(word)._withUnsafeGuaranteedRef { p in
            p.frame == frame && p.grid == grid && p.layout == layout ? (p.entities, p.attachments) : nil
        }
    }

    /// Keeps what placing `layout` gave, for `keptPlacement`, when it is worth keeping: the box
    /// already keeps a layout (it was laid out before: a cell arranged once makes no object for
    /// it), the frames are not empty, and none is kept yet (the first kept placement stays; other
    /// frames and layouts are placed each time).
    /// Thread-safety: safe to call concurrently (one caller's placement is kept).
    func keepPlacement(
        _ layout: borrowing TextLayout, frame: Rect, grid: PixelGrid, entities: [EntityHit], attachments: [ImageFrame]
    ) {
        guard entities.count + attachments.count > 0, keptWord.pointee.load(ordering: .relaxed) > Self.seenOnce,
            placement.pointee.load(ordering: .relaxed) == 0
        else { return }
        let made = Unmanaged.passRetained(
            KeptPlacement(layout: copy layout, frame: frame, grid: grid, entities: entities, attachments: attachments))
        if !placement.pointee.compareExchange(
            expected: 0, desired: UInt(bitPattern: made.toOpaque()), ordering: .acquiringAndReleasing
        ).exchanged {
            made.release()  // another thread kept its own first
        }
    }

    /// The `KeptLayout` whose address is `word` (> `seenOnce`).
    @inline(__always) private static func kept(_ word: UInt) -> Unmanaged<KeptLayout> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
    }

    /// `prepared.layout(options, truncationToken:)`, called on the stored text in place (reading
    /// `box.prepared` from outside copies the struct, one retain per array it holds). A text that
    /// fits on one line is laid out at most twice per box, a text that wraps twice per box at the
    /// options it keeps: later requests the kept layout answers get it (equal to what
    /// `prepared.layout` gives; `PreparedTextBoxTests` checks it).
    /// - Complexity: O(1) when answered from the kept layout, else `PreparedText.layout`'s.
    /// Thread-safety: safe to call concurrently.
    func layout(_ options: LayoutOptions, truncationToken: PreparedTextBox? = nil) -> TextLayout {
        var arena = LineArena(capacity: prepared.estimatedLineCount(width: options.width))
        return layout(options, truncationToken: truncationToken, into: &arena)
    }

    /// `layout(options, truncationToken:)` with the lines, when they are laid out, written into
    /// `arena` (a cell's texts share one storage for their lines).
    func layout(_ options: LayoutOptions, truncationToken: PreparedTextBox? = nil, into arena: inout LineArena) -> TextLayout {
        let word = keptWord.pointee.load(ordering: .acquiring)
        if word > Self.seenOnce {
            let kept = Self.kept(word)
            if kept._withUnsafeGuaranteedRef({ $0.answers(options, truncationToken) }) {
                return kept._withUnsafeGuaranteedRef { $0.layout }
            }
        }
        let layout =
            if let token = truncationToken {
                prepared.layout(options, truncationToken: token.prepared, into: &arena)
            } else {
                prepared.layout(options, into: &arena)
            }
        if word <= Self.seenOnce, !layout.lines.isEmpty {
            let oneLine = layout.lines.count == 1 && layout.fullLineCount == 1
            if word == 0 {
                // The first answer only marks the box (another thread may have marked it).
                _ = keptWord.pointee.compareExchange(expected: 0, desired: Self.seenOnce, ordering: .relaxed)
            } else if oneLine || (layout.lines.count <= keptLineLimit && !options.width.isNaN) {
                let made = Unmanaged.passRetained(
                    oneLine
                        ? KeptLayout(layout, options: options, width: prepared.unwrappedWidth)
                        : KeptLayout(layout, exactly: options, truncationToken: truncationToken))
                let desired = UInt(bitPattern: made.toOpaque())
                if !keptWord.pointee.compareExchange(expected: Self.seenOnce, desired: desired, ordering: .acquiringAndReleasing).exchanged {
                    made.release()  // another thread kept its own first
                }
            }
        }
        return layout
    }

    /// `prepared.lineMetrics(options)`, on the stored text in place.
    func lineMetrics(_ options: LayoutOptions) -> (lineCount: Int, height: Double, fullHeight: Double) {
        prepared.lineMetrics(options)
    }

    /// True when both are the same prepared text (one object), not only equal ones.
    package static func === (a: PreparedTextBox, b: PreparedTextBox) -> Bool { a.prepared.isSameStorage(as: b.prepared) }

    /// `===` of optional boxes: both nil, or the same prepared text.
    static func same(_ a: PreparedTextBox?, _ b: PreparedTextBox?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x?, y?): x === y
        default: false
        }
    }

    package static func == (a: PreparedTextBox, b: PreparedTextBox) -> Bool {
        if a === b { return true }
        let x = a.prepared, y = b.prepared
        guard x.clusterCount == y.clusterCount, x.text == y.text else { return false }
        for i in 0..<x.clusterCount where x.advance(ofCluster: i) != y.advance(ofCluster: i) { return false }
        return true
    }
}

/// A layout kept by a `PreparedTextBox`, with what it depends on.
///
/// One line: the line height and the pixel grid. The width and the line limit do not matter
/// while the line fits: at any width of at least `width` nothing wraps
/// (`PreparedText.unwrappedWidth`), and one line is within any limit, so no token is placed
/// either. Several lines: all the options and the truncation token (by identity: a box is
/// immutable), since `layout` is a function of the prepared text, the options and the token.
private final class KeptLayout: Sendable {
    let layout: TextLayout
    let lineHeight: LineHeightPolicy
    let grid: PixelGrid?
    /// One line: its unwrapped width; several lines: the width of the options.
    let width: Double
    /// True for a layout of several lines: it answers its own options and token only.
    let isExact: Bool
    let wrap: WrapMode
    let maxLines: Int
    let token: PreparedTextBox?
    /// What the box counts for it: this object and a one-line lines array.
    static let residentBytes = 176
    /// What the box counts for a kept placement besides the frames: the object and two array
    /// headers.
    static let placementBytes = 224

    init(_ layout: TextLayout, options: LayoutOptions, width: Double) {
        self.layout = layout
        lineHeight = options.lineHeight
        grid = options.grid
        self.width = width
        isExact = false
        wrap = options.wrap
        maxLines = 0
        token = nil
    }

    init(_ layout: TextLayout, exactly options: LayoutOptions, truncationToken: PreparedTextBox?) {
        self.layout = layout
        lineHeight = options.lineHeight
        grid = options.grid
        width = options.width
        isExact = true
        wrap = options.wrap
        maxLines = options.maxLines
        token = truncationToken
    }

    /// True when `layout(options, truncationToken:)` gives `layout`. (A NaN width never matches.)
    @inline(__always) func answers(_ options: LayoutOptions, _ truncationToken: PreparedTextBox?) -> Bool {
        guard grid == options.grid && lineHeight == options.lineHeight else { return false }
        if isExact {
            return width == options.width && maxLines == options.maxLines && wrap == options.wrap && PreparedTextBox.same(token, truncationToken)
        }
        return width <= options.width
    }
}

/// The placed entity and object frames of a layout at one frame, kept by a `PreparedTextBox`
/// (`keptPlacement`).
private final class KeptPlacement: Sendable {
    let layout: TextLayout
    let frame: Rect
    let grid: PixelGrid
    let entities: [EntityHit]
    let attachments: [ImageFrame]

    init(layout: TextLayout, frame: Rect, grid: PixelGrid, entities: [EntityHit], attachments: [ImageFrame]) {
        self.layout = layout
        self.frame = frame
        self.grid = grid
        self.entities = entities
        self.attachments = attachments
    }
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

/// An optional block stored behind one immutable reference: the blocks most cells lack (title,
/// retweet, card, tag) take 8 bytes of the cell value instead of hundreds, so building, returning
/// and copying a `CellGeometry` moves a pointer, not the blocks' bytes. Value semantics are kept:
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
