import FeedLayoutSupport
import UnicodeText

/// The real text engine: FreeType-validated fonts, HarfBuzz shaping, UAX #14 line breaking.
///
/// `prepare` (width-independent work):
/// 1. UTF-16 code units, grapheme boundaries and line-break opportunities (`TextBreaks.analyze`).
/// 2. Itemization per grapheme cluster: emoji presentation sequences (VS16, keycaps, ZWJ
///    sequences, modifiers, flags, tags) go to the emoji face as one cluster; any other cluster
///    (text presentation, VS15, included) to the first face that maps it: the text face, the
///    emoji face, DejaVu Sans; a code point no face covers is measured as
///    Pango's hex box and counted in `missingGlyphCount`, never dropped. U+FFFC with an inline
///    object is the object.
/// 3. Measurement: CJK ideographs, kana and CJK/fullwidth punctuation take the per-character path
///    (hmtx advances read at font load; proven equal to shaping by a test on the corpus); every other
///    maximal run of one face, size and script between spaces (a "word", such as a Latin word, a
///    URL or an emoji sequence) is shaped with HarfBuzz as a whole, or read from the shaped-word
///    cache. Break opportunities inside a word are kept per cluster, so shaping across them keeps
///    kerning exactly as shaping the whole line does.
///
/// Prepared texts are themselves cached by content (a `BoundedCache` keyed by `TextKey`, 64 MiB by default), so a
/// text measured again costs a hash and a comparison.
///
/// Thread-safety: `Sendable`; `prepare` MAY run concurrently from any number of threads (fonts are
/// immutable `hb_ot` fonts, the word cache is sharded behind locks, a call's scratch buffers are
/// its own: kept per thread, taken at the start of the call and given back when it ends).
public final class TextMeasurer: TextMeasuring, Sendable {
    public let fonts: FontSet
    /// Glyph ids and positions are kept in prepared texts (renderers need them; layout does not).
    package let retainsGlyphs: Bool
    let cache: WordCache
    /// Prepared texts by content (`TextKey`: the text, its runs, objects and entities).
    let preparedCache: BoundedCache<TextKey, PreparedText>?
    let coveragePrimary: CoverageBits
    let coverageBold: CoverageBits
    let coverageEmoji: CoverageBits
    let coverageFallback: CoverageBits
    /// Whether the primary (bold) face maps every code point from U+0020 to U+007E.
    let asciiInPrimary: Bool
    let asciiInBold: Bool

    /// Reference mode, for tests: no per-character path and no splitting at spaces; every run of
    /// one face, size and script is shaped whole by HarfBuzz, uncached. The production path must
    /// give the same line widths (within 0.01 pt).
    package let shapesWholeRuns: Bool

    /// Printable ASCII and spaces after the text face take short paths in `prepare` (a tight loop
    /// joins runs of printable ASCII to a word; a space or a word's first character skips the
    /// tests that cannot apply); off, every character takes the general steps. Tests compare the
    /// two: the short paths must change nothing.
    package let asciiRunLoop: Bool

    /// - Parameters:
    ///   - fonts: the loaded pinned fonts (share one `FontSet` per process).
    ///   - cacheBudgetBytes: bound of the shaped-word cache (default 32 MiB).
    ///   - preparedCacheBudgetBytes: bound of the prepared-text cache (default 64 MiB; 0 disables it).
    public convenience init(fonts: FontSet, cacheBudgetBytes: Int = 32 << 20, preparedCacheBudgetBytes: Int = 64 << 20) {
        self.init(fonts: fonts, retainGlyphs: false, cacheBudgetBytes: cacheBudgetBytes, preparedCacheBudgetBytes: preparedCacheBudgetBytes)
    }

    /// A measurer for the package's renderers: with `retainGlyphs`, prepared texts keep their glyph
    /// ids and positions (layout does not need them).
    package convenience init(
        fonts: FontSet, retainGlyphs: Bool, cacheBudgetBytes: Int = 32 << 20, preparedCacheBudgetBytes: Int = 64 << 20
    ) {
        self.init(
            fonts: fonts, retainGlyphs: retainGlyphs, cacheBudgetBytes: cacheBudgetBytes, shapesWholeRuns: false,
            preparedCacheBudgetBytes: preparedCacheBudgetBytes)
    }

