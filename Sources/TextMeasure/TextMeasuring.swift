/// The text engine as cell layout sees it: prepare once, lay out at any width.
///
/// Cell layout depends on this protocol only, so its tests can run with a fixed-advance fake
/// (`_LayoutTestSupport.FixedAdvanceMeasurer`) and check frames by hand, while the real engine
/// (`TextMeasurer`) measures with FreeType and HarfBuzz.
public protocol TextMeasuring: Sendable {
    /// Segments, itemizes and measures `text`: everything that does not depend on the width.
    /// MUST be deterministic (the same text gives the same value on every run and thread) and MAY
    /// be called concurrently.
    func prepare(_ text: AttributedText) -> PreparedText

    /// `prepare(text)` without any cache of whole prepared texts the measurer keeps (caches of
    /// smaller parts, such as shaped words, may still serve): for callers that cache what they
    /// prepare themselves, so that one text is not held, and evicted, by two caches. MUST return
    /// a value equal to `prepare(text)`.
    func prepareUncached(_ text: AttributedText) -> PreparedText

    /// `prepareUncached(text)`, which the measurer MAY make from `template` without measuring
    /// again: a text it prepared before, whose content differs from `text`'s in ASCII digits at
    /// most (a time label of another minute, a count). MUST return a value equal to
    /// `prepareUncached(text)`, whatever the template.
    func prepareUncached(_ text: AttributedText, like template: PreparedText) -> PreparedText

    /// Size of `string` on one line (no wrapping), height from the fonts' natural metrics: the
    /// `sizeWithAttributes` case. MAY be called concurrently.
    func singleLineSize(_ string: String, attributes: TextAttributes) -> Size
}

extension TextMeasuring {
    /// `prepare(text)`: for measurers that keep no cache of prepared texts.
    public func prepareUncached(_ text: AttributedText) -> PreparedText { prepare(text) }

    /// `template` when `text` is its source text, else `prepareUncached(text)`: for measurers
    /// that make nothing from a template.
    public func prepareUncached(_ text: AttributedText, like template: PreparedText) -> PreparedText {
        let equal = text.withContent { content in
            template.withContent { $0.hasEqualParts(content) && $0.utf16.elementsEqual(content.utf16) }
        }
        return equal ? template : prepareUncached(text)
    }

    /// `prepareUncached` of the text `builder` holds. The package's measurer (`TextMeasurer`)
    /// reads the builder's buffers in place, so that no string or parts object is made for the
    /// text; any other measurer is given the text as an `AttributedText`. Both give equal values.
    package func prepareUncached(built builder: borrowing AttributedTextBuilder) -> PreparedText {
        if let measurer = packageMeasurer { return measurer.prepareUncached(builder) }
        return prepareUncached(builder.withContent { AttributedText(content: $0) })
    }

    /// This measurer as the package's `TextMeasurer` (a final class), nil for any other: a
    /// comparison of types, where `as?` made a dynamic cast (about 60 instructions, three a cold
    /// cell).
    @inline(__always) package var packageMeasurer: TextMeasurer? {
        Self.self == TextMeasurer.self ? unsafeBitCast(self, to: TextMeasurer.self) : nil
    }

    /// Prepares and lays out in one call.
    public func layout(_ text: AttributedText, _ options: LayoutOptions, truncationToken: AttributedText? = nil) -> TextLayout {
        prepare(text).layout(options, truncationToken: truncationToken.map(prepare))
    }
}
