/// The lines of layouts, and the storage several layouts share.
///
/// A layout's lines are a range of a `LineStorage`: one object that a caller laying out many
/// texts together (a cell's name, time, text and labels) fills through a `LineArena`, so that the
/// texts' lines take one allocation, not one each. `PreparedText.layout` on its own gives a
/// layout its own storage.

/// The lines of a layout, top to bottom: an immutable collection whose indices run from 0.
///
/// The value is a view: it holds the storage its lines are in (which may hold the lines of other
/// layouts laid out with it) and their range there.
/// Thread-safety: an immutable value, safe to share across threads (checked by hand: its
/// storage's lines are not written after the view is made; see `LineStorage`).
public struct TextLines: RandomAccessCollection, Hashable, @unchecked Sendable, CustomStringConvertible {
    private let storage: LineStorage?
    private let start: Int32
    private let lineCount: Int32

    /// No lines.
    public init() {
        storage = nil
        start = 0
        lineCount = 0
    }

    /// `lines`, in order, in storage of their own.
    public init(_ lines: some Collection<TextLine>) {
        var arena = LineArena(capacity: lines.count)
        arena.begin()
        for line in lines { arena.append(line) }
        self = arena.finish()
    }

    fileprivate init(storage: LineStorage?, start: Int, count: Int) {
        self.storage = storage
        self.start = Int32(start)
        self.lineCount = Int32(count)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(lineCount) }
    public var count: Int { Int(lineCount) }

    public subscript(i: Int) -> TextLine {
        precondition(i >= 0 && i < Int(lineCount), "line index out of range")
        return storage.unsafelyUnwrapped.lines[Int(start) + i]
    }

    public var description: String { Array(self).description }

    /// The storage the lines are in (nil for no lines): layouts laid out into one `LineArena`
    /// share it until it fills.
    package var storageIdentity: ObjectIdentifier? { storage.map(ObjectIdentifier.init) }

    /// The room of the storage the lines are in, in lines (0 for no lines).
    package var storageCapacity: Int { storage.map { $0.counts.pointee.capacity } ?? 0 }

    /// True when both are the same lines of the same storage (so equal without comparing them).
    package func isSameStorage(as other: TextLines) -> Bool {
        storage === other.storage && start == other.start && lineCount == other.lineCount
    }

    public static func == (a: TextLines, b: TextLines) -> Bool { a.isSameStorage(as: b) || a.elementsEqual(b) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for line in self { hasher.combine(line) }
    }
}

/// The count of lines written in a `LineStorage`, and its room.
package struct LineStorageHeader {
    var used = 0
    let capacity: Int
}

/// Lines of one or more layouts, written once, front to back, then only read: a range is written
/// before the layout that views it exists, and never again.
/// Thread-safety: immutable once its views are shared (checked by hand: `ManagedBuffer` is not
/// `Sendable`; only the `LineArena` that made the object writes to it, before it hands out views
/// of what it wrote).
package final class LineStorage: ManagedBuffer<LineStorageHeader, TextLine> {
    static func make(capacity: Int) -> LineStorage {
        let made = create(minimumCapacity: capacity) { _ in LineStorageHeader(capacity: capacity) }
        return unsafeDowncast(made, to: LineStorage.self)
    }

    /// The first line (the storage does not move).
    @inline(__always) var lines: UnsafeMutablePointer<TextLine> { withUnsafeMutablePointerToElements { $0 } }
    @inline(__always) var counts: UnsafeMutablePointer<LineStorageHeader> { withUnsafeMutablePointerToHeader { $0 } }

    deinit {
        _ = withUnsafeMutablePointers { h, e in e.deinitialize(count: h.pointee.used) }
    }
}

/// Writes the lines of layouts into shared storage: `begin`, `append` each line, `finish` gives
/// the view of the lines appended since `begin`. The storage is made at the first line (a caller
/// whose layouts all come from elsewhere makes none), with room for `capacity` lines; when it is
/// full, a new one with twice the room takes the lines of the layout being written, and the
/// views finished before keep the old one.
package struct LineArena: ~Copyable {
    private var storage: LineStorage?
    private var capacity: Int
    /// Where the layout being written starts in `storage`.
    private var start = 0

    /// An arena whose first storage has room for `capacity` lines (at least 1).
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Starts the lines of a layout.
    package mutating func begin() {
        start = storage.map { $0.counts.pointee.used } ?? 0
    }

    /// The number of lines since `begin`.
    package var count: Int { storage.map { $0.counts.pointee.used - start } ?? 0 }

    /// The lines since `begin`, to read and change in place (for the line limit and the token).
    package var current: UnsafeMutableBufferPointer<TextLine> {
        guard let s = storage else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        return UnsafeMutableBufferPointer(start: s.lines + start, count: s.counts.pointee.used - start)
    }

    /// Appends a line to the layout being written.
    package mutating func append(_ line: TextLine) {
        if storage.map({ $0.counts.pointee.used == $0.counts.pointee.capacity }) ?? true { grow() }
        let s = storage.unsafelyUnwrapped
        (s.lines + s.counts.pointee.used).initialize(to: line)
        s.counts.pointee.used += 1
    }

    /// Makes new storage, with the lines since `begin` moved into it.
    @inline(never)
    private mutating func grow() {
        let pending = count
        if storage != nil { capacity = max(2 * capacity, 2 * (pending + 1)) }
        let made = LineStorage.make(capacity: max(capacity, pending + 1))
        if let old = storage {
            made.lines.moveInitialize(from: old.lines + start, count: pending)
            old.counts.pointee.used = start
        }
        made.counts.pointee.used = pending
        storage = made
        start = 0
    }

    /// Removes the last `k` lines of the layout being written.
    package mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "removing more lines than were written")
        guard let s = storage, k > 0 else { return }
        s.counts.pointee.used -= k
        (s.lines + s.counts.pointee.used).deinitialize(count: k)
    }

    /// The view of the lines since `begin`.
    package mutating func finish() -> TextLines {
        let n = count
        precondition(n <= Int(Int32.max) && start <= Int(Int32.max), "too many lines")
        return TextLines(storage: n == 0 ? nil : storage, start: n == 0 ? 0 : start, count: n)
    }
}