    package init(
        fonts: FontSet, retainGlyphs: Bool, cacheBudgetBytes: Int, shapesWholeRuns: Bool, preparedCacheBudgetBytes: Int = 0,
        asciiRunLoop: Bool = true
    ) {
        self.shapesWholeRuns = shapesWholeRuns
        self.asciiRunLoop = asciiRunLoop
        preparedCache =
            preparedCacheBudgetBytes > 0
            ? BoundedCache(budgetBytes: preparedCacheBudgetBytes) { $0.residentBytes + 64 } : nil
        self.fonts = fonts
        retainsGlyphs = retainGlyphs
        cache = WordCache(budgetBytes: cacheBudgetBytes)
        let primary = fonts.coverage[.primary]!, bold = fonts.coverage[.bold]!
        coveragePrimary = primary
        coverageBold = bold
        coverageEmoji = fonts.coverage[.emoji]!
        coverageFallback = fonts.coverage[.fallback]!
        asciiInPrimary = (0x20...0x7E).allSatisfy { primary.contains($0) }
        asciiInBold = (0x20...0x7E).allSatisfy { bold.contains($0) }
    }

    /// Hit, miss, size and eviction counters of the shaped-word cache.
    public var cacheStatistics: CacheStatistics { cache.statistics }

    /// Counters of the prepared-text cache (all zero when it is disabled).
    public var preparedCacheStatistics: CacheStatistics { preparedCache?.statistics ?? CacheStatistics() }

    /// Empties the caches (fonts stay loaded): the "cold" state of benchmarks. With
    /// `keepingShapedWords`, only prepared texts are dropped: texts are then segmented, itemized
    /// and measured again, but no word is shaped again.
    public func clearCaches(keepingShapedWords: Bool = false) {
        if !keepingShapedWords { cache.removeAll() }
        preparedCache?.removeAll()
    }

    public func prepare(_ text: AttributedText) -> PreparedText {
        guard let preparedCache else { return prepareUncached(text) }
        let key = TextKey(text: text)
        if let p = preparedCache.value(for: key) { return p }
        let p = prepareUncached(text)
        preparedCache.insert(p, for: key)
        return p
    }

    /// `prepare` without the prepared-text cache (neither read nor filled); shaped words are
    /// still looked up and cached.
    public func prepareUncached(_ text: AttributedText) -> PreparedText {
        withScratch { buffers, scratch in
            let n = Self.fillUTF16(text, into: &buffers.units)
            let p = text.withContent(units: buffers.units.prefix(n)) { prepare($0, $0.utf16, &buffers, scratch) }
            p.markNoBreakSpaces()
            return p
        }
    }

    /// `prepareUncached` of the text `builder` holds, read from its buffers (its UTF-16 units are
    /// decoded as it is built): no string or parts object is made for it, and the prepared text
    /// copies it into its own object.
    package func prepareUncached(_ builder: borrowing AttributedTextBuilder) -> PreparedText {
        let p = builder.withContent { content in withScratch { prepare(content, content.utf16, &$0, $1) } }
        p.markNoBreakSpaces()
        return p
    }

    /// `body` with the thread's buffers, so that a text costs no allocation for its code units,
    /// break flags, word state or HarfBuzz buffer (a nested call on the same thread finds none
    /// and makes its own). They are used through a plain copy of their pointers, given back at
    /// the end.
    @inline(__always)
    private func withScratch(_ body: (inout PrepareBuffers, PrepareScratch) -> PreparedText) -> PreparedText {
        let slot = ThreadState.current
        let scratch = slot.scratch ?? PrepareScratch()
        slot.scratch = nil
        var buffers = scratch.buffers
        let prepared = body(&buffers, scratch)
        scratch.buffers = buffers
        if scratch.isSmall { slot.scratch = scratch }
        return prepared
    }

    /// Writes the UTF-16 code units of the text's string (decoded from its UTF-8) into `units` and
    /// returns their count.
    private static func fillUTF16(_ text: AttributedText, into units: inout ScratchBuffer<UInt16>) -> Int {
        let count = text.utf16Count
        let written = StringBytes.withUTF8(text.string) { bytes -> Int in
            units.reserve(bytes.count)
            return UTF16Transcoding.decode(bytes, into: units.base)
        }
        if written == count { return count }
        // Not reached for a valid `AttributedText` (its `utf16Count` is its string's); kept exact anyway.
        let all = Array(text.string.utf16)
        units.reserve(all.count)
        for (i, u) in all.enumerated() { units[i] = u }
        return all.count
    }

    public func singleLineSize(_ string: String, attributes: TextAttributes) -> Size {
        let prepared = prepare(AttributedText(string, attributes: attributes))
        var ascent = 0.0, descent = 0.0
        for f in prepared.runFonts {
            ascent = max(ascent, f.ascent)
            descent = max(descent, f.descent)
        }
        return Size(width: prepared.naturalWidth, height: ascent + descent)
    }

    /// The longest cluster shaped in full (UTF-16 units).
    static let maxShapedClusterUnits = 64

    /// The most clusters of a word shaped in one HarfBuzz call (`shapeWord`).
    static let maxShapedWordClusters = 512

    /// Font sizes that are not finite and positive are measured as 0.
    static func sanitized(_ size: Double) -> Double { size.isFinite && size > 0 ? size : 0 }
}
