import TextMeasure

/// Prepared short labels that repeat across cells: toolbar counts ("转发", "评论", "赞", "12",
/// "3万") and the read-more token; and each style's metrics, shared by its cells.
///
/// - Key: the whole attributed text (string, runs, roles) as a `TextKey` (the prepared-text
///   cache's key: hashed and compared by its UTF-8 bytes), made outside any lock: a label prepares
///   the same way whenever its attributed text is equal, because the measurer is fixed for the
///   cache's lifetime.
/// - Bound: `capacity` entries (default 2 048, a few hundred KB), split over 8 shards.
/// - Eviction: when a shard is full, it is dropped whole (labels are cheap to prepare again; a
///   full shard means the labels do not repeat and keeping them would not pay).
/// - Invalidation: none; the cache belongs to one engine, and so to one measurer.
///
/// Thread-safety: `Sendable`; every cell looks labels up, so the locks are per shard and held only
/// for the table access (never while hashing or preparing): threads laying out cells side by side
/// look up the same few labels at the same moments.
final class LabelCache: Sendable {
    struct State {
        var table: [TextKey: PreparedTextBox] = [:]
        var hits = 0
        var misses = 0
        var evictions = 0
    }

    static let shardCount = 8
    let capacity: Int
    private let shards: [Locked<State>]
    /// The metrics of each style prepared so far, shared by its cells.
    private let stackedMetrics = Locked([String: Shared<StackedMetrics>]())

    /// One shared instance of `m` per style name (a style whose metrics changed under the same
    /// name gets a new instance). - Complexity: O(1) plus one comparison of the metrics.
    func metrics(_ m: StackedMetrics, style: String) -> Shared<StackedMetrics> {
        stackedMetrics.withLock { table in
            if let box = table[style], box.value == m { return box }
            let box = Shared(m)
            table[style] = box
            return box
        }
    }

    init(capacity: Int = 2048) {
        self.capacity = capacity
        shards = (0..<Self.shardCount).map { _ in Locked(State()) }
    }

    /// The prepared `text`, from the table or prepared by `measurer` (and stored).
    func prepared(_ text: AttributedText, measurer: any TextMeasuring) -> PreparedTextBox {
        let key = TextKey(text: text)
        let shard = shards[Int(UInt(bitPattern: key.hash) % UInt(Self.shardCount))]
        if let hit = shard.withLock({ s -> PreparedTextBox? in
            guard let p = s.table[key] else { return nil }
            s.hits += 1
            return p
        }) {
            return hit
        }
        let p = PreparedTextBox(measurer.prepare(text))
        let shareCapacity = max(1, capacity / Self.shardCount)
        shard.withLock { s in
            s.misses += 1
            if s.table.count >= shareCapacity {
                s.table.removeAll(keepingCapacity: true)
                s.evictions += 1
            }
            s.table[key] = p
        }
        return p
    }

    /// (hits, misses, evictions, entries) summed over the shards, for tests and benchmarks.
    var statistics: (hits: Int, misses: Int, evictions: Int, count: Int) {
        var total = (hits: 0, misses: 0, evictions: 0, count: 0)
        for shard in shards {
            shard.withLock {
                total.hits += $0.hits
                total.misses += $0.misses
                total.evictions += $0.evictions
                total.count += $0.table.count
            }
        }
        return total
    }
}
