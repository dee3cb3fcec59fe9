#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import UnicodeText

/// The real text engine: FreeType-validated fonts, HarfBuzz shaping, UAX #14 line breaking.
///
/// `prepare` (width-independent work):
/// 1. UTF-16 code units, grapheme boundaries and line-break opportunities (`TextBreaks.analyze`).
/// 2. Itemization per grapheme cluster: emoji presentation sequences (VS16, keycaps, ZWJ
///    sequences, modifiers, flags, tags) go to the emoji face as one cluster; text presentation
///    (VS15) stays in the text face; a code point no face covers is measured as the primary face's
///    .notdef and counted in `missingGlyphCount`, never dropped. U+FFFC with an inline object is
///    the object.
/// 3. Measurement: CJK ideographs, kana and CJK/fullwidth punctuation take the per-character path
///    (hmtx advances read at font load; proven equal to shaping by a test on the corpus); every other
///    maximal run of one face, size and script between spaces (a "word", such as a Latin word, a
///    URL or an emoji sequence) is shaped with HarfBuzz as a whole, or read from the shaped-word
///    cache. Break opportunities inside a word are kept per cluster, so shaping across them keeps
///    kerning exactly as shaping the whole line does.
///
/// Prepared texts are themselves cached by content (`PreparedTextCache`, 64 MiB by default), so a
/// text measured again costs a hash and a comparison.
///
/// Thread-safety: `Sendable`; `prepare` MAY run concurrently from any number of threads (fonts are
/// immutable `hb_ot` fonts, the word cache is sharded behind locks, a call's scratch buffers are
/// its own: kept per thread, taken at the start of the call and given back when it ends).
public final class TextMeasurer: TextMeasuring, Sendable {
    public let fonts: FontSet
    /// Glyph ids and positions are kept in prepared texts (renderers need them; layout does not).
    public let retainsGlyphs: Bool
    private let cache: WordCache
    private let preparedCache: PreparedTextCache?
    private let coveragePrimary: CoverageBits
    private let coverageBold: CoverageBits
    private let coverageEmoji: CoverageBits
    /// Whether the primary (bold) face maps every code point from U+0020 to U+007E.
    private let asciiInPrimary: Bool
    private let asciiInBold: Bool

    /// Reference mode, for tests: no per-character path and no splitting at spaces; every run of
    /// one face, size and script is shaped whole by HarfBuzz, uncached. The production path must
    /// give the same line widths (within 0.01 pt).
    package let shapesWholeRuns: Bool

    /// - Parameters:
    ///   - cacheBudgetBytes: bound of the shaped-word cache (default 32 MiB).
    ///   - preparedCacheBudgetBytes: bound of the prepared-text cache (default 64 MiB; 0 disables it).
    public convenience init(
        fonts: FontSet, retainGlyphs: Bool = false, cacheBudgetBytes: Int = 32 << 20, preparedCacheBudgetBytes: Int = 64 << 20
    ) {
        self.init(
            fonts: fonts, retainGlyphs: retainGlyphs, cacheBudgetBytes: cacheBudgetBytes, shapesWholeRuns: false,
            preparedCacheBudgetBytes: preparedCacheBudgetBytes)
    }

    package init(
        fonts: FontSet, retainGlyphs: Bool, cacheBudgetBytes: Int, shapesWholeRuns: Bool, preparedCacheBudgetBytes: Int = 0
    ) {
        self.shapesWholeRuns = shapesWholeRuns
        preparedCache = preparedCacheBudgetBytes > 0 ? PreparedTextCache(budgetBytes: preparedCacheBudgetBytes) : nil
        self.fonts = fonts
        retainsGlyphs = retainGlyphs
        cache = WordCache(budgetBytes: cacheBudgetBytes)
        let primary = fonts.coverage[.primary]!, bold = fonts.coverage[.bold]!
        coveragePrimary = primary
        coverageBold = bold
        coverageEmoji = fonts.coverage[.emoji]!
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
        let key = PreparedTextCache.Key(text: text)
        if let p = preparedCache.value(for: key) { return p }
        let p = prepareUncached(text)
        preparedCache.insert(p, for: key)
        return p
    }

