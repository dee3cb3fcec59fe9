import CFriBidi

/// The bidi embedding levels of a text, one per UTF-16 unit, as Pango's layout resolves them
/// before it itemizes: an item never spans a change of level, so the levels say where white
/// space and other neutral characters start an item of their own (and take another face) and
/// where kerning stops.
///
/// - Paragraphs: a text is split after each LF, CR, CR LF and U+2029 (the delimiter belongs to
///   the paragraph before it), as Pango's layout splits it.
/// - Direction: a paragraph's is that of its first strong character by FriBidi's classes (L, R,
///   AL, and the explicit embeddings and overrides, which FriBidi marks strong; a NUL ends the
///   search, as Pango's does); a paragraph without one takes the direction of the last
///   paragraph before it, the first one that of the first strong character of the whole text,
///   left to right when there is none.
/// - Levels: FriBidi's (`fribidi_get_par_embedding_levels_ex`, paired brackets included, the
///   rules L1 gives white space before a paragraph's end and a segment separator included),
///   computed from each scalar's class. Pango skips FriBidi where it proves every level to be
///   the paragraph's: no right-to-left class, Arabic class or isolate in a left-to-right
///   paragraph (all 0, explicit left-to-right embeddings and overrides included), no number or
///   isolate and no left-to-right strong character in a right-to-left one (all 1); the same
///   skips are made here, so that explicit embeddings resolve as Pango resolves them.
/// - Guard: FriBidi 1.0.8 faults on some paragraphs of explicit controls; `guardControls`
///   rewrites those FriBidi is given (controls past a depth of 60 and terminators of nothing read
///   as BN, isolates closed before a paragraph separator) without changing the other levels.
///
/// FriBidi is the library Pango runs (Debian's `libfribidi-dev`), so these are Pango's levels
/// by construction rather than a second implementation of UAX #9 to keep in step with it.
struct BidiLevels {
    /// One level per UTF-16 unit (both units of a surrogate pair have their scalar's).
    private let levels: [UInt8]
    /// For each unit, the offset after the run of units at its level it is in.
    private let runEnds: [Int32]

    private init(levels: [UInt8]) {
        self.levels = levels
        var ends = [Int32](repeating: Int32(levels.count), count: levels.count)
        var k = levels.count - 2
        while k >= 0 {
            if levels[k + 1] == levels[k] { ends[k] = ends[k + 1] } else { ends[k] = Int32(k + 1) }
            k -= 1
        }
        runEnds = ends
    }

    /// The level of the unit at `offset`.
    @inline(__always) subscript(offset: Int) -> UInt8 { levels[offset] }

    /// The offset after the run of units at one level that holds `offset`: an item never spans
    /// it.
    @inline(__always) func levelRunEnd(at offset: Int) -> Int { Int(runEnds[offset]) }

    /// The levels of `u`, nil when every one is 0 (every paragraph left to right without a
    /// character that FriBidi would raise): the common case, most often found by one pass over
    /// the units before anything is allocated.
    static func resolve(_ u: UnsafeBufferPointer<UInt16>) -> BidiLevels? {
        guard mayRaise(u) else { return nil }
        var scalars: [UInt32] = []
        var types: [FriBidiCharType] = []
        var brackets: [FriBidiBracketType] = []
        var scalarLevels: [FriBidiLevel] = []
        var guardedIndex: [Int32] = []
        var levels = [UInt8](repeating: 0, count: u.count)
        let rle = feedlayout_fribidi_type_rle()
        let on = feedlayout_fribidi_type_on()
        // The direction before the first paragraph with a strong character.
        var carried = firstStrongDirection(u, from: 0, to: u.count) ?? feedlayout_fribidi_par_ltr()
        var start = 0
        while start < u.count {
            let end = paragraphEnd(u, from: start)
            let base = firstStrongDirection(u, from: start, to: end) ?? carried
            carried = base
            scalars.removeAll(keepingCapacity: true)
            types.removeAll(keepingCapacity: true)
            brackets.removeAll(keepingCapacity: true)
            var ored: UInt32 = 0
            var andedStrongs = rle
            var i = start
            while i < end {
                let (v, next) = scalar(u, at: i, end: end)
                let type = fribidi_get_bidi_type(v)
                let t = type.rawValue
                scalars.append(v)
                types.append(type)
                ored |= t
                if feedlayout_fribidi_is_strong(t) != 0 { andedStrongs &= t }
                brackets.append(t == on ? fribidi_get_bracket(v) : FriBidiBracketType(0))
                i = next
            }
            // (Where the paragraph has explicit controls, FriBidi reads them guarded, with closing
            // isolates of its own: `guardedIndex` maps each scalar to its entry.)
            guardedIndex.removeAll(keepingCapacity: true)
            if feedlayout_fribidi_is_explicit_or_isolate(ored) != 0 { guardControls(scalars, &types, &brackets, &guardedIndex) }
            let rightToLeft = base == feedlayout_fribidi_par_rtl()
            var uniform: UInt8?
            if feedlayout_fribidi_is_isolate(ored) == 0 {
                if !rightToLeft && feedlayout_fribidi_is_rtl(ored) == 0 && feedlayout_fribidi_is_arabic(ored) == 0 {
                    uniform = 0
                } else if rightToLeft && feedlayout_fribidi_is_number(ored) == 0 && feedlayout_fribidi_is_rtl(andedStrongs) != 0 {
                    uniform = 1
                }
            }
            if let uniform {
                if uniform != 0 { for k in start..<end { levels[k] = uniform } }
            } else {
                scalarLevels = [FriBidiLevel](repeating: 0, count: types.count)
                var direction = base
                let maxLevel = types.withUnsafeBufferPointer { t in
                    brackets.withUnsafeBufferPointer { b in
                        scalarLevels.withUnsafeMutableBufferPointer { l in
                            fribidi_get_par_embedding_levels_ex(
                                t.baseAddress, b.baseAddress, FriBidiStrIndex(t.count), &direction, l.baseAddress)
                        }
                    }
                }
                // (FriBidi fails only when it cannot allocate; Pango then leaves every level 0.)
                if maxLevel > 0 {
                    var k = start
                    for n in scalars.indices {
                        let level = scalarLevels[guardedIndex.isEmpty ? n : Int(guardedIndex[n])]
                        let width = scalars[n] > 0xFFFF ? 2 : 1
                        for m in k..<min(k + width, end) { levels[m] = UInt8(bitPattern: level) }
                        k += width
                    }
                }
            }
            start = end
        }
        return levels.contains(where: { $0 != 0 }) ? BidiLevels(levels: levels) : nil
    }

