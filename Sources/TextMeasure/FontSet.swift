import FeedLayoutSupport
import Foundation
import UnicodeText

/// The font manifest (`Fonts/fonts.json`): one entry per face of the cascade.
package struct FontManifest: Sendable, Decodable, Equatable {
    package struct Entry: Sendable, Decodable, Equatable {
        /// "primary", "bold", "emoji" or "fallback".
        package var role: String
        package var file: String
        package var faceIndex: Int
        package var family: String
        package var sha256: String
        package var package: String
    }
    package var fonts: [Entry]
}

/// The loaded font cascade: primary (Noto Sans CJK SC), bold, emoji (Noto Color Emoji) and the
/// last fallback (DejaVu Sans), in Pango's order: a character goes to the first face that maps it.
///
/// Fonts are loaded only from the manifest's directory, never by asking the system for a family,
/// so layouts are reproducible. Thread-safety: immutable after `load`; share one across threads.
public final class FontSet: Sendable {
    public let directory: URL
    package let manifest: FontManifest
    let primary: FontFile
    let bold: FontFile
    let emoji: FontFile
    let fallback: FontFile
    /// Advance tables of the per-character path, for the primary and bold faces.
    let simplePrimary: SimpleAdvanceTable
    let simpleBold: SimpleAdvanceTable
    /// cmap coverage of the BMP per face, read once at load (a bit per code point).
    let coverage: [FontSlot: CoverageBits]
    /// ASCII words without shaping, per text face, for Latin, Han and Common runs (nil where the
    /// face's lookups do not allow it).
    let alphabetPrimary: (latin: KernedAlphabet?, han: KernedAlphabet?, common: KernedAlphabet?)
    let alphabetBold: (latin: KernedAlphabet?, han: KernedAlphabet?, common: KernedAlphabet?)
    /// Per script (raw value): true when the text faces shape its runs with lookups the tables of
    /// the per-character path were made for (`SimpleAdvanceTable`: the plans of every script with
    /// the Chinese language or none). False for a script whose derived language selects other
    /// lookups (Hangul → ko, kana → ja: `locl`); its characters are then always shaped.
    let tableScripts: ScriptSet
    /// The widest and the tallest ink of a hex digit (0–9, A–F) in the fallback face, in its
    /// units: the digit cell of the boxes missing glyphs are drawn as (`hexBoxAdvance`,
    /// `hexBoxMetrics`).
    let hexDigitInk: Int32
    let hexDigitInkHeight: Int32
    /// The advance of U+0020 in runs of each script, per text face, in font units: the face's
    /// space, except where the script's plan substitutes it (Hangul with ko: `locl` gives a
    /// wider space). Plain memory (`spaceAdvance(bold:script:)`), freed in `deinit`: read from
    /// an array, each space retained and released it.
    private let spaceUnits: SpaceAdvances
    /// True when both text faces map the ten ASCII digits and measure them alike wherever they
    /// are measured from tables: one entry of the per-character table, and interchangeable digits
    /// in each word table (`KernedAlphabet.digitsInterchangeable`). A digit measured otherwise
    /// is shaped, which the prepared text records (`TextMeasurer.substitutingDigits`).
    let digitsInterchangeable: Bool
    /// `metrics` of each slot (by raw value) at the sizes of whole and half points up to
    /// `extentSizes / 2`, computed once: scaling as HarfBuzz does takes a division and checked
    /// integer arithmetic, where a text's runs ask for these a few times each (about 35 times a
    /// cold cell: 2.9 % of its instructions when computed every time).
    private let extents: [SIMD2<Double>]
    static let extentSizes = 257
    /// `PangoScale` of each slot at the same sizes, for the same reason (a text's runs ask for
    /// its text face's: computed each time, 0.3 % of a cold cell's instructions).
    private let unitScales: [PangoScale]

    deinit {
        simplePrimary.deallocate()
        simpleBold.deallocate()
        spaceUnits.units.deallocate()
    }

    /// The advance of U+0020 in a run of `script` in the bold or the primary face, in its units
    /// (`spaceUnits`).
    @inline(__always) func spaceAdvance(bold: Bool, script: UnicodeScript) -> Int32 {
        spaceUnits.units[(bold ? 256 : 0) + Int(script.rawValue)]
    }

