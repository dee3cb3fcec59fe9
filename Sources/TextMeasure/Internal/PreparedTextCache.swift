import Foundation

/// Prepared-text cache.
///
/// Key: the attributed text itself (string, runs, inline objects, entities). Value: its prepared
/// text. A text measured again — a status re-prepared because its like count changed, a feed
/// loaded again, the same label in many cells — costs a hash, one comparison and a copy of
/// references instead of segmentation, itemization and shaping.
/// Bound: `budgetBytes` (each entry counts its `residentBytes`), split evenly over 16 shards; a
/// shard that would exceed its share is emptied first (epoch eviction, no bookkeeping on hits).
/// Invalidation: none needed — fonts are immutable for the cache's lifetime.
/// Thread-safety: one `Mutex` per shard; counters are kept under the same locks.
final class PreparedTextCache: Sendable {
    typealias Key = TextKey

    private final class Shard: Sendable {
        struct State {
            var entries: [Key: PreparedText] = [:]
            var bytes = 0
            var hits = 0
            var misses = 0
            var evictions = 0
        }
        let state = Locked(State())
    }

    private let shards: [Shard]
    let budgetBytes: Int

    init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
        shards = (0..<16).map { _ in Shard() }
    }

    private func shard(_ hash: Int) -> Shard { shards[Int(UInt(bitPattern: hash) >> (UInt.bitWidth - 4))] }

    func value(for key: Key) -> PreparedText? {
        shard(key.hash).state.withLock { s in
            if let p = s.entries[key] {
                s.hits += 1
                return p
            }
            s.misses += 1
            return nil
        }
    }

    func insert(_ prepared: PreparedText, for key: Key) {
        let bytes = prepared.residentBytes + key.text.utf16Count * 2 + 64
        let share = max(1, budgetBytes / 16)
        guard bytes <= share / 4 else { return }
        // An emptied shard's texts are freed after the lock is released (`takeAll`).
        var dropped: [Key: PreparedText] = [:]
        shard(key.hash).state.withLock { s in
            if s.bytes + bytes > share {
                dropped = s.entries.takeAll()
                s.bytes = 0
                s.evictions += 1
            }
            if s.entries.isEmpty && s.entries.capacity < 16 { s.entries.reserveCapacity(16) }
            if s.entries.updateValue(prepared, forKey: key) == nil { s.bytes += bytes }
        }
        withExtendedLifetime(dropped) {}
    }

    func removeAll() {
        for sh in shards { sh.state.withLock { $0.entries.removeAll(); $0.bytes = 0 } }
    }

    var statistics: CacheStatistics {
        var c = CacheStatistics()
        for sh in shards {
            sh.state.withLock {
                c.hits += $0.hits
                c.misses += $0.misses
                c.evictions += $0.evictions
                c.entries += $0.entries.count
                c.bytes += $0.bytes
            }
        }
        c.budgetBytes = budgetBytes
        return c
    }
}

/// The prepared-text cache's key for an attributed text: the text hashed and compared by its
/// UTF-8 bytes (`StringBytes`), not by `String`'s canonical equivalence. The hash is computed
/// once, when the key is made (seeded per process), and serves both the shard choice and the
/// dictionary.
package struct TextKey: Hashable, @unchecked Sendable {
    package let text: AttributedText
    package let hash: Int

    package init(text: AttributedText) {
        self.text = text
        var h = StringBytes.hash(text.string, into: Self.seed ^ UInt64(truncatingIfNeeded: text.utf16Count))
        if text.runs.count != 1 || !text.attachments.isEmpty || !text.entities.isEmpty {
            var hasher = Hasher()
            hasher.combine(text.runs)
            if !text.attachments.isEmpty { hasher.combine(text.attachments) }
            if !text.entities.isEmpty { hasher.combine(text.entities.count) }
            h = StringBytes.mix(h, UInt64(bitPattern: Int64(hasher.finalize())))
        } else {
            let a = text.runs[0].attributes
            h = StringBytes.mix(h, a.size.bitPattern)
            h = StringBytes.mix(h, UInt64(a.weight.rawValue) | UInt64(a.role.rawValue) << 8 | UInt64(text.runs[0].range.upperBound) << 24)
        }
        if text.tabStops != .pango { h = StringBytes.mix(h, UInt64(truncatingIfNeeded: text.tabStops.hashValue)) }
        hash = Int(truncatingIfNeeded: h ^ (h >> 32))
    }

    /// Per-process seed, so that colliding texts cannot be prepared in advance.
    private static let seed = UInt64.random(in: .min ... .max)

    package func hash(into h: inout Hasher) { h.combine(hash) }

    package static func == (a: TextKey, b: TextKey) -> Bool {
        guard a.hash == b.hash, a.text.utf16Count == b.text.utf16Count, a.text.runs == b.text.runs,
            a.text.attachments == b.text.attachments, a.text.entities == b.text.entities,
            a.text.tabStops == b.text.tabStops
        else { return false }
        return StringBytes.equal(a.text.string, b.text.string)
    }
}
