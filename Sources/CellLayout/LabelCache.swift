import TextMeasure

/// Prepared short labels that repeat across cells: toolbar counts ("转发", "评论", "赞", "12",
/// "3万") and the read-more token.
///
/// - Key: the whole attributed text (string, runs, roles): a label prepares the same way whenever
///   its attributed text is equal, because the measurer is fixed for the cache's lifetime.
/// - Bound: `capacity` entries (default 2 048, a few hundred KB).
/// - Eviction: when full, the whole table is dropped (labels are cheap to prepare again; a full
///   table means the labels do not repeat and keeping them would not pay).
/// - Invalidation: none; the cache belongs to one engine, and so to one measurer.
///
/// Thread-safety: `Sendable`; lookups and inserts are serialized by a mutex held only for the
/// dictionary access, never while preparing.
final class LabelCache: Sendable {
    struct State {
        var table: [AttributedText: PreparedTextBox] = [:]
        var hits = 0
        var misses = 0
        var evictions = 0
    }

    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int = 2048) {
        self.capacity = capacity
    }

    /// The prepared `text`, from the table or prepared by `measurer` (and stored).
    func prepared(_ text: AttributedText, measurer: any TextMeasuring) -> PreparedTextBox {
        if let hit = state.withLock({ s -> PreparedTextBox? in
            guard let p = s.table[text] else { return nil }
            s.hits += 1
            return p
        }) {
            return hit
        }
        let p = PreparedTextBox(measurer.prepare(text))
        state.withLock { s in
            s.misses += 1
            if s.table.count >= capacity {
                s.table.removeAll(keepingCapacity: true)
                s.evictions += 1
            }
            s.table[text] = p
        }
        return p
    }

    /// (hits, misses, evictions, entries), for tests and benchmarks.
    var statistics: (hits: Int, misses: Int, evictions: Int, count: Int) {
        state.withLock { ($0.hits, $0.misses, $0.evictions, $0.table.count) }
    }
}