    private init(directory: URL, manifest: FontManifest, files: [String: FontFile]) {
        self.directory = directory
        self.manifest = manifest
        primary = files["primary"]!
        bold = files["bold"]!
        emoji = files["emoji"]!
        fallback = files["fallback"]!
        // Each face is analysed on its own HarfBuzz objects, in the same order as alone, so the
        // faces are analysed at once (the two text faces take most of the time). First, before
        // anything shapes with a face: its kept plans (those words use most end up first in its
        // list), then the text faces' fast paths and the scripts whose plans they serve.
        let textFaces = [primary, bold]
        let analysed = Self.concurrently(4) { i -> ((SimpleAdvanceTable, (latin: KernedAlphabet?, han: KernedAlphabet?, common: KernedAlphabet?)), ScriptSet)? in
            switch i {
            case 0, 1:
                let f = textFaces[i]
                f.keepShapingPlans(scripts: true)
                var matching = ScriptSet()
                let paths = Self.fastPaths(f)
                for script in UnicodeScript.all where f.planMatchesTables(script: script) { matching.insert(script) }
                return (paths, matching)
            case 2:
                files["fallback"]!.keepShapingPlans(scripts: true)
                return nil
            default:
                files["emoji"]!.keepShapingPlans(scripts: false)
                return nil
            }
        }
        let (primaryAnalysis, boldAnalysis) = (analysed[0]!, analysed[1]!)
        (simplePrimary, alphabetPrimary) = primaryAnalysis.0
        (simpleBold, alphabetBold) = boldAnalysis.0
        coverage = [
            .primary: CoverageBits(font: primary), .bold: CoverageBits(font: bold), .emoji: CoverageBits(font: emoji),
            .fallback: CoverageBits(font: fallback),
        ]
        let scripts = primaryAnalysis.1.intersection(boldAnalysis.1)
        tableScripts = scripts
        func spaces(_ f: FontFile) -> [Int32] {
            var out = [Int32](repeating: f.spaceAdvance, count: 256)
            let shaper = ShapingBuffer()
            var shaped: [ShapedGlyph] = []
            let space: [UInt16] = [0x20]
            for script in UnicodeScript.all where !scripts.contains(script) {
                shaped.removeAll()
                space.withUnsafeBufferPointer { shaper.shape($0, start: 0, end: 1, font: f, script: script, into: &shaped) }
                if shaped.count == 1 { out[Int(script.rawValue)] = shaped[0].xAdvance }
            }
            return out
        }
        let spaced = Self.concurrently(2) { spaces(textFaces[$0]) }
        let units = UnsafeMutablePointer<Int32>.allocate(capacity: 512)
        units.initialize(from: spaced[0] + spaced[1], count: 512)
        spaceUnits = SpaceAdvances(units: units)
        let digitCodes: [UInt16] = Array(0x30...0x39)
        digitsInterchangeable =
            [(simplePrimary, alphabetPrimary, coverage[.primary]!), (simpleBold, alphabetBold, coverage[.bold]!)].allSatisfy {
                table, alphabets, covered in
                digitCodes.allSatisfy { covered.contains(UInt32($0)) && table.entry($0) == table.entry(0x30) }
                    && [alphabets.latin, alphabets.han, alphabets.common].allSatisfy { $0?.digitsInterchangeable ?? true }
            }
        let last = files["fallback"]!
        let digits = "0123456789ABCDEF".unicodeScalars.map { last.inkSize(ofGlyph: last.nominalGlyph($0.value) ?? 0) }
        hexDigitInk = digits.map(\.width).max() ?? 0
        hexDigitInkHeight = digits.map(\.height).max() ?? 0
        for f in [primary, bold, emoji, fallback] { f.endPlanAnalysis() }
        let slotFiles = [primary, bold, emoji, primary, fallback]  // by `FontSlot.rawValue`
        extents = slotFiles.flatMap { f in
            (0..<Self.extentSizes).map { half in Self.pangoExtent(f, size: Double(half) / 2) }
        }
        unitScales = slotFiles.flatMap { f in
            (0..<Self.extentSizes).map { half in PangoScale(size: Double(half) / 2, upem: f.upem) }
        }
    }

