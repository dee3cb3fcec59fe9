/// Bounds-checked big-endian reads of an OpenType layout table (GSUB, GPOS): nil past the end.
struct OTReader {
    let bytes: UnsafeRawBufferPointer
    /// The extension lookup type (7 in GSUB, 9 in GPOS) and the contextual ones (GSUB 5 and 6,
    /// GPOS 7 and 8).
    private let extensionType: Int
    private let contextTypes: ClosedRange<Int>

    init(_ bytes: UnsafeRawBufferPointer, isGSUB: Bool) {
        self.bytes = bytes
        extensionType = isGSUB ? 7 : 9
        contextTypes = isGSUB ? 5...6 : 7...8
    }

    func u16(_ offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    func u32(_ offset: Int) -> Int? {
        guard let hi = u16(offset), let lo = u16(offset + 2) else { return nil }
        return hi << 16 | lo
    }

    /// A lookup's type and its subtables' offsets from the table start, extension subtables
    /// resolved; nil when malformed or when extension subtables disagree on the type.
    func lookup(_ index: UInt32) -> (type: Int, subtables: [Int])? {
        guard let listOffset = u16(8), let count = u16(listOffset), Int(index) < count,
            let lookupOffset = u16(listOffset + 2 + 2 * Int(index))
        else { return nil }
        let l = listOffset + lookupOffset
        guard var type = u16(l), let subCount = u16(l + 4) else { return nil }
        var subtables: [Int] = []
        var resolved: Int?
        for i in 0..<subCount {
            guard let o = u16(l + 6 + 2 * i) else { return nil }
            var sub = l + o
            if type == extensionType {
                guard let t = u16(sub + 2), let extOffset = u32(sub + 4), resolved == nil || resolved == t else { return nil }
                resolved = t
                sub += extOffset
            }
            subtables.append(sub)
        }
        if let resolved { type = resolved }
        return (type, subtables)
    }

    /// True when `l` is contextual (GSUB 5/6, GPOS 7/8) with a subtable of a format outside
    /// `formats` (1: glyph sequences, 2: classes, 3: coverage tables).
    func isContextual(_ l: (type: Int, subtables: [Int]), withFormatOutside formats: Set<Int>) -> Bool {
        contextTypes.contains(l.type) && l.subtables.contains { u16($0).map { !formats.contains($0) } ?? true }
    }

    /// The mapping of a single-substitution lookup (GSUB 1, both formats): covered glyph →
    /// substitute; nil when malformed or of another type. (The first subtable that covers a
    /// glyph substitutes it, as in HarfBuzz.)
    func singleSubstitutions(_ l: (type: Int, subtables: [Int])) -> [UInt32: UInt32]? {
        guard l.type == 1 else { return nil }
        var map: [UInt32: UInt32] = [:]
        for sub in l.subtables {
            guard let format = u16(sub), let coverageOffset = u16(sub + 2), let covered = coverage(sub + coverageOffset) else {
                return nil
            }
            switch format {
            case 1:
                guard let delta = u16(sub + 4) else { return nil }
                for g in covered where map[g] == nil { map[g] = UInt32((Int(g) + delta) & 0xFFFF) }
            case 2:
                guard let count = u16(sub + 4), count == covered.count else { return nil }
                for (i, g) in covered.enumerated() where map[g] == nil {
                    guard let substitute = u16(sub + 6 + 2 * i) else { return nil }
                    map[g] = UInt32(substitute)
                }
            default: return nil
            }
        }
        return map
    }

    /// The glyphs of a coverage table, in coverage-index order.
    func coverage(_ offset: Int) -> [UInt32]? {
        guard let format = u16(offset), let count = u16(offset + 2) else { return nil }
        var glyphs: [UInt32] = []
        switch format {
        case 1:
            for i in 0..<count {
                guard let g = u16(offset + 4 + 2 * i) else { return nil }
                glyphs.append(UInt32(g))
            }
        case 2:
            for i in 0..<count {
                let r = offset + 4 + 6 * i
                guard let start = u16(r), let end = u16(r + 2), let first = u16(r + 4), end >= start,
                    first == glyphs.count
                else { return nil }
                for g in start...end { glyphs.append(UInt32(g)) }
            }
        default: return nil
        }
        return glyphs
    }
}

/// Facts about a face's layout tables that HarfBuzz's API does not give.
enum OTLayout {
    /// True when some lookup of `lookups` can match a glyph its tables do not list: a class-based
    /// contextual subtable (GSUB 5/6, GPOS 7/8, format 2), whose class 0 is every glyph its class
    /// definition leaves out, or a class-based pair subtable (GPOS 2, format 2) with a non-zero
    /// adjustment for such glyphs as second glyph. Unreadable tables count as true. When false,
    /// a glyph `FontFile.glyphsTouched(by:)` leaves out is inert.
    static func classZeroCanMatch(_ font: FontFile, _ lookups: (gsub: Set<UInt32>, gpos: Set<UInt32>)) -> Bool {
        font.withTable("GSUB") { gsub in
            font.withTable("GPOS") { gpos in classZeroCanMatch(gsub: gsub, gpos: gpos, lookups) }
        }
    }

    /// `classZeroCanMatch` on the bytes of the GSUB and GPOS tables.
    static func classZeroCanMatch(
        gsub: UnsafeRawBufferPointer, gpos: UnsafeRawBufferPointer, _ lookups: (gsub: Set<UInt32>, gpos: Set<UInt32>)
    ) -> Bool {
        let s = OTReader(gsub, isGSUB: true)
        for lookup in lookups.gsub {
            guard let l = s.lookup(lookup), !s.isContextual(l, withFormatOutside: [1, 3]) else { return true }
        }
        let r = OTReader(gpos, isGSUB: false)
        for lookup in lookups.gpos {
            guard let l = r.lookup(lookup), !r.isContextual(l, withFormatOutside: [1, 3]) else { return true }
            if l.type == 2 {
                for sub in l.subtables where r.u16(sub) == 2 {
                    if pairClassZeroAdjusts(r, sub) { return true }
                }
            }
        }
        return false
    }

    /// True when a PairPos format 2 subtable has a non-zero placement or advance in the column of
    /// second-glyph class 0 (device-table offsets are not adjustments at an unhinted scale).
    private static func pairClassZeroAdjusts(_ r: OTReader, _ sub: Int) -> Bool {
        guard let f1 = r.u16(sub + 4), let f2 = r.u16(sub + 6), let class1Count = r.u16(sub + 12),
            let class2Count = r.u16(sub + 14)
        else { return true }
        func size(_ format: Int) -> Int { 2 * (format & 0xFF).nonzeroBitCount }
        let s1 = size(f1), s2 = size(f2)
        let record = s1 + s2
        for c1 in 0..<class1Count {
            let at = sub + 16 + (c1 * class2Count) * record  // class2 = 0
            var offset = at
            for (format, start) in [(f1, at), (f2, at + s1)] {
                offset = start
                for bit in 0..<8 where format & (1 << bit) != 0 {
                    guard let v = r.u16(offset) else { return true }
                    if bit < 4 && v != 0 { return true }  // XPlacement, YPlacement, XAdvance, YAdvance
                    offset += 2
                }
            }
        }
        return false
    }
}
