import UnicodeText

// Word measuring and caching: a pending word is measured from the face's word tables
// (`KernedAlphabet`), the shaped-word cache or HarfBuzz, and its clusters are appended.
extension TextMeasurer {
    /// Measures the pending word (from the cache or by shaping), appends its clusters and empties it.
    @inline(__always)
    func flushWord(
        _ word: inout WordState, _ u: UnsafeBufferPointer<UInt16>, _ builder: inout PreparedTextBuilder,
        _ glyphs: inout GlyphStorage?, _ clusterIndex: inout Int, _ buffers: inout PrepareBuffers, _ scratch: PrepareScratch
    ) {
        guard word.count > 0 else { return }
        measureWord(word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
        word.count = 0
        word.shapeLimit = nil
    }

    /// Measures a word and appends its clusters: from the face's tables when it is on them
    /// (most words of a feed are), else from the cache or by shaping (`shapeWord`, whose
    /// closures and cache set-up a function of their own keeps from the common case).
    @inline(never)
    func measureWord(
        _ word: WordState, _ u: UnsafeBufferPointer<UInt16>, _ builder: inout PreparedTextBuilder,
        _ glyphs: inout GlyphStorage?, _ clusterIndex: inout Int, _ buffers: inout PrepareBuffers, _ scratch: PrepareScratch
    ) {
        // (A word that starts outside the tables' alphabet goes to `shapeWord` without trying them.)
        if !retainsGlyphs && !word.reversed && KernedAlphabet.mayHold(u[word.start]) && measureKernedWord(word, u, &builder, &buffers) {
            clusterIndex += word.count
            return
        }
        let first = clusterIndex
        shapeWord(word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch, tablesTried: !retainsGlyphs)
        if word.slot == .emoji { markStrayEmojiTails(word, u, &builder, first: first, buffers) }
        // (Only a word with a cluster of more than one unit may carry a mark.)
        if word.slot == .fallback && Int(buffers.wordEnds.base[word.count - 1]) - word.start > word.count && word.script.isCursive {
            amendCursiveMarks(word, u, &builder, first: first, buffers)
        }
    }

    /// Appends the clusters of a word measured from the face's tables (`KernedAlphabet`), and
    /// returns true; false when the word is not on that path.
    @inline(__always)
    private func measureKernedWord(
        _ word: WordState, _ u: UnsafeBufferPointer<UInt16>, _ builder: inout PreparedTextBuilder, _ buffers: inout PrepareBuffers
    ) -> Bool {
        let count = word.count
        guard word.shapeLimit == nil && !shapesWholeRuns else { return false }
        let ends = buffers.wordEnds.base
        let wordEnd = Int(ends[count - 1])
        guard wordEnd - word.start == count else { return false }
        buffers.advances.reserve(2 * count)
        let advances = buffers.advances.base
        let text = UnsafeBufferPointer(rebasing: u[word.start..<wordEnd])
        guard fonts.measureKerned(word.slot, word.script, text, writingInto: advances) else { return false }
        builder.appendWord(
            count, font: word.font, ends: ends, breakAfter: buffers.wordBreakAfter.base, advances: advances, scale: word.units)
        return true
    }

    /// Measures a word (from the cache or by shaping) and appends its clusters: cluster `c` ends
    /// at `buffers.wordEnds[c]` and may break after when `buffers.wordBreakAfter[c]`.
    /// `tablesTried`: `measureKernedWord` found the word off the face's tables.
    ///
    /// A word of more than `maxShapedWordClusters` clusters (no real word has that many: a
    /// run with no space, no script change and no character of the per-character path) is
    /// shaped in pieces of that many: HarfBuzz takes time quadratic in some such runs (100 000
    /// soft hyphens in Noto Sans CJK: 30 s; 8 000 `ΐ` in DejaVu Sans: 0.27 s against 2.4 ms
    /// for 1 000). A piece loses its kerning and contextual forms with the next piece only.
    @inline(never)
    private func shapeWord(
        _ word: WordState, _ u: UnsafeBufferPointer<UInt16>, _ builder: inout PreparedTextBuilder,
        _ glyphs: inout GlyphStorage?, _ clusterIndex: inout Int, _ buffers: inout PrepareBuffers, _ scratch: PrepareScratch,
        tablesTried: Bool
    ) {
        let limit = Self.maxShapedWordClusters
        guard word.count > limit && !shapesWholeRuns else {
            shapePiece(word, from: 0, u, &builder, &glyphs, &clusterIndex, &buffers, scratch, tablesTried: tablesTried)
            return
        }
        var piece = word
        var first = 0
        while first < word.count {
            piece.count = min(limit, word.count - first)
            piece.start = first == 0 ? word.start : Int(buffers.wordEnds[first - 1])
            // An oversized last cluster stays limited in the last piece.
            piece.shapeLimit = first + piece.count == word.count ? word.shapeLimit : nil
            shapePiece(piece, from: first, u, &builder, &glyphs, &clusterIndex, &buffers, scratch, tablesTried: false)
            first += piece.count
        }
    }

    /// `shapeWord` for the clusters `first ..< first + word.count` of the pending word.
    private func shapePiece(
        _ word: WordState, from first: Int, _ u: UnsafeBufferPointer<UInt16>, _ builder: inout PreparedTextBuilder,
        _ glyphs: inout GlyphStorage?, _ clusterIndex: inout Int, _ buffers: inout PrepareBuffers, _ scratch: PrepareScratch,
        tablesTried: Bool
    ) {
        let count = word.count
        let ends = UnsafeBufferPointer(start: buffers.wordEnds.base + first, count: count)
        let breakAfter = UnsafeBufferPointer(start: buffers.wordBreakAfter.base + first, count: count)
        let wordEnd = min(Int(ends[count - 1]), word.shapeLimit ?? .max)
        let text = UnsafeBufferPointer(rebasing: u[word.start..<wordEnd])
        let k = word.font.size / Double(fonts.upem(word.slot))
        let firstCluster = clusterIndex

        // `advances` holds each cluster's advance, then each cluster's line-end correction.
        func emit(_ advances: UnsafeBufferPointer<Int32>, _ shaped: UnsafeBufferPointer<CachedGlyph>) {
            builder.appendWord(
                count, font: word.font, ends: ends.baseAddress!, breakAfter: breakAfter.baseAddress!,
                advances: advances.baseAddress!, scale: word.units)
            if retainsGlyphs {
                for g in shaped {
                    glyphs!.append(
                        glyph: g.glyph, cluster: firstCluster + Int(g.cluster), advance: word.units.points(g.xAdvance),
                        xOffset: Double(g.xOffset) * k, yOffset: Double(g.yOffset) * k)
                }
            }
        }

        // Printable ASCII and Chinese punctuation in a text face: advances and pair kerning from
        // the face's tables, no shaping and no cache (`KernedAlphabet`, exact by construction and
        // by test).
        if !tablesTried && count == text.count && word.shapeLimit == nil && !shapesWholeRuns && !word.reversed {
            buffers.advances.reserve(2 * count)
            if fonts.measureKerned(word.slot, word.script, text, writingInto: buffers.advances.base) {
                let advances = buffers.advances.prefix(2 * count)
                if !retainsGlyphs {
                    emit(advances, UnsafeBufferPointer(start: nil, count: 0))
                } else {
                    let table = fonts.kernedAlphabet(word.slot, word.script)!
                    var cached: [CachedGlyph] = []
                    for c in 0..<count {
                        cached.append(
                            CachedGlyph(glyph: table.glyph(of: text[c]), cluster: Int32(c), xAdvance: advances[c], xOffset: 0, yOffset: 0))
                    }
                    cached.withUnsafeBufferPointer { emit(advances, $0) }
                }
                clusterIndex += count
                return
            }
        }
        // A digit measured here is no longer measured like any other digit (`substitutingDigits`).
        builder.noteShaped(text)
        // A mark that begins the text is drawn after a dotted circle (HarfBuzz, shaping with the
        // text as context, as Pango does): only there, so such a word is not cached.
        let beginsWithMark = word.start == 0 && Self.isCombiningMark(Self.scalar(startingAt: 0, text))
        // A letter that joins a letter across the word's edge (another item, `joinsAcross`) takes
        // its joining form from it: such a word is shaped with the text around it as context, as
        // Pango shapes an item, and not cached.
        let context = Self.joinsAcross(u, word.start, wordEnd)
        let cacheable = text.count <= WordCache.maxWordLength && word.shapeLimit == nil && !shapesWholeRuns && !beginsWithMark
            && !context
        let key = WordCache.key(word.slot, word.script.rawValue, reversed: word.reversed)
        let hash = cacheable ? WordCache.hash(key, text) : 0
        if cacheable && cache.lookup(key, text, hash: hash, { emit($0, $1) }) {
            clusterIndex += count
            return
        }
        // Shape the word on its own (no context), so the result depends on the word only and can
        // be cached and reused anywhere; with the text as context where a letter joins across.
        let file = fonts.file(word.slot)
        var shaped: [ShapedGlyph] = []
        swap(&shaped, &scratch.shaped)
        defer { swap(&shaped, &scratch.shaped) }
        shaped.removeAll(keepingCapacity: true)
        // (Clusters are offsets in the buffer shaped: the word's, or the whole text's.)
        let base = context ? 0 : word.start
        scratch.shaper.shape(
            context ? u : text, start: word.start - base, end: wordEnd - base, font: file,
            script: word.script.isWeak ? nil : word.script,
            rightToLeft: word.reversed ? !word.scriptIsRightToLeft : nil, beginsText: beginsWithMark, into: &shaped)
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
            let offset = Int(g.cluster) + base
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
}

extension TextMeasurer {
    /// Whether a letter at an edge of the word `start ..< end` of `u` may join a letter across
    /// that edge: both are of a script HarfBuzz joins (the Arabic blocks, Syriac, N'Ko,
    /// Mongolian, Phags-pa, the joining scripts of U+10800–U+10FFF and Adlam) or a ZWJ, with only
    /// format characters between (a directional mark, an embedding; not a ZWNJ, which breaks
    /// the join). Where a word ends at such an edge (a change of bidi level or of face inside a
    /// word: `العالم\u{200E}شكرا`, a letter DejaVu Sans lacks after one it has: `بہ`), HarfBuzz
    /// reads the joining form from the text around it. A cheap test of the units: false
    /// positives only cost the word its cache.
    static func joinsAcross(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) -> Bool {
        @inline(__always) func joining(_ c: UInt16) -> Bool {
            c &- 0x0600 < 0x300 || c &- 0x1800 < 0xB0 || c == 0x200D || c &- 0xA840 < 0x38 || c &- 0xD802 < 2 || c == 0xD83A
        }
        @inline(__always) func transparent(_ c: UInt16) -> Bool {
            c == 0x200B || c == 0x200E || c == 0x200F || c &- 0x202A < 5 || c &- 0x2060 < 0x10 || c == 0xFEFF
        }
        guard start < end else { return false }
        if start > 0 && joining(u[start]) {
            var k = start - 1
            while k > 0 && transparent(u[k]) { k -= 1 }
            if joining(u[k]) { return true }
        }
        // (The last unit of a surrogate pair is tested by its first.)
        let last = end >= 2 && u[end - 1] & 0xFC00 == 0xDC00 ? end - 2 : end - 1
        if end < u.count && joining(u[last]) {
            var k = end
            while k < u.count - 1 && transparent(u[k]) { k += 1 }
            if joining(u[k]) { return true }
        }
        return false
    }
}

extension PreparedTextBuilder {
    /// Appends a measured word's `count` clusters in `font`: cluster `c` ends at `ends[c]`, may
    /// break after when `breakAfter[c]`, and advances `advances[c]` font units (`scale`);
    /// `advances[count + c]` is its line-end correction, the kerning it loses at a line end
    /// negated. (Every cluster of a word is in its font: found once, then appended as plain
    /// clusters.) HarfBuzz scales a glyph's nominal advance and its kerning apart, each rounded
    /// to a Pango unit, so a cluster's advance is the two scaled and added, and its correction
    /// takes away the scaled kerning.
    @inline(__always)
    mutating func appendWord(
        _ count: Int, font: RunFont, ends: UnsafePointer<Int32>, breakAfter: UnsafePointer<Bool>,
        advances: UnsafePointer<Int32>, scale: PangoScale
    ) {
        useFont(font)
        let first = clusterCount
        var sink = beginPlainClusters(count)
        for c in 0..<count {
            let correction = advances[count + c]
            var advance = scale.points(advances[c] &+ correction)
            if correction != 0 { advance += scale.points(0 &- correction) }
            sink.append(end: Int(ends[c]), advance: advance, breakAfter: breakAfter[c])
        }
        endPlainClusters(sink)
        for c in 0..<count - 1 where advances[count + c] != 0 {
            addLineEndCorrection(-scale.points(0 &- advances[count + c]), afterCluster: first + c)
        }
    }
}

/// The word being collected: its first offset, cluster count, face, script and font (its cluster
/// ends and break flags are in `PrepareBuffers`).
struct WordState {
    var start = 0
    var count = 0
    var slot = FontSlot.primary
    var script = UnicodeScript.common
    /// Whether the word's clusters are emoji presentations: in the emoji face, an emoji run and
    /// the characters of an ordinary run it draws (✔, a regional indicator without its pair) are
    /// items apart, shaped apart (`🇦🇯🇵`: the lone indicator takes no ligature with a pair).
    var emojiRun = false
    var font = RunFont(slot: .primary, size: 0, ascent: 0, descent: 0)
    /// The face's units at the font's size (`PangoScale`).
    var units = PangoScale(size: 0, upem: 1)
    /// Set for an oversized cluster: shaping stops at this UTF-16 offset.
    var shapeLimit: Int?
    /// The word's bidi level runs against the direction HarfBuzz gives its script (Latin in a
    /// right-to-left override, Arabic in a left-to-right one): Pango shapes an item in its level's
    /// direction, so the word is shaped that way (`\u{202E}xa\u{202C}` kerns `a` with `x`, in
    /// visual order), off the face's tables, and cached apart.
    var reversed = false

    /// Starts an empty word at `start`, of one face, font, script and presentation.
    @inline(__always)
    mutating func begin(at start: Int, _ slot: FontSlot, _ font: RunFont, _ units: PangoScale, script: UnicodeScript, emojiRun: Bool) {
        self.start = start
        self.slot = slot
        self.font = font
        self.units = units
        self.script = script
        self.emojiRun = emojiRun
        reversed = false
    }

    /// Whether HarfBuzz writes the word's script right to left (a weak script, shaped without
    /// one, is left to right).
    var scriptIsRightToLeft: Bool { !script.isWeak && script.isRightToLeft }

    /// Adds a cluster that ends at `end` to the word (its end and break flag in `buffers`).
    @inline(__always)
    mutating func append(end: Int, breakAfter: Bool, _ buffers: inout PrepareBuffers) {
        if count == buffers.wordEnds.capacity {
            buffers.wordEnds.reserve(count + 1, keeping: count)
            buffers.wordBreakAfter.reserve(count + 1, keeping: count)
        }
        buffers.wordEnds[count] = Int32(end)
        buffers.wordBreakAfter[count] = breakAfter
        count += 1
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
