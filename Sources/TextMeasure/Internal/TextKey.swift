import FeedLayoutSupport
import Foundation

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
