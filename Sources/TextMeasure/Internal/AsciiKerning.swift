import UnicodeText

/// Words of printable ASCII measured without shaping, for one face and one shaping plan (script):
/// each character's hmtx advance plus the pair adjustment the plan's kerning gives it before the
/// next character, exactly what HarfBuzz gives the word, read from the face once at load.
///
/// Why it is exact, and when it is not used (the face decides, `make` checks):
/// - GPOS: every lookup of the plan that touches an ASCII glyph must be pair positioning whose
///   second value record is empty (then each adjacent pair adjusts its first glyph's advance only,
///   and adjustments of several lookups add up). A character another GPOS lookup touches is off
///   the path.
/// - GSUB: a ligature lookup forbids the character pairs its ligatures start with (a word
///   containing one is shaped); a character any other substitution touches is off the path.
/// - Class-based contextual subtables in the plan (which can match glyphs they do not list) turn
///   the path off for the plan.
/// - The pair values are not read from the tables but measured: HarfBuzz shapes every pair of the
///   kerned characters once (`a b S`, with `S` a glyph no lookup touches), which covers class-based
///   pair values, including those of "class 0", the glyphs a class definition leaves out.
///
/// `ExactnessTests` compares the path with HarfBuzz on every pair and on random words, in both
/// text faces and both plans.
final class AsciiKerning: Sendable {
    /// Per code unit below 0x80: 0 off the path, `unkerned` for a character no pair adjustment
    /// involves as first glyph, else 1 + its index among the kerned characters.
    private let entry: [UInt8]
    private let glyph: [UInt32]
    private let advance: [Int32]
    /// `kern[a * (kernedCount + 1) + b]`: the adjustment of `a`'s advance before `b`; column
    /// `kernedCount` is the one for every character outside the kerned set.
    private let kern: [Int32]
    private let kernedCount: Int
    /// One bit per pair `first << 7 | second` that starts a ligature.
    private let ligatureStarts: [UInt64]

    private static let unkerned: UInt8 = 0xFF

    private init(
        entry: [UInt8], glyph: [UInt32], advance: [Int32], kern: [Int32], kernedCount: Int, ligatureStarts: [UInt64]
    ) {
        self.entry = entry
        self.glyph = glyph
        self.advance = advance
        self.kern = kern
        self.kernedCount = kernedCount
        self.ligatureStarts = ligatureStarts
    }

    /// Fills `advances` (memory the caller owns, with room for 2 × `text.count` values: each
    /// character's advance, then each one's line-end correction, as `TextMeasurer.measureWord`
    /// lays them out) and returns true, or returns false when some character is off the path or a
    /// ligature could form.
    func measure(_ text: UnsafeBufferPointer<UInt16>, writingInto advances: UnsafeMutablePointer<Int32>) -> Bool {
        let n = text.count
        guard n > 0 else { return false }
        for u in text where u >= 0x80 || entry[Int(u)] == 0 { return false }
        for i in 0..<(n - 1) {
            let pair = Int(text[i]) << 7 | Int(text[i + 1])
            if ligatureStarts[pair >> 6] & (1 << UInt64(pair & 63)) != 0 { return false }
        }
        for i in 0..<n {
            let u = Int(text[i])
            var k: Int32 = 0
            let e = entry[u]
            if e != Self.unkerned && i + 1 < n {
                let next = entry[Int(text[i + 1])]
                let column = next == Self.unkerned ? kernedCount : Int(next) - 1
                k = kern[(Int(e) - 1) * (kernedCount + 1) + column]
            }
            advances[i] = advance[u] &+ k
            advances[n + i] = 0 &- k
        }
        return true
    }

    /// The nominal glyph of an ASCII code unit on the path.
    func glyph(of unit: UInt16) -> UInt32 { glyph[Int(unit)] }

