import FeedLayoutSupport
import Foundation

/// Shaped-word cache.
///
/// Key: (font slot, the word's UTF-16 code units). Sizes are not part of the key: words are shaped
/// at a scale of one font unit per unit, so one entry serves every size.
/// Value: the advance of each grapheme cluster of the word in font units, and its glyphs.
/// Bound: `budgetBytes` in total, split evenly over 16 shards; a shard that would exceed its share
/// is emptied before the insert (epoch eviction: no per-entry bookkeeping on the hot path).
/// Invalidation: none needed — fonts are immutable for the cache's lifetime.
/// Shards are chosen by the hash's top 4 bits, slots inside a shard by its low bits.
/// Thread-safety: each shard is behind its own `Mutex`; hit and miss counters are kept per shard
/// under the same lock and summed on read.
final class WordCache: Sendable {
    static let shardCount = 16
    /// Words longer than this (UTF-16 units) are shaped every time and never stored.
    static let maxWordLength = 64

    private let shards: [ShardBox]
    let budgetBytes: Int

    init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
        let perShard = max(4096, budgetBytes / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in ShardBox(Shard(budget: perShard)) }
    }

    /// Key of a word: its face and the script it is shaped as, a byte each; the top bit marks a
    /// word shaped against its script's direction (`WordState.reversed`).
    @inline(__always) static func key(_ slot: FontSlot, _ script: UInt8, reversed: Bool = false) -> UInt16 {
        (reversed ? 0x8000 : 0) | UInt16(slot.rawValue) << 8 | UInt16(script)
    }

    @inline(__always) static func hash(_ key: UInt16, _ word: UnsafeBufferPointer<UInt16>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(key)
        for u in word {
            h = (h ^ UInt64(u)) &* 0x100_0000_01b3
        }
        return h ^ (h >> 29)
    }

    /// Calls `body` with the cached value of the word, or returns false on a miss.
    func lookup(
        _ slot: UInt16, _ word: UnsafeBufferPointer<UInt16>, hash: UInt64,
        _ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<CachedGlyph>) -> Void
    ) -> Bool {
        shards[Int(hash >> 60)].lock.withLock { $0.lookup(slot, word, hash: hash, body) }
    }

    func insert(
        _ slot: UInt16, _ word: UnsafeBufferPointer<UInt16>, hash: UInt64,
        advances: UnsafeBufferPointer<Int32>, glyphs: UnsafeBufferPointer<CachedGlyph>
    ) {
        shards[Int(hash >> 60)].lock.withLock { $0.insert(slot, word, hash: hash, advances: advances, glyphs: glyphs) }
    }

    /// Empties every shard (counters are kept).
    func removeAll() {
        for s in shards { s.lock.withLock { $0.reset() } }
    }

    var statistics: CacheStatistics {
        var s = CacheStatistics()
        for shard in shards {
            shard.lock.withLock {
                s.hits += $0.hits
                s.misses += $0.misses
                s.entries += $0.entryCount
                s.bytes += $0.bytes
                s.evictions += $0.evictions
            }
        }
        s.budgetBytes = budgetBytes
        return s
    }
}

/// A glyph of a cached word: cluster index within the word, offsets and advance in font units.
struct CachedGlyph {
    var glyph: UInt32
    var cluster: Int32
    var xAdvance: Int32
    var xOffset: Int32
    var yOffset: Int32
}

/// One shard: an open-addressing hash table over pooled keys and values.
final class ShardBox: Sendable {
    let lock: Locked<Shard>
    init(_ shard: Shard) { lock = Locked(shard) }
}

struct Shard {
    /// Where an entry's key, advances and glyphs are in the pooled arrays.
    struct Entry {
        var hash: UInt64
        var keyStart: Int32
        var keyLength: Int32
        var advanceStart: Int32
        var advanceCount: Int32
        var glyphStart: Int32
        var glyphCount: Int32
        var slot: UInt16
    }