    /// `body(0) … body(count - 1)`, run at once on up to `count` threads (the loading work of
    /// separate faces), results in index order.
    private static func concurrently<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        nonisolated(unsafe) let out = results
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let run = body
            DispatchQueue.concurrentPerform(iterations: count) { out[$0] = run($0) }
        }
        return results.map { $0! }
    }

    /// The advance of the box Pango draws for a character no face maps (`pango_cairo`'s hex box,
    /// unhinted): `5 p + c (d + p)`, with `c` columns of hex digits (2 for a BMP code point, 3
    /// above), `p = min(h / 43, s / 2.2)` where `h` is the line height (ascent + descent) at
    /// size `s` of `slot`'s face, the face of the box's item (the text face, or the face of
    /// the item a control joins), and `d` the widest hex digit's ink in the fallback face (the
    /// harness's "monospace" resolves to DejaVu Sans) at size `s / 2.2` (rounded to Pango units,
    /// as the digits' font is loaded); Pango stores the width in its units, truncated.
    func hexBoxAdvance(_ slot: FontSlot, size: Double, scalar: UInt32) -> Double {
        let box = HexBox(self, slot, size: size)
        let columns = scalar > 0xFFFF ? 3.0 : 2.0
        return Self.truncatedToPangoUnits(5 * box.pad + columns * (box.digitWidth + box.pad))
    }

    /// The vertical extent of that box, which is the logical extent of its glyph: a line of
    /// hex boxes alone is that tall, not as tall as the text face (13.85 px against 21.72 at
    /// 15 px). Two rows of digits of the tallest hex digit's ink `e` (at `s / 2.2`), so the box
    /// is `b = 3 p + 2 (p + e)` tall, with `p` above and below it; it sits `2 p` below the
    /// baseline when it fits under the face's ascent `a` (always, for the pinned faces), else
    /// lower, as in `pango_cairo`. Pango stores the box's top and height in its units,
    /// truncated (12 pt: 11.0781 pt tall, not 11.0797).
    func hexBoxMetrics(_ slot: FontSlot, size: Double) -> RunFont {
        let box = HexBox(self, slot, size: size)
        let f = file(slot)
        let k = size / f.extents.perEm
        let ascent = f.extents.ascent * k, descent = f.extents.descent * k
        let height = 3 * box.pad + 2 * (box.pad + box.digitHeight)
        let below: Double
        if height <= ascent {
            below = 2 * box.pad
        } else if height <= ascent + descent - 2 * box.pad {
            below = 2 * box.pad + height - ascent
        } else {
            below = descent * height / (ascent + descent)
        }
        let top = Self.truncatedToPangoUnits(below - height - box.pad)  // from the baseline, downwards
        let extent = Self.truncatedToPangoUnits(height + 2 * box.pad)
        return RunFont(slot: slot == .bold ? .bold : .primary, size: size, ascent: -top, descent: extent + top)
    }

    /// `v` in Pango units (1/1024 pt), truncated towards zero as C converts the product to `int`.
    private static func truncatedToPangoUnits(_ v: Double) -> Double { (v * 1024).rounded(.towardZero) / 1024 }

    /// The measures of a hex box in a text face at a size.
    private struct HexBox {
        let pad: Double
        let digitWidth: Double
        let digitHeight: Double

        init(_ fonts: FontSet, _ slot: FontSlot, size: Double) {
            let f = fonts.file(slot)
            // The digits' font is loaded at `s / 2.2` in Pango units, rounded.
            let mini = (size / 2.2 * 1024).rounded() / 1024
            pad = min((f.extents.ascent + f.extents.descent) * size / f.extents.perEm / 43, mini)
            let k = mini / Double(fonts.fallback.upem)
            digitWidth = Double(fonts.hexDigitInk) * k
            digitHeight = Double(fonts.hexDigitInkHeight) * k
        }
    }

    /// A text face's tables for measuring without shaping, from one reading of its layout
    /// tables: the lookups of every plan the engine uses and the glyphs they touch.
    private static func fastPaths(_ font: FontFile) -> (SimpleAdvanceTable, (latin: KernedAlphabet?, han: KernedAlphabet?, common: KernedAlphabet?)) {
        let lookups = font.allPlanLookups()
        let touched = font.glyphsTouched(by: lookups)
        // Where a lookup can match glyphs it does not list, no glyph is known to be inert: every
        // one counts as touched (the CJK punctuation rule of the table still applies).
        let inertKnown = !OTLayout.classZeroCanMatch(font, lookups)
        let table = SimpleAdvanceTable(font: font, touched: inertKnown ? touched : [UInt64](repeating: ~0, count: touched.count))
        var measured = KernedAlphabet.MeasuredPairs()
        let latin = KernedAlphabet.make(font: font, script: .latin, touchedByAnyPlan: touched, measured: &measured)
        let han = KernedAlphabet.make(font: font, script: .han, touchedByAnyPlan: touched, measured: &measured)
        // (Paragraphs without a strong script: digits, punctuation, symbols, `12:30`, `666`.)
        let common = KernedAlphabet.make(font: font, script: .common, touchedByAnyPlan: touched, measured: &measured)
        let ascii = (latin, han, common)
        return (table, ascii)
    }

    /// The table of words of ASCII and Chinese punctuation of a text face for runs of `script`
    /// (Latin, Han, or Common: a paragraph without a strong script), if any.
    @inline(__always) func kernedAlphabet(_ slot: FontSlot, _ script: UnicodeScript) -> KernedAlphabet? {
        let tables: (latin: KernedAlphabet?, han: KernedAlphabet?, common: KernedAlphabet?)
        switch slot {
        case .primary: tables = alphabetPrimary
        case .bold: tables = alphabetBold
        default: return nil
        }
        return script == .latin ? tables.latin : script == .han ? tables.han : script == .common ? tables.common : nil
    }

    /// Measures `text` with the table of `kernedAlphabet(slot, script)`, read in place (a table
    /// returned from that call is retained and released once per word): false when there is no
    /// table or the word is off its path (`KernedAlphabet.measure`). It repeats the selection of
    /// `kernedAlphabet` on purpose: one function passing the table to a closure retained it too
    /// (0.6 % more instructions per cold cell).
    @inline(__always) func measureKerned(
        _ slot: FontSlot, _ script: UnicodeScript, _ text: UnsafeBufferPointer<UInt16>,
        writingInto advances: UnsafeMutablePointer<Int32>
    ) -> Bool {
        switch (slot, script) {
        case (.primary, .latin): return alphabetPrimary.latin?.measure(text, writingInto: advances) ?? false
        case (.primary, .han): return alphabetPrimary.han?.measure(text, writingInto: advances) ?? false
        case (.bold, .latin): return alphabetBold.latin?.measure(text, writingInto: advances) ?? false
        case (.bold, .han): return alphabetBold.han?.measure(text, writingInto: advances) ?? false
        case (.primary, .common): return alphabetPrimary.common?.measure(text, writingInto: advances) ?? false
        case (.bold, .common): return alphabetBold.common?.measure(text, writingInto: advances) ?? false
        default: return false
        }
    }

    /// True when the face of `slot` maps `scalar` to a glyph.
    @inline(__always) func covers(_ slot: FontSlot, _ scalar: UInt32, bits: CoverageBits) -> Bool {
        scalar < 0x10000 ? bits.contains(scalar) : file(slot).nominalGlyph(scalar) != nil
    }

    /// The manifest's file name in a fonts directory.
    package static let manifestFileName = "fonts.json"
    /// The environment variable naming a fonts directory (checked first by `defaultDirectory()`).
    package static let directoryEnvironmentVariable = "FEEDLAYOUT_FONTS"

    /// Loads the cascade named by `directory/fonts.json`; the font files are in `directory`.
    /// - Throws: `TextMeasureError` naming the manifest or the font file, and the fix.
    public static func load(directory: URL) throws(TextMeasureError) -> FontSet {
        try load(manifest: directory.appendingPathComponent(manifestFileName))
    }

    /// Loads the cascade named by the manifest at `manifest` (any file name); the font files are
    /// in the manifest's directory.
    /// - Throws: `TextMeasureError` naming the manifest or the font file, and the fix.
    public static func load(manifest manifestURL: URL) throws(TextMeasureError) -> FontSet {
        let directory = manifestURL.deletingLastPathComponent()
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else {
            throw .manifestMissing(path: manifestURL.path)
        }
        let manifest: FontManifest
        do {
            manifest = try JSONDecoder().decode(FontManifest.self, from: data)
        } catch {
            throw .manifestInvalid(path: manifestURL.path, reason: "\(error)")
        }
        let roles = ["primary", "bold", "emoji", "fallback"]
        // The files are opened at once (each reads its cmap). Errors are checked in role order
        // afterwards, so the one reported is the one opening them one by one would meet first.
        let entries = roles.map { role in manifest.fonts.first { $0.role == role } }
        let paths = entries.map { $0.map { directory.appendingPathComponent($0.file).path } }
        let exists = paths.map { $0.map { FileManager.default.fileExists(atPath: $0) } ?? false }
        let opened = concurrently(roles.count) { i -> Result<FontFile, TextMeasureError>? in
            guard exists[i], let entry = entries[i], let path = paths[i] else { return nil }
            return Result { () throws(TextMeasureError) in try FontFile(path: path, faceIndex: entry.faceIndex) }
        }
        var files: [String: FontFile] = [:]
        for (i, role) in roles.enumerated() {
            guard let entry = entries[i], let path = paths[i] else {
                throw .manifestInvalid(path: manifestURL.path, reason: "no font with role \"\(role)\"")
            }
            guard exists[i], let result = opened[i] else { throw .fontMissing(file: path, role: role) }
            let file = try result.get()
            guard file.familyName == entry.family else {
                throw .fontInvalid(
                    file: path, reason: "face \(entry.faceIndex) is \"\(file.familyName)\", expected \"\(entry.family)\"")
            }
            files[role] = file
        }
        return FontSet(directory: directory, manifest: manifest, files: files)
    }

    /// Where to look for the fonts when no directory is given, first found wins:
    /// 1. `$FEEDLAYOUT_FONTS`;
    /// 2. a `Fonts/fonts.json` in the current directory or above it, then beside or above the
    ///    running executable (a checkout's `.build/release/feedlayout` finds the checkout's `Fonts/`);
    /// 3. the `Fonts/` directory of the FeedLayout package this module was compiled from (a
    ///    dependent package built against a path or git dependency finds the dependency's copy;
    ///    its font files are there once `scripts/setup.sh` has run in that checkout).
    package static func defaultDirectory() -> URL? {
        let env = ProcessInfo.processInfo.environment
        if let dir = env[directoryEnvironmentVariable], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        if let found = PackageFiles.locate("Fonts/\(manifestFileName)") { return found.deletingLastPathComponent() }
        return packageFontsDirectory
    }

    /// The `Fonts/` directory of the package checkout this module was compiled from, when it is
    /// still there (nil for a binary moved elsewhere).
    package static var packageFontsDirectory: URL? {
        // Sources/TextMeasure/FontSet.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.appendingPathComponent("Fonts")
        return FileManager.default.fileExists(atPath: dir.appendingPathComponent(manifestFileName).path) ? dir : nil
    }

    /// Loads the cascade from `defaultDirectory()`.
    /// - Throws: `.manifestMissing` listing the places searched when none has a manifest, else
    ///   what `load(directory:)` throws.
    public static func loadDefault() throws(TextMeasureError) -> FontSet {
        guard let dir = defaultDirectory() else {
            throw .manifestMissing(
                path: "Fonts/\(manifestFileName) (searched $\(directoryEnvironmentVariable), the current directory, the executable's "
                    + "and the FeedLayout package's own)")
        }
        return try load(directory: dir)
    }

    /// Units per em of the face of a slot (read in place: `file(slot).upem` retains the file).
    @inline(__always) func upem(_ slot: FontSlot) -> Int32 {
        switch slot {
        case .primary, .object: return primary.upem
        case .bold: return bold.upem
        case .emoji: return emoji.upem
        case .fallback: return fallback.upem
        }
    }

    func file(_ slot: FontSlot) -> FontFile {
        switch slot {
        case .primary, .object: return primary
        case .bold: return bold
        case .emoji: return emoji
        case .fallback: return fallback
        }
    }

    /// Path of the font file of a slot, for renderers.
    package func path(of slot: FontSlot) -> String { file(slot).path }

    /// Face index of the font of a slot, for renderers.
    package func faceIndex(of slot: FontSlot) -> Int {
        let role: String
        switch slot {
        case .primary, .object: role = "primary"
        case .bold: role = "bold"
        case .emoji: role = "emoji"
        case .fallback: role = "fallback"
        }
        return manifest.fonts.first { $0.role == role }?.faceIndex ?? 0
    }

    /// Natural vertical metrics of a slot at a size, in points: the face's ascender and
    /// descender as Pango reads them from HarfBuzz, in its units of 1/1024 pt, so that a line is
    /// exactly as tall as Pango's (Noto Sans CJK at 15 pt: 17 818 + 4 424 units, 21.720703 pt,
    /// where the unrounded extent is 21.72; over a long text the difference adds up).
    @inline(__always) package func metrics(_ slot: FontSlot, size: Double) -> RunFont {
        let e = Self.extentIndex(size).map { extents[Int(slot.rawValue) &* Self.extentSizes &+ $0] }
        return RunFont(slot: slot, size: size, extent: e ?? Self.pangoExtent(file(slot), size: size))
    }

    /// The `PangoScale` of a slot at a size.
    @inline(__always) func pangoScale(_ slot: FontSlot, size: Double) -> PangoScale {
        guard let i = Self.extentIndex(size) else { return PangoScale(size: size, upem: upem(slot)) }
        return unitScales.withUnsafeBufferPointer { $0[Int(slot.rawValue) &* Self.extentSizes &+ i] }
    }

    /// `metrics` and `pangoScale` of a text face (`.primary` or `.bold`), the emoji face and the
    /// fallback face at one size, as an attribute run needs them: one test of the size for all.
    @inline(__always) func runMetrics(_ textSlot: FontSlot, size: Double)
        -> (text: RunFont, emoji: RunFont, fallback: RunFont, textUnits: PangoScale, emojiUnits: PangoScale, fallbackUnits: PangoScale)
    {
        guard let i = Self.extentIndex(size) else {
            return (
                metrics(textSlot, size: size), metrics(.emoji, size: size), metrics(.fallback, size: size),
                pangoScale(textSlot, size: size), pangoScale(.emoji, size: size), pangoScale(.fallback, size: size)
            )
        }
        let t = Int(textSlot.rawValue) &* Self.extentSizes &+ i
        let e = Int(FontSlot.emoji.rawValue) &* Self.extentSizes &+ i
        let f = Int(FontSlot.fallback.rawValue) &* Self.extentSizes &+ i
        return extents.withUnsafeBufferPointer { x in
            unitScales.withUnsafeBufferPointer { u in
                (
                    RunFont(slot: textSlot, size: size, extent: x[t]), RunFont(slot: .emoji, size: size, extent: x[e]),
                    RunFont(slot: .fallback, size: size, extent: x[f]), u[t], u[e], u[f]
                )
            }
        }
    }

    /// The index of `size` in `extents` (whole and half points), nil for any other size.
    @inline(__always) static func extentIndex(_ size: Double) -> Int? {
        let half = size * 2
        guard half >= 0 && half < Double(extentSizes), case let i = Int(half), Double(i) == half else { return nil }
        return i
    }

    /// A face's ascent and descent at `size`, in points on Pango's units.
    private static func pangoExtent(_ f: FontFile, size: Double) -> SIMD2<Double> {
        let units = PangoScale(size: size, upem: f.upem)
        return SIMD2(units.points(f.ascender), -units.points(-f.descender))
    }
}