    /// `prepare` without the prepared-text cache (neither read nor filled); shaped words are
    /// still looked up and cached.
    public func prepareUncached(_ text: AttributedText) -> PreparedText {
        // The thread's buffers, so that a text costs no allocation for its code units, break
        // flags, word state or HarfBuzz buffer (a nested call on the same thread finds none and
        // makes its own). They are used through a plain copy of their pointers, given back at the end.
        let slot = ThreadState.current
        let scratch = slot.scratch ?? PrepareScratch()
        slot.scratch = nil
        var buffers = scratch.buffers
        let n = Self.fillUTF16(text, into: &buffers.units)
        let prepared = prepare(text, buffers.units.prefix(n), &buffers, scratch)
        scratch.buffers = buffers
        if scratch.isSmall { slot.scratch = scratch }
        return prepared
    }

    /// Writes the UTF-16 code units of the text's string (decoded from its UTF-8) into `units` and
    /// returns their count.
    private static func fillUTF16(_ text: AttributedText, into units: inout ScratchBuffer<UInt16>) -> Int {
        var string = text.string
        let count = text.utf16Count
        units.reserve(count)
        let out = units.base
        let written = string.withUTF8 { b -> Int in
            let n = b.count
            var i = 0, o = 0
            while i < n && o < count {
                let c0 = UInt32(b[i])
                if c0 < 0x80 {
                    out[o] = UInt16(c0)
                    i += 1; o += 1
                } else if c0 < 0xE0 {
                    out[o] = UInt16((c0 & 0x1F) << 6 | UInt32(b[i + 1] & 0x3F))
                    i += 2; o += 1
                } else if c0 < 0xF0 {
                    out[o] = UInt16(truncatingIfNeeded: (c0 & 0x0F) << 12 | UInt32(b[i + 1] & 0x3F) << 6 | UInt32(b[i + 2] & 0x3F))
                    i += 3; o += 1
                } else {
                    let v = (c0 & 0x07) << 18 | UInt32(b[i + 1] & 0x3F) << 12 | UInt32(b[i + 2] & 0x3F) << 6
                        | UInt32(b[i + 3] & 0x3F)
                    guard o + 1 < count else { break }
                    out[o] = UInt16(0xD800 + ((v - 0x10000) >> 10))
                    out[o + 1] = UInt16(0xDC00 + ((v - 0x10000) & 0x3FF))
                    i += 4; o += 2
                }
            }
            return i == n ? o : -1
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

    private func prepare(
        _ text: AttributedText, _ u: UnsafeBufferPointer<UInt16>, _ buffers: inout PrepareBuffers, _ scratch: PrepareScratch
    ) -> PreparedText {
        let n = u.count
        buffers.breaks.reserve(n + 1)
        let breaks = buffers.breaks.base
        TextBreaks.analyze(u, writingInto: breaks)
        var word = WordState()
        let baseSize = Self.sanitized(text.baseAttributes.size)
        var builder = PreparedTextBuilder(
            text: text, baseFont: fonts.metrics(text.baseAttributes.weight == .bold ? .bold : .primary, size: baseSize))
        var glyphs: GlyphStorage? = retainsGlyphs ? GlyphStorage() : nil
        let runs = text.runs
        var run = 0
        let objects = text.attachments
        var nextObject = 0
        var clusterIndex = 0
        var missing = 0
        var runFonts = RunFonts(fonts, runs[0].attributes)
        var lastStrong: UnicodeScript?
        var previousSlot = FontSlot.primary
        var brackets: [(id: UInt8, script: UnicodeScript?)] = []
        let simple = fonts.simplePrimary
        let simpleBold = fonts.simpleBold
        // Per-run values, updated when a run ends (not copied per cluster).
        var bold = runs[0].attributes.weight == .bold
        var table = bold ? simpleBold : simple
        var runEnd = runs[0].range.upperBound
        let graphemeFlag = BreakFlags.grapheme
        let lineAllowedFlag = BreakFlags.lineAllowed

        var start = 0
        while start < n {
            var end = start + 1
            while end < n && !breaks[end].contains(graphemeFlag) { end += 1 }
            if runEnd <= start && run + 1 < runs.count {
                while run + 1 < runs.count && runs[run].range.upperBound <= start { run += 1 }
                runFonts = RunFonts(fonts, runs[run].attributes)
                bold = runs[run].attributes.weight == .bold
                table = bold ? simpleBold : simple
                runEnd = runs[run].range.upperBound
            }
            let size = runFonts.size
            let breakAfter = end < n && breaks[end].contains(lineAllowedFlag)

            // The common case of Chinese text: a one-unit cluster on the per-character path (no
            // itemization needed: the table only holds code points the text face maps). An inert
            // character is taken next to anything (a shaped word before it ends there); touched
            // punctuation only between plain neighbours, and otherwise joins the word.
            if end == start + 1 && !shapesWholeRuns {
                let e = table.entry(u[start])
                if SimpleAdvanceTable.isOnPath(e)
                    && (e < SimpleAdvanceTable.needsPlainNeighbours
                        || ((word.count == 0 || word.slot == .emoji) && (end == n || table.isPlainNeighbour(u[end]))))
                {
                    flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
                    let v = UInt32(u[start])
                    Self.noteScript(of: v, into: &lastStrong, han: .han)
                    let adv = Double(table.advance(ofEntry: e)) * runFonts.textScale
                    if glyphs != nil {
                        let glyph = fonts.file(bold ? .bold : .primary).nominalGlyph(v) ?? 0
                        glyphs!.append(glyph: glyph, cluster: clusterIndex, advance: adv)
                    }
                    builder.appendCluster(
                        end: end, advance: adv, font: runFonts.text, breakAfter: breakAfter, mandatoryAfter: false,
                        hanging: false)
                    previousSlot = .primary
                    clusterIndex += 1
                    start = end
                    // The inert one-unit clusters that follow in the same run take the same path and
                    // change nothing else: a tight loop over most of a Chinese text.
                    if glyphs == nil {
                        let limit = min(runEnd, n)
                        let scale = runFonts.textScale
                        let han = UnicodeScript.han
                        while start < limit {
                            let next = start + 1
                            guard next == n || breaks[next].contains(graphemeFlag) else { break }
                            let e = table.entry(u[start])
                            guard SimpleAdvanceTable.isOnPath(e) && e < SimpleAdvanceTable.needsPlainNeighbours else { break }
                            Self.noteScript(of: UInt32(u[start]), into: &lastStrong, han: han)
                            builder.appendClusterInLastFont(
                                end: next, advance: Double(table.advance(ofEntry: e)) * scale,
                                breakAfter: next < n && breaks[next].contains(lineAllowedFlag))
                            clusterIndex += 1
                            start = next
                        }
                    }
                    continue
                }
            }
            let info = ClusterInfo(u, start, end)

            while nextObject < objects.count && objects[nextObject].offset < start { nextObject += 1 }
            if nextObject < objects.count && objects[nextObject].offset == start && info.first == 0xFFFC {
                flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
                let o = objects[nextObject]
                let width = o.width.isFinite ? max(0, o.width) : 0
                builder.appendCluster(
                    end: end, advance: width,
                    font: RunFont(slot: .object, size: size, ascent: o.ascent, descent: o.descent),
                    breakAfter: breakAfter, mandatoryAfter: false, hanging: false, attachment: true)
                clusterIndex += 1
                nextObject += 1
                start = end
                continue
            }

            // Paired brackets: text after a closing bracket is back in the script that was current
            // at its opening bracket (UAX #24's paired-punctuation rule, as Pango applies it).
            if let pair = Self.bracketPair(info.first) {
                if pair.isOpen {
                    if brackets.count < 64 { brackets.append((pair.id, lastStrong)) }
                } else if let k = brackets.lastIndex(where: { $0.id == pair.id }) {
                    let saved = brackets[k].script
                    brackets.removeSubrange(k...)
                    if let saved { lastStrong = saved }
                }
            }
            // Printable ASCII and the space are in the text face whenever it covers them all (the
            // primary and bold faces do): no itemization per Latin letter.
            var slot =
                info.first &- 0x20 < 0x5F && info.isSingleScalar && (bold ? asciiInBold : asciiInPrimary)
                ? (bold ? FontSlot.bold : .primary) : itemize(info, bold: bold, missing: &missing)
            // Like Pango, spaces and line breaks right after an emoji stay in the emoji face (and so
            // take its metrics).
            // (The reference mode shapes such a space with the text run: same advance.)
            if previousSlot == .emoji && ((info.first == 0x20 && !shapesWholeRuns) || info.isSeparator) {
                slot = .emoji
            }
            previousSlot = info.isSeparator ? .primary : slot
            if info.isSeparator || (info.isHanging && !shapesWholeRuns) {
                flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
                // Spaces are measured in their face; separators have no advance.
                var adv = 0.0
                if !info.isSeparator {
                    // The advance always comes from the text face: Noto Color Emoji's space is
                    // 1.245 em wide, a visible hole after every emoji.
                    let textSlot: FontSlot = bold ? .bold : .primary
                    let f = fonts.file(textSlot)
                    if info.first == 0x20 || info.first == 0x09 {
                        adv = Double(f.spaceAdvance) * runFonts.unitScale(textSlot)
                        glyphs?.append(glyph: f.spaceGlyph ?? 0, cluster: clusterIndex, advance: adv)
                    } else {
                        let g = f.nominalGlyph(info.first) ?? 0
                        adv = Double(f.advance(ofGlyph: g)) * runFonts.unitScale(textSlot)
                        glyphs?.append(glyph: g, cluster: clusterIndex, advance: adv)
                    }
                }
                builder.appendCluster(
                    end: end, advance: adv, font: runFonts.font(slot), breakAfter: breakAfter,
                    mandatoryAfter: info.isSeparator, hanging: true, lineSeparator: info.isSeparator)
                clusterIndex += 1
                start = end
                continue
            }

            // A cluster to shape: it joins the current word when face, size and script match.
            // Common and inherited characters take the script of the text before them (or, at
            // the start, after them), as Pango's script itemization does (UAX #24).
            var script = slot == .emoji ? UnicodeScript.common : UnicodeScript.of(info.first)
            if slot != .emoji && script.isWeak {
                if lastStrong == nil { lastStrong = Self.firstStrongScript(u, from: start) }
                script = lastStrong!
            } else if slot != .emoji {
                lastStrong = script
            }
            // HarfBuzz's mark attachment is quadratic in the length of a mark stack: a cluster longer
            // than `maxShapedClusterUnits` (100 000 accents on one letter) is shaped on its first
            // units only; the marks after them add no advance, as combining marks do not.
            let oversized = end - start > Self.maxShapedClusterUnits
            if word.count > 0 && (oversized || word.slot != slot || word.font.size != size || word.script != script) {
                flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
            }
            if word.count == 0 {
                word.start = start
                word.slot = slot
                word.font = runFonts.font(slot)
                word.script = script
            }
            if word.count == buffers.wordEnds.capacity {
                buffers.wordEnds.reserve(word.count + 1, keeping: word.count)
                buffers.wordBreakAfter.reserve(word.count + 1, keeping: word.count)
            }
            buffers.wordEnds[word.count] = Int32(end)
            buffers.wordBreakAfter[word.count] = breakAfter
            word.count += 1
            if oversized {
                var limit = start + Self.maxShapedClusterUnits
                if u[limit - 1] & 0xFC00 == 0xD800 { limit -= 1 }
                word.shapeLimit = limit
                flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
            }
            start = end
        }
        flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
        builder.setGlyphs(glyphs)
        builder.addMissingGlyphs(missing)
        return builder.finish()
    }

    /// Measures the pending word (from the cache or by shaping), appends its clusters and empties it.
    @inline(__always)
    private func flushWord(
        _ word: inout WordState, _ u: UnsafeBufferPointer<UInt16>, _ builder: inout PreparedTextBuilder,
        _ glyphs: inout GlyphStorage?, _ clusterIndex: inout Int, _ buffers: inout PrepareBuffers, _ scratch: PrepareScratch
    ) {
        guard word.count > 0 else { return }
        measureWord(word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
        word.count = 0
        word.shapeLimit = nil
    }

    /// Measures a word (from the cache or by shaping) and appends its clusters: cluster `c` ends
    /// at `buffers.wordEnds[c]` and may break after when `buffers.wordBreakAfter[c]`.
    private func measureWord(
        _ word: WordState, _ u: UnsafeBufferPointer<UInt16>, _ builder: inout PreparedTextBuilder,
        _ glyphs: inout GlyphStorage?, _ clusterIndex: inout Int, _ buffers: inout PrepareBuffers, _ scratch: PrepareScratch
    ) {
        let count = word.count
        let ends = buffers.wordEnds.prefix(count)
        let breakAfter = buffers.wordBreakAfter.prefix(count)
        let wordEnd = min(Int(ends[count - 1]), word.shapeLimit ?? .max)
        let text = UnsafeBufferPointer(rebasing: u[word.start..<wordEnd])
        let file = fonts.file(word.slot)
        let k = word.font.size / Double(file.upem)
        let firstCluster = clusterIndex

        // `advances` holds each cluster's advance, then each cluster's line-end correction.
        func emit(_ advances: UnsafeBufferPointer<Int32>, _ shaped: UnsafeBufferPointer<CachedGlyph>) {
            // Every cluster of the word is in its font: found once, then appended as plain clusters.
            builder.useFont(word.font)
            for c in 0..<count {
                builder.appendClusterInLastFont(end: Int(ends[c]), advance: Double(advances[c]) * k, breakAfter: breakAfter[c])
                if c < count - 1 && advances[count + c] != 0 {
                    builder.addLineEndCorrection(Double(advances[count + c]) * k)
                }
            }
            if glyphs != nil {
                for g in shaped {
                    glyphs!.append(
                        glyph: g.glyph, cluster: firstCluster + Int(g.cluster), advance: Double(g.xAdvance) * k,
                        xOffset: Double(g.xOffset) * k, yOffset: Double(g.yOffset) * k)
                }
            }
        }

        // Printable ASCII in a text face: advances and pair kerning from the face's tables, no
        // shaping and no cache (`AsciiKerning`, exact by construction and by test).
        if count == text.count && word.shapeLimit == nil && !shapesWholeRuns,
            let ascii = fonts.asciiKerning(word.slot, word.script)
        {
            buffers.advances.reserve(2 * count)
            if ascii.measure(text, writingInto: buffers.advances.base) {
                let advances = buffers.advances.prefix(2 * count)
                var cached: [CachedGlyph] = []
                if glyphs != nil {
                    for c in 0..<count {
                        cached.append(
                            CachedGlyph(glyph: ascii.glyph(of: text[c]), cluster: Int32(c), xAdvance: advances[c], xOffset: 0, yOffset: 0))
                    }
                }
                cached.withUnsafeBufferPointer { emit(advances, $0) }
                clusterIndex += count
                return
            }
        }
        let cacheable = text.count <= WordCache.maxWordLength && word.shapeLimit == nil && !shapesWholeRuns
        let key = WordCache.key(word.slot, word.script.rawValue)
        let hash = cacheable ? WordCache.hash(key, text) : 0
        if cacheable && cache.lookup(key, text, hash: hash, { emit($0, $1) }) {
            clusterIndex += count
            return
        }
        // Shape the word on its own (no context), so the result depends on the word only and can
        // be cached and reused anywhere.
        var shaped: [ShapedGlyph] = []
        swap(&shaped, &scratch.shaped)
        defer { swap(&shaped, &scratch.shaped) }
        shaped.removeAll(keepingCapacity: true)
        scratch.shaper.shape(
            text, start: 0, end: text.count, font: file, script: word.script.isWeak ? nil : word.script, into: &shaped)
        // A cluster that ends a line is drawn without its kerning with the next cluster (the rest
        // of the word is shaped apart, as Pango does when it breaks inside a run): its correction
        // is its glyphs' nominal advances minus their shaped ones.
        buffers.advances.reserve(2 * count)
        let advances = buffers.advances.base
        advances.update(repeating: 0, count: 2 * count)
        var cached: [CachedGlyph] = []
        swap(&cached, &scratch.cached)
        defer { swap(&cached, &scratch.cached) }
        cached.removeAll(keepingCapacity: true)
        cached.reserveCapacity(shaped.count)
        var c = 0
        let spaceGlyph = file.spaceGlyph
        for g in shaped {
            let offset = Int(g.cluster) + word.start
            while c + 1 < count && Int(ends[c]) <= offset { c += 1 }
            advances[c] &+= g.xAdvance
            // A zero advance is not kerning but a mark or a default-ignorable character (HarfBuzz
            // draws those with a zeroed space glyph): nothing is lost at a line end. Nor is the
            // width HarfBuzz gives the space glyph when it stands in for a space character the
            // font lacks (U+2007 FIGURE SPACE is as wide as a digit): that width is the
            // character's own, not kerning with its neighbour.
            let fallbackSpace = g.glyph == spaceGlyph && u[offset] != 0x20
            if g.xAdvance != 0 && !fallbackSpace { advances[count + c] &+= file.advance(ofGlyph: g.glyph) &- g.xAdvance }
            cached.append(CachedGlyph(glyph: g.glyph, cluster: Int32(c), xAdvance: g.xAdvance, xOffset: g.xOffset, yOffset: g.yOffset))
        }
        let adv = buffers.advances.prefix(2 * count)
        cached.withUnsafeBufferPointer { gl in
            emit(adv, gl)
            if cacheable { cache.insert(key, text, hash: hash, advances: adv, glyphs: gl) }
        }
        clusterIndex += count
    }

    /// Script resolution on the per-character path, as for shaped clusters: a strong script
    /// becomes current. Ideographs are Han without a lookup; nothing below "A" is strong. `han`
    /// is `UnicodeScript.han`, passed in so that a loop reads the global once.
    @inline(__always)
    private static func noteScript(of v: UInt32, into lastStrong: inout UnicodeScript?, han: UnicodeScript) {
        if v >= 0x3400 && v <= 0x9FFF {
            lastStrong = han
        } else if v >= 0x41 {
            let s = UnicodeScript.of(v)
            if !s.isWeak { lastStrong = s }
        }
    }

    /// The face a grapheme cluster is drawn with.
    private func itemize(_ info: ClusterInfo, bold: Bool, missing: inout Int) -> FontSlot {
        let text: FontSlot = bold ? .bold : .primary
        if info.isEmojiPresentation { return .emoji }
        if fonts.covers(text, info.first, bits: bold ? coverageBold : coveragePrimary) { return text }
        if !info.isTextPresentation, fonts.covers(.emoji, info.first, bits: coverageEmoji) { return .emoji }
        missing += 1
        return text
    }

    /// The longest cluster shaped in full (UTF-16 units).
    static let maxShapedClusterUnits = 64

    /// Paired brackets that script resolution tracks: an id per pair and whether it opens.
    @inline(__always) static func bracketPair(_ v: UInt32) -> (id: UInt8, isOpen: Bool)? {
        switch v {
        case 0x28: return (0, true)
        case 0x29: return (0, false)
        case 0x5B: return (1, true)
        case 0x5D: return (1, false)
        case 0x7B: return (2, true)
        case 0x7D: return (2, false)
        case 0xFF08: return (3, true)
        case 0xFF09: return (3, false)
        case 0x3010: return (4, true)
        case 0x3011: return (4, false)
        case 0x300C: return (5, true)
        case 0x300D: return (5, false)
        case 0x300E: return (6, true)
        case 0x300F: return (6, false)
        case 0x300A: return (7, true)
        case 0x300B: return (7, false)
        case 0x3008: return (8, true)
        case 0x3009: return (8, false)
        case 0x201C: return (9, true)
        case 0x201D: return (9, false)
        case 0x2018: return (10, true)
        case 0x2019: return (10, false)
        default: return nil
        }
    }

    /// The first strong script in the text from `start` on (Han when there is none: the engine's
    /// language is Chinese).
    static func firstStrongScript(_ u: UnsafeBufferPointer<UInt16>, from start: Int) -> UnicodeScript {
        var i = start
        while i < u.count {
            var v = UInt32(u[i])
            i += 1
            if v & 0xFC00 == 0xD800, i < u.count, u[i] & 0xFC00 == 0xDC00 {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i]) - 0xDC00)
                i += 1
            }
            let s = UnicodeScript.of(v)
            if !s.isWeak { return s }
        }
        return .han
    }