    let budget: Int
    var slots: [Int32] = []  // entry index or -1; capacity a power of two
    var entries: [Entry] = []
    var keys: [UInt16] = []
    var advances: [Int32] = []
    var glyphs: [CachedGlyph] = []
    var hits = 0
    var misses = 0
    var evictions = 0

    init(budget: Int) {
        self.budget = budget
        slots = [Int32](repeating: -1, count: 256)
    }

    var entryCount: Int { entries.count }
    var bytes: Int {
        slots.count * 4 + entries.count * 42 + keys.count * 2 + advances.count * 4 + glyphs.count * 20
    }

    mutating func reset() {
        slots = [Int32](repeating: -1, count: 256)
        entries.removeAll(keepingCapacity: false)
        keys.removeAll(keepingCapacity: false)
        advances.removeAll(keepingCapacity: false)
        glyphs.removeAll(keepingCapacity: false)
    }

    private func find(_ slot: UInt16, _ word: UnsafeBufferPointer<UInt16>, hash: UInt64) -> Int {
        slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                keys.withUnsafeBufferPointer { k in
                    let mask = slots.count - 1
                    var i = Int(truncatingIfNeeded: hash) & mask
                    while true {
                        let e = Int(slots[i])
                        if e < 0 { return -1 }
                        let entry = entries[e]
                        if entry.hash == hash && entry.slot == slot && Int(entry.keyLength) == word.count
                            && memcmp(k.baseAddress! + Int(entry.keyStart), word.baseAddress!, word.count * 2) == 0
                        {
                            return e
                        }
                        i = (i + 1) & mask
                    }
                }
            }
        }
    }

    mutating func lookup(
        _ slot: UInt16, _ word: UnsafeBufferPointer<UInt16>, hash: UInt64,
        _ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<CachedGlyph>) -> Void
    ) -> Bool {
        let e = find(slot, word, hash: hash)
        guard e >= 0 else {
            misses += 1
            return false
        }
        hits += 1
        let entry = entries[e]
        let a0 = Int(entry.advanceStart), an = Int(entry.advanceCount)
        let g0 = Int(entry.glyphStart), gn = Int(entry.glyphCount)
        advances.withUnsafeBufferPointer { adv in
            glyphs.withUnsafeBufferPointer { gl in
                body(UnsafeBufferPointer(rebasing: adv[a0..<a0 + an]), UnsafeBufferPointer(rebasing: gl[g0..<g0 + gn]))
            }
        }
        return true
    }

    mutating func insert(
        _ slot: UInt16, _ word: UnsafeBufferPointer<UInt16>, hash: UInt64,
        advances newAdvances: UnsafeBufferPointer<Int32>, glyphs newGlyphs: UnsafeBufferPointer<CachedGlyph>
    ) {
        if find(slot, word, hash: hash) >= 0 { return }
        let added = word.count * 2 + newAdvances.count * 4 + newGlyphs.count * 20 + 49
        if bytes + added > budget && entryCount > 0 {
            reset()
            evictions += 1
        }
        if entries.isEmpty && entries.capacity < 64 {
            // A fresh shard: room for its first words without regrowing from one element.
            entries.reserveCapacity(64)
            keys.reserveCapacity(512)
            advances.reserveCapacity(512)
            glyphs.reserveCapacity(256)
        }
        if (entryCount + 1) * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            let mask = slots.count - 1
            for e in 0..<entryCount {
                var i = Int(truncatingIfNeeded: entries[e].hash) & mask
                while slots[i] >= 0 { i = (i + 1) & mask }
                slots[i] = Int32(e)
            }
        }
        let e = Int32(entryCount)
        entries.append(
            Entry(
                hash: hash, keyStart: Int32(keys.count), keyLength: Int32(word.count),
                advanceStart: Int32(advances.count), advanceCount: Int32(newAdvances.count),
                glyphStart: Int32(glyphs.count), glyphCount: Int32(newGlyphs.count), slot: slot))
        keys.append(contentsOf: word)
        advances.append(contentsOf: newAdvances)
        glyphs.append(contentsOf: newGlyphs)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = e
    }
}