/// Font units of one face at one size in points, as HarfBuzz scales them for Pango: the font's
/// scale is `size × 1024` units (truncated to an integer, as Pango passes it), its multiplier
/// that scale in 16.16 fixed point divided by the units per em, and each value times it
/// rounded half up to a unit (`hb_font_t::em_mult`), so that a run's advances sum as Pango's
/// glyph widths do: unrounded, a long Latin line drifted up to 0.02 px from Pango's and broke a
/// character early where it filled the width. Sizes beyond HarfBuzz's integer scale are scaled
/// exactly, then rounded to a unit.
struct PangoScale: Sendable {
    /// Pango units per font unit: HarfBuzz's 16.16 multiplier over 65 536, exact in a double, so
    /// that `v × unit` is exact too (a multiple of 2^-16 far below 2^53).
    let unit: Double

    init(size: Double, upem: Int32) {
        let scale = size * 1024
        let em = Double(max(1, upem))
        // (The numerator is an integer, so the quotient floors right; it is positive, so
        // truncating is flooring, without `floor`'s library call.)
        unit = scale >= 1 && scale <= Double(Int32.max)
            ? Double(Int64(Double(Int64(scale) << 16) / em)) * (1.0 / 65536) : scale / em
    }

    /// `v` font units in points: `v × unit` rounded half up to a unit, as HarfBuzz rounds. Not
    /// through `floor`, a library call on baseline x86-64: adding and taking away 1.5 × 2^52
    /// leaves no fraction bits (rounding to nearest, ties to even), and the 2^-17 added first
    /// breaks the ties upward. The product's fraction is a multiple of 2^-16, so the bias moves
    /// no other value past a half. (Ties are common: at 15 px every odd advance of a
    /// 2 048-unit face is one.)
    @inline(__always) func points(_ v: Int32) -> Double {
        let magic = 6_755_399_441_055_744.0
        return (((Double(v) * unit + 0x1p-17) + magic) - magic) * (1.0 / 1024)
    }
}

