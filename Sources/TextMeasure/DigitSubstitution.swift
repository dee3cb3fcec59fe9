import UnicodeText

// Texts that differ in ASCII digits only, prepared once: a time line "11-24 14:32  来自 微博" is
// "00-00 00:00  来自 微博" with other digits, and in the pinned text faces every digit has the
// same advance and the same kerning with everything (tabular figures). The prepared text of one
// is then the prepared text of the other with other UTF-16 units.
extension TextMeasurer {
    /// A prepared text of `content`, made from `template` (a text this measurer prepared) when
    /// the two differ only in ASCII digits and preparing `content` would give the same clusters,
    /// corrections and fonts; nil when that is not known, and `content` must be prepared.
    /// `template` itself when the contents are equal.
    ///
    /// Why the copy is what `prepare` would make: a digit that is a grapheme cluster of its own is
    /// a cluster of the same kind whatever the digit (line-break class NU, grapheme class Other,
    /// bidi class EN, script Common, mapped by both text faces: its breaks, cluster bounds, face,
    /// word and script are those of any other digit), and its advance and kerning come from a
    /// face's tables in which the digits are alike (`FontSet.digitsInterchangeable`), unless it
    /// was shaped, which the template records (`PreparedFields.shapedDigits`). Not for a
    /// measurer that keeps glyphs (a digit's glyph is its own), nor in the reference mode.
    /// - Complexity: O(n) in the text's length, and a copy of the template's object.
    package func substitutingDigits(_ template: PreparedText, _ content: TextContent) -> PreparedText? {
        let storage = template.storage
        let fields = storage.fields
        let differs: Bool? = template.withContent { old in
            guard old.hasEqualParts(content) else { return nil }
            let a = old.utf16, b = content.utf16
            var differs = false
            for i in 0..<a.count where a[i] != b[i] {
                guard Self.isASCIIDigit(a[i]) && Self.isASCIIDigit(b[i]) && Self.isClusterOfItsOwn(b, i) else { return nil }
                differs = true
            }
            return differs
        }
        guard let differs else { return nil }
        // An equal text is the template, whatever was measured how.
        guard differs else { return template }
        guard copiesDigits(of: fields) else { return nil }
        return PreparedText(storage: storage.copy(with: content))
    }

    /// `template` with its ASCII digits replaced, in order, by `digits` (ASCII digit bytes): what
    /// `substitutingDigits` makes of the template's text with those digits, made without the
    /// text (no units decoded, none compared). Nil when `digits` does not hold one digit for
    /// each of the template's, or when the copy would not be exact.
    /// - Complexity: O(n) in the text's length, and a copy of the template's object.
    package func substitutingDigits(_ template: PreparedText, digits: UnsafeBufferPointer<UInt8>) -> PreparedText? {
        let storage = template.storage
        let differs: Bool? = template.withContent { old in
            let a = old.utf16
            var k = 0, differs = false
            for i in 0..<a.count where Self.isASCIIDigit(a[i]) {
                guard k < digits.count else { return nil }
                // A digit's neighbours are the template's own (or digits), so where it is a
                // cluster of its own in the template it is one in the copy.
                if a[i] != UInt16(digits[k]) {
                    guard Self.isClusterOfItsOwn(a, i) else { return nil }
                    differs = true
                }
                k += 1
            }
            return k == digits.count ? differs : nil
        }
        guard let differs else { return nil }
        guard differs else { return template }
        guard copiesDigits(of: storage.fields) else { return nil }
        let made = template.withContent { storage.copy(with: $0) }
        let units = made.textUnits
        var k = 0
        for i in 0..<made.fields.pointee.utf16Count where Self.isASCIIDigit(units[i]) {
            units[i] = UInt16(digits[k])
            k += 1
        }
        return PreparedText(storage: made)
    }

