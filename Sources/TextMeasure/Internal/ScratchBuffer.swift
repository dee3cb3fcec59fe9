/// A growable block of plain values for per-call scratch work: a pointer and a capacity, copied
/// as a value without reference counting. The owner (`PrepareScratch`) frees it; a copy is a
/// borrowed view that the owner must be given back after a `reserve` (which may move the block).
///
/// Elements are plain bits (`BitwiseCopyable`): memory is never initialized or deinitialized,
/// only written before it is read.
struct ScratchBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// Makes room for at least `count` elements, keeping the first `keeping` ones.
    mutating func reserve(_ count: Int, keeping: Int = 0) {
        guard count > capacity else { return }
        let grown = max(count, 2 * capacity)
        let block = UnsafeMutablePointer<Element>.allocate(capacity: grown)
        if keeping > 0 { block.update(from: base, count: keeping) }
        base.deallocate()
        base = block
        capacity = grown
    }

    /// Element `i` (`0 <= i < capacity`; not checked).
    @inline(__always) subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    /// The first `count` elements.
    @inline(__always) func prefix(_ count: Int) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// Frees the block (the owner's last use).
    func free() { base.deallocate() }
}
