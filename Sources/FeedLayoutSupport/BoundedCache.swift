/// A bounded, thread-safe map with byte-budget eviction and hit/miss counters.
///
/// Key: any `Hashable` key. Bound: `budgetBytes` over 16 shards (each holds at most a sixteenth);
/// entries report their own size. Eviction: when a shard is over its share, its least recently
/// used entries are dropped, approximately (a use stamp per entry; eviction scans the shard once
/// against a stamp threshold estimated from a sample, amortized by evicting
/// down to 3/4 of the share). Invalidation: keys carry the content fingerprint, so a changed status
/// simply misses; `removeAll` empties everything. Thread-safety: one lock per shard (`Locked`, a pthread mutex TSan can see).
///
/// Bulk passes: an insert with a `Mark` taken at the start of a pass evicts only entries inserted
/// or used before the mark. Once a shard holds nothing older, the pass's new value is not kept
/// (counted as `rejected`) rather than evicting the pass's own earlier entries: a feed laid out
/// top to bottom into a cache too small for it keeps its first rows, the ones a reader sees
/// first, and the pass frees no cell it made except those it does not keep.
///
/// Public and inlinable (the module is no product, so this widens no product's API): the engines
/// look up and insert with code specialized for their key and value. As `package` declarations
/// they ran unspecialized in the other modules, fetching the metadata of the entry and dictionary
/// types and moving entries through value witnesses at run time (~3 300 instructions of a
/// prepared-cell lookup and insert, ~1 800 of them for the metadata).
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// An entry: the value, its size, and the shard's clock when it was last inserted or found.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var value: Value
        @usableFromInline var bytes: Int
        @usableFromInline var stamp: UInt64

        @inlinable init(value: Value, bytes: Int, stamp: UInt64) {
            self.value = value
            self.bytes = bytes
            self.stamp = stamp
        }
    }

    @usableFromInline
    final class Shard: Sendable {
        @usableFromInline
        struct State: Sendable {
            @usableFromInline var entries: [Key: Entry] = [:]
            @usableFromInline var bytes = 0
            @usableFromInline var clock: UInt64 = 0
            @usableFromInline var hits = 0
            @usableFromInline var misses = 0
            @usableFromInline var evictions = 0
            @usableFromInline var rejected = 0
            /// No entry is stamped below this: entries are only restamped newer, and new ones get
            /// the newest stamp, so the least stamp a scan saw stays a bound. A bulk pass whose
            /// mark is below it knows without a scan that nothing may go.
            @usableFromInline var leastStamp: UInt64 = 1
            /// Entries looked at by eviction scans (for tests of its cost).
            @usableFromInline var scanned = 0
            @inlinable init() {}
        }
        @usableFromInline let state = Locked(State())
        @inlinable init() {}
    }

    @usableFromInline let shards: [Shard]
    public let budgetBytes: Int
    @usableFromInline let size: @Sendable (Value) -> Int

    /// The most entries an empty shard is made with room for on its first insertion (fewer when
    /// the first value's size says its share holds fewer): growing a shard's table from empty
    /// rehashed it at each doubling, about 400 instructions per prepared cell of a new engine.
    @inlinable static var initialShardCapacity: Int { 32 }

    /// - Parameters:
    ///   - budgetBytes: the bound of the entries' bytes (0 keeps nothing).
    ///   - size: the bytes an entry holds (key and value).
    @inlinable
    public init(budgetBytes: Int, size: @escaping @Sendable (Value) -> Int) {
        self.budgetBytes = budgetBytes
        self.size = size
        var shards: [Shard] = []
        shards.reserveCapacity(16)
        for _ in 0..<16 { shards.append(Shard()) }
        self.shards = shards
    }

    @inlinable func shardIndex(_ key: Key) -> Int { Int(UInt(bitPattern: key.hashValue) & 15) }

    /// A point in the cache's history (each shard's use clock), for `insert(_:for:evictingOnlyBefore:)`.
    public struct Mark: Sendable {
        @usableFromInline let clocks: [UInt64]
        @usableFromInline init(clocks: [UInt64]) { self.clocks = clocks }
    }

    /// The current point in the cache's history: entries inserted or found after it are newer.
    /// - Complexity: O(16).
    package func mark() -> Mark { Mark(clocks: shards.map { $0.state.withLock { $0.clock } }) }

    /// The cached value, counted as a hit or a miss.
    /// - Complexity: O(1) expected (one hash lookup under the shard's lock).
    @inlinable
    public func value(for key: Key) -> Value? {
        shards[shardIndex(key)].state.withLock { s in
            s.clock += 1
            if let i = s.entries.index(forKey: key) {
                s.hits += 1
                s.entries.values[i].stamp = s.clock
                return s.entries.values[i].value
            }
            s.misses += 1
            return nil
        }
    }

    /// Stores a value, evicting least recently used entries of its shard beyond the budget.
    /// - Complexity: O(1) expected; O(m) for the m entries of the shard when it evicts
    ///   (down to 3/4 of its share, so at most once per m/4 inserts of similar sizes).
    ///
    /// With a `mark`, only entries older than it are evicted; when they are not enough, `value`
    /// is not kept (see the type's comment on bulk passes).
    @inlinable
    public func insert(_ value: Value, for key: Key, evictingOnlyBefore mark: Mark? = nil) {
        let bytes = size(value)
        let share = max(1, budgetBytes / 16)
        guard bytes <= share else { return }
        let index = shardIndex(key)
        let before = mark?.clocks[index]
        // Evicted values are released after the lock is given back: freeing a cell's memory is
        // the slow part, and another thread may be waiting for this shard.
        let evicted: [Value] = shards[index].state.withLock { s in
            s.clock += 1
            var replaced: [Value] = []
            if s.entries.isEmpty {
                s.entries.reserveCapacity(min(Self.initialShardCapacity, share / max(1, bytes)))
            }
            if let old = s.entries.updateValue(Entry(value: value, bytes: bytes, stamp: s.clock), forKey: key) {
                s.bytes -= old.bytes
                replaced.append(old.value)
            }
            s.bytes += bytes
            if s.bytes > share {
                replaced += Self.evict(&s, downTo: share * 3 / 4, before: before)
                if s.bytes > share, let kept = s.entries.removeValue(forKey: key) {
                    // Only entries of this pass are left: the new value is the one not kept.
                    s.bytes -= kept.bytes
                    s.rejected += 1
                    replaced.append(kept.value)
                }
            }
            return replaced
        }
        withExtendedLifetime(evicted) {}
    }

    /// Drops the least recently used entries of a shard until it holds at most `target` bytes,
    /// approximately: the stamp below which the right share of bytes lies is estimated from a
    /// sample of 128 stamps (the dictionary's order is unrelated to age), then one pass drops
    /// every entry at or below it; a second pass, if still needed, keeps only the newest entry
    /// (which may alone exceed `target`, never the share: `insert` refuses larger values).
    /// O(m) under the shard's lock, with no sort of the whole shard and no rebuilt table.
    /// With `before` (a shard's clock when a mark was taken), only entries stamped at or before it
    /// are candidates (none left: the shard may stay above `target`).
    /// - Returns: the dropped values, for the caller to release outside the lock.
    @inlinable
    static func evict(_ s: inout Shard.State, downTo target: Int, before: UInt64? = nil) -> [Value] {
        let newest = s.clock
        // Entries stamped at or below `limit` may go: all but the newest, or those of the mark.
        let limit = min(before ?? .max, newest - 1)
        // Nothing is that old: without this, each insert of a bulk pass into a shard full of the
        // pass's own entries scanned the whole shard for nothing (a 100 000-row feed in a full
        // cache: 20 s, most of it copying entries).
        if limit < s.leastStamp { return [] }
        // Stamps are read in place: iterating the entries copied each value (retaining a
        // prepared cell's objects), the most of a scan's cost.
        let values = s.entries.values
        var sample: [UInt64] = []
        sample.reserveCapacity(128)
        for i in values.indices.prefix(128) where values[i].stamp <= limit { sample.append(values[i].stamp) }
        sample.sort()
        let fraction = Double(s.bytes - target) / Double(max(1, s.bytes))
        var threshold = sample.isEmpty ? limit : sample[min(sample.count - 1, Int(fraction * Double(sample.count)))]
        var dropped: [Value] = []
        while s.bytes > target {
            var keys: [Key] = []
            var least = UInt64.max
            s.scanned += s.entries.count
            for i in s.entries.indices {
                let stamp = s.entries.values[i].stamp
                if stamp <= threshold && stamp != newest {
                    keys.append(s.entries.keys[i])
                } else {
                    least = min(least, stamp)
                }
            }
            for k in keys {
                guard let e = s.entries.removeValue(forKey: k) else { continue }
                s.bytes -= e.bytes
                dropped.append(e.value)
            }
            s.evictions += keys.count
            s.leastStamp = least == .max ? newest : least
            // Every candidate is gone (the newest entry alone may exceed the target, never the
            // share; with `before`, the entries of the pass may).
            if threshold == limit { break }
            threshold = limit
        }
        return dropped
    }

    /// Empties the cache (counters are kept).
    package func removeAll() {
        for sh in shards { sh.state.withLock { $0.entries.removeAll(); $0.bytes = 0; $0.leastStamp = $0.clock } }
    }

    /// Entries looked at by eviction scans so far, summed over the shards. - Complexity: O(16).
    package var scannedEntries: Int { shards.reduce(0) { n, sh in n + sh.state.withLock { $0.scanned } } }

    /// The counters summed over the shards. - Complexity: O(16).
    package var statistics: CacheStatistics {
        var c = CacheStatistics()
        c.budgetBytes = budgetBytes
        for sh in shards {
            sh.state.withLock {
                c.hits += $0.hits
                c.misses += $0.misses
                c.evictions += $0.evictions
                c.rejected += $0.rejected
                c.entries += $0.entries.count
                c.bytes += $0.bytes
            }
        }
        return c
    }
}

/// Counters of one of the package's caches (shaped words, prepared texts, prepared cells, cell
/// layouts), for tests, benchmarks and `feedlayout bench`. The library products publish it as
/// `TextMeasure.CacheStatistics`.
public struct CacheStatistics: Hashable, Sendable, CustomStringConvertible {
    public var hits = 0
    public var misses = 0
    public var entries = 0
    public var bytes = 0
    public var evictions = 0
    /// Values a bulk pass did not keep (`BoundedCache.insert(_:for:evictingOnlyBefore:)`: a feed
    /// larger than the cache keeps its first rows).
    public var rejected = 0
    public var budgetBytes = 0

    public init() {}

    public var description: String {
        "\(entries) entries, \(bytes) of \(budgetBytes) bytes, \(hits) hits, \(misses) misses, \(evictions) evictions"
            + (rejected > 0 ? ", \(rejected) not kept by bulk passes" : "")
    }
}
