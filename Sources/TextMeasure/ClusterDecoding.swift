import UnicodeText

// Cluster decoding: what a grapheme cluster is (emoji or text presentation, separator,
// hanging), the face it is drawn with, paired brackets and the first strong script.
extension TextMeasurer {
    /// The face a grapheme cluster is drawn with: the first of the cascade that maps its first
    /// scalar (emoji presentation → the emoji face). When none does, the text face: `decomposed`
    /// is set when HarfBuzz draws the scalar there from its canonical decomposition, else
    /// `boxed` when it is drawn (not default-ignorable): Pango draws a hex box.
    func itemize(_ info: ClusterInfo, bold: Bool, missing: inout Int, boxed: inout Bool, decomposed: inout Bool) -> FontSlot {
        let text: FontSlot = bold ? .bold : .primary
        if info.isEmojiPresentation { return .emoji }
        if fonts.covers(text, info.first, bits: bold ? coverageBold : coveragePrimary) { return text }
        // (Text presentation, U+FE0E, keeps the cascade: a character only the emoji face maps is
        // drawn from it in an ordinary run, as Pango draws `❤︎`.)
        if fonts.covers(.emoji, info.first, bits: coverageEmoji) { return .emoji }
        // A space separator never chooses a face (Pango): it stays in the text face, where
        // HarfBuzz draws a space the face lacks with the face's space glyph.
        if Self.isSpaceSeparator(info.first) { return text }
        if fonts.covers(.fallback, info.first, bits: coverageFallback) { return .fallback }
        // Pango gives a character no face maps the text face, where HarfBuzz's normalizer draws
        // it from its canonical decomposition when the face maps that (U+FA76 as U+52C7).
        if drawsDecomposed(info.first, bold: bold) {
            decomposed = true
            return text
        }
        missing += 1
        boxed = !Self.isDefaultIgnorable(info.first)
        return text
    }

    /// Whether HarfBuzz draws `scalar`, which the text face does not map, from its canonical
    /// decomposition in that face: as its normalizer does, each step's second part must be
    /// mapped, and its first part mapped or itself drawn so (U+2F8A6 → U+6148; `ǖ` → `ü` +
    /// U+0304 → `u` + U+0308 + U+0304).
    func drawsDecomposed(_ scalar: UInt32, bold: Bool) -> Bool {
        var v = scalar
        let text: FontSlot = bold ? .bold : .primary
        let bits = bold ? coverageBold : coveragePrimary
        // (A canonical decomposition is at most a few steps deep.)
        for _ in 0..<8 {
            guard let (first, second) = CanonicalDecomposition.pair(v) else { return false }
            if second != 0 && !fonts.covers(text, second, bits: bits) { return false }
            if fonts.covers(text, first, bits: bits) { return true }
            v = first
        }
        return false
    }

