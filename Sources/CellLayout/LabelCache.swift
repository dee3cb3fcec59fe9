import FeedLayoutSupport
import TextMeasure

/// Prepared short labels that repeat across cells: toolbar counts ("转发", "评论", "赞", "12",
/// "3万"), the read-more token and the card ellipsis; the names of stacked cells (a feed shows the
/// same users again and again: 74 names in the corpus's 206 statuses); their relative time lines
/// ("15分钟前  来自 微博 weibo.com": a few relative times, a few sources).
///
/// - Key: a `LabelName` (a word, a count, a size and a role), not the label's text: a label is
///   `CountFormat.label(count, word:)` in one style, so its name is enough to make it, and a cell
///   finds its labels without building their strings and attributed texts or hashing them (a
///   label found took ~2 800 instructions that way, ~1 400 by name, lock and shard included). A
///   label prepares the same way whenever its name is equal, because the measurer is fixed for
///   the cache's lifetime.
/// - Shards: one per thread (`currentThreadIndex` modulo `shardCount`), each a whole table: a
///   thread finds its labels in its own shard, so threads laying out cells side by side neither
///   wait for one lock nor move the same lock and label objects (whose reference counts every
///   cell changes) back and forth between their cores. A label is prepared once per thread that
///   shows it; the values are equal, because the measurer is the same.
/// - Shapes: count labels of one shape differ in their ASCII digits only ("1234" and "5678",
///   "3万" and "7万"), which the text faces measure alike: a shard keeps the first label of each
///   shape (`CountFormat.firstOfShape`), and a new count label is that one copied with its own
///   digits (`TextMeasurer.substitutingDigits`, which declines where the copy would not be exact),
///   not prepared.
/// - Names: a table of their own per shard, keyed by a `NameLabel` (the shown name and what the
///   name text is made of), with counters of their own (`nameStatistics`); time lines likewise
///   (`TimeLineLabel`, `timeLineStatistics`).
/// - Bound: `capacity` entries per shard and table (default 2 048, a few hundred KB). An empty
///   table is made with room for `initialCapacity` entries on its first insertion: growing it
///   from empty rehashed its entries at each doubling (about 570 instructions per inserted label
///   or name on the corpus's cold cells).
/// - Eviction: when a shard's table is full, it is dropped whole (labels are cheap to prepare
///   again; a full table means the labels do not repeat and keeping them would not pay).
/// - Invalidation: none; the cache belongs to one engine, and so to one measurer.
///
/// Thread-safety: `Sendable`; each shard has its own lock (threads beyond `shardCount` share
/// shards), held only for the table access, never while hashing or preparing.
final class LabelCache: Sendable {
    /// One table of a shard: prepared texts by key, with its counters.
    struct Table<Key: Hashable & Sendable>: Sendable {
        var entries: [Key: PreparedTextBox] = [:]
        var hits = 0
        var misses = 0
        var evictions = 0

        /// The entry of `key`, counted as a hit.
        mutating func hit(_ key: Key) -> PreparedTextBox? {
            guard let p = entries[key] else { return nil }
            hits += 1
            return p
        }

        /// Stores `p` as a miss; a full table (`capacity` entries) is dropped whole first and
        /// returned, so the caller frees it after the lock is released. An empty table is made
        /// with room for `initialCapacity` entries.
        mutating func insert(_ p: PreparedTextBox, for key: Key, capacity: Int, initialCapacity: Int) -> [Key: PreparedTextBox] {
            misses += 1
            var dropped: [Key: PreparedTextBox] = [:]
            if entries.count >= capacity {
                dropped = entries.takeAll()
                evictions += 1
            }
            if entries.isEmpty { entries.reserveCapacity(initialCapacity) }
            entries[key] = p
            return dropped
        }
    }

    struct State: Sendable {
        var labels = Table<LabelName>()
        /// The first count label of each shape (keyed by `CountFormat.firstOfShape`), the
        /// template of the shape's other labels.
        var shapes = Table<LabelName>()
        var names = Table<NameLabel>()
        var timeLines = Table<TimeLineLabel>()
    }

    static let shardCount = 8
    let capacity: Int
    private let shards: [Locked<State>]

    /// The room a shard's table is made with (at most `capacity`).
    let initialCapacity: Int