    /// Font sizes that are not finite and positive are measured as 0.
    static func sanitized(_ size: Double) -> Double { size.isFinite && size > 0 ? size : 0 }
}

/// The faces of one attribute run at its size, computed once per run.
private struct RunFonts {
    let size: Double
    let text: RunFont
    let emoji: RunFont
    let textScale: Double
    let emojiScale: Double

    init(_ fonts: FontSet, _ attributes: TextAttributes) {
        size = TextMeasurer.sanitized(attributes.size)
        let slot: FontSlot = attributes.weight == .bold ? .bold : .primary
        text = fonts.metrics(slot, size: size)
        emoji = fonts.metrics(.emoji, size: size)
        textScale = size / Double(fonts.file(slot).upem)
        emojiScale = size / Double(fonts.emoji.upem)
    }

    @inline(__always) func font(_ slot: FontSlot) -> RunFont { slot == .emoji ? emoji : text }
    @inline(__always) func unitScale(_ slot: FontSlot) -> Double { slot == .emoji ? emojiScale : textScale }
}

/// The word being collected: its first offset, cluster count, face, script and font (its cluster
/// ends and break flags are in `PrepareBuffers`).
private struct WordState {
    var start = 0
    var count = 0
    var slot = FontSlot.primary
    var script = UnicodeScript.common
    var font = RunFont(slot: .primary, size: 0, ascent: 0, descent: 0)
    /// Set for an oversized cluster: shaping stops at this UTF-16 offset.
    var shapeLimit: Int?
}