    /// The table of `font` for runs of `script`, or nil when the face's lookups for that plan do
    /// not allow it (see the type's documentation).
    /// - Parameter touchedByAnyPlan: one bit per glyph id, set for the glyphs some lookup of some
    ///   plan reads or writes (`FontFile.glyphsTouched(by:)`): the separator is taken outside it.
    static func make(font: FontFile, script: UnicodeScript, touchedByAnyPlan: [UInt64]) -> AsciiKerning? {
        var glyphOf = [UInt32](repeating: 0, count: 128)
        var advanceOf = [Int32](repeating: 0, count: 128)
        var charOf: [UInt32: Int] = [:]
        for u in 0x21...0x7E {
            guard let g = font.nominalGlyph(UInt32(u)), g != 0 else { continue }
            let a = font.advance(ofGlyph: g)
            guard a > 0 else { continue }
            glyphOf[u] = g
            advanceOf[u] = a
            charOf[g] = u
        }
        let asciiGlyphs = Array(charOf.keys).sorted()
        var excluded = Set<Int>()
        var kerned = Set<Int>()
        var ligatureStarts = [UInt64](repeating: 0, count: 128 * 128 / 64)
        let plan = font.planLookups(script: script)

        let gsubOK: Bool = font.withTable("GSUB") { table in
            let r = OTReader(table, isGSUB: true)
            for lookup in plan.gsub {
                guard let l = r.lookup(lookup), !r.isContextual(l, withFormatOutside: [3]) else { return false }
                let touched = font.glyphs(ofLookup: lookup, inTable: "GSUB", among: asciiGlyphs)
                if touched.isEmpty { continue }
                if l.type == 4 {
                    for sub in l.subtables {
                        guard r.u16(sub) == 1, let coverage = r.coverage(sub + (r.u16(sub + 2) ?? 0)),
                            let setCount = r.u16(sub + 4)
                        else { return false }
                        for i in 0..<min(setCount, coverage.count) {
                            guard let first = charOf[coverage[i]] else { continue }
                            guard let setOffset = r.u16(sub + 6 + 2 * i), let ligatures = r.u16(sub + setOffset) else { return false }
                            for j in 0..<ligatures {
                                guard let o = r.u16(sub + setOffset + 2 + 2 * j) else { return false }
                                let lig = sub + setOffset + o
                                guard let components = r.u16(lig + 2) else { return false }
                                if components <= 1 {
                                    excluded.insert(first)
                                } else if let second = r.u16(lig + 4), let c = charOf[UInt32(second)] {
                                    let pair = first << 7 | c
                                    ligatureStarts[pair >> 6] |= 1 << UInt64(pair & 63)
                                }
                            }
                        }
                    }
                } else {
                    for g in touched { excluded.insert(charOf[g]!) }
                }
            }
            return true
        }
        let gposOK: Bool = font.withTable("GPOS") { table in
            let r = OTReader(table, isGSUB: false)
            for lookup in plan.gpos {
                guard let l = r.lookup(lookup), !r.isContextual(l, withFormatOutside: [3]) else { return false }
                let touched = font.glyphs(ofLookup: lookup, inTable: "GPOS", among: asciiGlyphs)
                if touched.isEmpty { continue }
                let pairsOnly = l.type == 2 && l.subtables.allSatisfy { r.u16($0 + 6) == 0 }
                for g in touched {
                    if pairsOnly { kerned.insert(charOf[g]!) } else { excluded.insert(charOf[g]!) }
                }
            }
            return true
        }
        guard gsubOK && gposOK else { return nil }

        // A separator no lookup of any plan touches.
        let separator: UInt16? = [0x4E00, 0x4E01, 0x4E03].first { cp in
            guard let g = font.nominalGlyph(UInt32(cp)), Int(g >> 6) < touchedByAnyPlan.count else { return false }
            return touchedByAnyPlan[Int(g >> 6)] & (1 << UInt64(g & 63)) == 0
        }
        guard let separator else { return nil }

        let eligible = (0x21...0x7E).filter { glyphOf[$0] != 0 && !excluded.contains($0) }
        let kernedChars = eligible.filter { kerned.contains($0) }
        var entry = [UInt8](repeating: 0, count: 128)
        for u in eligible { entry[u] = unkerned }
        for (i, u) in kernedChars.enumerated() { entry[u] = UInt8(i + 1) }
        let k = kernedChars.count
        guard k < Int(unkerned) else { return nil }

        // Measure every pair: `a b S` for kerned a, b (pairs that start a ligature are never
        // measured through the path), and `a S` for the column of the other characters.
        var text: [UInt16] = []
        var probes: [(a: Int, column: Int, at: Int)] = []
        for (i, a) in kernedChars.enumerated() {
            for (j, b) in kernedChars.enumerated() {
                let pair = a << 7 | b
                if ligatureStarts[pair >> 6] & (1 << UInt64(pair & 63)) != 0 { continue }
                probes.append((i, j, text.count))
                text += [UInt16(a), UInt16(b), separator]
            }
            probes.append((i, k, text.count))
            text += [UInt16(a), separator]
        }
        var kern = [Int32](repeating: 0, count: k * (k + 1))
        if !text.isEmpty {
            var shaped: [ShapedGlyph] = []
            let buffer = ShapingBuffer()
            text.withUnsafeBufferPointer { buffer.shape($0, start: 0, end: $0.count, font: font, script: script, into: &shaped) }
            // One glyph per character, each the nominal one, no offsets: anything else means
            // the plan does more than pair kerning to these characters.
            guard shaped.count == text.count else { return nil }
            let separatorGlyph = font.nominalGlyph(UInt32(separator))
            for (i, g) in shaped.enumerated() {
                let u = text[i]
                let expected = u == separator ? separatorGlyph : glyphOf[Int(u)]
                guard Int(g.cluster) == i, g.glyph == expected, g.xOffset == 0, g.yOffset == 0 else { return nil }
            }
            for p in probes {
                kern[p.a * (k + 1) + p.column] = shaped[p.at].xAdvance &- advanceOf[kernedChars[p.a]]
            }
            // The second character of each probe is followed by the separator: its adjustment is
            // its own "other characters" column, measured by its `a S` probe.
            for p in probes where p.column < k {
                let b = p.column
                guard shaped[p.at + 1].xAdvance &- advanceOf[kernedChars[b]] == kern[b * (k + 1) + k] else { return nil }
            }
        }
        return AsciiKerning(
            entry: entry, glyph: glyphOf, advance: advanceOf, kern: kern, kernedCount: k, ligatureStarts: ligatureStarts)
    }
}

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
