import TextMeasure

/// A text measurer with fixed advances, for tests that check frames by hand.
///
/// Rules (per Swift `Character`, which stands for a grapheme cluster):
/// - a wide character (first scalar ≥ U+1100 — CJK, kana, Hangul, emoji — but a hard break) is
///   `size` wide, any other character `size / 2`; an inline object is its own width;
/// - ascent `0.8 × size`, descent `0.2 × size` for every font;
/// - lines may break after a space (which hangs), before and after a wide character or an inline
///   object, but never before a space or a hard break (as in UAX #14), and must break after "\n"
///   (and "\r\n", "\r", U+2028, U+2029).
public struct FixedAdvanceMeasurer: TextMeasuring {
    public init() {}

    public func prepare(_ text: AttributedText) -> PreparedText {
        let base = text.baseAttributes
        var builder = PreparedTextBuilder(text: text, baseFont: font(base.size))
        var offset = 0
        var run = 0
        let runs = text.runs
        let objects = Dictionary(text.attachments.map { ($0.offset, $0) }, uniquingKeysWith: { a, _ in a })
        let chars = Array(text.string)
        for (i, ch) in chars.enumerated() {
            let n = ch.utf16.count
            while run + 1 < runs.count && runs[run].range.upperBound <= offset { run += 1 }
            let size = runs[run].attributes.size
            let next = i + 1 < chars.count ? chars[i + 1] : nil
            let isNewline = ch.isNewline
            let object = objects[offset]
            let advance = object?.width ?? (isWide(ch) ? size : size / 2)
            let beforeSpaceOrHardBreak = next == " " || next?.isNewline == true
            let breakAfter =
                !beforeSpaceOrHardBreak
                && (ch == " " || isWide(ch) || object != nil || next.map(isWide) == true
                    || (next != nil && objects[offset + n] != nil))
            let f = object.map { RunFont(slot: .object, size: size, ascent: $0.ascent, descent: $0.descent) } ?? font(size)
            builder.appendCluster(
                end: offset + n, advance: advance, font: f,
                breakAfter: breakAfter && next != nil, mandatoryAfter: isNewline, hanging: ch == " ",
                lineSeparator: isNewline, attachment: object != nil)
            offset += n
        }
        return builder.finish(text: text)
    }

    public func singleLineSize(_ string: String, attributes: TextAttributes) -> Size {
        let width = string.reduce(0.0) { $0 + (isWide($1) ? attributes.size : attributes.size / 2) }
        return Size(width: width, height: attributes.size)
    }

    private func font(_ size: Double) -> RunFont {
        RunFont(slot: .primary, size: size, ascent: 0.8 * size, descent: 0.2 * size)
    }

    private func isWide(_ ch: Character) -> Bool {
        (ch.unicodeScalars.first?.value ?? 0) >= 0x1100 && ch != AttributedText.attachmentCharacter && !ch.isNewline
    }
}