/// One bit per BMP code point: does the face's cmap map it (8 KiB per face).
struct CoverageBits: Sendable {
    let words: [UInt64]
    /// The code points the cmap lists and maps, read with its glyphs at load (`FontFile`).
    init(font: FontFile) {
        words = font.bmpCoverage
    }
    @inline(__always) func contains(_ scalar: UInt32) -> Bool {
        words[Int(scalar >> 6)] & (1 << UInt64(scalar & 63)) != 0
    }
}

/// The space advances of `FontSet.spaceAdvance(bold:script:)`: 256 per text face, written once
/// when the fonts load and only read after.
struct SpaceAdvances: @unchecked Sendable {
    let units: UnsafeMutablePointer<Int32>
}

/// The per-character path: one-unit clusters whose advance is the glyph's hmtx advance, read once
/// when the fonts load, with no shaping.
///
/// Which code points, per face:
/// - **inert** ones, whose glyph no lookup of the engine's shaping plans reads or writes
///   (`FontFile.glyphsTouched(by:)`; none when a lookup can match glyphs it does not list:
///   `OTLayout.classZeroCanMatch`): every CJK ideograph, most CJK and fullwidth punctuation,
///   and some Latin symbols and letters in Noto Sans CJK. They take the path next to anything.
/// - CJK and fullwidth punctuation that some lookup does touch (、。，． are in the kerning
///   lookup): they take the path only between *plain* neighbours (inert characters, whitespace,
///   other such punctuation, the ends of the text); next to anything else they are shaped with it.
///
/// Never on the path: code points the face does not map, whitespace and separators (they hang or
/// break), default-ignorable and emoji-presentation code points, and the paired brackets that
/// script resolution tracks (those are plain neighbours when inert). `ExactnessTests` proves the
/// path equal to HarfBuzz shaping whole runs on the corpus and next to neighbours of every kind.
///
/// Storage: one byte per BMP code point (64 KiB per face, so a text's lookups stay in cache): 0 off
/// the path; `plainOnly` a plain neighbour that is not on the path; otherwise an index into the
/// face's few distinct advances (1...126), with `needsPlainNeighbours` set for touched punctuation.
/// (A face with more than 126 such advances leaves the code points of the others to shaping, which
/// is the reference.) Glyph ids are not stored: they are the cmap's, read when a measurer keeps
/// glyphs.
struct SimpleAdvanceTable: @unchecked Sendable {
    /// Candidates taken only when inert.
    static let inertRanges: [ClosedRange<UInt32>] = [
        0x0021...0x007E,  // ASCII
        0x00A1...0x00FF,  // Latin-1
        0x2010...0x205E,  // general punctuation
        0x3040...0x30FF,  // kana
        0xFF61...0xFF9D,  // halfwidth forms
        0xFFE0...0xFFEE,  // fullwidth signs
    ]
    /// Candidates taken when inert, or between plain neighbours when some lookup touches them.
    static let cjkRanges: [ClosedRange<UInt32>] = [
        0x3001...0x303F,  // CJK symbols and punctuation (U+3000 hangs: it is whitespace)
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFF01...0xFF60,  // fullwidth forms
    ]
    static let plainOnly: UInt8 = 0xFF
    static let needsPlainNeighbours: UInt8 = 0x80
    /// Plain neighbours that are never on the path: whitespace that hangs or breaks.
    static let whitespace: [UInt32] = [0x09, 0x0A, 0x0D, 0x20, 0x3000]