    init(capacity: Int = 2048) {
        self.capacity = max(1, capacity)
        initialCapacity = min(self.capacity, 256)
        shards = (0..<Self.shardCount).map { _ in Locked(State()) }
    }

    /// The calling thread's shard, for the look-ups of one cell: finding the thread's shard
    /// (`currentThreadIndex`) took ~100 instructions, and a cell looks up five or six labels.
    func forThisThread() -> ThreadShard {
        ThreadShard(cache: self, shard: shards[currentThreadIndex % Self.shardCount])
    }

    /// One shard of the cache, the calling thread's (`forThisThread()`): the look-ups of
    /// `LabelCache`. Used on the thread that made it (on another it would still be correct, but
    /// share the shard with that shard's own thread).
    struct ThreadShard {
        let cache: LabelCache
        fileprivate let shard: Locked<State>

        /// See `LabelCache.label(_:count:size:role:measurer:)`.
        func label(_ word: String, count: Int = 0, size: Double, role: TextRole, measurer: any TextMeasuring) -> PreparedTextBox {
            let shown = CountFormat.shown(count)
            let name = LabelName(word: word, count: shown, size: size, role: role)
            if let hit = shard.withLock({ $0.labels.hit(name) }) { return hit }
            // Count labels of one shape differ in their digits only ("1234" is "5678" with other
            // digits): a new one is copied from the first label of its shape prepared here, with
            // its own digits (`prepareUncached(like:digits:)`: about 1 100 instructions against
            // 2 500 to prepare a label).
            var made: PreparedText?
            var newShape: LabelName?
            if shown > 0 {
                let shape = LabelName(word: word, count: CountFormat.firstOfShape(shown), size: size, role: role)
                if let template = shard.withLock({ $0.shapes.hit(shape) }) {
                    made = CountFormat.withLabelDigits(shown) { measurer.prepareUncached(like: template.prepared, digits: $0) }
                } else {
                    newShape = shape
                }
            }
            let box = PreparedTextBox(
                made ?? measurer.prepareUncached(AttributedText(CountFormat.label(shown, word: word), size: size, role: role)))
            if let newShape { _ = store(box, for: newShape, in: \.shapes) }
            return store(box, for: name, in: \.labels)
        }

        /// See `LabelCache.name(_:make:)`.
        func name(_ key: NameLabel, make: () -> PreparedText) -> PreparedTextBox {
            cached(key, in: \.names, make: make)
        }

        /// The prepared time line of the cell: `make(template)` with the line stored for `key`
        /// (a line whose digits may differ), which is returned itself when `make` gives it back;
        /// `make(nil)`, stored, when there is none.
        func timeLine(_ key: TimeLineLabel, make: (_ template: PreparedText?) -> PreparedText) -> PreparedTextBox {
            if let hit = shard.withLock({ $0.timeLines.hit(key) }) {
                let p = make(hit.prepared)
                return p.isSameStorage(as: hit.prepared) ? hit : PreparedTextBox(p)
            }
            return store(PreparedTextBox(make(nil)), for: key, in: \.timeLines)
        }

        /// The entry of `key` in `table`, or the text `make()` prepares, stored there. The
        /// lock is held for the table accesses only; a dropped full table is freed after it.
        @inline(__always)
        private func cached<Key>(
            _ key: Key, in table: WritableKeyPath<State, Table<Key>>, make: () -> PreparedText
        ) -> PreparedTextBox {
            if let hit = shard.withLock({ $0[keyPath: table].hit(key) }) { return hit }
            return store(PreparedTextBox(make()), for: key, in: table)
        }

        /// Stores `p` for `key` in `table` (counted as a miss) and returns it; a dropped full
        /// table is freed after the lock is released.
        @inline(__always)
        private func store<Key>(_ p: PreparedTextBox, for key: Key, in table: WritableKeyPath<State, Table<Key>>) -> PreparedTextBox {
            let dropped = shard.withLock {
                $0[keyPath: table].insert(p, for: key, capacity: cache.capacity, initialCapacity: cache.initialCapacity)
            }
            withExtendedLifetime(dropped) {}
            return p
        }
    }

