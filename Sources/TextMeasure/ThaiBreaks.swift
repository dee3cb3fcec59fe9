internal import CThai
import FeedLayoutSupport
import UnicodeText

/// Line breaks inside Thai words, found with libthai's dictionary.
///
/// UAX #14 gives Thai (class SA) no breaks between its letters: a run of Thai is one "word" to
/// the line breaker. Pango adds the breaks libthai finds, item by item: it hands each item whose
/// script is Thai (the Thai letters with the spaces, digits and punctuation that take their
/// script, in one face) to `th_brk_find_breaks` as TIS-620 (`th_uni2tis`; characters outside
/// TIS-620 become its error byte) and marks every position returned as a line break (and as a
/// grapheme boundary if it was none). This does the same on the break flags of a text before its
/// clusters are measured. Other SA scripts (Lao, Khmer, Myanmar, …) get no dictionary: Pango
/// breaks them by UAX #14 alone, where SA letters are alphabetic.
///
/// Thread-safety: libthai's break object is shared behind a lock (its dictionary is loaded once,
/// on first use; Pango shares one the same way).
enum ThaiBreaks {
    private struct Breaker: @unchecked Sendable {
        let handle: OpaquePointer?
    }
    private static let breaker = Locked(Breaker(handle: th_brk_new(nil)))
    private static let thai = UnicodeScript.of(0x0E01)

    /// Whether the text has a Thai letter (U+0E01–U+0E5B), or a unit of the blocks that hold
    /// the spacing marks `joinSpacingMarks` handles (Myanmar, Tai Tham, Myanmar Extended-A):
    /// only then is there work to do. One pass over the units, no branch per unit.
    @inline(__always)
    static func needsPass(_ u: UnsafeBufferPointer<UInt16>) -> Bool {
        // Each test is a select, not a branch, so that the compiler makes one vector loop of it
        // (about 2 instructions per unit; 12 with short-circuit tests).
        var hits: UInt16 = 0
        for c in u {
            let thai: UInt16 = c &- 0x0E01 < 0x5B ? 1 : 0
            let myanmar: UInt16 = c &- 0x102B < 0x72 ? 1 : 0
            let taiTham: UInt16 = c &- 0x1A61 < 4 ? 1 : 0
            let myanmarExtendedA: UInt16 = c &- 0xAA7B < 3 ? 1 : 0
            hits |= thai | myanmar | taiTham | myanmarExtendedA
        }
        return hits != 0
    }