/// What itemization and measuring need to know about one grapheme cluster.
private struct ClusterInfo {
    var first: UInt32 = 0
    var isSingleScalar = true
    var isEmojiPresentation = false
    var isTextPresentation = false
    var isHanging = false
    var isSeparator = false

    @inline(__always) init(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) {
        // A one-unit printable ASCII cluster (U+0021...U+007E: a letter of a Latin word, a digit,
        // a URL's punctuation) has no property the decoding would find: no emoji or text
        // presentation, not a separator, not hanging (U+0020 is outside the range); a space only hangs.
        if end == start + 1 && u[start] &- 0x21 < 0x5E {
            self.init(first: UInt32(u[start]))
        } else if end == start + 1 && u[start] == 0x20 {
            // A space: one scalar that hangs, with no other property.
            self.init(first: 0x20)
            isHanging = true
        } else {
            self.init(decoding: u, start, end)
        }
    }

    /// A cluster with every flag false.
    private init(first: UInt32) { self.first = first }

    private init(decoding u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) {
        var i = start
        var index = 0
        var hasZWJ = false, hasVS16 = false, hasKeycap = false, hasModifier = false, hasTag = false
        var firstPictographic = false, firstRI = false, firstEmojiPresentation = false
        var lastClass = LineBreakClass.XX
        while i < end {
            var v = UInt32(u[i])
            i += 1
            if v & 0xFC00 == 0xD800, i < end, u[i] & 0xFC00 == 0xDC00 {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i]) - 0xDC00)
                i += 1
            } else if v & 0xF800 == 0xD800 {
                v = 0xFFFD
            }
            if index == 0 {
                first = v
                let t = UnicodeProperties.traits(v)
                firstPictographic = t.isExtendedPictographic
                firstRI = t.isRegionalIndicator
                firstEmojiPresentation = t.isEmojiPresentation
                lastClass = t.lineBreakClass
            } else {
                switch v {
                case 0x200D: hasZWJ = true
                case 0xFE0F: hasVS16 = true
                case 0xFE0E: isTextPresentation = true
                case 0x20E3: hasKeycap = true
                case 0xE0020...0xE007F: hasTag = true
                default: break
                }
                let t = UnicodeProperties.traits(v)
                if t.isEmojiModifier { hasModifier = true }
                lastClass = t.lineBreakClass
            }
            index += 1
        }
        isSingleScalar = index == 1
        if isTextPresentation {
            isEmojiPresentation = false
        } else {
            isEmojiPresentation =
                firstRI || hasVS16 || hasKeycap || hasTag || hasModifier
                || (hasZWJ && firstPictographic) || firstEmojiPresentation
        }
        switch lastClass {
        case .BK, .CR, .LF, .NL: isSeparator = true
        default: break
        }
        if isSingleScalar {
            switch first {
            case 0x09, 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: isHanging = true
            default: break
            }
        }
    }
}

