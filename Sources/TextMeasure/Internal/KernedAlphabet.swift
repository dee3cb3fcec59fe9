import UnicodeText

/// Words of a fixed alphabet (printable ASCII and the punctuation of Chinese text) measured without
/// shaping, for one face and one shaping plan (script): each character's hmtx advance plus the pair
/// adjustment the plan's kerning gives it before the next character, exactly what HarfBuzz gives
/// the word, read from the face once at load.
///
/// Why it is exact, and when it is not used (the face decides, `make` checks):
/// - GPOS: every lookup of the plan that touches a glyph of the alphabet must be pair positioning
///   whose second value record is empty (then each adjacent pair adjusts its first glyph's advance only,
///   and adjustments of several lookups add up). A character another GPOS lookup touches is off
///   the path.
/// - GSUB: a ligature lookup forbids the character pairs its ligatures start with (a word
///   containing one is shaped). A character whose glyph one single-substitution lookup of the
///   plan replaces (Noto Sans CJK's `locl` gives digits other glyphs in Latin runs), where no
///   other lookup touches the glyph or its substitute, is measured as its substitute (glyph,
///   advance and kerning). A character any other substitution touches is off the path.
/// - Class-based contextual subtables in the plan (which can match glyphs they do not list) turn
///   the path off for the plan.
/// - The pair values are not read from the tables but measured: HarfBuzz shapes every pair of the
///   kerned characters once (`a b S`, with `S` a glyph no lookup touches), which covers class-based
///   pair values, including those of "class 0", the glyphs a class definition leaves out.
///
/// `ExactnessTests` compares the path with HarfBuzz on every pair and on random words, in both
/// text faces and both plans.
///
/// The alphabet is printable ASCII and the punctuation of Chinese text (`extraUnits`: general
/// punctuation, CJK symbols and punctuation, fullwidth forms), which joins a word when a
/// neighbour is not plain (`，2000`, `】Lightroom`, `》。`): such words are measured here too, by
/// the same rules. A character of the alphabet has a slot: its code unit below 0x80, else 128 plus
/// its index in `extraUnits`. Ligatures are tracked between ASCII characters; a punctuation
/// character any substitution touches is off the path.
final class KernedAlphabet: @unchecked Sendable {
    // The tables `measure` reads are plain memory the object owns (freed in `deinit`, never
    // written after `init`), read without bounds checks: `measure` runs for most words of a
    // feed, and the checks were about a third of its instructions.
    /// Per slot: 0 off the path, `unkerned` for a character no pair adjustment involves as first
    /// glyph, else 1 + its index among the kerned characters.
    private let entry: UnsafeMutablePointer<UInt8>
    private let glyph: [UInt32]
    /// Per slot: the advance in font units.
    private let advance: UnsafeMutablePointer<Int32>
    /// `kern[a * (kernedCount + 1) + b]`: the adjustment of `a`'s advance before `b`; column
    /// `kernedCount` is the one for every character outside the kerned set.
    private let kern: UnsafeMutablePointer<Int32>
    private let kernedCount: Int
    /// One bit per pair `first << 7 | second` that starts a ligature (256 words).
    private let ligatureStarts: UnsafeMutablePointer<UInt64>
    /// `Self.extraSlot`, copied: a static array is reached through its lazy initializer's check.
    private let extraSlots: UnsafeMutablePointer<UInt16>

    private static let unkerned: UInt8 = 0xFF

    /// True when the ten ASCII digits are measured alike in every word: all on the path or all
    /// off it, one advance, the same pair adjustments before and after every character of the
    /// alphabet, and the same ligature pairs (`TextMeasurer.substitutingDigits`). Their glyphs
    /// may differ.
    let digitsInterchangeable: Bool

