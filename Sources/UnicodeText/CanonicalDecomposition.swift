/// Canonical decompositions of the Unicode Character Database, one step at a time: what a shaper's
/// normalizer reads to draw a character a font lacks from the characters it decomposes into
/// (HarfBuzz draws U+FA76, a CJK compatibility ideograph, as U+52C7 from a face that maps only
/// the latter).
///
/// The table (`GeneratedDecompositions`, from UnicodeData.txt) is decoded on first use into a
/// sorted array searched by bisection; Hangul syllables are decomposed by arithmetic (Unicode §3.12).
public enum CanonicalDecomposition {
    /// The canonical decomposition of `scalar` in one step: a first part and a second (0 for a
    /// singleton decomposition), or nil when `scalar` has none.
    public static func pair(_ scalar: UInt32) -> (first: UInt32, second: UInt32)? {
        if scalar >= hangulBase && scalar < hangulBase + hangulCount {
            let index = scalar - hangulBase
            let trailing = index % trailingCount
            if trailing != 0 { return (scalar - trailing, trailingBase + trailing) }
            return (leadingBase + index / (vowelCount * trailingCount), vowelBase + (index % (vowelCount * trailingCount)) / trailingCount)
        }
        // (Below U+00C0 nothing decomposes: the common case returns before the search.)
        guard scalar >= 0xC0 else { return nil }
        let entries = table
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].scalar < scalar { low = mid + 1 } else { high = mid }
        }
        guard low < entries.count, entries[low].scalar == scalar else { return nil }
        return (entries[low].first, entries[low].second)
    }

    struct Entry {
        var scalar: UInt32
        var first: UInt32
        var second: UInt32
    }

    static let table: [Entry] = {
        let bytes = PropertyTable.decode(GeneratedDecompositions.triplesBase64)
        precondition(bytes.count == GeneratedDecompositions.count * 12, "decomposition table of the wrong size")
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        return (0..<GeneratedDecompositions.count).map { Entry(scalar: word($0 * 12), first: word($0 * 12 + 4), second: word($0 * 12 + 8)) }
    }()

    private static let hangulBase: UInt32 = 0xAC00
    private static let leadingBase: UInt32 = 0x1100
    private static let vowelBase: UInt32 = 0x1161
    private static let trailingBase: UInt32 = 0x11A7
    private static let vowelCount: UInt32 = 21
    private static let trailingCount: UInt32 = 28
    private static let hangulCount: UInt32 = 11_172
}