extension GlyphStorage {
    mutating func append(glyph: UInt32, cluster: Int, advance: Double, xOffset: Double = 0, yOffset: Double = 0) {
        glyphID.append(glyph)
        self.cluster.append(Int32(cluster))
        xAdvance.append(Float(advance))
        self.xOffset.append(Float(xOffset))
        self.yOffset.append(Float(yOffset))
    }
}

/// State the package keeps per thread, in a thread-specific slot (no lock, and no cache line
/// shared with other cores): the `prepare` buffers of the thread's last call, and a small index
/// that per-thread shards are chosen by (`currentThreadIndex`). Freed when the thread exits.
final class ThreadState {
    /// The thread's index, in the order threads first asked (0, 1, 2, …).
    let index: Int
    /// `prepare` buffers kept between the thread's calls (a pool behind one lock was taken twice
    /// per text by every thread).
    fileprivate var scratch: PrepareScratch?
    /// Other modules' per-thread objects, one per type (`threadLocal`).
    fileprivate var locals: [(type: ObjectIdentifier, object: AnyObject)] = []

    private init(index: Int) { self.index = index }

    private static let nextIndex = Atomic<Int>(0)

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Glibc)
            guard let pointer else { return }
            #endif
            Unmanaged<ThreadState>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// This thread's state (made on its first call).
    static var current: ThreadState {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = ThreadState(index: nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue)
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }
}

