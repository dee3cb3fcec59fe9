import Synchronization
import TextMeasure

// Storage behind the cell's public values: the shared prepared text of a text box, the hit
// rects with their first rect inline, and the property wrapper that keeps rare blocks out of line.

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
    /// retained, not built). Kept by the second layout that gives one unwrapped line, not the
    /// first: a cell laid out once (a cold cell) makes no object for it, and a box laid out again
    /// keeps one from then on.
    /// The word is 0 (no one-line layout yet), `seenOnce` (one was given, none kept), or the
    /// address of a retained `OneLineLayout`, released in `deinit`. (An atomic word rather than an
    /// `AtomicLazyReference`, whose `load` is not inlined across modules and looks up generic
    /// metadata on every call.)
    private let oneLine = Atomic<UInt>(0)
    private static let seenOnce: UInt = 1

    deinit {
        let word = oneLine.load(ordering: .acquiring)
        if word > Self.seenOnce { Self.kept(word).release() }
    }

    /// The `OneLineLayout` whose address is `word` (> `seenOnce`).
    @inline(__always) private static func kept(_ word: UInt) -> Unmanaged<OneLineLayout> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
    }

    /// `prepared.layout(options, truncationToken:)`, called on the stored text in place (reading
    /// `box.prepared` from outside copies the struct, one retain per array it holds). A text that
    /// fits on one line is laid out at most twice per box: once it is kept, later requests that
    /// it fits are answered with the kept layout (equal to what `prepared.layout` gives;
    /// `PreparedTextBoxTests` checks it).
    func layout(_ options: LayoutOptions, truncationToken: PreparedTextBox? = nil) -> TextLayout {
        let word = oneLine.load(ordering: .acquiring)
        if word > Self.seenOnce {
            let kept = Self.kept(word)
            if kept._withUnsafeGuaranteedRef({ $0.answers(options) }) {
                return kept._withUnsafeGuaranteedRef { $0.layout }
            }
        }
        let layout =
            if let token = truncationToken {
                prepared.layout(options, truncationToken: token.prepared)
            } else {
                prepared.layout(options)
            }
        if word <= Self.seenOnce, layout.lines.count == 1, layout.fullLineCount == 1 {
            if word == 0 {
                // The first one-line answer only marks the box (another thread may have marked it).
                _ = oneLine.compareExchange(expected: 0, desired: Self.seenOnce, ordering: .relaxed)
            } else {
                let made = Unmanaged.passRetained(OneLineLayout(layout, options: options, width: prepared.unwrappedWidth))
                let desired = UInt(bitPattern: made.toOpaque())
                if !oneLine.compareExchange(expected: Self.seenOnce, desired: desired, ordering: .acquiringAndReleasing).exchanged {
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