    /// The advance of the hex boxes of a cluster no face maps: one box per scalar that no text
    /// face maps and that is not default-ignorable, drawn in the face of their item (`face`).
    func hexBoxesAdvance(_ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, bold: Bool, face: FontSlot, size: Double) -> Double {
        var total = 0.0
        var i = start
        while i < end {
            var v = UInt32(u[i])
            i += 1
            if v & 0xFC00 == 0xD800, i < end, u[i] & 0xFC00 == 0xDC00 {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i]) - 0xDC00)
                i += 1
            }
            let text: FontSlot = bold ? .bold : .primary
            if Self.isDefaultIgnorable(v) || fonts.covers(text, v, bits: bold ? coverageBold : coveragePrimary)
                || fonts.covers(.fallback, v, bits: coverageFallback)
            {
                continue
            }
            total += fonts.hexBoxAdvance(face, size: size, scalar: v)
        }
        return total
    }

    /// The advance of a multi-scalar cluster whose characters Pango draws from more than one
    /// face (nil when they all take the cluster's face): each character comes from the first face
    /// of the cascade that maps it. In a cluster in the text face (`base` the text face), the
    /// scalars it maps are shaped together in it, each other one alone in the next face of the
    /// cascade that maps it (the emoji face, then the fallback face), or a hex box when none
    /// does. In a cluster whose first scalar only the fallback face maps (`base` `.fallback`:
    /// `ս́`, Armenian with an acute), the scalars the text face lacks are shaped together in the
    /// fallback face, and each mark the text face maps alone in it.
    ///
    /// A space that starts such a cluster (a mark on a space) chooses no face, as in Pango's
    /// itemizer: it stays in the face of the character before it (`previousSlot`), or, at the
    /// start of a paragraph, takes the face of the character after it; it moves to the face of
    /// the character after it when that face comes earlier in the cascade (here: the text face,
    /// when its mark is one the text face maps, which then keeps the whole cluster).
    ///
    /// - Parameter kernsWith: the character before the cluster when it is in the same item as the
    ///   cluster's text-face part (the text face, the same script and attribute run, no break
    ///   between): Pango shapes them together, so the pair's kerning counts (`ro\u{302}`: the
    ///   `r`–`o` pair), added here to the cluster's advance.
    func splitClusterAdvance(
        _ u: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int, base: FontSlot, bold: Bool, size: Double,
        previousSlot: FontSlot?, kernsWith previous: UInt32? = nil, _ scratch: PrepareScratch
    ) -> Double? {
        let text: FontSlot = bold ? .bold : .primary
        let bits = bold ? coverageBold : coveragePrimary
        let inFallback = base == .fallback
        var kept: [UInt16] = []
        var others: [UInt32] = []
        var i = start
        while i < end {
            let at = i
            var v = UInt32(u[i])
            i += 1
            if v & 0xFC00 == 0xD800, i < end, u[i] & 0xFC00 == 0xDC00 {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i]) - 0xDC00)
                i += 1
            }
            let inText = fonts.covers(text, v, bits: bits)
            if at == start || Self.isFontless(v)
                || (inFallback ? !inText && fonts.covers(.fallback, v, bits: coverageFallback) : inText)
            {
                kept.append(contentsOf: u[at..<i])
            } else {
                others.append(v)
            }
        }
        guard !others.isEmpty else { return nil }
        let face = fonts.file(text)
        var total = 0.0
        var shaped: [ShapedGlyph] = []
        // The first character's item begins the text when the cluster does: HarfBuzz draws a
        // dotted circle before a mark there, in that item's face (the other items have the text
        // before them as context, and none).
        func shapeAlone(_ units: [UInt16], _ f: FontFile, beginsText: Bool = false) -> Double {
            shaped.removeAll(keepingCapacity: true)
            var v = UInt32(units[0])
            if units.count > 1, v & 0xFC00 == 0xD800 { v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(units[1]) - 0xDC00) }
            let script = UnicodeScript.of(v)
            units.withUnsafeBufferPointer {
                scratch.shaper.shape(
                    $0, start: 0, end: $0.count, font: f, script: script.isWeak ? nil : script,
                    beginsText: beginsText && Self.isCombiningMark(v), into: &shaped)
            }
            let units = PangoScale(size: size, upem: f.upem)
            return shaped.reduce(0) { $0 + units.points($1.xAdvance) }
        }
        let beginsText = start == 0
        if inFallback {
            total += shapeAlone(kept, fonts.fallback, beginsText: beginsText)
        } else if kept.count == 1 && Self.isSpaceSeparator(UInt32(kept[0])) {
            // The space's face: the previous character's, or at a paragraph start the next one's.
            let spaceInFallback =
                previousSlot == .fallback || (previousSlot == nil && fonts.covers(.fallback, others[0], bits: coverageFallback))
            let f = spaceInFallback ? fonts.fallback : face
            if kept[0] == 0x20 || spaceInFallback {
                total += PangoScale(size: size, upem: f.upem).points(f.spaceAdvance)
            } else {
                total += shapeAlone(kept, face)
            }
        } else {
            let alone = shapeAlone(kept, face, beginsText: beginsText)
            total += alone
            if let previous {
                let units = Self.units(of: previous)
                total += shapeAlone(units + kept, face) - shapeAlone(units, face) - alone
            }
        }
        for v in others {
            let units = Self.units(of: v)
            if inFallback && fonts.covers(text, v, bits: bits) {
                total += shapeAlone(units, face)
            } else if fonts.covers(.emoji, v, bits: coverageEmoji) {
                // The cascade's second face (`1\u{20E3}` without U+FE0F: the emoji face's keycap).
                total += shapeAlone(units, fonts.emoji)
            } else if !inFallback && fonts.covers(.fallback, v, bits: coverageFallback) {
                total += shapeAlone(units, fonts.fallback)
            } else {
                total += fonts.hexBoxAdvance(text, size: size, scalar: v)
            }
        }
        return total
    }

    /// The offset of the next character from `offset` on that chooses a face, past spaces and
    /// default-ignorable characters that choose none (`isFontless`: not U+034F, which Pango draws
    /// from a face that maps it) (`u.count` at the end of the text). A separator control
    /// stops it: it ends the spaces before it at the paragraph's level (L1).
    static func nextChosen(_ u: UnsafeBufferPointer<UInt16>, from offset: Int, _ scans: inout FontlessScans) -> Int {
        scans.nextChosen.stop(from: offset, count: u.count) { i in
            let v = scalar(startingAt: i, u)
            let passed =
                isSpaceSeparator(v) || (isWhiteSpaceControl(v) && !isSeparatorControl(v)) || isBoundaryNeutralControl(v)
                || (isDefaultIgnorable(v) && isFontless(v))
            return passed ? (v > 0xFFFF ? 2 : 1) : nil
        }
    }

    /// Whether the white space at `start` (its cluster ends at `offset`), at the end of an item
    /// in a face later in the cascade, moves to the next item because that one is in the text
    /// face: the next character after it that is no space (`nextChosen`) is in its run (at its
    /// bidi level, in its script run, before `runEnd`, the end of the attribute run) and the text
    /// face maps it. Pango moves the spaces that end an item to the next one in the run when its
    /// face comes earlier in the cascade; a tab, a line separator or a paragraph's end keeps
    /// them where they are.
    func nextIsInTextFace(
        _ u: UnsafeBufferPointer<UInt16>, _ start: Int, from offset: Int, bold: Bool, script: UnicodeScript?, runEnd: Int,
        _ scans: inout FontlessScans
    ) -> Bool {
        let i = Self.nextChosen(u, from: offset, &scans)
        guard i < min(runEnd, u.count) else { return false }
        let v = Self.scalar(startingAt: i, u)
        if v == 0x09 || v == 0x0A || v == 0x0D || v == 0x2028 || v == 0x2029 { return false }
        guard sharesRun(u, start, next: i, script: script, &scans) else { return false }
        // A character that starts an emoji run is no character of this run, though the text face
        // maps it (`9\u{20E3} #️⃣`, `🏿 ☝`: the space stays in the item before it, the emoji face's).
        if Self.startsEmojiRun(v, u, after: i + (v > 0xFFFF ? 2 : 1)) { return false }
        return fonts.covers(bold ? .bold : .primary, v, bits: bold ? coverageBold : coveragePrimary)
    }

    /// The face of the next character after `offset` that chooses one (`isFontless`), when it is
    /// in the same attribute run and paragraph, is no inline object, and is drawn in an ordinary
    /// run from a face later in the cascade than the text face: DejaVu Sans alone (`.fallback`),
    /// or the emoji face for a character it draws without an emoji presentation (`.emoji`: ✔, ☺,
    /// ✔︎). Nil otherwise (the text face, an emoji run, a character no face maps). The
    /// characters before it that choose none join its item (a space and U+0308 at a paragraph
    /// start are both DejaVu's; the space of `😀 ✔` is the emoji face's).
    func nextItemFace(
        _ u: UnsafeBufferPointer<UInt16>, from offset: Int, bold: Bool, runEnd: Int, _ scans: inout FontlessScans
    ) -> FontSlot? {
        if let known = scans.nextItemFace.answer(from: offset, limit: runEnd, bold: bold) { return known }
        var i = offset
        var answer: FontSlot?
        let limit = min(runEnd, u.count)
        while i < limit {
            let at = i
            var v = UInt32(u[i])
            i += 1
            if v & 0xFC00 == 0xD800, i < u.count, u[i] & 0xFC00 == 0xDC00 {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i]) - 0xDC00)
                i += 1
            }
            // An inline object (U+FFFC) is a run of its own, as is a paragraph.
            if Self.isParagraphDelimiter(v) || v == 0xFFFC {
                i = at
                break
            }
            if Self.isFontless(v) { continue }
            if !fonts.covers(bold ? .bold : .primary, v, bits: bold ? coverageBold : coveragePrimary) {
                if fonts.covers(.emoji, v, bits: coverageEmoji) {
                    if !Self.startsEmojiRun(v, u, after: i) { answer = .emoji }
                } else if fonts.covers(.fallback, v, bits: coverageFallback) {
                    answer = .fallback
                }
            }
            i = at
            break
        }
        // Every offset up to where the scan stopped would stop there too.
        scans.nextItemFace.keep(from: offset, to: i, limit: runEnd, bold: bold, answer)
        return answer
    }

    /// Whether the character `v`, whose units end before `next`, starts an emoji presentation
    /// (an emoji run of its own, `ClusterInfo.isEmojiPresentation`), as far as the character
    /// after it tells: an emoji-presentation character or a modifier base, unless U+FE0E
    /// follows; a regional indicator that another follows (a flag); an Emoji character that
    /// U+FE0F follows; a character that a tag, a skin tone or a ZWJ (after a pictograph) follows.
    static func startsEmojiRun(_ v: UInt32, _ u: UnsafeBufferPointer<UInt16>, after next: Int) -> Bool {
        let following = next < u.count ? scalar(startingAt: next, u) : 0
        if following == 0xFE0E { return false }
        let traits = UnicodeProperties.traits(v)
        if traits.isRegionalIndicator { return UnicodeProperties.traits(following).isRegionalIndicator }
        // (A skin tone starts no emoji run but with U+FE0F: it modifies a base, `ClusterInfo`.)
        if traits.isEmojiModifier { return following == 0xFE0F }
        if traits.isEmojiPresentation { return true }
        if traits.isExtendedPictographic && UnicodeProperties.isEmojiModifierBase(v) { return true }
        switch following {
        case 0xFE0F: return UnicodeProperties.isEmoji(v)
        case 0xE0020...0xE007F: return true
        case 0x200D: return traits.isExtendedPictographic
        default: return UnicodeProperties.traits(following).isEmojiModifier
        }
    }

    /// Whether characters without a face before `start` are in the script run of the next
    /// character that chooses one (at `next`): they are when that character has no script of its
    /// own, or has the script of the run they are in, `run` (the cluster loop's, which paired
    /// brackets restore: after `(test)` the run is the one before the bracket), else of the last
    /// character with one before them in the paragraph (or none is there: the first script of a
    /// paragraph's run is that of its first such character).
    static func sharesScriptRun(
        _ u: UnsafeBufferPointer<UInt16>, before start: Int, next: Int, run: UnicodeScript?, _ scans: inout FontlessScans
    ) -> Bool {
        let script = UnicodeScript.of(scalar(startingAt: next, u))
        if script.isWeak { return true }
        if let run { return run.isWeak || run == script }
        // (A surrogate pair is tested at its second unit; its first unit alone has no script.)
        let m = scans.scripted.last(before: start) { m in
            let v = scalar(endingAt: m, u)
            return !(isParagraphDelimiter(v) || !UnicodeScript.of(v).isWeak)
        }
        guard m >= 0 else { return true }
        let last = UnicodeScript.of(scalar(endingAt: m, u))
        return last.isWeak || last == script
    }

    /// Bidi class AN: Arabic-Indic digits, the Arabic decimal and thousands separators, the Arabic
    /// number signs.
    static func isArabicNumber(_ v: UInt32) -> Bool {
        v &- 0x0660 < 10 || v == 0x066B || v == 0x066C || v &- 0x0600 < 6 || v == 0x06DD
    }

    /// A digit of bidi class EN in the text face: ASCII and fullwidth digits, and the
    /// superscript and subscript ones (a unit: they are all in the BMP).
    @inline(__always) static func isEuropeanDigit(_ c: UInt16) -> Bool {
        c &- 0x30 < 10 || c &- 0xFF10 < 10 || c &- 0x2080 < 10 || c == 0x2070 || c &- 0x2074 < 6 || c == 0xB2 || c == 0xB3
            || c == 0xB9
    }

    /// A European number terminator (bidi class ET: `#`, `$`, `%`, `°`, `‰`, currency signs),
    /// which W5 makes part of a number next to it. Those of the BMP (DerivedBidiClass.txt).
    static func isEuropeanTerminator(_ c: UInt16) -> Bool {
        switch c {
        case 0x23...0x25, 0xA2...0xA5, 0xB0, 0xB1, 0x058F, 0x0609, 0x060A, 0x066A, 0x09F2, 0x09F3, 0x09FB, 0x0AF1, 0x0BF9,
            0x0E3F, 0x17DB, 0x2030...0x2034, 0x20A0...0x20CF, 0x212E, 0x2213, 0xA838, 0xA839, 0xFE5F, 0xFE69, 0xFE6A,
            0xFF03...0xFF05, 0xFFE0, 0xFFE1, 0xFFE5, 0xFFE6:
            return true
        default: return false
        }
    }

    /// A number of the Arabic script: an Arabic number (AN) or an extended Arabic-Indic digit
    /// (EN, U+06F0–06F9), which W2 makes one after an Arabic letter.
    static func isArabicIndicNumber(_ v: UInt32) -> Bool { isArabicNumber(v) || v &- 0x06F0 < 10 }

    /// The direction of a strong character (UAX #9 classes L, R and AL), nil for the others: a
    /// character's script gives it (numbers excepted: Arabic numbers and extended Arabic-Indic
    /// digits are weak), and a character without a script of its own has its bidi class's (a
    /// flag's regional indicators are left to right, as Pango's bidi algorithm reads them). A
    /// private-use or unassigned code point (script Unknown) has its block's default class:
    /// right to left in the blocks of right-to-left scripts, none for noncharacters, else left
    /// to right (`ب ა \u{E000}`: the space stays in the Georgian run).
    static func strongDirection(_ v: UInt32) -> StrongDirection? {
        let script = UnicodeScript.of(v)
        if script == .unknown { return unknownDirection(v) }
        if script.isWeak { return UnicodeScript.strongDirectionWithoutScript(v) }
        guard !isArabicIndicNumber(v) else { return nil }
        return script.isRightToLeft ? .rightToLeft : .leftToRight
    }

    /// The default bidi class of a code point without a script (DerivedBidiClass.txt's
    /// `@missing` lines): R or AL in the blocks of right-to-left scripts, ET for currency
    /// symbols and BN for noncharacters (neither strong), L elsewhere. A surrogate unit alone
    /// (the scans test a pair at its second unit, and its first alone) is none.
    private static func unknownDirection(_ v: UInt32) -> StrongDirection? {
        if v &- 0xD800 < 0x800 || v &- 0xFDD0 < 0x20 || v & 0xFFFE == 0xFFFE || v &- 0x20A0 < 0x30 || v > 0x10FFFF { return nil }
        switch v {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return .rightToLeft
        default: return .leftToRight
        }
    }

    /// The UTF-16 units of `v`.
    static func units(of v: UInt32) -> [UInt16] {
        v > 0xFFFF ? [UInt16(0xD800 + ((v - 0x10000) >> 10)), UInt16(0xDC00 + ((v - 0x10000) & 0x3FF))] : [UInt16(v)]
    }

    /// The scalar whose first UTF-16 unit is at `start`.
    static func scalar(startingAt start: Int, _ u: UnsafeBufferPointer<UInt16>) -> UInt32 {
        let hi = UInt32(u[start])
        if hi & 0xFC00 == 0xD800, start + 1 < u.count, u[start + 1] & 0xFC00 == 0xDC00 {
            return 0x10000 + ((hi - 0xD800) << 10) + (UInt32(u[start + 1]) - 0xDC00)
        }
        return hi
    }

    /// The scalar whose last UTF-16 unit is at `end`.
    static func scalar(endingAt end: Int, _ u: UnsafeBufferPointer<UInt16>) -> UInt32 {
        let lo = UInt32(u[end])
        if lo & 0xFC00 == 0xDC00, end > 0, u[end - 1] & 0xFC00 == 0xD800 {
            return 0x10000 + ((UInt32(u[end - 1]) - 0xD800) << 10) + (lo - 0xDC00)
        }
        return lo
    }

    /// The controls the bidi algorithm reads as white space or separators (classes WS, S and B:
    /// VT, FF, U+001C–001F, NEL; not the tab, which starts an item of its own, nor the paragraph
    /// delimiters): with the spaces around them they take one bidi level, and their hex boxes
    /// are drawn in the item the spaces are in (`ب ა\u{C}ب`: the text face's).
    @inline(__always) static func isWhiteSpaceControl(_ v: UInt32) -> Bool { v == 0x0C || isSeparatorControl(v) }

    /// The white space controls of bidi classes S and B (all but FF): UAX #9 L1 puts each, and
    /// the white space before it, at the paragraph's level, whatever surrounds them.
    @inline(__always) static func isSeparatorControl(_ v: UInt32) -> Bool {
        v == 0x0B || v &- 0x1C < 4 || v == 0x85
    }

    /// The controls of bidi class BN (C0, DEL and C1 but the tab, LF, CR and the white space
    /// ones): the bidi algorithm gives each the level of the character before it, and spaces
    /// around it see through it.
    @inline(__always) static func isBoundaryNeutralControl(_ v: UInt32) -> Bool {
        (v < 0x20 || v &- 0x7F < 0x21) && v != 0x09 && v != 0x0A && v != 0x0D && !isWhiteSpaceControl(v)
    }

    /// The space separators of line-break class GL: no line breaks on either side of them by
    /// UAX #14, but they are white space to Pango (`ClusterFlags.white`).
    @inline(__always) static func isNoBreakSpace(_ unit: UInt16) -> Bool {
        unit == 0xA0 || unit == 0x2007 || unit == 0x202F
    }

    /// General category Zs but U+1680 OGHAM SPACE MARK, which has a visible glyph.
    static func isSpaceSeparator(_ v: UInt32) -> Bool {
        switch v {
        case 0x20, 0xA0, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// Characters Pango's itemizer chooses no face for: controls (Cc), format characters (Cf)
    /// except the Arabic ones (U+0600–06FF, 070F, 08E2), line and paragraph separators, space
    /// separators (Zs) except U+1680, and variation selectors (Unicode 15's lists, spelled out:
    /// the standard library's general category cost about 250 instructions per cold corpus
    /// cell, asked of the punctuation of U+2000–206F). Such a character takes the face of the
    /// item it joins: the one before it in its run, else the next one in its run, else the text
    /// face.
    @inline(__always)
    static func isFontless(_ v: UInt32) -> Bool {
        if v <= 0x20 { return true }
        if v < 0x7F { return false }
        if v < 0x2000 { return v <= 0xA0 || v == 0xAD || v == 0x180E || v == 0x0890 || v == 0x0891 }
        if v <= 0x206F {
            switch v {
            case 0x2000...0x200F, 0x2028...0x202F, 0x205F...0x2064, 0x2066...0x206F: return true
            default: return false
            }
        }
        if v < 0x3000 { return false }
        if v < 0xFE00 { return v == 0x3000 }
        switch v {
        case 0xFE00...0xFE0F, 0xFEFF, 0xFFF9...0xFFFB, 0x110BD, 0x110CD, 0x13430...0x1343F, 0x1BCA0...0x1BCA3,
            0x1D173...0x1D17A, 0xE0001, 0xE0020...0xE007F, 0xE0100...0xE01EF:
            return true
        default: return false
        }
    }

    /// The paragraph delimiters Pango splits a text at before itemizing it: they belong to no
    /// item, so they add no face to their line.
    static func isParagraphDelimiter(_ v: UInt32) -> Bool {
        v == 0x0A || v == 0x0D || v == 0x2029
    }

    /// Whether HarfBuzz takes `v` for a mark (general category Mn, Mc or Me), read from the
    /// grapheme properties: Extend and SpacingMark, but ZWNJ, the emoji modifiers, the tags and
    /// the halfwidth sound marks, which are Extend without being marks.
    static func isCombiningMark(_ v: UInt32) -> Bool {
        switch UnicodeProperties.graphemeBreak(v) {
        case .extend, .spacingMark:
            return !(v == 0x200C || v &- 0x1F3FB < 5 || v &- 0xE0020 < 0x60 || v == 0xFF9E || v == 0xFF9F)
        default:
            return false
        }
    }

    /// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn with no glyph.
    static func isDefaultIgnorable(_ v: UInt32) -> Bool {
        switch v {
        case 0x00AD, 0x034F, 0x061C, 0x115F...0x1160, 0x17B4...0x17B5, 0x180B...0x180F, 0x200B...0x200F,
            0x202A...0x202E, 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0...0xFFF8,
            0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF:
            return true
        default: return false
        }
    }

    /// Paired brackets that script resolution tracks: an id per pair and whether it opens. The
    /// pairs are Pango's (its script iterator's, as ICU's): ASCII, guillemets, quotation marks,
    /// mathematical and supplemental brackets, the CJK brackets, small and fullwidth forms; not
    /// Unicode's BidiBrackets.txt, which leaves out `«»` and quotes and pairs U+298D with U+2990.
    @inline(__always) static func bracketPair(_ v: UInt32) -> (id: UInt8, isOpen: Bool)? {
        switch v {
        case 0x28: return (0, true)
        case 0x29: return (0, false)
        case 0x3C: return (1, true)
        case 0x3E: return (1, false)
        case 0x5B: return (2, true)
        case 0x5D: return (2, false)
        case 0x7B: return (3, true)
        case 0x7D: return (3, false)
        default:
            // (Every other pair is in U+00AB–2E29, U+3008–301B or U+FE59–FF63: not Han, kana,
            // Hangul or emoji, which leave here.)
            guard v >= 0xAB && v <= 0xFF63 && (v <= 0x2E29 || v &- 0x3008 < 0x14 || v >= 0xFE59) else { return nil }
            return pairedPunctuation(v)
        }
    }

    /// Whether the printable ASCII `c` is a paired bracket (`bracketPair`): for the ASCII loop.
    @inline(__always) static func isASCIIBracket(_ c: UInt16) -> Bool {
        c == 0x28 || c == 0x29 || c == 0x3C || c == 0x3E || c == 0x5B || c == 0x5D || c == 0x7B || c == 0x7D
    }

    /// `bracketPair` past ASCII: the CJK brackets of Chinese text by arithmetic, every other pair
    /// of Pango's `paired_chars` by its own cases (a pair's id, 4 on, is its rank in code point
    /// order). Out of line: asked of punctuation only.
    @inline(never)
    private static func pairedPunctuation(_ v: UInt32) -> (id: UInt8, isOpen: Bool)? {
        if v &- 0x3008 < 0x14 {
            // 〈〉《》「」『』【】 and 〔〕〖〗〘〙〚〛, consecutive pairs (ids past the others'); not 〒〓.
            guard v != 0x3012 && v != 0x3013 else { return nil }
            return (UInt8(100 + (v - 0x3008) / 2), v & 1 == 0)
        }
        switch v {
        case 0xAB: return (4, true)
        case 0xBB: return (4, false)
        case 0x2018: return (5, true)
        case 0x2019: return (5, false)
        case 0x201C: return (6, true)
        case 0x201D: return (6, false)
        case 0x2039: return (7, true)
        case 0x203A: return (7, false)
        case 0x2045: return (8, true)
        case 0x2046: return (8, false)
        case 0x207D: return (9, true)
        case 0x207E: return (9, false)
        case 0x208D: return (10, true)
        case 0x208E: return (10, false)
        case 0x27E6: return (11, true)
        case 0x27E7: return (11, false)
        case 0x27E8: return (12, true)
        case 0x27E9: return (12, false)
        case 0x27EA: return (13, true)
        case 0x27EB: return (13, false)
        case 0x27EC: return (14, true)
        case 0x27ED: return (14, false)
        case 0x27EE: return (15, true)
        case 0x27EF: return (15, false)
        case 0x2983: return (16, true)
        case 0x2984: return (16, false)
        case 0x2985: return (17, true)
        case 0x2986: return (17, false)
        case 0x2987: return (18, true)
        case 0x2988: return (18, false)
        case 0x2989: return (19, true)
        case 0x298A: return (19, false)
        case 0x298B: return (20, true)
        case 0x298C: return (20, false)
        case 0x298D: return (21, true)
        case 0x298E: return (21, false)
        case 0x298F: return (22, true)
        case 0x2990: return (22, false)
        case 0x2991: return (23, true)
        case 0x2992: return (23, false)
        case 0x2993: return (24, true)
        case 0x2994: return (24, false)
        case 0x2995: return (25, true)
        case 0x2996: return (25, false)
        case 0x2997: return (26, true)
        case 0x2998: return (26, false)
        case 0x29FC: return (27, true)
        case 0x29FD: return (27, false)
        case 0x2E02: return (28, true)
        case 0x2E03: return (28, false)
        case 0x2E04: return (29, true)
        case 0x2E05: return (29, false)
        case 0x2E09: return (30, true)
        case 0x2E0A: return (30, false)
        case 0x2E0C: return (31, true)
        case 0x2E0D: return (31, false)
        case 0x2E1C: return (32, true)
        case 0x2E1D: return (32, false)
        case 0x2E20: return (33, true)
        case 0x2E21: return (33, false)
        case 0x2E22: return (34, true)
        case 0x2E23: return (34, false)
        case 0x2E24: return (35, true)
        case 0x2E25: return (35, false)
        case 0x2E26: return (36, true)
        case 0x2E27: return (36, false)
        case 0x2E28: return (37, true)
        case 0x2E29: return (37, false)
        case 0xFE59: return (38, true)
        case 0xFE5A: return (38, false)
        case 0xFE5B: return (39, true)
        case 0xFE5C: return (39, false)
        case 0xFE5D: return (40, true)
        case 0xFE5E: return (40, false)
        case 0xFF08: return (41, true)
        case 0xFF09: return (41, false)
        case 0xFF3B: return (42, true)
        case 0xFF3D: return (42, false)
        case 0xFF5B: return (43, true)
        case 0xFF5D: return (43, false)
        case 0xFF5F: return (44, true)
        case 0xFF60: return (44, false)
        case 0xFF62: return (45, true)
        case 0xFF63: return (45, false)
        default: return nil
        }
    }

    /// The first strong script in the paragraph from `start` on: the script of the characters
    /// without one of their own at its start, as Pango's script itemization gives it, which runs
    /// over each paragraph apart. Common when there is none: a paragraph of punctuation, digits
    /// and symbols is shaped in no script (`——` is Noto Sans CJK's proportional dash, not the
    /// full-width one its Chinese `locl` gives).
    static func firstStrongScript(_ u: UnsafeBufferPointer<UInt16>, from start: Int) -> UnicodeScript {
        let v = firstScalar(u, from: start) { isParagraphDelimiter($0) || !UnicodeScript.of($0).isWeak }
        guard let v, !isParagraphDelimiter(v) else { return .common }
        return UnicodeScript.of(v)
    }

    /// The first scalar from `start` on that satisfies `test`.
    @inline(__always) static func firstScalar(
        _ u: UnsafeBufferPointer<UInt16>, from start: Int, where test: (UInt32) -> Bool
    ) -> UInt32? {
        var i = start
        while i < u.count {
            var v = UInt32(u[i])
            i += 1
            if v & 0xFC00 == 0xD800, i < u.count, u[i] & 0xFC00 == 0xDC00 {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(u[i]) - 0xDC00)
                i += 1
            }
            if test(v) { return v }
        }
        return nil
    }

}