    /// The class of U+00AD: BN, which FriBidi removes (UAX #9 X9) and gives the level before it.
    private static let boundaryNeutral = fribidi_get_bidi_type(0xAD)

    /// The most embeddings and isolates open at once that FriBidi is given (each raises the level
    /// by one or two, so 60 stay below the algorithm's limit of 125).
    static let maxNesting = 60

    /// The class of U+2029: B, which ends every embedding and isolate.
    private static let paragraphSeparator = fribidi_get_bidi_type(0x2029)

    /// The class of U+2069 (PDI), for the closing isolates FriBidi is given.
    private static let popIsolate = fribidi_get_bidi_type(0x2069)

    /// Rewrites a paragraph's classes (`types`, `brackets`, in step with `scalars`) for FriBidi
    /// 1.0.8 (Debian 12's, Pango's there), which crashes or reads and writes freed memory on
    /// paragraphs whose embeddings and isolates reach its depth limit, whose terminators close
    /// nothing, or where an isolate is still open at a character of class B (the paragraph's end,
    /// or U+001C–U+001E and U+0085 inside it): fixed upstream in 1.0.10 and 1.0.11. Pango runs
    /// the same library and meets the same faults; here:
    /// - a control that would open a 61st embedding or isolate, or close one never opened (or
    ///   one of those), is read as BN (no effect);
    /// - before each character of class B and at the end, a PDI (one of FriBidi's own, in no
    ///   unit) closes each isolate still open, as UAX #9 X8 closes them there anyway.
    /// Below that depth, with terminators that close what they should, the levels do not change.
    /// `index` receives, for each scalar, its entry in the rewritten arrays.
    private static func guardControls(
        _ scalars: [UInt32], _ types: inout [FriBidiCharType], _ brackets: inout [FriBidiBracketType], _ index: inout [Int32]
    ) {
        var outTypes: [FriBidiCharType] = []
        var outBrackets: [FriBidiBracketType] = []
        outTypes.reserveCapacity(types.count + 4)
        outBrackets.reserveCapacity(types.count + 4)
        index.reserveCapacity(types.count)
        var isolateOpen: [Bool] = []  // the open entries: true for an isolate
        var isolates = 0
        var overflowIsolates = 0, overflowEmbeddings = 0
        func closeIsolates() {
            for _ in 0..<isolates {
                outTypes.append(popIsolate)
                outBrackets.append(FriBidiBracketType(0))
            }
            isolateOpen.removeAll(keepingCapacity: true)
            (isolates, overflowIsolates, overflowEmbeddings) = (0, 0, 0)
        }
        for (k, v) in scalars.enumerated() {
            if types[k] == paragraphSeparator {
                closeIsolates()
            } else {
                switch v {
                case 0x202A, 0x202B, 0x202D, 0x202E:
                    if isolateOpen.count < maxNesting && overflowIsolates == 0 && overflowEmbeddings == 0 {
                        isolateOpen.append(false)
                    } else {
                        if overflowIsolates == 0 { overflowEmbeddings += 1 }
                        types[k] = boundaryNeutral
                    }
                case 0x2066, 0x2067, 0x2068:
                    if isolateOpen.count < maxNesting && overflowIsolates == 0 && overflowEmbeddings == 0 {
                        isolateOpen.append(true)
                        isolates += 1
                    } else {
                        overflowIsolates += 1
                        types[k] = boundaryNeutral
                    }
                case 0x2069:
                    if overflowIsolates > 0 {
                        overflowIsolates -= 1
                        types[k] = boundaryNeutral
                    } else if isolates == 0 {
                        types[k] = boundaryNeutral
                    } else {
                        overflowEmbeddings = 0
                        while let last = isolateOpen.popLast(), !last {}
                        isolates -= 1
                    }
                case 0x202C:
                    if overflowIsolates > 0 || overflowEmbeddings > 0 {
                        if overflowIsolates == 0 { overflowEmbeddings -= 1 }
                        types[k] = boundaryNeutral
                    } else if isolateOpen.last == false {
                        isolateOpen.removeLast()
                    } else {
                        types[k] = boundaryNeutral
                    }
                default: break
                }
            }
            index.append(Int32(outTypes.count))
            outTypes.append(types[k])
            outBrackets.append(brackets[k])
        }
        closeIsolates()
        types = outTypes
        brackets = outBrackets
    }

