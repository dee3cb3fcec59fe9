internal import CFreeType
internal import CHarfBuzz
import UnicodeText

/// Every FreeType and HarfBuzz call of the text engine goes through this file.
///
/// Ownership: `FontFile` owns one `hb_blob_t` (the file, memory-mapped by HarfBuzz), one `hb_face_t`
/// and one `hb_font_t` (HarfBuzz's own OpenType functions, scale = units per em, so advances come
/// out in font units and one font object serves every size), and frees them in `deinit`. FreeType
/// opens the same bytes once at load, to validate the face and read its metrics and name, and is
/// closed right after: nothing FreeType is kept. `hb_ot` fonts are immutable after creation and
/// shape from any number of threads without locks (`hb_ft` fonts would serialize every call).
final class FontFile: @unchecked Sendable {
    let path: String
    let upem: Int32
    /// hhea ascender and descender in font units (descender positive, below the baseline).
    let ascender: Int32
    let descender: Int32
    /// The ascent and descent of cairo's font extents and the em they are in, in the face's
    /// units: hhea's for a scalable face; for a bitmap-only one, its first strike's line metrics
    /// in pixels at the strike's size (Noto Color Emoji: 101 + 27 at 109 ppem, 1.1743 em, where
    /// hhea gives 1.1719). Pango pads a hex box by this height (`FontSet.hexBoxAdvance`).
    let extents: (ascent: Double, descent: Double, perEm: Double)
    let familyName: String
    /// The glyph of U+0020 (nil when the face lacks a space), read once at load.
    let spaceGlyph: UInt32?
    /// The advance of the glyph U+0020 is drawn with (`spaceGlyph`, else .notdef) in font units,
    /// read once at load: spaces and tabs are measured with it.
    let spaceAdvance: Int32
    fileprivate let blob: OpaquePointer
    fileprivate let face: OpaquePointer
    private let faceIndex: UInt32
    /// A second face on the same bytes, for the shaping plans the fonts' analysis at load asks
    /// about (`lookups`): HarfBuzz keeps every plan made for a face in a list that `hb_shape`
    /// searches on every call, so the hundreds of plans the analysis makes (each script with
    /// three languages) would cost each shaped word about 9 000 instructions on `face`. Made on
    /// first use and dropped by `endPlanAnalysis()` (`FontSet` calls it once loaded).
    private var analysisFace: OpaquePointer?
    fileprivate let font: OpaquePointer
    /// The font shaping uses: `font` with its BMP cmap read from `bmpGlyphs`
    /// (`feedlayout_create_table_font`), or `font` itself when a BMP glyph id does not fit 16 bits.
    fileprivate let shapingFont: OpaquePointer
    /// The nominal glyph of every BMP code point (0: not mapped), read once at load; 128 KiB.
    private let bmpGlyphs: UnsafeMutablePointer<UInt16>
    /// True when `bmpGlyphs` is the cmap's BMP mapping (every mapped glyph fits 16 bits).
    private let bmpTableIsExact: Bool
    /// One bit per BMP code point the face maps (`CoverageBits`).
    let bmpCoverage: [UInt64]