    // Plain memory owned by the `FontSet` (freed in its `deinit`), not arrays: the measurer
    // copies both faces' tables into its locals for every text, and copying arrays retained and
    // released each of the four (atomic operations; 9.8 M -> 8.4 M instructions of reference
    // counting in five cold corpus passes once they were gone).
    /// One entry per BMP code unit.
    private let index: UnsafeMutablePointer<UInt8>
    /// `advances[i - 1]` is the advance of the code points whose index is `i` (font units).
    private let advances: UnsafeMutablePointer<UInt32>
    /// The advances in points as Pango has them (`PangoScale`) at the sizes of `FontSet.extents`:
    /// row `size × 2`, entry `i` at `i` (`rowWidth` entries a row, 0 unused). Read in the loop
    /// over a Chinese text's characters, where scaling and rounding each advance took 0.6 % of a
    /// cold cell's instructions.
    private let points: UnsafeMutablePointer<Double>
    private let rowWidth: Int
    private let upem: Int32
    /// The most entries a row has (indices are 7 bits).
    static let maxRowWidth = 128

    /// - Parameter touched: one bit per glyph id, set for the glyphs shaping may change or use as
    ///   context (every bit set when that is unknown).
    init(font: FontFile, touched: [UInt64]) {
        var t = [UInt8](repeating: 0, count: 0x10000)
        var distinct: [UInt32] = []
        for cp in Self.whitespace { t[Int(cp)] = Self.plainOnly }
        // The code points that may take the path, in order, then their advances in one call.
        var taken: [(cp: UInt32, touched: Bool)] = []
        var glyphs: [UInt32] = []
        for (ranges, touchedAllowed) in [(Self.inertRanges, false), (Self.cjkRanges, true)] {
            for range in ranges {
                for cp in range where Self.isCandidate(cp) {
                    guard let glyph = font.bmpNominalGlyph(UInt16(cp)), glyph != 0, glyph < 0x10000 else { continue }
                    let isTouched = Int(glyph >> 6) < touched.count && touched[Int(glyph >> 6)] & (1 << UInt64(glyph & 63)) != 0
                    if TextMeasurer.bracketPair(cp) != nil {
                        if !isTouched { t[Int(cp)] = Self.plainOnly }
                        continue
                    }
                    guard !isTouched || touchedAllowed else { continue }
                    taken.append((cp, isTouched))
                    glyphs.append(glyph)
                }
            }
        }
        for (k, adv) in font.advances(ofGlyphs: glyphs).enumerated() {
            guard adv > 0, adv < 0x10000 else { continue }
            var i = distinct.firstIndex(of: UInt32(adv)).map { $0 + 1 }
            if i == nil && distinct.count < 126 {
                distinct.append(UInt32(adv))
                i = distinct.count
            }
            guard let i else { continue }
            t[Int(taken[k].cp)] = UInt8(i) | (taken[k].touched ? Self.needsPlainNeighbours : 0)
        }
        index = .allocate(capacity: t.count)
        index.initialize(from: t, count: t.count)
        advances = .allocate(capacity: max(1, distinct.count))
        advances.initialize(from: distinct, count: distinct.count)
        upem = font.upem
        rowWidth = distinct.count + 1
        points = .allocate(capacity: FontSet.extentSizes * rowWidth)
        for half in 0..<FontSet.extentSizes {
            fillRow(points + half * rowWidth, PangoScale(size: Double(half) / 2, upem: upem))
        }
    }

