import UnicodeText

// The cluster loop of `prepare`: the per-character path (one-unit clusters whose advance is
// read from the face's table), its run of inert characters, and the dispatch of every other
// cluster to hanging whitespace, inline objects or the pending word.
extension TextMeasurer {
    func prepare(
        _ text: TextContent, _ u: UnsafeBufferPointer<UInt16>, _ buffers: inout PrepareBuffers, _ scratch: PrepareScratch
    ) -> PreparedText {
        let n = u.count
        buffers.breaks.reserve(n + 1)
        let breaks = buffers.breaks.base
        TextBreaks.analyze(u, writingInto: breaks)
        if ThaiBreaks.needsPass(u) {
            ThaiBreaks.joinSpacingMarks(u, breaks)
            addThaiBreaks(text, u, breaks)
        }
        var word = WordState()
        let baseSize = Self.sanitized(text.baseAttributes.size)
        var builder = PreparedTextBuilder(
            content: text, baseFont: fonts.metrics(text.baseAttributes.weight == .bold ? .bold : .primary, size: baseSize),
            clusters: buffers.clusters, corrections: buffers.corrections)
        // Nil exactly when `retainsGlyphs` is false. Branches test the flag: testing the optional
        // copies it, retaining and releasing each of its five arrays.
        var glyphs: GlyphStorage? = retainsGlyphs ? GlyphStorage() : nil
        let runs = text.runs
        var run = 0
        let objects = text.attachments
        var nextObject = 0
        var clusterIndex = 0
        var missing = 0
        var runFonts = RunFonts(fonts, runs[0].attributes)
        var lastStrong: UnicodeScript?
        // Whether a letter of a right-to-left script was shaped, or an explicit directional
        // formatting character seen: from there on, bidi levels may change (a paragraph of
        // left-to-right letters after such a letter may be right to left, its first strong
        // character coming first).
        var rightToLeftSeen = false
        // nil at a paragraph start (after a paragraph delimiter): a space there joins what follows.
        var previousSlot: FontSlot? = nil
        // The open brackets (at most `maxOpenBrackets`), in the thread's block.
        let brackets = buffers.brackets.base
        var openBrackets = 0
        var sawTab = false, tabLeast = 0.0
        var fontlessScans = FontlessScans()
        let simple = fonts.simplePrimary
        let simpleBold = fonts.simpleBold
        // Per-run values, updated when a run ends (not copied per cluster).
        var bold = runs[0].attributes.weight == .bold
        var table = bold ? simpleBold : simple
        var tableRow = table.pointsRow(size: runFonts.size, scratch: buffers.tableRow.base)
        var runEnd = runs[0].range.upperBound
        let tableScripts = fonts.tableScripts
        let runCount = runs.count
        let objectCount = objects.count
        let runLoop = asciiRunLoop
        let graphemeFlag = BreakFlags.grapheme
        let lineAllowedFlag = BreakFlags.lineAllowed

        var start = 0
        while start < n {
            var end = start + 1
            // A cluster ends at a grapheme boundary, or at a line-break opportunity inside a
            // grapheme cluster before a combining mark: UAX #14 (LB10) lets a line break between a
            // space and the mark on it, and Pango breaks there (`breakMayEndCluster`).
            while end < n {
                let f = breaks[end]
                if f.contains(graphemeFlag) || (f.contains(lineAllowedFlag) && Self.breakMayEndCluster(u, end)) { break }
                end += 1
            }
            if runEnd <= start && run + 1 < runCount {
                while run + 1 < runCount && runs[run].range.upperBound <= start { run += 1 }
                runFonts = RunFonts(fonts, runs[run].attributes)
                bold = runs[run].attributes.weight == .bold
                table = bold ? simpleBold : simple
                tableRow = table.pointsRow(size: runFonts.size, scratch: buffers.tableRow.base)
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
                    && Self.takesTable(UInt32(u[start]), &lastStrong, u, start, tableScripts)
                {
                    flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
                    let v = UInt32(u[start])
                    let adv = SimpleAdvanceTable.advance(ofEntry: e, tableRow)
                    if retainsGlyphs {
                        let glyph = fonts.file(bold ? .bold : .primary).nominalGlyph(v) ?? 0
                        glyphs!.append(glyph: glyph, cluster: clusterIndex, advance: adv)
                    }
                    builder.useFont(runFonts.text)
                    builder.appendClusterInLastFont(end: end, advance: adv, breakAfter: breakAfter)
                    previousSlot = .primary
                    // (It keeps the rank of a box's item it joins: `keepsBoxItem`.)
                    if fontlessScans.afterBox { noteBoxItem(starts: false, v, .primary, u, start, lastStrong, &fontlessScans) }
                    clusterIndex += 1
                    start = end
                    // The one-unit clusters on the table that follow in the same run take the same
                    // path and change nothing else: a tight loop over most of a Chinese text.
                    // (Entered only when the next character is on the table: a lone one, as in
                    // text mixing Chinese with other scripts, takes no call.)
                    if !retainsGlyphs && !fontlessScans.afterBox && start < runEnd && start < n
                        && SimpleAdvanceTable.isOnPath(table.entry(u[start]))
                    {
                        let limit = min(runEnd, n)
                        var sink = builder.beginPlainClusters(max(0, limit - start))
                        let end = Self.appendTableRun(
                            u, breaks, from: start, to: limit, table, tableRow, tableScripts, &lastStrong, &sink)
                        builder.endPlainClusters(sink)
                        clusterIndex += end - start
                        start = end
                    }
                    continue
                }
                // A space after a cluster of the text face, printable ASCII, and the punctuation and
                // symbols of `isPlainPunctuation` in the text face (most of a feed's clusters off the
                // table), when no box item is open and no right-to-left letter came before: what the
                // steps below do for them, without the tests that cannot apply.
                let c = u[start]
                if runLoop && !retainsGlyphs && !rightToLeftSeen && !fontlessScans.afterBox {
                    let textSlot: FontSlot = bold ? .bold : .primary
                    if c == 0x20 {
                        if (previousSlot == .primary || previousSlot == .bold) && (bold ? asciiInBold : asciiInPrimary)
                            && !Self.mayLeaveLevel(u, start, rightToLeftSeen: false)
                        {
                            // A hanging cluster as wide as the space of the current script's plan
                            // (the table holds the face's own space for the other scripts).
                            flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
                            if lastStrong == nil { lastStrong = Self.firstStrongScript(u, from: start) }
                            let units = fonts.spaceAdvance(bold: bold, script: lastStrong!)
                            builder.appendCluster(
                                end: end, advance: runFonts.textUnits.points(units), font: runFonts.text, breakAfter: breakAfter,
                                mandatoryAfter: false, hanging: true)
                            previousSlot = textSlot
                            clusterIndex += 1
                            start = end
                            continue
                        }
                    } else if c &- 0x21 < 0x5E
                        ? (bold ? asciiInBold : asciiInPrimary)
                        : Self.isPlainPunctuation(c) && fonts.covers(textSlot, UInt32(c), bits: bold ? coverageBold : coveragePrimary)
                    {
                        let v = UInt32(c)
                        if let pair = Self.bracketPair(v) {
                            Self.trackBracket(pair, at: start, u, brackets, &openBrackets, &lastStrong, &fontlessScans)
                        }
                        // A letter's script is its own; punctuation takes the current one.
                        var script = c < 0x80 ? ((c | 0x20) &- 0x61 < 26 ? .latin : .common) : UnicodeScript.of(v)
                        if script.isWeak {
                            if lastStrong == nil { lastStrong = Self.firstStrongScript(u, from: start) }
                            script = lastStrong!
                        } else {
                            lastStrong = script
                        }
                        if word.count > 0 && (word.slot != textSlot || word.font.size != size || word.script != script) {
                            flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
                        }
                        if word.count == 0 {
                            word.begin(at: start, textSlot, runFonts.text, runFonts.textUnits, script: script, emojiRun: false)
                        }
                        word.append(end: end, breakAfter: breakAfter, &buffers)
                        previousSlot = textSlot
                        start = end
                        if c < 0x80 {
                            Self.extendASCIIWord(
                                &word, u, breaks, &start, limit: min(runEnd, n), lastStrong: lastStrong, rightToLeftSeen: false,
                                &buffers)
                        }
                        continue
                    }
                }
            }
            // (An object is found before the cluster is decoded: nothing else about it is read.)
            while nextObject < objectCount && objects[nextObject].offset < start { nextObject += 1 }
            if nextObject < objectCount && objects[nextObject].offset == start && u[start] == 0xFFFC {
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
            let info = ClusterInfo(u, start, end)
            // An explicit embedding, override or isolate, or a right-to-left or Arabic letter mark
            // (`BidiLevels.isLevelControl`), starts or ends text at another bidi level, as
            // right-to-left letters do: Pango's items, and so its words, kerning and faces, change
            // there (`中\u{202E}x\u{202C}a` has no x–a kerning).
            if !rightToLeftSeen && BidiLevels.isLevelControl(info.first) { rightToLeftSeen = true }

            // Paired brackets: text after a closing bracket is back in the script that was current
            // at its opening bracket (UAX #24's paired-punctuation rule, as Pango applies it).
            if let pair = Self.bracketPair(info.first) {
                Self.trackBracket(pair, at: start, u, brackets, &openBrackets, &lastStrong, &fontlessScans)
            }
            // Printable ASCII and the space are in the text face whenever it covers them all (the
            // primary and bold faces do): no itemization per Latin letter, and none of the
            // itemizer's slow paths below (hex boxes, clusters split between faces) applies.
            var slot: FontSlot
            let asciiCluster = info.first &- 0x20 < 0x5F && info.isSingleScalar && (bold ? asciiInBold : asciiInPrimary)
            // A default-ignorable character no face maps that still chooses a face (U+061C, a
            // format character of the Arabic block): Pango gives it the base face, ranked after
            // every face of the cascade, so spaces after it move to the next item, as after a box.
            var unmappedIgnorable = false
            if asciiCluster {
                slot = bold ? .bold : .primary
            } else {
                var boxed = false, decomposed = false
                let missingBefore = missing
                slot = itemize(info, bold: bold, missing: &missing, boxed: &boxed, decomposed: &decomposed)
                // (It joins an item of the text face before it in its run, whose rank stays.)
                unmappedIgnorable = missing > missingBefore && !boxed && !Self.isFontless(info.first)
                    && (previousSlot != slot || fontlessScans.afterBox
                        || fontlessScans.levelChanges(u, at: start))
                // So does a character drawn from its decomposition (`boxItem`).
                if decomposed {
                    unmappedIgnorable = !joinsTextItem(
                        u, start, text: slot, script: UnicodeScript.of(info.first), current: lastStrong, &fontlessScans)
                }
                if boxed && !info.isSeparator && !info.isHanging {
                    // No face maps it: Pango draws a box with the code point in hex digits, one per
                    // scalar no face maps (default-ignorable ones are not drawn).
                    flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
                    var box = hexBoxes(
                        info, slot, previousSlot, u, start, end, bold: bold, size: size, script: lastStrong, runEnd: runEnd,
                        &fontlessScans)
                    if start == 0 && Self.isCombiningMark(info.first), case let face = fonts.file(bold ? .bold : .primary),
                        let circle = face.nominalGlyph(0x25CC)
                    {
                        // A mark that begins the text is drawn after HarfBuzz's dotted circle, from
                        // the face its item falls back to (the text face), whose line it takes.
                        box.advance += runFonts.textUnits.points(face.advance(ofGlyph: circle))
                        box.font = runFonts.text
                    }
                    // A control (VT, NEL, …) joins the item before it: the face stays. Any other
                    // box joins the text face's item before it or starts one whose spaces join the
                    // next item as after an emoji run (`boxItem`).
                    if !Self.isFontless(info.first) {
                        let item = boxItem(info, slot, u, start, end, bold: bold, script: lastStrong, &fontlessScans)
                        previousSlot = item.slot
                        fontlessScans.afterBox = item.afterBox
                        if let script = item.script { lastStrong = script }
                        fontlessScans.boxScript = lastStrong
                    }
                    if !info.isSingleScalar,
                        let face = boxTailSlot(u, start, end, previousSlot, bold: bold, script: lastStrong, runEnd: runEnd, &fontlessScans)
                    {
                        box.font = runFonts.font(face)
                    }
                    glyphs?.append(glyph: 0, cluster: clusterIndex, advance: box.advance)
                    builder.appendCluster(
                        end: end, advance: box.advance, font: box.font, breakAfter: breakAfter, mandatoryAfter: false, hanging: false)
                    clusterIndex += 1
                    start = end
                    continue
                }
                // A cluster whose marks the text face lacks, or, on a letter only the fallback face
                // maps, marks the text face has: Pango draws each character from the first face
                // that maps it (or as a hex box), the marks of another face in an item of their
                // own. Measured apart, as the sum of its parts, each shaped alone in its face.
                // (Not for a letter of a cursive script: an Arabic letter joins its neighbours,
                // whose shaping context a letter shaped alone would lose.)
                if !info.isSingleScalar && !info.isSeparator
                    && (slot == .primary || slot == .bold
                        || (slot == .fallback && !Self.isFontless(info.first) && !UnicodeScript.of(info.first).isCursive)),
                    let adv = splitClusterAdvance(
                        u, start, end, base: slot, bold: bold, size: size,
                        // (No item before it at a paragraph's start, nor where the bidi level
                        // changes: `\u{200F} \u{34F}受`, the space takes U+034F's face.)
                        previousSlot: start == 0 || Self.isHardBreak(u[start - 1])
                            || (rightToLeftSeen && fontlessScans.levelChanges(u, at: start)) ? nil : previousSlot,
                        kernsWith: kerningPartner(u, start, slot: slot, previousSlot: previousSlot, runStart: runs[run].range.lowerBound, breaks),
                        scratch)
                {
                    flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
                    builder.noteShaped(u[start..<end])
                    glyphs?.append(glyph: 0, cluster: clusterIndex, advance: adv)
                    // The line takes the text face's height, but from a letter in the fallback
                    // face whose marks the text face lacks (they are hex boxes: `ა̈ั`).
                    let font = slot == .fallback && markFace(u, start, end, bold: bold) != (bold ? .bold : .primary)
                        ? runFonts.font(.fallback) : runFonts.text
                    builder.appendCluster(
                        end: end, advance: adv, font: font, breakAfter: breakAfter, mandatoryAfter: false, hanging: false)
                    // The item a following space joins is that of the cluster's last character, and
                    // the run's script is that of its last character with one (`x̶ 加`: the space
                    // stays in the Latin run; `力ָ 转`: a Hebrew point is of the Hebrew script, not
                    // inherited, and the space stays in its DejaVu item, in the Hebrew run).
                    previousSlot = splitClusterItem(u, start, end, bold: bold)
                    if previousSlot == .emoji { fontlessScans.emojiRun = false }
                    if fontlessScans.afterBox {
                        fontlessScans.afterBox = (slot == .primary || slot == .bold) && previousSlot == slot
                            && keepsBoxItem(info.first, u, start, &fontlessScans)
                    }
                    if let script = Self.lastScript(u, start, end) { lastStrong = script }
                    clusterIndex += 1
                    start = end
                    continue
                }
            }
            // A character Pango chooses no face for joins an item (`fontlessSlot`). A paragraph
            // delimiter is in no item and adds no face to its line (it takes its line's last
            // one, or the base one on a line of its own).
            var delimiter = false, joined = false
            // (A space after a number, or in a text with right-to-left letters, may be at another
            // bidi level than the character before it, and start a run of its own: `mayLeaveLevel`.)
            if (previousSlot != .primary && previousSlot != .bold) || !asciiCluster || fontlessScans.afterBox
                || (info.first == 0x20 && Self.mayLeaveLevel(u, start, rightToLeftSeen: rightToLeftSeen))
            {
                let v = info.first
                // (A range test first: the rest is out of line, asked of few clusters.)
                if v <= 0x20 || (v >= 0x7F && v <= 0x3000) || (v >= 0xFE00 && v <= 0xFFFB) || (v >= 0x110BD && v <= 0x1D17A)
                    || v >= 0xE0001,
                    let chosen = fontlessSlot(
                        info, previousSlot, u, start, end, bold: bold, script: lastStrong, runEnd: runEnd, &fontlessScans)
                {
                    slot = chosen
                    delimiter = Self.isParagraphDelimiter(v)
                    joined = true
                    if v == 0x09 || v == 0x2028 || start == fontlessScans.forcedBreakEnd { fontlessScans.forcedBreakEnd = end }
                }
            }
            previousSlot = delimiter ? nil : slot
            // Pango itemizes each paragraph apart: its script runs and bracket pairs start afresh
            // (`中文\n— abc`: the dash is in the Latin run, proportional, not the Han run's).
            if delimiter {
                lastStrong = nil
                openBrackets = 0
                fontlessScans.afterBox = false
                fontlessScans.paragraphScript = nil
            }
            if !joined && (unmappedIgnorable || fontlessScans.afterBox) {
                noteBoxItem(starts: unmappedIgnorable, info.first, slot, u, start, lastStrong, &fontlessScans)
            }
            // An emoji run ends after its cluster; a character without an emoji presentation drawn
            // from the emoji face (✔, ❤ without U+FE0F) is an item of an ordinary run. (A cluster
            // of joiners alone, which only the emoji face maps, is no such character; one that
            // joined an item leaves it as it was.)
            if slot == .emoji && !joined { fontlessScans.emojiRun = info.isEmojiPresentation || Self.isFontless(info.first) }
            // (Tabs take this path in the reference mode too: their advance is found on the line.)
            if info.isSeparator || (info.isHanging && (!shapesWholeRuns || info.first == 0x09)) {
                flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
                // Spaces are measured in their face; separators have no advance.
                var adv = 0.0
                var boxed = false
                if !info.isSeparator {
                    // The advance comes from the face of the item the space joined: the text face
                    // after an emoji run (Noto Color Emoji's space is 1.245 em wide), the emoji
                    // face only after a character of an ordinary run drawn from it (`✔ ✔`).
                    let textSlot: FontSlot = slot == .fallback || slot == .emoji ? slot : bold ? .bold : .primary
                    let f = fonts.file(textSlot)
                    if info.first == 0x20 || info.first == 0x09 {
                        var units = f.spaceAdvance
                        if textSlot == .primary || textSlot == .bold {
                            // In the plan of the script it belongs to (that of the text before it).
                            if lastStrong == nil { lastStrong = Self.firstStrongScript(u, from: start) }
                            units = fonts.spaceAdvance(bold: bold, script: lastStrong!)
                        }
                        adv = runFonts.units(textSlot).points(units)
                        glyphs?.append(glyph: f.spaceGlyph ?? 0, cluster: clusterIndex, advance: adv)
                    } else {
                        if let g = f.nominalGlyph(info.first) {
                            adv = runFonts.units(textSlot).points(f.advance(ofGlyph: g))
                            glyphs?.append(glyph: g, cluster: clusterIndex, advance: adv)
                        } else if let space = f.spaceGlyph, let width = f.fallbackSpaceAdvance(info.first, size: size) {
                            // A space the face lacks (U+3000 in DejaVu Sans): HarfBuzz draws its
                            // space glyph, as wide as the kind of space says.
                            adv = width
                            glyphs?.append(glyph: space, cluster: clusterIndex, advance: adv)
                        } else {
                            // Other white space the face lacks (FF): Pango's hex box, with the box's extent.
                            adv = fonts.hexBoxAdvance(textSlot, size: size, scalar: info.first)
                            boxed = true
                            glyphs?.append(glyph: 0, cluster: clusterIndex, advance: adv)
                        }
                    }
                }
                let isTab = info.first == 0x09
                if isTab && !sawTab {
                    sawTab = true
                    let stops = tabStops(of: text)
                    builder.setTabStops(interval: stops.interval, minimum: stops.minimum)
                    tabLeast = stops.minimum
                }
                var font = boxed ? fonts.hexBoxMetrics(slot, size: size) : runFonts.font(slot)
                // (A line separator right before it ends no line: it is on the delimiter's line.)
                if delimiter {
                    font = start > 0 && (!Self.isHardBreak(u[start - 1]) || u[start - 1] == 0x2028) ? builder.lastAppendedFont : runFonts.text
                }
                builder.appendCluster(
                    end: end, advance: isTab ? tabLeast : adv, font: font, breakAfter: breakAfter,
                    mandatoryAfter: info.isSeparator, hanging: true, lineSeparator: info.isSeparator, attachment: false,
                    tab: isTab)
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
                // (A character of class R or AL without a script of its own is right-to-left
                // text too: `؛ x-`.)
                if slot == .fallback && !rightToLeftSeen && Self.strongDirection(info.first) == .rightToLeft { rightToLeftSeen = true }
            } else if slot != .emoji {
                lastStrong = script
                // (Right-to-left scripts are DejaVu Sans's, or hex boxes.)
                if slot == .fallback && !rightToLeftSeen && script.isRightToLeft { rightToLeftSeen = true }
            }
            // (In the emoji face, a word ends where emoji presentation starts or stops, and before
            // a skin tone without its base: HarfBuzz gives the glyphs of `🏿🏿` to one cluster,
            // where Pango, shaping each character as a cluster, breaks a line between them.)
            // HarfBuzz's mark attachment is quadratic in the length of a mark stack: a cluster longer
            // than `maxShapedClusterUnits` (100 000 accents on one letter) is shaped on its first
            // units only; the marks after them add no advance, as combining marks do not.
            let oversized = end - start > Self.maxShapedClusterUnits
            if word.count > 0
                && (oversized || word.slot != slot || word.font.size != size || word.script != script
                    || (slot == .emoji
                        && (word.emojiRun != info.isEmojiPresentation || UnicodeProperties.traits(info.first).isEmojiModifier))
                    || (rightToLeftSeen && fontlessScans.levelChanges(u, at: start)))
            {
                flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
            }
            if word.count == 0 {
                word.begin(at: start, slot, runFonts.font(slot), runFonts.units(slot), script: script, emojiRun: info.isEmojiPresentation)
                if rightToLeftSeen { word.reversed = (fontlessScans.level(u, at: start) & 1 == 1) != word.scriptIsRightToLeft }
            }
            word.append(end: end, breakAfter: breakAfter, &buffers)
            if oversized {
                var limit = start + Self.maxShapedClusterUnits
                if u[limit - 1] & 0xFC00 == 0xD800 { limit -= 1 }
                word.shapeLimit = limit
                flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
            }
            start = end
            // The printable ASCII that follows in the same run, and at the same bidi level, joins
            // the word the same way (`؟ (te`: the bracket is right to left, the letters are not).
            if asciiCluster && runLoop {
                let limit = rightToLeftSeen ? min(runEnd, n, fontlessScans.levelRunEnd(u, at: start - 1)) : min(runEnd, n)
                Self.extendASCIIWord(
                    &word, u, breaks, &start, limit: limit, lastStrong: lastStrong, rightToLeftSeen: rightToLeftSeen, &buffers)
            }
        }
        flushWord(&word, u, &builder, &glyphs, &clusterIndex, &buffers, scratch)
        if retainsGlyphs { builder.setGlyphs(glyphs) }
        if missing > 0 { builder.addMissingGlyphs(missing) }
        builder.shareFonts(from: scratch.fontTable)
        return (consume builder).take(content: text, returning: &buffers.clusters, &buffers.corrections)
    }

    /// Tracks the paired bracket `pair` at `start`: an opening one is pushed with the current
    /// script (at most `PrepareBuffers.maxOpenBrackets`); a closing one pops up to its opening
    /// one and restores the script current there, or, without one, pops them all, as Pango's
    /// script iterator does (`k『】魋』…`: the ellipsis is in the Han run).
    @inline(__always)
    private static func trackBracket(
        _ pair: (id: UInt8, isOpen: Bool), at start: Int, _ u: UnsafeBufferPointer<UInt16>,
        _ brackets: UnsafeMutablePointer<OpenBracket>, _ openBrackets: inout Int, _ lastStrong: inout UnicodeScript?,
        _ scans: inout FontlessScans
    ) {
        if pair.isOpen {
            if openBrackets < PrepareBuffers.maxOpenBrackets {
                brackets[openBrackets] = OpenBracket(id: pair.id, script: lastStrong, offset: Int32(truncatingIfNeeded: start))
                openBrackets += 1
            }
            return
        }
        var k = openBrackets
        while k > 0 && brackets[k - 1].id != pair.id { k -= 1 }
        guard k > 0 else {
            openBrackets = 0
            return
        }
        openBrackets = k - 1
        if let saved = brackets[k - 1].script {
            lastStrong = saved
        } else if lastStrong != nil {
            // Opened before the paragraph had a script: Pango gives the bracket the script of
            // its run once known, that of the paragraph's first character with one (`(中a) …`:
            // the ellipsis is in the Han run). Found once per paragraph (a text of `()` pairs
            // would otherwise scan it for each).
            let first = scans.paragraphScript ?? firstStrongScript(u, from: Int(brackets[k - 1].offset))
            scans.paragraphScript = first
            if first != .common { lastStrong = first }
        }
    }

    /// One-unit punctuation and symbols past ASCII that the short path of `prepare` takes when
    /// the text face maps them: Latin-1's (but U+00AD), general punctuation (U+2010–2027,
    /// U+2030–205E), CJK symbols and punctuation (U+3001–3029, U+3030–303F) and fullwidth forms
    /// (U+FF01–FF60). None is white space, a separator, a combining mark, a character with no
    /// face or one with an emoji presentation (`AsciiRunLoopTests` checks each), so the general
    /// steps only track brackets, take the script and join the word.
    @inline(__always)
    static func isPlainPunctuation(_ c: UInt16) -> Bool {
        switch c {
        case 0x00A1...0x00AC, 0x00AE...0x00FF, 0x2010...0x2027, 0x2030...0x205E, 0x3001...0x3029, 0x3030...0x303F,
            0xFF01...0xFF60:
            return true
        default: return false
        }
    }

    /// Extends the pending word with the printable ASCII from `start` on, up to `limit` (the
    /// run's end), one cluster per character (a Latin word, a number, a domain name): what the
    /// steps of `prepare` would do for each is known, so it takes a tight loop. It stops at a
    /// space (which hangs), a bracket (script resolution tracks it), a character a mark or joiner
    /// extends, and a script the word does not have (the steps then flush the word).
    @inline(__always)
    private static func extendASCIIWord(
        _ word: inout WordState, _ u: UnsafeBufferPointer<UInt16>, _ breaks: UnsafeMutablePointer<BreakFlags>, _ start: inout Int,
        limit: Int, lastStrong: UnicodeScript?, rightToLeftSeen: Bool, _ buffers: inout PrepareBuffers
    ) {
        let n = u.count
        while start < limit {
            let c = u[start]
            guard c &- 0x21 < 0x5E, !isASCIIBracket(c) else { break }
            let next = start + 1
            guard next == n || breaks[next].contains(.grapheme) else { break }
            if (c | 0x20) &- 0x61 < 26 {
                // A letter: Latin, a strong script (already the current one: the word is Latin).
                guard word.script == .latin else { break }
            } else {
                // Digits and punctuation are Common: the current script. (After right-to-left
                // text, punctuation may be at another bidi level, which ends the word.)
                guard let current = lastStrong, word.script == current, !rightToLeftSeen || c &- 0x30 < 10 else { break }
            }
            word.append(end: next, breakAfter: next < n && breaks[next].contains(.lineAllowed), &buffers)
            start = next
        }
    }

    /// Appends the one-unit clusters on the per-character table from `start` up to `limit` (the
    /// run's end) to `sink`, as the per-character path would one by one (inert characters, and
    /// touched punctuation before a plain neighbour), and returns where they stop. A loop of its
    /// own, out of line: in `prepare` it shared the registers of the whole cluster loop (cold
    /// corpus cells: 0.28 % fewer instructions; 0.14 % fewer again with the punctuation, which
    /// otherwise left the loop and took the dispatch of `prepare`).
    @inline(never)
    private static func appendTableRun(
        _ u: UnsafeBufferPointer<UInt16>, _ breaks: UnsafeMutablePointer<BreakFlags>, from start: Int, to limit: Int,
        _ table: SimpleAdvanceTable, _ row: UnsafePointer<Double>, _ tableScripts: ScriptSet, _ lastStrong: inout UnicodeScript?,
        _ sink: inout PlainClusterSink
    ) -> Int {
        guard start < limit, let units = u.baseAddress else { return start }
        precondition(limit - start <= sink.remaining && limit <= u.count && limit < Int(Int32.max), "no room for the run")
        let n = u.count
        // Locals, stored back once: through the references, every cluster loaded and stored them.
        var out = sink, strong = lastStrong
        var i = start
        while i < limit {
            let c = units[i]
            let next = i &+ 1
            // `breaks` holds n + 1 flags; the last one (the text's end) is a grapheme boundary.
            let f = breaks[next].rawValue
            guard f & BreakFlags.grapheme.rawValue != 0 else { break }
            let e = table.entry(c)
            guard SimpleAdvanceTable.isOnPath(e) else { break }
            // Touched punctuation is taken between plain neighbours, as in `prepare` (no word is
            // pending: the cluster before it is on the table).
            if e >= SimpleAdvanceTable.needsPlainNeighbours {
                guard next == n || table.isPlainNeighbour(units[next]) else { break }
            }
            guard takesTable(UInt32(c), &strong, u, i, tableScripts) else { break }
            out.appendUnchecked(
                end: Int32(truncatingIfNeeded: next), advance: SimpleAdvanceTable.advance(ofEntry: e, row),
                flags: (f & BreakFlags.lineAllowed.rawValue) >> 1)
            i = next
        }
        // (The text's end allows a break, which is no cluster's to break after.)
        if i == n && i > start { out.clearLastBreak() }
        sink = out
        lastStrong = strong
        return i
    }

    /// The advance and extent of the hex boxes of a cluster no face maps (`slot`: the face the
    /// itemizer chose). Pango draws a box in the face of its item, whose height pads it: a
    /// control chooses no face and is in the item it joins (`ა\u{B}`: DejaVu Sans's, a box
    /// 0.69 px narrower at 15 px than in the text face's). The box's own extent, not the
    /// face's, is the line's (a line of boxes alone is lower than a line of text). Out of line:
    /// few clusters are boxes.
    @inline(never)
    private func hexBoxes(
        _ info: ClusterInfo, _ slot: FontSlot, _ previousSlot: FontSlot?, _ u: UnsafeBufferPointer<UInt16>, _ start: Int,
        _ end: Int, bold: Bool, size: Double, script: UnicodeScript?, runEnd: Int, _ scans: inout FontlessScans
    ) -> (advance: Double, font: RunFont) {
        var face = slot
        if Self.isFontless(info.first),
            let joined = fontlessSlot(
                info, previousSlot, u, start, end, bold: bold, script: script, runEnd: runEnd, &scans, controls: true)
        {
            face = joined
        }
        return (hexBoxesAdvance(u, start, end, bold: bold, face: face, size: size), fonts.hexBoxMetrics(face, size: size))
    }

    /// The item the characters after a box's cluster (not a control's) join, and the box's
    /// script, whose run they stay in (nil for a weak one). Out of line.
    ///
    /// Pango draws a character no face maps from the text face, ranked after every face of the
    /// cascade. It joins the item of the text face before it in its run, across white space
    /// (`a₷ ₡`, `1क ₡`, `a\t ₷ ₡`: the spaces after it stay in the text face, whose rank the
    /// item keeps); else it starts an item of its own, whose spaces move to the next item as
    /// after an emoji run (`afterBox`): at a paragraph's start or after white space that starts
    /// one (`₷ ₡`, ` ₷ ₡`), right after a tab or a line separator (`\t₷ ₡`), after an item of
    /// another face (`ა₷ ₡`, `😀 ₷ ₡`) or another bidi level, and where its script starts a run
    /// (`中क ✔`). A mark a face maps that ends the cluster puts what follows in an item of that
    /// face (`ก\u{308} `: DejaVu Sans's space).
    @inline(never)
    private func boxItem(
        _ info: ClusterInfo, _ slot: FontSlot, _ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, bold: Bool,
        script current: UnicodeScript?, _ scans: inout FontlessScans
    ) -> (slot: FontSlot, afterBox: Bool, script: UnicodeScript?) {
        let script = UnicodeScript.of(info.first)
        let last = info.isSingleScalar ? nil : lastScalarFace(u, start, end, bold: bold)
        if let last { return (last, false, script.isWeak ? nil : script) }
        let text: FontSlot = bold ? .bold : .primary
        let joins = joinsTextItem(u, start, text: text, script: script, current: current, &scans)
        return (slot, !joins, script.isWeak ? nil : script)
    }

    /// Updates `afterBox` for a cluster that chose a face (`slot`) at `start`: one that starts an
    /// item ranked after every face (`starts`: a default-ignorable character no face maps, or
    /// one drawn from its decomposition, `unmappedIgnorable`), or one after such an item, which
    /// it joins or ends (`keepsBoxItem`). Out of line: asked after boxes only.
    @inline(never)
    func noteBoxItem(
        starts: Bool, _ v: UInt32, _ slot: FontSlot, _ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ lastStrong: UnicodeScript?,
        _ scans: inout FontlessScans
    ) {
        if starts {
            if !scans.afterBox {
                let script = UnicodeScript.of(v)
                scans.boxScript = script.isWeak ? lastStrong : script
            }
            scans.afterBox = true
        } else {
            scans.afterBox = (slot == .primary || slot == .bold) && keepsBoxItem(v, u, start, &scans)
        }
    }

    /// Whether a character of the text face at `start`, after a box that started an item of its
    /// own (`afterBox`), stays in that item, whose rank after every face it keeps: in the box's
    /// script run (the run's script is that of its first character with one) and at its bidi
    /// level. Then spaces after it still move to the next item (`₾4 ₽`, `𝒪絸 𝕐`: DejaVu Sans's
    /// space); a character of another script run starts an item of its own (`क a ₡`). Asked
    /// after boxes only (`noteBoxItem`, the split-cluster path).
    func keepsBoxItem(_ v: UInt32, _ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ scans: inout FontlessScans) -> Bool {
        let script = UnicodeScript.of(v)
        if !script.isWeak {
            if let run = scans.boxScript, run != script { return false }
            scans.boxScript = script
        }
        return !scans.levelChanges(u, at: start)
    }

    /// Whether a character at `start` that Pango draws from the text face joins the item of the
    /// text face before it (`boxItem`): the last character before it that chooses a face is one
    /// Pango draws from the text face in an ordinary run (the text face maps it, or no face does,
    /// and it starts no emoji run), in the same script run and at the same bidi level, with only
    /// characters without a face between (no U+FE0F, which would make it an emoji), none of them
    /// a paragraph delimiter, and no tab or line separator right before it; and that item is not
    /// one a box started itself. Found by looking back from the box, not kept by the cluster loop
    /// (a register less there: about 0.5 % of a cold cell's instructions).
    private func joinsTextItem(
        _ u: UnsafeBufferPointer<UInt16>, _ start: Int, text: FontSlot, script: UnicodeScript, current: UnicodeScript?,
        _ scans: inout FontlessScans
    ) -> Bool {
        guard !scans.afterBox, start > 0, u[start - 1] != 0x09, u[start - 1] != 0x2028 else { return false }
        if !script.isWeak, let current, current != script { return false }
        // Back over the characters without a face, to the one that chose the item's face. (Each
        // scan stops at a character with a face, at most the box before: linear in the text.)
        var k = start
        var v: UInt32 = 0
        while k > 0 {
            v = Self.scalar(endingAt: k - 1, u)
            if Self.isParagraphDelimiter(v) || v == 0xFE0F { return false }
            if !Self.isFontless(v) { break }
            k -= v > 0xFFFF ? 2 : 1
        }
        guard k > 0, !Self.startsEmojiRun(v, u, after: k) else { return false }
        let bits = text == .bold ? coverageBold : coveragePrimary
        let textFace = fonts.covers(text, v, bits: bits)
            || !(fonts.covers(.emoji, v, bits: coverageEmoji) || fonts.covers(.fallback, v, bits: coverageFallback))
        return textFace && scans.level(u, at: k - 1) == scans.level(u, at: start)
    }

    /// The first face of the cascade that maps one of the scalars after the first of a cluster
    /// (the text face, else the fallback face; default-ignorable ones aside), nil when none does.
    /// Out of line: asked of boxes and split clusters only.
    @inline(never)
    func markFace(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, bold: Bool) -> FontSlot? {
        let text: FontSlot = bold ? .bold : .primary
        var found: FontSlot?
        var i = start + (u[start] & 0xFC00 == 0xD800 && start + 1 < end ? 2 : 1)
        while i < end {
            let v = Self.scalar(startingAt: i, u)
            i += v > 0xFFFF ? 2 : 1
            if Self.isFontless(v) { continue }
            if fonts.covers(text, v, bits: bold ? coverageBold : coveragePrimary) { return text }
            if fonts.covers(.fallback, v, bits: coverageFallback) { found = .fallback }
        }
        return found
    }

    /// The face whose line a box's cluster `start..<end` takes past the box's own, from the
    /// characters after its first: a mark a face maps is drawn from that face (`markFace`);
    /// else a character without a face (a variation selector, a ZWJ) joins an item as
    /// `fontlessSlot` gives it were it a cluster of its own at the cluster's end (`ก\u{FE0F}`,
    /// as `ก\u{200B}`); nil when neither is there.
    @inline(never)
    private func boxTailSlot(
        _ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, _ previousSlot: FontSlot?, bold: Bool,
        script: UnicodeScript?, runEnd: Int, _ scans: inout FontlessScans
    ) -> FontSlot? {
        if let face = markFace(u, start, end, bold: bold) { return face }
        var i = start + (u[start] & 0xFC00 == 0xD800 && start + 1 < end ? 2 : 1)
        while i < end {
            let v = Self.scalar(startingAt: i, u)
            let next = i + (v > 0xFFFF ? 2 : 1)
            if Self.isFontless(v) {
                return fontlessSlot(
                    ClusterInfo(u, i, next), previousSlot, u, i, end, bold: bold, script: script, runEnd: runEnd, &scans)
            }
            i = next
        }
        return nil
    }

    /// Amends the clusters of a word in the fallback face, of a cursive script, for the marks
    /// Pango draws from another face, in an item of their own, while the letter keeps its word
    /// (shaped alone it would lose its joining forms): a mark the text face maps gives its line
    /// the text face's extent (`ب́`); a mark no face maps is a hex box in the text face (the
    /// base face), not the fallback face's `.notdef` the word was shaped with (`بั`: 12.64 px at
    /// 15 px, not 9.0). Called for such words only.
    @inline(never)
    func amendCursiveMarks(_ word: WordState, _ u: UnsafeBufferPointer<UInt16>, _ builder: inout PreparedTextBuilder, first: Int, _ buffers: PrepareBuffers) {
        var text: RunFont?
        let size = word.font.size
        let notdef = fonts.pangoScale(.fallback, size: size).points(fonts.fallback.advance(ofGlyph: 0))
        forEachJoinedCluster(of: word, first: first, &builder, buffers) { start, end, index, builder in
            if markFace(u, start, end, bold: false) == .primary {
                // (The text face's extent is its bold face's too: Noto Sans CJK's weights share theirs.)
                if text == nil { text = RunFonts(fonts, TextAttributes(size: size)).text }
                builder.setFont(text!, ofCluster: index)
            }
            var i = start + (u[start] & 0xFC00 == 0xD800 && start + 1 < end ? 2 : 1)
            while i < end {
                let v = Self.scalar(startingAt: i, u)
                i += v > 0xFFFF ? 2 : 1
                if Self.isDefaultIgnorable(v) || fonts.covers(.primary, v, bits: coveragePrimary)
                    || fonts.covers(.fallback, v, bits: coverageFallback) || fonts.covers(.emoji, v, bits: coverageEmoji)
                {
                    continue
                }
                builder.addAdvance(fonts.hexBoxAdvance(.primary, size: size, scalar: v) - notdef, toCluster: index)
            }
        }
    }

    /// Gives each cluster of the emoji word `word`, appended from cluster `first` on, whose
    /// tail is no part of its emoji sequence the extent of that tail's item too
    /// (`strayTailFont`). Out of the cluster loop: emoji words are few, and a test there cost
    /// every cold cell about 1 % more instructions.
    @inline(never)
    func markStrayEmojiTails(_ word: WordState, _ u: UnsafeBufferPointer<UInt16>, _ builder: inout PreparedTextBuilder, first: Int, _ buffers: PrepareBuffers) {
        var runFonts: RunFonts?
        forEachJoinedCluster(of: word, first: first, &builder, buffers) { start, end, index, builder in
            // Most emoji clusters of more than one scalar end as sequences do (an emoji, a
            // modifier, a keycap, a cancel tag, VS16 after an emoji): no decoding for them.
            guard Self.isStrayTail(u, start, end) else { return }
            guard case let info = ClusterInfo(u, start, end), !info.isSingleScalar && info.isEmojiPresentation else { return }
            // (The text face's extent is its bold face's too: Noto Sans CJK's weights share theirs.)
            if runFonts == nil { runFonts = RunFonts(fonts, TextAttributes(size: word.font.size)) }
            if let font = strayTailFont(u, start, end, runFonts!, bold: false) { builder.setFont(font, ofCluster: index) }
        }
    }

    /// Calls `amend` with each cluster of more than one unit of `word` (and at most
    /// `maxShapedClusterUnits`), appended from cluster `first` on: its units and its index.
    @inline(__always)
    private func forEachJoinedCluster(
        of word: WordState, first: Int, _ builder: inout PreparedTextBuilder, _ buffers: PrepareBuffers,
        _ amend: (_ start: Int, _ end: Int, _ index: Int, _ builder: inout PreparedTextBuilder) -> Void
    ) {
        let ends = buffers.wordEnds.base
        var start = word.start
        for k in 0..<word.count {
            let end = Int(ends[k])
            defer { start = end }
            guard end - start > 1 && end - start <= Self.maxShapedClusterUnits else { continue }
            amend(start, end, first + k, &builder)
        }
    }

    /// Whether the last character of `start..<end`, part of an emoji cluster, is none of its
    /// emoji sequence (`strayTailFont`): a ZWJ or ZWNJ, a tag without a cancel tag after it, a
    /// variation selector after a ZWJ, a mark; not an emoji, a modifier, a keycap or a cancel
    /// tag.
    private static func isStrayTail(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) -> Bool {
        let v = scalar(endingAt: end - 1, u)
        switch v {
        case 0x200C, 0x200D, 0xE0020...0xE007E: return true
        case 0xFE0E, 0xFE0F: return end - 2 >= start && u[end - 2] == 0x200D
        case 0x20E3, 0x1F000..<0xE0000, 0xE007F: return false
        default: return UnicodeProperties.graphemeBreak(v) == .extend
        }
    }

    /// The font of an emoji cluster `start..<end` whose last characters are none of its emoji
    /// sequence, nil when it has none: the emoji face with the extent of those characters'
    /// item too. Pango's emoji segmentation ends the emoji run before them (a ZWJ that joins no
    /// emoji after it, a variation selector after such a ZWJ, a combining mark, tag characters
    /// without a cancel tag), so they are an item of their own: a character that chooses no
    /// face (a ZWJ) joins the item of the character after it, or is in the text face at the
    /// end of a paragraph (`😀\u{200D}`: 21.72 px at 15 px, not the emoji face's 17.58;
    /// `😀\u{200D}ب`: DejaVu Sans's extent; before another emoji, the text face's); any other
    /// is in the face that maps it, or is a hex box (`😀\u{E31}`).
    private func strayTailFont(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, _ runFonts: RunFonts, bold: Bool) -> RunFont? {
        let text: FontSlot = bold ? .bold : .primary
        /// The extent of `v`'s face, the one the itemizer gives it.
        func extent(of v: UInt32) -> RunFont {
            if fonts.covers(text, v, bits: bold ? coverageBold : coveragePrimary) { return runFonts.text }
            if fonts.covers(.emoji, v, bits: coverageEmoji) { return runFonts.emoji }
            if fonts.covers(.fallback, v, bits: coverageFallback) { return runFonts.fallback }
            return fonts.hexBoxMetrics(text, size: runFonts.size)
        }
        var font = runFonts.emoji
        var k = end
        var stray = false
        while k > start && Self.isStrayTail(u, start, k) {
            let v = Self.scalar(endingAt: k - 1, u)
            let width = v > 0xFFFF ? 2 : 1
            let f: RunFont
            if Self.isFontless(v) {
                // (An emoji after them starts another emoji run: they are in the text face.)
                let next = end < u.count ? Self.scalar(startingAt: end, u) : 0
                f = end < u.count && !Self.isHardBreak(u[end]) && !Self.isFontless(next)
                    && !ClusterInfo(u, end, end + (next > 0xFFFF ? 2 : 1)).isEmojiPresentation
                    ? extent(of: next) : runFonts.text
            } else {
                f = extent(of: v)
            }
            font.ascent = max(font.ascent, f.ascent)
            font.descent = max(font.descent, f.descent)
            stray = true
            k -= width
        }
        // What is left must be an emoji sequence of its own: `🏳\u{200D}` is a flag of text
        // presentation, an ordinary run's character, whose item the ZWJ joins; a regional
        // indicator alone is no emoji either (`ClusterInfo`).
        guard stray, k > start, ClusterInfo(u, start, k).isEmojiPresentation else { return nil }
        return font
    }

    /// Adds libthai's breaks inside Thai words (`ThaiBreaks`), with Pango's items: a Thai item
    /// ends at an attribute run's end and where a character in another face (emoji, fallback)
    /// starts; characters no face maps are drawn in the text face (hex boxes), as Thai is here.
    private func addThaiBreaks(_ text: TextContent, _ u: UnsafeBufferPointer<UInt16>, _ breaks: UnsafeMutablePointer<BreakFlags>) {
        let bold = text.baseAttributes.weight == .bold
        let slot: FontSlot = bold ? .bold : .primary
        let bits = bold ? coverageBold : coveragePrimary
        ThaiBreaks.addBreaks(u, breaks, itemEnds: text.runs.map(\.range.upperBound)) { v in
            fonts.covers(slot, v, bits: bits)
                || !(fonts.covers(.emoji, v, bits: coverageEmoji) || fonts.covers(.fallback, v, bits: coverageFallback))
        }
    }

    /// Whether a line-break opportunity at `i`, inside a grapheme cluster, splits the cluster:
    /// Pango keeps a line break that is not a grapheme boundary only before a character of the
    /// classes that continue clusters in UAX #14 (CM, ZWJ, the Hangul syllable and jamo classes,
    /// EM, RI, and the marks of class SA, which LB1 makes CM); before any other (a double
    /// diacritic is GL) the opportunity is dropped.
    static func breakMayEndCluster(_ u: UnsafeBufferPointer<UInt16>, _ i: Int) -> Bool {
        var v = UInt32(u[i])
        if v & 0xFC00 == 0xD800, i + 1 < u.count, u[i + 1] & 0xFC00 == 0xDC00 {
            v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i + 1]) - 0xDC00)
        }
        switch UnicodeProperties.lineBreakClass(v) {
        case .CM, .ZWJ, .JL, .JV, .JT, .H2, .H3, .EM, .RI: return true
        // A mark of class SA is CM (UAX #14, LB1): `中 \u{E31}` breaks before the Thai mark.
        case .SA: return isCombiningMark(v)
        default: return false
        }
    }

    /// The character before the cluster at `start` that Pango shapes in one item with the
    /// cluster's text-face part, so that their pair kerning counts: in the text face, of the
    /// cluster's script, in the same attribute run (from `runStart`), with no line break between;
    /// nil otherwise. Joiners between them (ZWNJ, ZWJ, WJ, U+FEFF) are in the same item and
    /// HarfBuzz's kerning passes over them (`b\u{200C}a\u{34F}` is kerned as `ba`).
    func kerningPartner(
        _ u: UnsafeBufferPointer<UInt16>, _ start: Int, slot: FontSlot, previousSlot: FontSlot?, runStart: Int,
        _ breaks: UnsafeMutablePointer<BreakFlags>
    ) -> UInt32? {
        guard slot != .fallback, previousSlot == slot, start > runStart, !breaks[start].contains(.lineAllowed) else { return nil }
        var end = start
        var p = Self.scalar(endingAt: end - 1, u)
        while p == 0x200C || p == 0x200D || p == 0x2060 || p == 0xFEFF {
            end -= 1
            guard end > runStart else { return nil }
            p = Self.scalar(endingAt: end - 1, u)
        }
        let script = UnicodeScript.of(p)
        guard !script.isWeak, script == UnicodeScript.of(Self.scalar(startingAt: start, u)), !Self.isFontless(p),
            fonts.covers(slot, p, bits: slot == .bold ? coverageBold : coveragePrimary)
        else { return nil }
        return p
    }

    /// The script of the last character of `start ..< end` that has one of its own (not Common
    /// or Inherited), nil when none has.
    static func lastScript(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) -> UnicodeScript? {
        var i = end
        while i > start {
            let v = scalar(endingAt: i - 1, u)
            i -= v > 0xFFFF ? 2 : 1
            let script = UnicodeScript.of(v)
            if !script.isWeak { return script }
        }
        return nil
    }

    /// The last character of `start ..< end` that chooses a face (one Pango gives a face:
    /// not `isFontless`), nil when there is none.
    static func lastFaceChoosingScalar(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) -> UInt32? {
        var i = end
        while i > start {
            i -= 1
            var v = UInt32(u[i])
            if v & 0xFC00 == 0xDC00, i > start, u[i - 1] & 0xFC00 == 0xD800 {
                i -= 1
                v = 0x10000 + ((UInt32(u[i]) - 0xD800) << 10) + (v - 0xDC00)
            }
            if !Self.isFontless(v) { return v }
        }
        return nil
    }

    /// The face of the last character of a cluster that chooses a face
    /// (`lastFaceChoosingScalar`): the text face when it maps it, else the fallback face when
    /// that does; nil when none does (a hex box) or there is no such character.
    func lastScalarFace(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, bold: Bool) -> FontSlot? {
        guard let v = Self.lastFaceChoosingScalar(u, start, end) else { return nil }
        if fonts.covers(bold ? .bold : .primary, v, bits: bold ? coverageBold : coveragePrimary) { return bold ? .bold : .primary }
        return fonts.covers(.fallback, v, bits: coverageFallback) ? .fallback : nil
    }

    /// The face of the item a cluster split between faces ends in: that of its last character
    /// that chooses a face, the emoji face's when only it maps that character (`9\u{20E3} `:
    /// the keycap mark is drawn from the emoji face in an ordinary run, and a space after it
    /// joins that item), else the text face's.
    private func splitClusterItem(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, bold: Bool) -> FontSlot {
        let text: FontSlot = bold ? .bold : .primary
        guard let v = Self.lastFaceChoosingScalar(u, start, end),
            !fonts.covers(text, v, bits: bold ? coverageBold : coveragePrimary)
        else { return text }
        if fonts.covers(.fallback, v, bits: coverageFallback) { return .fallback }
        return fonts.covers(.emoji, v, bits: coverageEmoji) ? .emoji : text
    }

    /// The face of a cluster that chooses none (`isFontless`), nil for any other: a paragraph
    /// delimiter keeps the face before it on its line (or the text face); any other takes the
    /// face of the item before it in its run (spaces ending an item move to the next one when its
    /// face comes earlier in the cascade; a tab or a line separator is an item of its own and
    /// stays), else of the next one in its run, else the text face. An emoji ends its run, and
    /// so does a change of bidi level (`BidiLevels`).
    /// Controls other than the white space ones keep the itemizer's face: none maps them, so
    /// they are drawn as hex boxes, as Pango draws them (U+0000 stays the emoji face's empty
    /// glyph). With `controls`, those controls too: the item a control's hex box is drawn in.
    @inline(never)
    func fontlessSlot(
        _ info: ClusterInfo, _ previousSlot: FontSlot?, _ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int,
        bold: Bool, script: UnicodeScript?, runEnd: Int, _ scans: inout FontlessScans, controls: Bool = false
    ) -> FontSlot? {
        let v = info.first
        guard Self.isFontless(v), controls || v >= 0x20 || (v >= 0x09 && v <= 0x0D), controls || v < 0x7F || v > 0x9F || v == 0x85,
            info.isSingleScalar || info.isSeparator, !info.isEmojiPresentation
        else { return nil }
        let text: FontSlot = bold ? .bold : .primary
        if Self.isParagraphDelimiter(v) { return previousSlot ?? text }
        // A cursive letter keeps its marks in its word (`amendCursiveMarks`), but the item before
        // is that of its last mark when the text face draws it (`ب́ 加`: the text face's space).
        var previousSlot = previousSlot
        if previousSlot == .fallback, start > 0, case let mark = Self.scalar(endingAt: start - 1, u), Self.isCombiningMark(mark),
            fonts.covers(text, mark, bits: bold ? coverageBold : coveragePrimary)
        {
            previousSlot = text
        }
        // A change of bidi level ends the run before (UAX #9 by FriBidi, `BidiLevels`): the
        // character starts a run of its own, with no item before it.
        let levelChange = scans.levelChanges(u, at: start)
        // Pango ends an item after a tab or a line separator: the characters without a face
        // right after one start an item of their own, in the face of the tab's or separator's
        // item, and keep it (white space moves to the next item's face only from the end of an
        // item that holds other characters): `ა\u{2028} 1`, the space is DejaVu Sans's. (After a
        // hex box the tab's item is the box's, in the base face, which the next item's face
        // shares or follows: the rules below.)
        if start == scans.forcedBreakEnd, !scans.afterBox, !levelChange, let previousSlot, v != 0x09, v != 0x2028 {
            return previousSlot
        }
        // After an emoji run there is no item before in the run (`default`); nor after a hex box
        // (Pango's item for it takes the face of what follows: the spaces of `क ✔` are the emoji
        // face's), but for a tab or a line separator, which starts an item of its own.
        let afterBox = scans.afterBox && v != 0x09 && v != 0x2028
        let itemBefore = (previousSlot == .emoji && scans.emojiRun) || afterBox || levelChange ? nil : previousSlot
        switch itemBefore {
        case .fallback?, .emoji?:
            // A face later in the cascade than the text face.
            let later = itemBefore!
            // A tab or a line separator is an item of its own, which keeps the face before it.
            if v == 0x09 || v == 0x2028 { return later }
            if nextIsInTextFace(u, start, from: end, bold: bold, script: script, runEnd: runEnd, &scans) { return text }
            // After DejaVu Sans, the emoji face comes earlier in the cascade too: spaces before
            // a character it draws in an ordinary run move to that item when both are in one
            // run (`ა ✔`: the emoji face's 1.245 em space).
            if later == .fallback, nextItemFace(u, from: end, bold: bold, runEnd: runEnd, &scans) == .emoji,
                sharesRun(u, start, next: scans.nextItemFace.to, script: script, &scans)
            {
                return .emoji
            }
            return later
        case .primary?, .bold?:
            // The text face comes first in the cascade: nothing after moves the character.
            return text
        default:
            // A run starts here: its item takes the face of the first character in it that
            // chooses one: in DejaVu Sans alone or in the emoji face without an emoji
            // presentation (`😀 ✔`), else the text face (a run without such a character takes
            // the face of a space).
            guard let face = nextItemFace(u, from: end, bold: bold, runEnd: runEnd, &scans),
                sharesRun(u, start, next: scans.nextItemFace.to, script: script, &scans)
            else { return text }
            return face
        }
    }

    /// Whether the character at `next` is in the run of the characters without a face from
    /// `start` on: at their bidi level with no other level between (`\u{61C}\u{A0}\u{200E}ع`: the
    /// mark two levels up ends the run) and in their script run (`sharesScriptRun`).
    func sharesRun(
        _ u: UnsafeBufferPointer<UInt16>, _ start: Int, next: Int, script: UnicodeScript?, _ scans: inout FontlessScans
    ) -> Bool {
        next < u.count && next < scans.levelRunEnd(u, at: start)
            && Self.sharesScriptRun(u, before: start, next: next, run: script, &scans)
    }

    /// Whether the space at `start`, after a character in the text face, may be at another bidi
    /// level than that character and take another face (a run of its own, `fontlessSlot`): it follows a
    /// European number, or a text with right-to-left letters, and the next character is not one
    /// the text face draws in the item before (printable ASCII, CJK, Hangul, fullwidth forms),
    /// which keeps the space's face whatever its level (spaces see through the others: a control,
    /// a mark). A cheap test of the neighbours, asked of every such space; the rest is out of
    /// line.
    @inline(__always)
    static func mayLeaveLevel(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, rightToLeftSeen: Bool) -> Bool {
        guard start > 0 else { return false }
        if start + 1 < u.count, case let next = u[start + 1], next != 0x20 {
            if next &- 0x21 < 0x5E || (next >= 0x2E80 && next < 0xA000) || (next >= 0xAC00 && next < 0xD800) || next &- 0xFF01 < 0x60 {
                return false
            }
        }
        if rightToLeftSeen { return true }
        let p = u[start - 1]
        // (A supplementary character before it, a mathematical digit among them, is asked of in full.)
        return p &- 0x30 < 10 || p &- 0x23 < 3 || (p >= 0x80 && (isEuropeanDigit(p) || isEuropeanTerminator(p) || p & 0xFC00 == 0xDC00))
    }

    /// A unit after which a line ends by force (a paragraph, or a line with U+2028).
    @inline(__always) static func isHardBreak(_ c: UInt16) -> Bool {
        c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029
    }

    /// The tab stops of `text` in points: the distance between stops and a tab's least advance.
    /// Pango's default measures a space of the base font (the paragraph's first run) in Pango
    /// units (1/1024 pt, rounded as HarfBuzz scales its advance), and a tab advances at least one
    /// such space; explicit stops need at least one Pango unit.
    func tabStops(of text: TextContent) -> (interval: Double, minimum: Double) {
        let unit = 1.0 / 1024
        var stops = text.tabStops
        if case .points(let p) = stops, !(p.isFinite && p > 0) { stops = .pango }
        switch stops {
        case .points(let p):
            return (p, unit)
        case .spaces(let count):
            let base = text.baseAttributes
            let slot: FontSlot = base.weight == .bold ? .bold : .primary
            let space = fonts.pangoScale(slot, size: Self.sanitized(base.size)).points(fonts.file(slot).spaceAdvance)
            guard space > 0 else { return (0, 0) }
            return (space * Double(max(1, count)), space)
        }
    }

    /// Whether a one-unit cluster on the per-character table may take it: the plan it would be
    /// shaped with (its own script, or the current one for a weak character) is one the table was
    /// made for (`FontSet.tableScripts`). When it may, script resolution is done as for shaped
    /// clusters: a strong script becomes current. One script lookup serves both; ideographs are
    /// Han, which always may, without one.
    @inline(__always)
    private static func takesTable(
        _ v: UInt32, _ lastStrong: inout UnicodeScript?, _ u: UnsafeBufferPointer<UInt16>, _ start: Int,
        _ tableScripts: ScriptSet
    ) -> Bool {
        if v >= 0x3400 && v <= 0x9FFF {
            lastStrong = .han
            return true
        }
        let s = UnicodeScript.of(v)
        if s.isWeak {
            if lastStrong == nil { lastStrong = firstStrongScript(u, from: start) }
            return tableScripts.contains(lastStrong!)
        }
        guard tableScripts.contains(s) else { return false }
        lastStrong = s
        return true
    }

}

/// The faces of one attribute run at its size, computed once per run.
struct RunFonts {
    let size: Double
    let text: RunFont
    let emoji: RunFont
    let fallback: RunFont
    /// Each face's units in points as Pango has them (`PangoScale`): advances.
    let textUnits: PangoScale
    private let emojiUnits: PangoScale
    private let fallbackUnits: PangoScale

    init(_ fonts: FontSet, _ attributes: TextAttributes) {
        size = TextMeasurer.sanitized(attributes.size)
        let slot: FontSlot = attributes.weight == .bold ? .bold : .primary
        (text, emoji, fallback, textUnits, emojiUnits, fallbackUnits) = fonts.runMetrics(slot, size: size)
    }

    @inline(__always) func font(_ slot: FontSlot) -> RunFont {
        slot == .emoji ? emoji : slot == .fallback ? fallback : text
    }
    @inline(__always) func units(_ slot: FontSlot) -> PangoScale {
        slot == .emoji ? emojiUnits : slot == .fallback ? fallbackUnits : textUnits
    }
}