    init(path: String, faceIndex: Int) throws(TextMeasureError) {
        self.path = path
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw .fontUnreadable(file: path)
        }
        let length = hb_blob_get_length(blob)
        var metrics: (Int32, Int32, Int32, String, (Double, Double, Double)?)
        do {
            metrics = try Self.validate(blob: blob, length: length, faceIndex: faceIndex, path: path)
        } catch {
            hb_blob_destroy(blob)
            throw error
        }
        self.blob = blob
        self.faceIndex = UInt32(faceIndex)
        face = hb_face_create(blob, UInt32(faceIndex))
        font = hb_font_create(face)
        // HarfBuzz reads units per em from `head`; FreeType reports 0 for bitmap-only faces.
        upem = Int32(hb_face_get_upem(face))
        ascender = metrics.1
        descender = metrics.2
        familyName = metrics.3
        extents = metrics.4 ?? (Double(metrics.1), Double(metrics.2), Double(upem))
        hb_font_set_scale(font, upem, upem)
        hb_font_make_immutable(font)
        var space: hb_codepoint_t = 0
        spaceGlyph = hb_font_get_nominal_glyph(font, 0x20, &space) != 0 ? space : nil
        spaceAdvance = hb_font_get_glyph_h_advance(font, spaceGlyph ?? 0)
        bmpGlyphs = .allocate(capacity: 0x10000)
        bmpGlyphs.initialize(repeating: 0, count: 0x10000)
        var coverage = [UInt64](repeating: 0, count: 0x10000 / 64)
        let fits = Self.readBMPCmap(face: face, font: font, into: bmpGlyphs, coverage: &coverage)
        bmpCoverage = coverage
        bmpTableIsExact = fits
        shapingFont = fits ? feedlayout_create_table_font(font, bmpGlyphs) : hb_font_reference(font)
    }

    /// Fills `glyphs` with the nominal glyph of every BMP code point the face maps (0 elsewhere)
    /// and sets `coverage`'s bit of each; returns false when a mapped glyph is 0 or does not fit
    /// 16 bits (the table cannot stand for the cmap then).
    ///
    /// Asking `hb_font_get_nominal_glyph` about all 65 536 code points took about 210 instructions
    /// each (55 M for the four faces, a sixth of `feedlayout layout` of one corpus file). The
    /// cmap's own list (`hb_face_collect_unicodes`, one walk of the subtable HarfBuzz looks glyphs
    /// up in) gives the code points it maps; they are looked up in one batch
    /// (`hb_font_get_nominal_glyphs`, resumed after a code point it does not map), and the others
    /// are unmapped. HarfBuzz's list leaves out code points mapped to a glyph id past the face's
    /// glyph count (a broken cmap; the pinned faces have none): those are unmapped here. A symbol
    /// cmap (platform 3, encoding 0) maps code points it does not list (its U+F020 serves U+0020
    /// too): such a face is asked about every code point.
    private static func readBMPCmap(
        face: OpaquePointer, font: OpaquePointer, into glyphs: UnsafeMutablePointer<UInt16>, coverage: inout [UInt64]
    ) -> Bool {
        var fits = true
        func record(_ u: Int, _ glyph: hb_codepoint_t, covered: Bool = true) {
            if glyph == 0 || glyph > 0xFFFF { fits = false }
            glyphs[u] = UInt16(truncatingIfNeeded: glyph)
            if covered { coverage[u >> 6] |= 1 << UInt64(u & 63) }
        }
        let set = hb_set_create()
        defer { hb_set_destroy(set) }
        hb_face_collect_unicodes(face, set)
        if hasSymbolCmap(face) {
            // Coverage stays the listed code points: the cascade does not take a symbol face
            // for the characters it remaps.
            for u in 0..<0x10000 {
                var glyph: hb_codepoint_t = 0
                guard hb_font_get_nominal_glyph(font, hb_codepoint_t(u), &glyph) != 0 else { continue }
                record(u, glyph, covered: hb_set_has(set, hb_codepoint_t(u)) != 0)
            }
            return fits
        }
        // The listed BMP code points in order (`hb_set_next_many`; `hb_set_next_range` cost
        // thousands of instructions a call on these sets), and their glyphs.
        let codes = UnsafeMutablePointer<hb_codepoint_t>.allocate(capacity: 0x10000)
        let found = UnsafeMutablePointer<hb_codepoint_t>.allocate(capacity: 0x10000)
        defer {
            codes.deallocate()
            found.deallocate()
        }
        let listed = Int(hb_set_next_many(set, hb_codepoint_t.max, codes, 0x10000))
        var count = 0
        while count < listed && codes[count] < 0x10000 { count += 1 }
        var i = 0
        while i < count {
            let done = Int(hb_font_get_nominal_glyphs(
                font, UInt32(count - i), codes + i, UInt32(MemoryLayout<hb_codepoint_t>.stride),
                found + i, UInt32(MemoryLayout<hb_codepoint_t>.stride)))
            for k in i..<(i + done) { record(Int(codes[k]), found[k]) }
            i += done + 1  // past the code point that is not mapped
        }
        return fits
    }

    /// True when the face's cmap has a symbol subtable (platform 3, encoding 0), which HarfBuzz
    /// prefers to every other and reads with the symbol remapping.
    private static func hasSymbolCmap(_ face: OpaquePointer) -> Bool {
        let blob = hb_face_reference_table(face, hb_tag_from_string("cmap", 4))
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length >= 4 else { return false }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        let tables = u16(2)
        for i in 0..<tables {
            let at = 4 + 8 * i
            guard at + 4 <= bytes.count else { break }
            if u16(at) == 3 && u16(at + 2) == 0 { return true }
        }
        return false
    }

    deinit {
        hb_font_destroy(shapingFont)
        bmpGlyphs.deallocate()
        hb_font_destroy(font)
        endPlanAnalysis()
        hb_face_destroy(face)
        hb_blob_destroy(blob)
    }

    /// Opens the face with FreeType: checks it is a scalable or bitmap face FreeType accepts and
    /// reads units per em, hhea ascender/descender and the family name.
    private static func validate(
        blob: OpaquePointer, length: UInt32, faceIndex: Int, path: String
    ) throws(TextMeasureError) -> (Int32, Int32, Int32, String, (Double, Double, Double)?) {
        var library: FT_Library?
        var err = FT_Init_FreeType(&library)
        guard err == 0, let library else { throw .freeType(code: Int(err), function: "FT_Init_FreeType", file: path) }
        defer { FT_Done_FreeType(library) }
        var length32: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length32), length32 > 0 else { throw .fontUnreadable(file: path) }
        var face: FT_Face?
        err = data.withMemoryRebound(to: UInt8.self, capacity: Int(length32)) {
            FT_New_Memory_Face(library, $0, FT_Long(length32), FT_Long(faceIndex), &face)
        }
        guard err == 0, let face else { throw .freeType(code: Int(err), function: "FT_New_Memory_Face", file: path) }
        defer { FT_Done_Face(face) }
        let upem = Int32(face.pointee.units_per_EM)
        guard face.pointee.num_glyphs > 0 else { throw .fontInvalid(file: path, reason: "the face has no glyphs") }
        let family = face.pointee.family_name.map { String(cString: $0) } ?? ""
        var ascender = Int32(face.pointee.ascender)
        var descender = -Int32(face.pointee.descender)
        if let hhea = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self) {
            ascender = Int32(hhea.pointee.Ascender)
            descender = -Int32(hhea.pointee.Descender)
        }
        // A bitmap-only face's extents are its strike's (cairo scales the strike's size metrics).
        var strike: (Double, Double, Double)?
        if face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0 && face.pointee.num_fixed_sizes > 0
            && FT_Select_Size(face, 0) == 0, let size = face.pointee.size, size.pointee.metrics.y_ppem > 0
        {
            let m = size.pointee.metrics
            strike = (Double(m.ascender) / 64, -Double(m.descender) / 64, Double(m.y_ppem))
        }
        return (upem, ascender, descender, family, strike)
    }

    /// The glyph of a BMP code point, as `nominalGlyph` gives it, read from the table made at load.
    @inline(__always) func bmpNominalGlyph(_ scalar: UInt16) -> UInt32? {
        guard bmpTableIsExact else { return nominalGlyph(UInt32(scalar)) }
        let g = bmpGlyphs[Int(scalar)]
        return g == 0 ? nil : UInt32(g)
    }

    /// The glyph of `scalar` in the font's cmap, or nil.
    @inline(__always) func nominalGlyph(_ scalar: UInt32) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 ? glyph : nil
    }

    /// The horizontal advance of `glyph` in font units.
    @inline(__always) func advance(ofGlyph glyph: UInt32) -> Int32 {
        hb_font_get_glyph_h_advance(font, glyph)
    }

    /// The advance in points HarfBuzz gives, at `size` as Pango scales the face, a space character
    /// the face does not map when the face has a space glyph (which it draws instead): by the kind
    /// of space, an em or a fraction of one (U+2000–U+2006, U+2009, U+200A, U+205F, U+3000,
    /// divided in Pango's units as HarfBuzz divides its scale), a digit's width (U+2007), a full
    /// stop's or comma's (U+2008), half a space (U+202F, halved in units), a space (U+0020,
    /// U+00A0). Nil for any other character (U+1680 and the controls have no such space).
    func fallbackSpaceAdvance(_ scalar: UInt32, size: Double) -> Double? {
        guard spaceGlyph != nil else { return nil }
        let units = PangoScale(size: size, upem: upem)
        // HarfBuzz's scale for Pango, in units; beyond its integer range, exact.
        let scale = size * 1024
        let integral = scale >= 1 && scale <= Double(Int32.max)
        func em(_ n: Int64) -> Double {
            integral ? Double((Int64(scale) + n / 2) / n) / 1024 : scale / Double(n) / 1024
        }
        func firstAdvance(_ scalars: some Sequence<UInt32>) -> Double {
            for s in scalars { if let g = nominalGlyph(s) { return units.points(self.advance(ofGlyph: g)) } }
            return units.points(spaceAdvance)
        }
        switch scalar {
        case 0x20, 0xA0: return units.points(spaceAdvance)
        case 0x2001, 0x2003, 0x3000: return em(1)
        case 0x2000, 0x2002: return em(2)
        case 0x2004: return em(3)
        case 0x2005: return em(4)
        case 0x2009: return em(5)
        case 0x2006: return em(6)
        case 0x200A: return em(16)
        case 0x205F: return integral ? Double(Int64(scale) * 4 / 18) / 1024 : scale * 4 / 18 / 1024
        case 0x2007: return firstAdvance(0x30...0x39)
        case 0x2008: return firstAdvance([0x2E, 0x2C])
        case 0x202F:
            let space = units.points(spaceAdvance) * 1024
            return integral ? Double(Int64(space) / 2) / 1024 : space / 2 / 1024
        default: return nil
        }
    }

    /// The horizontal advances of `glyphs` in font units, in one call
    /// (`hb_font_get_glyph_h_advances`: a call per glyph took about 170 instructions).
    func advances(ofGlyphs glyphs: [UInt32]) -> [Int32] {
        var out = [Int32](repeating: 0, count: glyphs.count)
        glyphs.withUnsafeBufferPointer { g in
            out.withUnsafeMutableBufferPointer { o in
                hb_font_get_glyph_h_advances(
                    font, UInt32(g.count), g.baseAddress, UInt32(MemoryLayout<UInt32>.stride), o.baseAddress,
                    UInt32(MemoryLayout<Int32>.stride))
            }
        }
        return out
    }

    /// The lookup indices (GSUB, GPOS) of the plan `ShapingBuffer.shape` uses for `script`:
    /// its direction, default features, the language derived from the script
    /// (`ShapingBuffer.language(for:)`).
    func planLookups(script: UnicodeScript) -> (gsub: [UInt32], gpos: [UInt32]) {
        let s = hb_script_from_string(script.code, 4)
        return lookups(script: s, language: ShapingBuffer.language(for: script.code), direction: hb_script_get_horizontal_direction(s))
    }

    /// True when the plan of `script` selects the same lookups as the plan of the same script
    /// with the Chinese language or with none: the plans the per-character tables were made for
    /// (`allPlanLookups`).
    ///
    /// A plan's lookups are those of the features its shaper (chosen by the script) asks for, in
    /// the language systems HarfBuzz selects in GSUB and GPOS (`hb_ot_map_builder_t`: the
    /// script's and language's OpenType tags, then `hb_ot_layout_table_select_script` and
    /// `hb_ot_layout_script_select_language`); nothing else of the language enters them. So two
    /// plans of one script whose selections are equal have equal lookups, and the selections,
    /// compared first, answer without making a plan for most of the 164 scripts (a face lists
    /// few, and the others fall back to its default system for every language). Otherwise the
    /// plans are made and their lookups compared (`planMatchesTablesByPlans`; a test checks the
    /// two agree on every script of the pinned faces).
    func planMatchesTables(script: UnicodeScript) -> Bool {
        let s = hb_script_from_string(script.code, 4)
        let used = languageSystems(script: s, language: ShapingBuffer.language(for: script.code))
        if used == languageSystems(script: s, language: hb_language_from_string("zh-cn", -1))
            || used == languageSystems(script: s, language: nil)
        {
            return true
        }
        return planMatchesTablesByPlans(script: script)
    }

    /// The script and language system indices (GSUB, then GPOS) HarfBuzz selects for a plan of
    /// `script` with `language`, as `hb_ot_map_builder_t` does.
    private func languageSystems(script: hb_script_t, language: hb_language_t?) -> [UInt32] {
        var scriptCount: UInt32 = 3, languageCount: UInt32 = 3  // HB_OT_MAX_TAGS_PER_SCRIPT, _PER_LANGUAGE
        var scriptTags = [hb_tag_t](repeating: 0, count: 3), languageTags = [hb_tag_t](repeating: 0, count: 3)
        hb_ot_tags_from_script_and_language(script, language, &scriptCount, &scriptTags, &languageCount, &languageTags)
        var out: [UInt32] = []
        for tag in ["GSUB", "GPOS"] {
            let table = hb_tag_from_string(tag, 4)
            var scriptIndex: UInt32 = 0, chosen: hb_tag_t = 0, languageIndex: UInt32 = 0
            _ = hb_ot_layout_table_select_script(face, table, scriptCount, scriptTags, &scriptIndex, &chosen)
            _ = hb_ot_layout_script_select_language(face, table, scriptIndex, languageCount, languageTags, &languageIndex)
            out += [scriptIndex, languageIndex]
        }
        return out
    }

    /// `planMatchesTables` by making the three plans and comparing their lookups.
    func planMatchesTablesByPlans(script: UnicodeScript) -> Bool {
        let s = hb_script_from_string(script.code, 4)
        let used = planLookups(script: script)
        let direction = hb_script_get_horizontal_direction(s)
        func same(_ l: (gsub: [UInt32], gpos: [UInt32])) -> Bool { l.gsub == used.gsub && l.gpos == used.gpos }
        return same(lookups(script: s, language: hb_language_from_string("zh-cn", -1), direction: direction))
            || same(lookups(script: s, language: nil, direction: direction))
    }

    /// The width and height of a glyph's ink (its bounding box) in font units.
    func inkSize(ofGlyph glyph: UInt32) -> (width: Int32, height: Int32) {
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font, glyph, &extents) != 0 else { return (0, 0) }
        return (extents.width, abs(extents.height))
    }

    /// The lookup indices (GSUB, GPOS) of one shaping plan: horizontal, default features.
    private func lookups(
        script: hb_script_t, language: hb_language_t?, direction: hb_direction_t = HB_DIRECTION_LTR
    ) -> (gsub: [UInt32], gpos: [UInt32]) {
        var props = hb_segment_properties_t()
        props.direction = direction == HB_DIRECTION_RTL ? HB_DIRECTION_RTL : HB_DIRECTION_LTR
        props.script = script
        props.language = language
        let probe = analysisFace ?? hb_face_create(blob, faceIndex)
        analysisFace = probe
        guard let plan = hb_shape_plan_create_cached(probe, &props, nil, 0, nil) else { return ([], []) }
        defer { hb_shape_plan_destroy(plan) }
        func collect(_ tag: String) -> [UInt32] {
            let set = hb_set_create()
            defer { hb_set_destroy(set) }
            hb_ot_shape_plan_collect_lookups(plan, hb_tag_from_string(tag, 4), set)
            var out: [UInt32] = []
            var i = hb_codepoint_t.max
            while hb_set_next(set, &i) != 0 { out.append(i) }
            return out
        }
        return (collect("GSUB"), collect("GPOS"))
    }

    /// Frees the face the plans of `lookups` were made on (and those plans). Not thread-safe: call
    /// it while loading, before the font is shared.
    func endPlanAnalysis() {
        if let analysisFace { hb_face_destroy(analysisFace) }
        analysisFace = nil
    }

    /// The glyphs a lookup reads or writes (input, context, output), among `candidates`.
    func glyphs(ofLookup lookup: UInt32, inTable tag: String, among candidates: [UInt32]) -> Set<UInt32> {
        let set = hb_set_create()
        defer { hb_set_destroy(set) }
        hb_ot_layout_lookup_collect_glyphs(face, hb_tag_from_string(tag, 4), lookup, set, set, set, set)
        return Set(candidates.filter { hb_set_has(set, $0) != 0 })
    }

    /// Calls `body` with the bytes of an OpenType table of the face (empty when it is absent).
    func withTable<R>(_ tag: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let blob = hb_face_reference_table(face, hb_tag_from_string(tag, 4))
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return body(UnsafeRawBufferPointer(start: data, count: Int(length)))
    }

    /// The lookups (GSUB, GPOS) of every shaping plan this engine can use: every script the
    /// face's GSUB and GPOS list, Common, and the scripts whose HarfBuzz shapers add features of
    /// their own, each with the Chinese language and with none (`ShapingBuffer.shape` uses one of
    /// the two), horizontal, default features.
    func allPlanLookups() -> (gsub: Set<UInt32>, gpos: Set<UInt32>) {
        var result: (gsub: Set<UInt32>, gpos: Set<UInt32>) = ([], [])
        let chinese = hb_language_from_string("zh-cn", -1)
        for script in planScripts() {
            for language in [chinese, nil] {
                let l = lookups(script: hb_script_t(rawValue: script), language: language)
                result.gsub.formUnion(l.gsub)
                result.gpos.formUnion(l.gpos)
            }
        }
        return result
    }

    /// The scripts (HarfBuzz tags, sorted) whose plans `allPlanLookups` and `keepShapingPlans`
    /// make: every script the face's GSUB and GPOS list, Common, and the scripts whose HarfBuzz
    /// shapers add features of their own.
    private func planScripts() -> [UInt32] {
        let tables = [hb_tag_from_string("GSUB", 4), hb_tag_from_string("GPOS", 4)]
        var scripts: Set<UInt32> = []
        for table in tables {
            var tags = [hb_tag_t](repeating: 0, count: 64)
            var start: UInt32 = 0
            while true {
                var count = UInt32(tags.count)
                let total = hb_ot_layout_table_get_script_tags(face, table, start, &count, &tags)
                for tag in tags.prefix(Int(count)) { scripts.insert(hb_ot_tag_to_script(tag).rawValue) }
                start += count
                if count == 0 || start >= total { break }
            }
        }
        for code in ["Zyyy", "Latn", "Hani", "Hira", "Kana", "Hang", "Arab", "Hebr", "Deva", "Thai", "Khmr", "Mymr"] {
            scripts.insert(hb_script_from_string(code, 4).rawValue)
        }
        return scripts.sorted().filter { $0 != HB_SCRIPT_INVALID.rawValue && $0 != 0 }
    }

    /// Makes the plans `ShapingBuffer.shape` asks for on the shaping face, where HarfBuzz keeps
    /// them: with `scripts`, each script of `planScripts` in its direction with its derived
    /// language (`ShapingBuffer.language(for:)`); always, the plan of runs shaped without a
    /// script (emoji words: no script found, the context language). A plan takes about 100 000
    /// instructions to make; made at load, as the fonts' other tables are, a text's first word
    /// of a script does not pay it. `hb_shape` finds a plan by walking the face's list from the
    /// plan made last, about 11 instructions a step, so the plans words use most are made last:
    /// Han, then Latin, then the scriptless one. Call it before anything else shapes with the
    /// face.
    func keepShapingPlans(scripts: Bool) {
        func keep(_ script: hb_script_t, _ language: hb_language_t?, _ direction: hb_direction_t) {
            var props = hb_segment_properties_t()
            props.direction = direction
            props.script = script
            props.language = language
            hb_shape_plan_destroy(hb_shape_plan_create_cached(face, &props, nil, 0, nil))
        }
        if scripts {
            let weak = [HB_SCRIPT_COMMON.rawValue, HB_SCRIPT_INHERITED.rawValue, HB_SCRIPT_UNKNOWN.rawValue]
            let last = [HB_SCRIPT_HAN.rawValue, HB_SCRIPT_LATIN.rawValue]
            let ordered = planScripts().filter { !weak.contains($0) && !last.contains($0) } + last
            for raw in ordered {
                let script = hb_script_t(rawValue: raw)
                let code = String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: raw >> $0) }, as: UTF8.self)
                let rtl = hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL
                keep(script, ShapingBuffer.language(for: code), rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            }
        }
        keep(HB_SCRIPT_INVALID, hb_language_from_string(ShapingBuffer.contextLanguage, -1), HB_DIRECTION_LTR)
    }

    /// The glyphs that some lookup of `lookups` (see `allPlanLookups`) reads or writes (as input,
    /// context before or after, or output), one bit per glyph id.
    ///
    /// A glyph outside the set cannot be substituted, positioned or used as context by shaping:
    /// its advance is its hmtx advance next to any neighbour, provided no lookup matches "class
    /// 0" (the glyphs a class definition leaves out), which HarfBuzz does not enumerate;
    /// `FontSet.fastPaths` checks that (`OTLayout.classZeroCanMatch`).
    func glyphsTouched(by lookups: (gsub: Set<UInt32>, gpos: Set<UInt32>)) -> [UInt64] {
        let glyphCount = Int(hb_face_get_glyph_count(face))
        var bits = [UInt64](repeating: 0, count: glyphCount / 64 + 1)
        let touched = hb_set_create()
        defer { hb_set_destroy(touched) }
        for (tag, set) in [("GSUB", lookups.gsub), ("GPOS", lookups.gpos)] {
            let table = hb_tag_from_string(tag, 4)
            for lookup in set.sorted() {
                hb_ot_layout_lookup_collect_glyphs(face, table, lookup, touched, touched, touched, touched)
            }
        }
        var glyph = hb_codepoint_t.max
        while hb_set_next(touched, &glyph) != 0 && Int(glyph) < glyphCount {
            bits[Int(glyph >> 6)] |= 1 << UInt64(glyph & 63)
        }
        return bits
    }
}

