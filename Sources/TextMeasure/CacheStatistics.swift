import FeedLayoutSupport

/// Counters of one of the package's caches (shaped words, prepared texts, prepared cells, cell
/// layouts), for tests, benchmarks and `feedlayout bench`.
public struct CacheStatistics: Hashable, Sendable, CustomStringConvertible {
    public var hits = 0
    public var misses = 0
    public var entries = 0
    public var bytes = 0
    public var evictions = 0
    /// Values a bulk pass did not keep (a feed larger than the cache keeps its first rows).
    public var rejected = 0
    public var budgetBytes = 0

    public init() {}

    package init(_ counts: CacheCounts) {
        hits = counts.hits
        misses = counts.misses
        entries = counts.entries
        bytes = counts.bytes
        evictions = counts.evictions
        rejected = counts.rejected
        budgetBytes = counts.budgetBytes
    }

    public var description: String {
        "\(entries) entries, \(bytes) of \(budgetBytes) bytes, \(hits) hits, \(misses) misses, \(evictions) evictions"
            + (rejected > 0 ? ", \(rejected) not kept by bulk passes" : "")
    }
}