    /// Pango 1.50 gives every spacing mark (general category Mc) the grapheme class SpacingMark,
    /// without UAX #29's exceptions (U+102B, U+102C, U+1038, U+1062–U+1064, U+1067–U+106D,
    /// U+1083, U+1087–U+108C, U+108F, U+109A–U+109C, U+1A61, U+1A63, U+1A64, U+AA7B, U+AA7D,
    /// U+11720, U+11721): no cluster ends before them (unless after a control or line break, GB4).
    /// Removes those grapheme boundaries from `breaks`, so that clusters, and the places a word
    /// too long for a line breaks, are Pango's.
    static func joinSpacingMarks(_ u: UnsafeBufferPointer<UInt16>, _ breaks: UnsafeMutablePointer<BreakFlags>) {
        for i in 1..<max(1, u.count) {
            var v = UInt32(u[i])
            if v & 0xFC00 == 0xD800, i + 1 < u.count, u[i + 1] & 0xFC00 == 0xDC00 {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i + 1]) - 0xDC00)
            }
            switch v {
            case 0x102B, 0x102C, 0x1038, 0x1062...0x1064, 0x1067...0x106D, 0x1083, 0x1087...0x108C, 0x108F,
                0x109A...0x109C, 0x1A61, 0x1A63, 0x1A64, 0xAA7B, 0xAA7D, 0x11720, 0x11721:
                let before = u[i - 1]
                if before < 0x20 || (before >= 0x7F && before < 0xA0) || before == 0x2028 || before == 0x2029 { continue }
                if !breaks[i].contains(.lineAllowed) { breaks[i].remove(.grapheme) }
            default:
                continue
            }
        }
    }

    /// Adds libthai's breaks inside the Thai items of `u` to `breaks` (`u.count + 1` flags).
    /// - Parameters:
    ///   - itemEnds: UTF-16 offsets an item cannot span (attribute run boundaries).
    ///   - inTextFace: whether a non-space scalar is drawn from the text face (or is a hex box,
    ///     which Pango draws in the first face); Thai items end where another face starts.
    static func addBreaks(
        _ u: UnsafeBufferPointer<UInt16>, _ breaks: UnsafeMutablePointer<BreakFlags>, itemEnds: [Int],
        inTextFace: (UInt32) -> Bool
    ) {
        let n = u.count
        // Scalars with their UTF-16 offsets and resolved scripts (weak scalars take the script
        // before them, or at a paragraph's start the first strong one after them, as in Pango's
        // itemizer).
        var scalars: [(v: UInt32, at: Int)] = []
        scalars.reserveCapacity(n)
        var i = 0
        while i < n {
            var v = UInt32(u[i])
            let at = i
            i += 1
            if v & 0xFC00 == 0xD800, i < n, u[i] & 0xFC00 == 0xDC00 {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i]) - 0xDC00)
                i += 1
            }
            scalars.append((v, at))
        }
        // Per paragraph: Pango itemizes each apart (`中\n12ก`: the digits are in the Thai item).
        var scripts = scalars.map { UnicodeScript.of($0.v) }
        var paragraphStart = 0
        while paragraphStart < scripts.count {
            var end = paragraphStart
            while end < scripts.count && !TextMeasurer.isParagraphDelimiter(scalars[end].v) { end += 1 }
            var current = scripts[paragraphStart..<end].first { !$0.isWeak }
            for k in paragraphStart..<end {
                if scripts[k].isWeak {
                    if let current { scripts[k] = current }
                } else {
                    current = scripts[k]
                }
            }
            paragraphStart = end + 1
        }
        var nextEnd = 0
        var k = 0
        while k < scalars.count {
            guard scripts[k] == thai else {
                k += 1
                continue
            }
            // The item: Thai-script scalars in one face and one attribute run.
            while nextEnd < itemEnds.count && itemEnds[nextEnd] <= scalars[k].at { nextEnd += 1 }
            let limit = nextEnd < itemEnds.count ? itemEnds[nextEnd] : n
            var e = k
            while e < scalars.count && scripts[e] == thai && scalars[e].at < limit {
                let v = scalars[e].v
                if !isSpaceLike(v) && !inTextFace(v) { break }
                e += 1
            }
            if e == k {
                k += 1
                continue
            }
            addItemBreaks(scalars[k..<e], end: e < scalars.count ? scalars[e].at : n, breaks)
            k = e
        }
    }

    /// Characters that choose no face in Pango's itemizer (they join the item they are in).
    private static func isSpaceLike(_ v: UInt32) -> Bool {
        v < 0x20 || (v >= 0x7F && v < 0xA0) || TextMeasurer.isSpaceSeparator(v) || TextMeasurer.isDefaultIgnorable(v)
            || v == 0x2028 || v == 0x2029
    }

    private static func addItemBreaks(
        _ item: ArraySlice<(v: UInt32, at: Int)>, end: Int, _ breaks: UnsafeMutablePointer<BreakFlags>
    ) {
        let count = item.count
        var tis = [UInt8](repeating: 0, count: count + 1)
        for (j, s) in item.enumerated() { tis[j] = th_uni2tis(wchar_t(bitPattern: s.v)) }
        var positions = [Int32](repeating: 0, count: count + 1)
        let found = breaker.withLock { b -> Int in
            guard let handle = b.handle else { return 0 }
            return Int(th_brk_find_breaks(handle, &tis, &positions, count + 1))
        }
        let base = item.startIndex
        for p in positions.prefix(max(0, found)) {
            let j = Int(p)
            guard j > 0 && j <= count else { continue }
            let offset = j < count ? item[base + j].at : end
            breaks[offset].insert(.lineAllowed)
            breaks[offset].insert(.grapheme)
        }
    }
}
