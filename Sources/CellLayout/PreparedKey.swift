import FeedLayoutSupport

/// Key of a cached prepared cell: width-independent.
package struct PreparedKey: Hashable, Sendable {
    package var statusID: Int64
    package var fingerprint: UInt64
    package var style: String

    package init(statusID: Int64, fingerprint: UInt64, style: String) {
        self.statusID = statusID
        self.fingerprint = fingerprint
        self.style = style
    }

    /// One word: the fingerprint already mixes the content well, the id separates equal contents;
    /// the style name is left to `==` (a feed uses one or two styles).
    package func hash(into hasher: inout Hasher) { hasher.combine(word) }

    /// The cache's hash: the word mixed with the table's seed in one step, rather than a whole
    /// `Hasher` run (~150 instructions, and `BoundedCache` hashes a key twice per look-up and
    /// per insert: for its shard, and in the shard's table). `Hashable`'s underscored
    /// requirement, which `Dictionary` and `hashValue` use.
    package func _rawHashValue(seed: Int) -> Int { StringBytes.seededHash(word, seed: seed) }

    private var word: UInt64 { fingerprint ^ UInt64(bitPattern: statusID) &* 0x9e37_79b9_7f4a_7c15 }
}