    /// Whether a text prepared with `fields` may be copied with other digits: the text faces'
    /// digits are alike, none of the text's was shaped, and no glyphs are kept.
    private func copiesDigits(of fields: UnsafeMutablePointer<PreparedFields>) -> Bool {
        fonts.digitsInterchangeable && !retainsGlyphs && !shapesWholeRuns && !fields.pointee.shapedDigits
            && fields.pointee.glyphs == nil
    }

    /// Whether `u` is one of the ASCII digits 0–9.
    @inline(__always) static func isASCIIDigit(_ u: UInt16) -> Bool { u &- 0x30 < 10 }

    /// Whether the one-unit character at `i` is a grapheme cluster of its own: the character
    /// before it is no prefix (Prepend), and the one after it extends nothing onto it (Extend,
    /// ZWJ, SpacingMark: a combining mark, a variation selector, a keycap, a skin tone).
    /// (Below U+0300 no character is either: the neighbours of most digits are not looked up.)
    @inline(__always)
    private static func isClusterOfItsOwn(_ u: UnsafeBufferPointer<UInt16>, _ i: Int) -> Bool {
        if i > 0 && u[i - 1] >= 0x300 && UnicodeProperties.graphemeBreak(scalar(endingAt: i - 1, u)) == .prepend { return false }
        if i + 1 < u.count && u[i + 1] >= 0x300 {
            switch UnicodeProperties.graphemeBreak(scalar(startingAt: i + 1, u)) {
            case .extend, .zwj, .spacingMark: return false
            default: break
            }
        }
        return true
    }
}

extension TextMeasurer {
    /// `prepareUncached(text)`, copied from `template` when the texts differ in ASCII digits
    /// only and the copy is exact (`substitutingDigits`).
    public func prepareUncached(_ text: AttributedText, like template: PreparedText) -> PreparedText {
        text.withContent { substitutingDigits(template, $0) } ?? prepareUncached(text)
    }
}

extension TextMeasuring {
    /// `template` with its ASCII digits replaced, in order, by `digits` (ASCII digit bytes, one
    /// for each of the template's), when the measurer can make it without the text: equal to
    /// `prepareUncached` of the template's text with those digits. Nil otherwise (a measurer
    /// other than the package's, or a copy that would not be exact): prepare the text then.
    /// - Parameter template: a text this measurer prepared.
    package func prepareUncached(like template: PreparedText, digits: UnsafeBufferPointer<UInt8>) -> PreparedText? {
        packageMeasurer?.substitutingDigits(template, digits: digits)
    }

    /// `prepareUncached(built: builder)`, made from `template` (see `prepareUncached(_:like:)`).
    /// The package's measurer reads the builder's buffers in place; any other measurer is given
    /// the text as an `AttributedText`. Equal values either way.
    /// - Parameter template: a text this measurer prepared.
    package func prepareUncached(built builder: borrowing AttributedTextBuilder, like template: PreparedText) -> PreparedText {
        if let measurer = packageMeasurer {
            if let made = builder.withContent({ measurer.substitutingDigits(template, $0) }) { return made }
            return measurer.prepareUncached(builder)
        }
        return prepareUncached(builder.withContent { AttributedText(content: $0) }, like: template)
    }
}

extension TextContent {
    /// Whether `other` has the same length, runs, inline objects, entities and tab stops (its
    /// code units may differ).
    func hasEqualParts(_ other: TextContent) -> Bool {
        guard utf16.count == other.utf16.count && firstRun == other.firstRun && tabStops == other.tabStops
            && moreRuns.count == other.moreRuns.count && objects.count == other.objects.count
            && entities.count == other.entities.count
        else { return false }
        // (Most texts compared have one more run and nothing else: no generic sequence walk for the empty parts.)
        for i in 0..<moreRuns.count where moreRuns[i] != other.moreRuns[i] { return false }
        for i in 0..<objects.count where objects[i] != other.objects[i] { return false }
        for i in 0..<entities.count where entities[i] != other.entities[i] { return false }
        return true
    }
}