/// What itemization and measuring need to know about one grapheme cluster.
struct ClusterInfo {
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
        var hasZWJ = false, hasVS16 = false, hasModifier = false, hasTag = false
        var firstPictographic = false, firstRI = false, flag = false, firstEmojiPresentation = false, firstModifier = false
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
                // (Regional indicators are Emoji_Presentation too, but emoji only in pairs; so are
                // skin tones, emoji only after a modifier base: alone, or after another, Pango's
                // emoji segmentation reads them as text, drawn from the emoji face in an ordinary
                // run.)
                firstModifier = t.isEmojiModifier
                firstEmojiPresentation = t.isEmojiPresentation && !firstRI && !firstModifier
                lastClass = t.lineBreakClass
            } else {
                switch v {
                case 0x200D: hasZWJ = true
                case 0xFE0F: hasVS16 = true
                case 0xFE0E: isTextPresentation = true
                case 0xE0020...0xE007F: hasTag = true
                default: break
                }
                let t = UnicodeProperties.traits(v)
                if t.isEmojiModifier { hasModifier = true }
                if index == 1 && firstRI && t.isRegionalIndicator { flag = true }
                lastClass = t.lineBreakClass
            }
            index += 1
        }
        isSingleScalar = index == 1
        if isTextPresentation {
            isEmojiPresentation = false
        } else {
            // Pango's emoji segmentation: U+FE0F asks an Emoji character for emoji presentation
            // (after a letter it is ignored; a keycap is emoji only with it), a modifier base
            // (a pictograph) is emoji presentation on its own (both asked of few clusters), and a
            // regional indicator only in a pair (a flag).
            isEmojiPresentation =
                flag || hasTag || (hasModifier && !firstModifier) || (hasZWJ && firstPictographic) || firstEmojiPresentation
                || (hasVS16 && UnicodeProperties.isEmoji(first))
                || (firstPictographic && UnicodeProperties.isEmojiModifierBase(first))
        }
        // Lines break by force where Pango's do: at its paragraph delimiters (LF, CR, CR LF,
        // U+2029) and at U+2028. VT and NEL (UAX #14's BK and NL) are drawn as hex boxes with a
        // break opportunity after them, FF hangs like a space.
        switch lastClass {
        case .BK, .CR, .LF, .NL: isSeparator = first != 0x0B && first != 0x0C && first != 0x85
        default: break
        }
        if isSingleScalar {
            switch first {
            case 0x09, 0x0C, 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: isHanging = true
            default: break
            }
        }
    }
}