/// One shaped glyph, in font units, with the UTF-16 offset of its cluster.
struct ShapedGlyph {
    var glyph: UInt32
    var cluster: UInt32
    var xAdvance: Int32
    var xOffset: Int32
    var yOffset: Int32
}

/// A HarfBuzz buffer owned by one shaping call chain (one per thread at a time; not shared).
///
/// `@unchecked Sendable`: measurers keep idle buffers in a pool behind their lock; a buffer is used
/// by the one `prepare` call that took it from the pool, never by two threads at once.
final class ShapingBuffer: @unchecked Sendable {
    fileprivate let buffer: OpaquePointer
    /// Per script (by raw value): its HarfBuzz tag in the low 32 bits, bit 32 set when it is shaped
    /// right to left; 0 until first used. Languages alongside (nil: none).
    private var scripts = [UInt64](repeating: 0, count: 256)
    private var languages = [hb_language_t?](repeating: nil, count: 256)
    /// The context language, for runs shaped without a script (emoji words).
    private let context = hb_language_from_string(contextLanguage, -1)

    /// The context language of every text (Pango's in the reference harness).
    static let contextLanguage = "zh-cn"
    /// The scripts the context language is written in (Pango's table: Han for zh-cn). Common,
    /// inherited and unknown characters belong to every language.
    private static let contextScripts: Set<String> = ["Hani", "Zyyy", "Zinh", "Zzzz"]
    /// The sample language of a script, as Pango derives a run's language when the context
    /// language does not use its script (`pango_script_get_sample_language`); a script with none
    /// gets "xx", a tag no font has forms for.
    private static let sampleLanguages: [String: String] = [
        "Arab": "ar", "Armn": "hy", "Beng": "bn", "Cher": "chr", "Copt": "cop", "Cyrl": "ru", "Deva": "hi",
        "Ethi": "am", "Geor": "ka", "Grek": "el", "Gujr": "gu", "Guru": "pa", "Hang": "ko", "Hebr": "he",
        "Hira": "ja", "Knda": "kn", "Kana": "ja", "Khmr": "km", "Laoo": "lo", "Latn": "en", "Mlym": "ml",
        "Mong": "mn", "Mymr": "my", "Orya": "or", "Sinh": "si", "Syrc": "syr", "Taml": "ta", "Telu": "te",
        "Thaa": "dv", "Thai": "th", "Tibt": "bo", "Cans": "iu", "Tglg": "tl", "Hano": "hnn", "Buhd": "bku",
        "Tagb": "tbw", "Ugar": "uga", "Bugi": "bug", "Sylo": "syl", "Xpeo": "peo", "Nkoo": "nqo",
    ]