    private init(
        entry: [UInt8], glyph: [UInt32], advance: [Int32], kern: [Int32], kernedCount: Int, ligatureStarts: [UInt64]
    ) {
        precondition(entry.count == Self.slotCount && advance.count == Self.slotCount && ligatureStarts.count == 256)
        precondition(kern.count >= kernedCount * (kernedCount + 1))
        func copy<T>(_ a: [T]) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, a.count))
            p.initialize(from: a, count: a.count)
            return p
        }
        self.entry = copy(entry)
        self.glyph = glyph
        self.advance = copy(advance)
        self.kern = copy(kern)
        self.kernedCount = kernedCount
        self.ligatureStarts = copy(ligatureStarts)
        extraSlots = copy(Self.extraSlot)
        digitsInterchangeable = Self.digitsAlike(
            entry: entry, advance: advance, kern: kern, kernedCount: kernedCount, ligatureStarts: ligatureStarts)
    }

    /// See `digitsInterchangeable`.
    private static func digitsAlike(
        entry: [UInt8], advance: [Int32], kern: [Int32], kernedCount: Int, ligatureStarts: [UInt64]
    ) -> Bool {
        let digits = 0x30...0x39
        // The adjustment of slot `a`'s advance before slot `b`, as `measure` finds it (nil when
        // either is off the path).
        func adjustment(_ a: Int, _ b: Int) -> Int32? {
            let ea = entry[a], eb = entry[b]
            guard ea != 0, eb != 0 else { return nil }
            guard ea != unkerned else { return 0 }
            return kern[(Int(ea) - 1) * (kernedCount + 1) + (eb == unkerned ? kernedCount : Int(eb) - 1)]
        }
        func startsLigature(_ a: Int, _ b: Int) -> Bool {
            let pair = a << 7 | b
            return ligatureStarts[pair >> 6] & (1 << UInt64(pair & 63)) != 0
        }
        let zero = 0x30
        for d in digits.dropFirst() {
            guard (entry[d] == 0) == (entry[zero] == 0), advance[d] == advance[zero] else { return false }
            for x in 0..<slotCount {
                guard adjustment(d, x) == adjustment(zero, x), adjustment(x, d) == adjustment(x, zero) else { return false }
                if x < 128 && (startsLigature(d, x) != startsLigature(zero, x) || startsLigature(x, d) != startsLigature(x, zero)) {
                    return false
                }
            }
        }
        return true
    }

    deinit {
        entry.deallocate()
        advance.deallocate()
        kern.deallocate()
        ligatureStarts.deallocate()
        extraSlots.deallocate()
    }

    /// The punctuation of Chinese text the alphabet holds besides ASCII (see the type).
    static let extraUnits: [UInt16] =
        [0xB7] + Array(0x2010...0x2027) + Array(0x2030...0x203A) + Array(0x3001...0x303F) + Array(0xFF01...0xFF65)
    /// False for a code unit certainly outside the alphabet (a quick test of the ranges of
    /// `extraUnits`, for callers that would otherwise try a word of another script on the tables).
    @inline(__always) static func mayHold(_ u: UInt16) -> Bool {
        u < 0x80 || u == 0xB7 || u &- 0x2010 <= 0x203A - 0x2010 || u &- 0x3001 <= 0x303F - 0x3001 || u &- 0xFF01 <= 0xFF65 - 0xFF01
    }
    /// `extraSlot[u - extraBase]`: 128 + the index in `extraUnits` of code unit `u`, or 0.
    private static let extraBase: UInt16 = 0xB7
    private static let extraSlot: [UInt16] = {
        var slots = [UInt16](repeating: 0, count: extraSlotCount)
        for (i, u) in extraUnits.enumerated() { slots[Int(u - extraBase)] = UInt16(128 + i) }
        return slots
    }()
    static var slotCount: Int { 128 + extraUnits.count }

    /// The slot of a code unit, or 0 when it is outside the alphabet.
    @inline(__always) private func slot(_ u: UInt16) -> Int { Self.slot(u, extraSlots) }
    private static let extraSlotCount = Int(0xFF66 - extraBase)

    /// The slot of a code unit, with `extraSlot` at `slots` (the table's copy, or the static
    /// array's storage while a table is made).
    @inline(__always) private static func slot(_ u: UInt16, _ slots: UnsafePointer<UInt16>) -> Int {
        if u < 0x80 { return Int(u) }
        let i = Int(u) &- Int(extraBase)
        return i >= 0 && i < extraSlotCount ? Int(slots[i]) : 0
    }

    /// The code unit of a slot.
    private static func unit(ofSlot slot: Int) -> UInt16 { slot < 128 ? UInt16(slot) : extraUnits[slot - 128] }

    /// Fills `advances` (memory the caller owns, with room for 2 × `text.count` values: each
    /// character's advance, then each one's line-end correction, as `TextMeasurer.measureWord`
    /// lays them out) and returns true, or returns false when some character is off the path or a
    /// ligature could form.
    func measure(_ text: UnsafeBufferPointer<UInt16>, writingInto advances: UnsafeMutablePointer<Int32>) -> Bool {
        // One pass: each character's slot is found once, and checked (on the path, no ligature
        // with the next) as the next one is read. `advances` is the caller's scratch, so a word
        // found off the path midway leaves it partly written.
        let n = text.count
        guard n > 0 else { return false }
        var s = slot(text[0])
        var e = entry[s]
        guard e != 0 else { return false }
        let columns = kernedCount + 1
        for i in 0..<(n - 1) {
            let a = text[i], b = text[i + 1]
            let t = slot(b)
            let next = entry[t]
            guard next != 0 else { return false }
            if a | b < 0x80 {
                let pair = Int(a) << 7 | Int(b)
                if ligatureStarts[pair >> 6] & (1 << UInt64(pair & 63)) != 0 { return false }
            }
            var k: Int32 = 0
            if e != Self.unkerned {
                k = kern[(Int(e) - 1) * columns + (next == Self.unkerned ? kernedCount : Int(next) - 1)]
            }
            advances[i] = advance[s] &+ k
            advances[n + i] = 0 &- k
            s = t
            e = next
        }
        advances[n - 1] = advance[s]
        advances[2 * n - 1] = 0
        return true
    }

    /// The glyph of a code unit on the path.
    func glyph(of unit: UInt16) -> UInt32 { glyph[slot(unit)] }

    /// Pair adjustments measured for a face, by glyph pair (`first << 32 | second`), valid for
    /// the plans whose GPOS lookups are `gpos`: a second plan with the same positioning lookups
    /// (Noto Sans CJK's Latin and Han plans) reads them instead of shaping the pairs again.
    struct MeasuredPairs {
        var gpos: [UInt32] = []
        var values: [UInt64: Int32] = [:]
    }

    /// The table of `font` for runs of `script`, or nil when the face's lookups for that plan do
    /// not allow it (see the type's documentation).
    /// - Parameters:
    ///   - touchedByAnyPlan: one bit per glyph id, set for the glyphs some lookup of some plan
    ///     reads or writes (`FontFile.glyphsTouched(by:)`): the separator is taken outside it.
    ///   - measured: the pair adjustments measured for the face's other plans (start empty),
    ///     read when this plan's GPOS lookups are theirs, and added to.
    static func make(
        font: FontFile, script: UnicodeScript, touchedByAnyPlan: [UInt64], measured: inout MeasuredPairs
    ) -> KernedAlphabet? {
        let plan = font.planLookups(script: script)
        // Each character's glyph after the plan's substitutions: its nominal glyph, or the
        // substitute of the one single-substitution lookup that alone touches it.
        var nominal = [UInt32](repeating: 0, count: 128)
        for u in 0x21...0x7E { nominal[u] = font.nominalGlyph(UInt32(u)) ?? 0 }
        let substituted = Self.singleSubstitutions(font: font, plan: plan.gsub, nominal: nominal)
        var glyphOf = [UInt32](repeating: 0, count: slotCount)
        var advanceOf = [Int32](repeating: 0, count: slotCount)
        var charOf: [UInt32: Int] = [:]
        let slots = Array(0x21...0x7E) + (128..<slotCount)
        for u in slots {
            let g = u < 128 ? substituted[u]?.glyph ?? nominal[u] : font.nominalGlyph(UInt32(unit(ofSlot: u))) ?? 0
            guard g != 0, charOf[g] == nil else { continue }
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

        let gsubOK: Bool = font.withTable("GSUB") { table in
            let r = OTReader(table, isGSUB: true)
            for lookup in plan.gsub {
                guard let l = r.lookup(lookup), !r.isContextual(l, withFormatOutside: [3]) else { return false }
                // A character's substitution by this lookup is its measured glyph, not a touch.
                let touched = font.glyphs(ofLookup: lookup, inTable: "GSUB", among: asciiGlyphs).filter {
                    substituted[charOf[$0]!]?.lookup != lookup
                }
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
                                    if first < 128 && c < 128 {
                                        let pair = first << 7 | c
                                        ligatureStarts[pair >> 6] |= 1 << UInt64(pair & 63)
                                    } else {
                                        // Pairs are tracked between ASCII characters only.
                                        excluded.insert(first)
                                        excluded.insert(c)
                                    }
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

        let eligible = slots.filter { glyphOf[$0] != 0 && !excluded.contains($0) }
        let kernedChars = eligible.filter { kerned.contains($0) }
        var entry = [UInt8](repeating: 0, count: slotCount)
        for u in eligible { entry[u] = unkerned }
        for (i, u) in kernedChars.enumerated() { entry[u] = UInt8(i + 1) }
        let k = kernedChars.count
        guard k < Int(unkerned) else { return nil }

        // Measure every pair: `a b S` for kerned a, b (pairs that start a ligature are never
        // measured through the path), and `a S` for the column of the other characters. A pair
        // measured for a plan with the same positioning lookups is read, not shaped again (the
        // `a S` probes are always shaped: they check each glyph in this plan).
        if measured.gpos != plan.gpos { measured = MeasuredPairs(gpos: plan.gpos) }
        var known: [(a: Int, column: Int, value: Int32)] = []
        var text: [UInt16] = []
        var probes: [(a: Int, column: Int, at: Int)] = []
        text.reserveCapacity(3 * k * k + 2 * k)
        probes.reserveCapacity(k * (k + 1))
        for (i, a) in kernedChars.enumerated() {
            let first = unit(ofSlot: a)
            for (j, b) in kernedChars.enumerated() {
                let pair = a << 7 | b
                if a < 128 && b < 128 && ligatureStarts[pair >> 6] & (1 << UInt64(pair & 63)) != 0 { continue }
                if let value = measured.values[UInt64(glyphOf[a]) << 32 | UInt64(glyphOf[b])] {
                    known.append((i, j, value))
                    continue
                }
                probes.append((i, j, text.count))
                text.append(first)
                text.append(unit(ofSlot: b))
                text.append(separator)
            }
            probes.append((i, k, text.count))
            text.append(first)
            text.append(separator)
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
                let expected =
                    u == separator ? separatorGlyph : glyphOf[extraSlot.withUnsafeBufferPointer { slot(u, $0.baseAddress!) }]
                guard Int(g.cluster) == i, g.glyph == expected, g.xOffset == 0, g.yOffset == 0 else { return nil }
            }
            for p in probes {
                let value = shaped[p.at].xAdvance &- advanceOf[kernedChars[p.a]]
                kern[p.a * (k + 1) + p.column] = value
                if p.column < k {
                    measured.values[UInt64(glyphOf[kernedChars[p.a]]) << 32 | UInt64(glyphOf[kernedChars[p.column]])] = value
                }
            }
            for p in known { kern[p.a * (k + 1) + p.column] = p.value }
            // The second character of each probe is followed by the separator: its adjustment is
            // its own "other characters" column, measured by its `a S` probe.
            for p in probes where p.column < k {
                let b = p.column
                guard shaped[p.at + 1].xAdvance &- advanceOf[kernedChars[b]] == kern[b * (k + 1) + k] else { return nil }
            }
        }
        return KernedAlphabet(
            entry: entry, glyph: glyphOf, advance: advanceOf, kern: kern, kernedCount: k, ligatureStarts: ligatureStarts)
    }

    /// The characters whose nominal glyph exactly one GSUB lookup of `plan` touches, that lookup a
    /// single substitution which replaces it by a glyph no other GSUB lookup of `plan` touches:
    /// HarfBuzz then draws the character as the substitute, whatever its neighbours (the lookup
    /// is not contextual, and no other substitution reads or writes either glyph; positioning
    /// sees the substitute, which `make` checks like any glyph). By character, the substitute
    /// and the lookup.
    private static func singleSubstitutions(
        font: FontFile, plan: [UInt32], nominal: [UInt32]
    ) -> [Int: (glyph: UInt32, lookup: UInt32)] {
        font.withTable("GSUB") { table in
            let r = OTReader(table, isGSUB: true)
            var found: [Int: (glyph: UInt32, lookup: UInt32)] = [:]
            for lookup in plan {
                guard let l = r.lookup(lookup), l.type == 1, let map = r.singleSubstitutions(l) else { continue }
                for u in 0x21...0x7E {
                    if let g = map[nominal[u]], g != nominal[u], g != 0 { found[u] = (g, lookup) }
                }
            }
            // Every other lookup of the plan must leave both glyphs alone (each lookup's glyphs
            // collected once).
            let candidates = found.values.map(\.glyph) + found.keys.map { nominal[$0] }
            var touchedBy: [UInt32: Set<UInt32>] = [:]
            for lookup in plan where !found.isEmpty {
                touchedBy[lookup] = font.glyphs(ofLookup: lookup, inTable: "GSUB", among: candidates)
            }
            for (u, s) in found {
                for lookup in plan where lookup != s.lookup {
                    if let t = touchedBy[lookup], t.contains(nominal[u]) || t.contains(s.glyph) {
                        found[u] = nil
                        break
                    }
                }
            }
            return found
        }
    }
}
