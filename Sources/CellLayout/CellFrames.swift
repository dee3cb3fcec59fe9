import TextMeasure

// The lists of an arranged cell (its blocks, its toolbar's buttons, its picture grid's frames),
// stored in one object per cell instead of one array each.

/// A list of an arranged cell's parts (its blocks, its toolbar's buttons, a grid's pictures): an
/// immutable collection whose indices run from 0.
///
/// The value is a view: it holds the object its elements are stored in, which also holds the
/// cell's other lists, so that arranging a cell makes one allocation for all of them.
/// Thread-safety: an immutable value, safe to share across threads (checked by hand: the storage
/// is written only while the cell is arranged, before any view of it exists).
public struct CellFrames<Element>: RandomAccessCollection {
    private let storage: CellFrameStorage?
    /// Byte offset of the first element from the storage's elements.
    private let offset: Int32
    private let elementCount: Int32

    /// No elements.
    public init() {
        storage = nil
        offset = 0
        elementCount = 0
    }

    fileprivate init(storage: CellFrameStorage, offset: Int, count: Int) {
        self.storage = count == 0 ? nil : storage
        self.offset = Int32(offset)
        self.elementCount = Int32(count)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(elementCount) }
    public var count: Int { Int(elementCount) }

    public subscript(i: Int) -> Element {
        precondition(i >= 0 && i < Int(elementCount), "index out of range")
        return (storage.unsafelyUnwrapped.bytes + Int(offset)).assumingMemoryBound(to: Element.self)[i]
    }

    /// Calls `body` with the elements where they are stored: fields read through it are read in
    /// place, where the subscript copies a whole element (a retain and a release of each
    /// reference it holds) for each field read.
    package func withUnsafeElements<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        guard let storage else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try withExtendedLifetime(storage) {
            try body(UnsafeBufferPointer(start: (storage.bytes + Int(offset)).assumingMemoryBound(to: Element.self), count: count))
        }
    }

    /// The object the elements are stored in (nil for none): a cell's lists share one.
    package var storageIdentity: ObjectIdentifier? { storage.map(ObjectIdentifier.init) }

    /// True when the storage holds as many elements of each list as it has room for (the room
    /// an arranger counts before it starts is exact).
    package var fillsItsStorage: Bool {
        guard let c = storage?.counts.pointee else { return true }
        return c.blocks == c.blockRoom && c.buttons == c.buttonRoom && c.pictures == c.pictureRoom
    }

    /// True when both are the same elements of the same storage.
    package func isSameStorage(as other: CellFrames) -> Bool {
        storage === other.storage && offset == other.offset && elementCount == other.elementCount
    }
}

extension CellFrames: @unchecked Sendable where Element: Sendable {}

extension CellFrames: Equatable where Element: Equatable {
    public static func == (a: CellFrames, b: CellFrames) -> Bool { a.isSameStorage(as: b) || a.elementsEqual(b) }
}

extension CellFrames: CustomStringConvertible {
    public var description: String { Array(self).description }
}

/// The three lists of a cell, in this order in the storage, and how many of each were written.
package struct CellFrameCounts {
    /// Room for each list, and how many were written.
    let blockRoom: Int, buttonRoom: Int, pictureRoom: Int
    var blocks = 0, buttons = 0, pictures = 0

    /// Byte offsets of the buttons and the pictures (the blocks start at 0). Every element type
    /// has an alignment of 8, as the storage's words.
    var buttonsOffset: Int { blockRoom * MemoryLayout<CellBlock>.stride }
    var picturesOffset: Int { buttonsOffset + buttonRoom * MemoryLayout<ToolbarButton>.stride }
    var byteCount: Int { picturesOffset + pictureRoom * MemoryLayout<PictureFrame>.stride }
}

/// The lists of one arranged cell: its blocks, then its toolbar's buttons, then its pictures
/// (the retweet's or its own: a cell shows one grid), each with the room `CellFrameCounts` says.
/// Written while the cell is arranged, then only read. (A button's label holds line storage and
/// arrays of its own, never this object: no cycle.)
package final class CellFrameStorage: ManagedBuffer<CellFrameCounts, UInt64> {
    static func make(blocks: Int, buttons: Int, pictures: Int) -> CellFrameStorage {
        // The lists follow one another from the first word (constant-folded in release builds).
        precondition(
            MemoryLayout<CellBlock>.alignment <= 8 && MemoryLayout<ToolbarButton>.alignment <= 8
                && MemoryLayout<PictureFrame>.alignment <= 8, "a list's elements need more than word alignment")
        let counts = CellFrameCounts(blockRoom: blocks, buttonRoom: buttons, pictureRoom: pictures)
        let words = (counts.byteCount + 7) / 8
        return unsafeDowncast(create(minimumCapacity: max(1, words)) { _ in counts }, to: CellFrameStorage.self)
    }

    @inline(__always) var bytes: UnsafeMutableRawPointer { withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) } }
    @inline(__always) var counts: UnsafeMutablePointer<CellFrameCounts> { withUnsafeMutablePointerToHeader { $0 } }

    deinit {
        let c = counts.pointee, b = bytes
        b.assumingMemoryBound(to: CellBlock.self).deinitialize(count: c.blocks)
        (b + c.buttonsOffset).assumingMemoryBound(to: ToolbarButton.self).deinitialize(count: c.buttons)
        (b + c.picturesOffset).assumingMemoryBound(to: PictureFrame.self).deinitialize(count: c.pictures)
    }
}

/// Writes a cell's lists into one `CellFrameStorage`, made with the room the arranger counts for
/// them before it starts (each list is appended to, then viewed once, whole).
package struct CellFrameArena: ~Copyable {
    private let storage: CellFrameStorage

    package init(blocks: Int, buttons: Int, pictures: Int) {
        storage = CellFrameStorage.make(blocks: blocks, buttons: buttons, pictures: pictures)
    }

    package mutating func append(_ block: CellBlock) {
        let c = storage.counts
        Self.write(block, storage.bytes, count: &c.pointee.blocks, room: c.pointee.blockRoom)
    }

    package mutating func append(_ button: consuming ToolbarButton) {
        let c = storage.counts
        Self.write(button, storage.bytes + c.pointee.buttonsOffset, count: &c.pointee.buttons, room: c.pointee.buttonRoom)
    }

    package mutating func append(_ picture: consuming PictureFrame) {
        let c = storage.counts
        Self.write(picture, storage.bytes + c.pointee.picturesOffset, count: &c.pointee.pictures, room: c.pointee.pictureRoom)
    }

    /// Writes `value` after the `count` elements of the list at `list`, within its `room`.
    @inline(__always)
    private static func write<T>(_ value: consuming T, _ list: UnsafeMutableRawPointer, count: inout Int, room: Int) {
        precondition(count < room, "more elements than the arranger counted")
        (list.assumingMemoryBound(to: T.self) + count).initialize(to: value)
        count += 1
    }

    /// The blocks appended so far.
    package var blocks: CellFrames<CellBlock> { CellFrames(storage: storage, offset: 0, count: storage.counts.pointee.blocks) }

    /// The buttons appended so far.
    package var buttons: CellFrames<ToolbarButton> {
        CellFrames(storage: storage, offset: storage.counts.pointee.buttonsOffset, count: storage.counts.pointee.buttons)
    }

    /// The pictures appended so far.
    package var pictures: CellFrames<PictureFrame> {
        CellFrames(storage: storage, offset: storage.counts.pointee.picturesOffset, count: storage.counts.pointee.pictures)
    }
}
