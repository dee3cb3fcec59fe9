import FeedLayoutSupport

/// Counters of one of the package's caches (shaped words, prepared texts, prepared cells, cell
/// layouts): hits, misses, entries, bytes against the budget, evictions, and values a bulk pass
/// did not keep. One type for every cache, defined with the caches' shared plumbing.
public typealias CacheStatistics = FeedLayoutSupport.CacheStatistics