/// The calling thread's instance of `T`, made by `make` on the thread's first call: reusable
/// buffers of other modules, kept per thread like the measurer's own (no lock, no cache line
/// shared between cores), freed when the thread exits. The caller MUST NOT use it across a call
/// that may use it again on the same thread.
package func threadLocal<T: AnyObject>(_ type: T.Type, _ make: () -> T) -> T {
    let state = ThreadState.current
    let key = ObjectIdentifier(type)
    for entry in state.locals where entry.type == key { return unsafeDowncast(entry.object, to: T.self) }
    let object = make()
    state.locals.append((key, object))
    return object
}

/// The calling thread's index (0 for the first thread that asked, then 1, 2, …): for data kept
/// per thread, such as shards that only their thread uses, so that threads never wait for each
/// other or share cache lines there.
package var currentThreadIndex: Int { ThreadState.current.index }

/// The reusable buffers of a `prepare` call (see `ThreadState`): plain blocks, and the arrays
/// and HarfBuzz buffer of shaping (made on the first cache miss only).
private final class PrepareScratch {
    var buffers = PrepareBuffers()
    var shaped: [ShapedGlyph] = []
    var cached: [CachedGlyph] = []
    private var made: ShapingBuffer?

    var shaper: ShapingBuffer {
        if let made { return made }
        let b = ShapingBuffer()
        made = b
        return b
    }

    /// Small enough to keep for the thread's next call (a long text's buffers are dropped with
    /// it, so a thread keeps a few hundred KiB at most).
    var isSmall: Bool {
        buffers.largestCapacity <= 1 << 14 + 1 && shaped.capacity <= 1 << 12 && cached.capacity <= 1 << 12
    }

    deinit { buffers.free() }
}

/// The plain buffers of `prepare`: code units, break flags (one more than units), the pending
/// word's cluster ends and break flags, and a word's advances (two per cluster).
private struct PrepareBuffers {
    var units = ScratchBuffer<UInt16>(capacity: 256)
    var breaks = ScratchBuffer<BreakFlags>(capacity: 257)
    var wordEnds = ScratchBuffer<Int32>(capacity: 64)
    var wordBreakAfter = ScratchBuffer<Bool>(capacity: 64)
    var advances = ScratchBuffer<Int32>(capacity: 128)

    var largestCapacity: Int {
        max(units.capacity, breaks.capacity, wordEnds.capacity, wordBreakAfter.capacity, advances.capacity)
    }

    func free() {
        units.free()
        breaks.free()
        wordEnds.free()
        wordBreakAfter.free()
        advances.free()
    }
}