    /// Whether any unit may be of a class that FriBidi raises above level 0 (or that makes a
    /// paragraph right to left): right-to-left letters and Arabic numbers (U+0590–U+08FF,
    /// U+FB1D–U+FDFF, U+FE70–U+FEFF, surrogates of U+10800–U+10FFF and U+1E800–U+1EFFF),
    /// U+200F, the explicit embeddings, overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069). A false positive only costs the exact computation.
    private static func mayRaise(_ u: UnsafeBufferPointer<UInt16>) -> Bool {
        for c in u {
            if c < 0x0590 { continue }
            if c <= 0x08FF || isLevelControl(UInt32(c)) { return true }
            if c >= 0xFB1D && c <= 0xFEFF { return true }
            // High surrogates of U+10800–U+10FFF (D802–D803) and U+1E800–U+1EFFF (D83A–D83B).
            if c &- 0xD802 < 2 || c &- 0xD83A < 2 { return true }
        }
        return false
    }

    /// Whether `c` is a control that changes bidi levels without being a letter: the Arabic
    /// letter mark (U+061C), the right-to-left mark (U+200F), the explicit embeddings and
    /// overrides with their terminator (U+202A–U+202E), and the isolates with theirs
    /// (U+2066–U+2069).
    @inline(__always)
    static func isLevelControl(_ c: UInt32) -> Bool {
        c == 0x061C || c == 0x200F || c &- 0x202A < 5 || c &- 0x2066 < 4
    }

    /// The offset after the paragraph that starts at `start`: after its LF, CR, CR LF or U+2029,
    /// or the text's end.
    private static func paragraphEnd(_ u: UnsafeBufferPointer<UInt16>, from start: Int) -> Int {
        var i = start
        while i < u.count {
            let c = u[i]
            i += 1
            if c == 0x0A || c == 0x2029 { return i }
            if c == 0x0D { return i < u.count && u[i] == 0x0A ? i + 1 : i }
        }
        return i
    }

    /// The paragraph direction of the first character of `start..<end` that FriBidi classes
    /// strong, nil when there is none before the end or a NUL.
    private static func firstStrongDirection(_ u: UnsafeBufferPointer<UInt16>, from start: Int, to end: Int) -> FriBidiParType? {
        var i = start
        while i < end {
            let (v, next) = scalar(u, at: i, end: end)
            if v == 0 { return nil }
            let t = fribidi_get_bidi_type(v).rawValue
            if feedlayout_fribidi_is_strong(t) != 0 {
                return feedlayout_fribidi_is_rtl(t) != 0 ? feedlayout_fribidi_par_rtl() : feedlayout_fribidi_par_ltr()
            }
            i = next
        }
        return nil
    }

    /// The scalar at `i` and the offset after it; a lone surrogate reads as U+FFFD.
    @inline(__always)
    private static func scalar(_ u: UnsafeBufferPointer<UInt16>, at i: Int, end: Int) -> (UInt32, Int) {
        let c = UInt32(u[i])
        if c & 0xF800 != 0xD800 { return (c, i + 1) }
        if c & 0xFC00 == 0xD800, i + 1 < end, u[i + 1] & 0xFC00 == 0xDC00 {
            return (0x10000 + ((c - 0xD800) << 10) + (UInt32(u[i + 1]) - 0xDC00), i + 2)
        }
        return (0xFFFD, i + 1)
    }
}