    /// The prepared label `CountFormat.label(count, word: word)` at `size` in `role`, from the
    /// table or prepared by `measurer` (and stored). With the default count of 0 the label is
    /// `word` itself (a token, an ellipsis).
    func label(_ word: String, count: Int = 0, size: Double, role: TextRole, measurer: any TextMeasuring) -> PreparedTextBox {
        forThisThread().label(word, count: count, size: size, role: role, measurer: measurer)
    }

    /// The prepared name `key` stands for: from the names table, or made by `make()` (and
    /// stored).
    /// - Precondition: `make()` gives the same text for equal keys (the text is a function of the
    ///   key's fields).
    func name(_ key: NameLabel, make: () -> PreparedText) -> PreparedTextBox {
        forThisThread().name(key, make: make)
    }

    /// (hits, misses, evictions, entries) of the labels, summed over the shards, for tests and
    /// benchmarks.
    var statistics: (hits: Int, misses: Int, evictions: Int, count: Int) { totals(\.labels) }

    /// (hits, misses, evictions, entries) of the names, summed over the shards.
    var nameStatistics: (hits: Int, misses: Int, evictions: Int, count: Int) { totals(\.names) }

    /// (hits, misses, evictions, entries) of the time lines, summed over the shards.
    var timeLineStatistics: (hits: Int, misses: Int, evictions: Int, count: Int) { totals(\.timeLines) }

    /// The same for the count labels' shapes: a hit is a label copied from its shape's first.
    var shapeStatistics: (hits: Int, misses: Int, evictions: Int, count: Int) { totals(\.shapes) }

    private func totals<Key>(_ table: KeyPath<State, Table<Key>>) -> (hits: Int, misses: Int, evictions: Int, count: Int) {
        var total = (hits: 0, misses: 0, evictions: 0, count: 0)
        for shard in shards {
            shard.withLock {
                let t = $0[keyPath: table]
                total.hits += t.hits
                total.misses += t.misses
                total.evictions += t.evictions
                total.count += t.entries.count
            }
        }
        return total
    }
}

/// A label cache key that hashes its content once, when it is made (`hash`, from `StringBytes`),
/// and gives the tables that stored hash: the default `_rawHashValue(seed:)` hashed the key again
/// at every look-up (~135 of the ~300 instructions of a label look-up).
protocol PrehashedLabelKey: Hashable {
    /// The key's content hashed once (`StringBytes.hash` and `mix`); equal keys have equal ones.
    var hash: UInt64 { get }
}

extension PrehashedLabelKey {
    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The table's hash, from the stored one (`StringBytes.seededHash`).
    func _rawHashValue(seed: Int) -> Int { StringBytes.seededHash(hash, seed: seed) }
}

/// What a label is made from: `CountFormat.label(count, word: word)` at `size` in `role`. Equal
/// names are equal labels; `count` is already `CountFormat.shown` (12 345 and 12 999 are both
/// "1万", one name).
///
/// Hashed and compared by the word's UTF-8 bytes (`StringBytes`, as the prepared-text cache's
/// key is), not by `String`'s canonical equivalence.
struct LabelName: PrehashedLabelKey {
    let word: String
    let count: Int
    let size: Double
    let role: TextRole
    let hash: UInt64

    /// - Parameter count: a `CountFormat.shown` value; when it is positive the label is the
    ///   number and the word is not part of the name ("5" is one label for every button).
    init(word: String, count: Int, size: Double, role: TextRole) {
        self.word = count > 0 ? "" : word
        self.count = count
        self.size = size
        self.role = role
        let h = StringBytes.mix(StringBytes.mix(UInt64(truncatingIfNeeded: count), size.bitPattern), UInt64(role.rawValue))
        hash = StringBytes.hash(self.word, into: h)
    }

    static func == (a: LabelName, b: LabelName) -> Bool {
        a.hash == b.hash && a.count == b.count && a.size.bitPattern == b.size.bitPattern && a.role == b.role
            && StringBytes.equal(a.word, b.word)
    }
}

/// What the name label of a stacked cell is made from: the shown name at `size` in `role`, then,
/// when it has icons, a space and the verified and member icons (square, `size` wide, split at
/// `ascentFraction`). Equal keys are equal labels.
///
/// Hashed and compared by the name's UTF-8 bytes (`StringBytes`), as `LabelName` is.
struct NameLabel: PrehashedLabelKey {
    let name: String
    let size: Double
    let role: TextRole
    let verified: Bool
    /// The member rank (0: not a member).
    let memberRank: Int
    let ascentFraction: Double
    let hash: UInt64