    /// The language runs of a script (ISO 15924 code) are shaped with: the context language when
    /// it uses the script, else the script's sample language (Hangul → ko, kana → ja, Cyrillic →
    /// ru, Latin → en, …), as Pango derives it.
    static func language(for code: String) -> hb_language_t? {
        let tag = contextScripts.contains(code) ? contextLanguage : sampleLanguages[code] ?? "xx"
        return hb_language_from_string(tag, -1)
    }

    init() {
        buffer = hb_buffer_create()
    }

    deinit { hb_buffer_destroy(buffer) }

    /// Shapes `text[start..<end]` (UTF-16, with the whole text as context) in the script's
    /// direction with the font's default features (kerning and ligatures on) and appends the glyphs
    /// to `out` in logical order (a right-to-left run is reversed after shaping). Cluster values
    /// are UTF-16 offsets into `text`, merged to grapheme clusters. `script` is the run's script,
    /// or nil to let HarfBuzz guess (with the context language). `beginsText`: the run is the
    /// beginning of the text, with nothing before it (HarfBuzz then draws a dotted circle, U+25CC,
    /// before a mark that starts it, when the font has one, as it does under Pango).
    func shape(
        _ text: UnsafeBufferPointer<UInt16>, start: Int, end: Int, font: FontFile, script: UnicodeScript?,
        rightToLeft: Bool? = nil, beginsText: Bool = false, into out: inout [ShapedGlyph]
    ) {
        hb_buffer_clear_contents(buffer)
        // (Clearing the contents keeps the flags.)
        hb_buffer_set_flags(buffer, beginsText ? HB_BUFFER_FLAG_BOT : HB_BUFFER_FLAG_DEFAULT)
        hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), UInt32(start), Int32(end - start))
        var rtl = false
        if let script {
            let raw = Int(script.rawValue)
            var entry = scripts[raw]
            if entry == 0 {
                let code = script.code
                let tag = hb_script_from_string(code, 4)
                entry = UInt64(tag.rawValue)
                if hb_script_get_horizontal_direction(tag) == HB_DIRECTION_RTL { entry |= 1 << 32 }
                scripts[raw] = entry
                languages[raw] = Self.language(for: code)
            }
            rtl = entry >> 32 != 0
            hb_buffer_set_script(buffer, hb_script_t(rawValue: UInt32(truncatingIfNeeded: entry)))
            hb_buffer_set_language(buffer, languages[raw])
        } else {
            hb_buffer_set_language(buffer, context)
        }
        // (The direction is the script's, or the bidi level's where the two differ.)
        if let rightToLeft { rtl = rightToLeft }
        hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font.shapingFont, buffer, nil, 0)
        if rtl { hb_buffer_reverse(buffer) }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return }
        out.reserveCapacity(out.count + Int(count))
        for i in 0..<Int(count) {
            out.append(
                ShapedGlyph(
                    glyph: infos[i].codepoint, cluster: infos[i].cluster,
                    xAdvance: positions[i].x_advance, xOffset: positions[i].x_offset, yOffset: positions[i].y_offset))
        }
    }
}

extension UnicodeScript {
    /// Whether the script's letters join their neighbours (Arabic, Syriac, N'Ko, Mongolian and the
    /// other scripts of Unicode's ArabicShaping.txt): their shapes depend on the letters around
    /// them.
    var isCursive: Bool {
        switch code {
        case "Arab", "Syrc", "Nkoo", "Mong", "Mand", "Mani", "Phlp", "Adlm", "Rohg", "Sogd", "Phag", "Chrs", "Ougr": true
        default: false
        }
    }

    /// Whether HarfBuzz writes the script right to left (Arabic, Hebrew, Syriac, Thaana, …).
    /// (A set read: asking HarfBuzz took about 540 instructions.)
    var isRightToLeft: Bool { Self.rightToLeftScripts.contains(self) }

    /// The scripts HarfBuzz writes right to left, asked once.
    private static let rightToLeftScripts: ScriptSet = {
        var set = ScriptSet()
        for script in UnicodeScript.all
        where hb_script_get_horizontal_direction(hb_script_from_string(script.code, 4)) == HB_DIRECTION_RTL {
            set.insert(script)
        }
        return set
    }()
}