    private func fillRow(_ row: UnsafeMutablePointer<Double>, _ scale: PangoScale) {
        row[0] = 0
        for i in 1..<rowWidth { row[i] = scale.points(Int32(advances[i - 1])) }
    }

    /// The advances in points at `size`, indexed by entry without its flag (`e & 0x7F`): a row
    /// made at load, or for another size written into `scratch` (`maxRowWidth` entries).
    func pointsRow(size: Double, scratch: UnsafeMutablePointer<Double>) -> UnsafePointer<Double> {
        if let i = FontSet.extentIndex(size) { return UnsafePointer(points + i * rowWidth) }
        fillRow(scratch, PangoScale(size: size, upem: upem))
        return UnsafePointer(scratch)
    }

    /// Frees the table's memory (by its owner, once, when no copy is in use).
    func deallocate() {
        index.deallocate()
        advances.deallocate()
        points.deallocate()
    }

    /// Code points that are never on the path whatever the face: whitespace, separators,
    /// default-ignorables (HarfBuzz draws them with no advance), emoji presentation (modifier
    /// bases included).
    private static func isCandidate(_ cp: UInt32) -> Bool {
        switch cp {
        case 0x00AD, 0x2028...0x202F, 0x205F, 0x3000: return false
        default: break
        }
        let traits = UnicodeProperties.traits(cp)
        if traits.isEmojiPresentation || UnicodeProperties.isEmojiModifierBase(cp) { return false }
        switch traits.lineBreakClass {
        case .BK, .CR, .LF, .NL, .SP, .ZW, .ZWJ, .CM: return false
        default: return true
        }
    }