    init(name: String, size: Double, role: TextRole, verified: Bool, memberRank: Int, ascentFraction: Double) {
        self.name = name
        self.size = size
        self.role = role
        self.verified = verified
        self.memberRank = memberRank
        self.ascentFraction = ascentFraction
        var h = StringBytes.mix(UInt64(truncatingIfNeeded: memberRank), verified ? 1 : 0)
        h = StringBytes.mix(StringBytes.mix(h, size.bitPattern), UInt64(role.rawValue))
        hash = StringBytes.hash(name, into: StringBytes.mix(h, ascentFraction.bitPattern))
    }

    static func == (a: NameLabel, b: NameLabel) -> Bool {
        a.hash == b.hash && a.verified == b.verified && a.memberRank == b.memberRank && a.size.bitPattern == b.size.bitPattern
            && a.role == b.role
            && a.ascentFraction.bitPattern == b.ascentFraction.bitPattern && StringBytes.equal(a.name, b.name)
    }
}

/// What the time line of a stacked cell is made from: the time string, then, when the status has
/// a source, the separator, the source prefix and the source, all at `size` (the time in the
/// time role, the prefix and source in the source role). Equal keys are lines that differ in
/// ASCII digits at most: the time and the source are hashed and compared with their digits read
/// as 0 (`hashDigitsAsZero`, `equalDigitsAsZero`), and the line stored for a key is copied with
/// the digits of another (`TextMeasurer.substitutingDigits`, which declines where a digit would
/// not measure alike).
///
/// Relative times take few values ("刚刚", "N分钟前", "N小时前"); absolute ones are unique to the
/// minute, but of a few shapes ("yy-M-dd HH:mm" takes two, by the month's digits). The sources of a feed are few.
/// Hashed and compared by the strings' UTF-8 bytes (`StringBytes`), as `LabelName` is.
struct TimeLineLabel: PrehashedLabelKey {
    /// The time, as formatted in place (`ShortText`: no string is made for it) or given.
    let time: CellTime
    let source: String
    let separator: String
    let prefix: String
    let size: Double
    let hash: UInt64

    init(time: CellTime, source: String, separator: String, prefix: String, size: Double) {
        self.time = time
        self.source = source
        self.separator = separator
        self.prefix = prefix
        self.size = size
        var h = time.withUTF8 { Self.hashDigitsAsZero($0, into: size.bitPattern) }
        h = StringBytes.withUTF8(source) { Self.hashDigitsAsZero($0, into: StringBytes.mix(h, 1)) }
        h = StringBytes.hash(separator, into: StringBytes.mix(h, 2))
        hash = StringBytes.hash(prefix, into: StringBytes.mix(h, 3))
    }

    /// `StringBytes.hash(bytes, into: h)` with the ASCII digits read as 0 (copied to the stack:
    /// no string is made).
    static func hashDigitsAsZero(_ bytes: UnsafeBufferPointer<UInt8>, into h: UInt64) -> UInt64 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { zeroed in
            for i in 0..<bytes.count { zeroed[i] = bytes[i] &- 0x30 < 10 ? 0x30 : bytes[i] }
            return StringBytes.hash(UnsafeBufferPointer(zeroed), into: h)
        }
    }

    /// Whether `x` and `y` are the same bytes once their ASCII digits are read as 0.
    static func equalDigitsAsZero(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        guard x.count == y.count else { return false }
        for i in 0..<x.count where x[i] != y[i] {
            guard x[i] &- 0x30 < 10 && y[i] &- 0x30 < 10 else { return false }
        }
        return true
    }

    static func == (a: TimeLineLabel, b: TimeLineLabel) -> Bool {
        a.hash == b.hash && a.size.bitPattern == b.size.bitPattern
            && a.time.withUTF8 { x in b.time.withUTF8 { equalDigitsAsZero(x, $0) } }
            && StringBytes.withUTF8(a.source) { x in StringBytes.withUTF8(b.source) { equalDigitsAsZero(x, $0) } }
            && StringBytes.equal(a.separator, b.separator) && StringBytes.equal(a.prefix, b.prefix)
    }
}
