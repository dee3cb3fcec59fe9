/// Run-font lists already made on one thread, so that prepared texts with equal lists share one
/// array (`PreparedTextBuilder.shareFonts(from:)`): most texts use one of a few lists (the base
/// font of a role, with emoji, objects or bold), and a list of their own was one allocation per
/// prepared text.
///
/// - Equality: the same count and the same bytes (every field bit for bit), so a shared list is
///   exactly the one the text would have made.
/// - Slots: `slotCount`, direct-mapped by a hash of the list's bytes, each with a copy of its
///   list's bytes (compared without touching the array); a list whose slot holds another list
///   replaces it (a thread's texts use far fewer lists than there are slots). Lists of more than
///   `maxFonts` fonts are not kept.
/// - Thread-safety: none; each thread's `PrepareScratch` owns one. Its storage is plain memory
///   (no exclusivity checks, no reference counting of the table itself); `free` releases it.
struct RunFontTable {
    static let slotCount = 64
    static let maxFonts = 4
    /// A `RunFont` is four 8-byte words without padding.
    private static let wordsPerFont = 4
    /// Per slot: the font count, then `maxFonts` fonts' words.
    private static let keyWords = 1 + maxFonts * wordsPerFont
    private let lists: UnsafeMutablePointer<[RunFont]>
    private let keys: UnsafeMutablePointer<UInt64>

    init() {
        lists = .allocate(capacity: Self.slotCount)
        lists.initialize(repeating: [], count: Self.slotCount)
        keys = .allocate(capacity: Self.slotCount * Self.keyWords)
        keys.initialize(repeating: 0, count: Self.slotCount * Self.keyWords)  // count 0: no list
    }

    /// Releases the lists and the storage; the table MUST NOT be used afterwards.
    func free() {
        lists.deinitialize(count: Self.slotCount)
        lists.deallocate()
        keys.deallocate()
    }

    /// A list equal to `fonts`: the table's when it holds one, else a new array (kept when it
    /// has at most `maxFonts` fonts).
    /// - Precondition: `fonts` is not empty.
    /// - Complexity: O(fonts.count): one hash and one comparison.
    func list(_ fonts: UnsafeBufferPointer<RunFont>) -> [RunFont] {
        let count = fonts.count
        guard count <= Self.maxFonts, let base = fonts.baseAddress else { return Array(fonts) }
        let n = count * Self.wordsPerFont
        let words = UnsafeRawPointer(base).assumingMemoryBound(to: UInt64.self)
        var h = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        for k in 0..<n { h = (h ^ words[k]) &* 0xFF51_AFD7_ED55_8CCD }
        let slot = Int(truncatingIfNeeded: h >> 58)  // the top 6 bits: 0..<64
        let key = keys + slot * Self.keyWords
        if key[0] == UInt64(truncatingIfNeeded: count) {
            var k = 0
            while k < n && key[1 + k] == words[k] { k += 1 }
            if k == n { return lists[slot] }
        }
        let made = Array(fonts)
        lists[slot] = made
        key[0] = UInt64(truncatingIfNeeded: count)
        (key + 1).update(from: words, count: n)
        return made
    }
}