    /// The table entry of a UTF-16 unit: 0 off the path, `plainOnly`, or an advance index with
    /// `needsPlainNeighbours` possibly set.
    @inline(__always) func entry(_ unit: UInt16) -> UInt8 { index[Int(unit)] }

    /// The advance of an entry on the path, from a row of `pointsRow`.
    @inline(__always) static func advance(ofEntry e: UInt8, _ row: UnsafePointer<Double>) -> Double { row[Int(e & 0x7F)] }

    /// True when an entry is on the path.
    @inline(__always) static func isOnPath(_ e: UInt8) -> Bool { e != 0 && e != plainOnly }

    /// True when a UTF-16 unit next to a per-character-path character cannot interact with it in
    /// shaping: a character with a table entry (on the path, or a plain neighbour), or whitespace.
    @inline(__always) func isPlainNeighbour(_ unit: UInt16) -> Bool {
        index[Int(unit)] != 0
    }
}

/// A set of scripts, one bit per raw value: a test is a shift and a mask, with no array to
/// retain or bounds to check.
struct ScriptSet: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    @inline(__always) func contains(_ s: UnicodeScript) -> Bool {
        let raw = Int(s.rawValue)
        let word: UInt64
        switch raw >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return word >> UInt64(raw & 63) & 1 != 0
    }

    mutating func insert(_ s: UnicodeScript) {
        let raw = Int(s.rawValue)
        let bit: UInt64 = 1 << UInt64(raw & 63)
        switch raw >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    /// The scripts in both sets.
    func intersection(_ other: ScriptSet) -> ScriptSet {
        var r = ScriptSet()
        r.words = (words.0 & other.words.0, words.1 & other.words.1, words.2 & other.words.2, words.3 & other.words.3)
        return r
    }
}

extension RunFont {
    /// A font at a size whose ascent and descent are `extent`'s two lanes.
    @inline(__always) init(slot: FontSlot, size: Double, extent: SIMD2<Double>) {
        self.init(slot: slot, size: size, ascent: extent.x, descent: extent.y)
    }
}
