/// Unicode 15.0 character properties by scalar value, from tables generated out of the UCD.
///
/// Every query is O(1): three table loads, no allocation, no dictionary. Values that are not Unicode
/// scalar values (above U+10FFFF or surrogates) report `XX`, `.other`, `.neutral` and `false`.
/// Code points not listed in the data files get the defaults those files document (for example `ID` and
/// East Asian `W` for unassigned CJK ideographs, `PR` for unassigned currency symbols).
///
/// Thread safety: all members may be called concurrently.
public struct UnicodeProperties: Sendable {
    /// The Unicode version the tables were generated from.
    public static var unicodeVersion: String { GeneratedTables.unicodeVersion }

    /// The Line_Break property (UAX #14) as listed, before the algorithm's LB1 resolution.
    /// - Complexity: O(1).
    public static func lineBreakClass(_ v: UInt32) -> LineBreakClass {
        LineBreakClass(rawValue: PackedProperties.lookup(v).lineBreak) ?? .XX
    }

    /// The Grapheme_Cluster_Break property (UAX #29).
    /// - Complexity: O(1).
    public static func graphemeBreak(_ v: UInt32) -> GraphemeBreakProperty {
        GraphemeBreakProperty(rawValue: PackedProperties.lookup(v).graphemeBreak) ?? .other
    }

    /// The East_Asian_Width property (UAX #11).
    /// - Complexity: O(1).
    public static func eastAsianWidth(_ v: UInt32) -> EastAsianWidth {
        EastAsianWidth(rawValue: PackedProperties.lookup(v).eastAsianWidth) ?? .neutral
    }

    /// Extended_Pictographic (emoji-data.txt).
    /// - Complexity: O(1).
    public static func isExtendedPictographic(_ v: UInt32) -> Bool {
        PackedProperties.lookup(v).has(PackedProperties.extendedPictographicBit)
    }

    /// Emoji (emoji-data.txt).
    /// - Complexity: O(1).
    public static func isEmoji(_ v: UInt32) -> Bool {
        PackedProperties.lookup(v).has(PackedProperties.emojiBit)
    }

    /// Emoji_Presentation (emoji-data.txt): shown as emoji without a variation selector.
    /// - Complexity: O(1).
    public static func isEmojiPresentation(_ v: UInt32) -> Bool {
        PackedProperties.lookup(v).has(PackedProperties.emojiPresentationBit)
    }

    /// Emoji_Modifier (emoji-data.txt): the five skin-tone modifiers.
    /// - Complexity: O(1).
    public static func isEmojiModifier(_ v: UInt32) -> Bool {
        PackedProperties.lookup(v).has(PackedProperties.emojiModifierBit)
    }

    /// Emoji_Modifier_Base (emoji-data.txt).
    /// - Complexity: O(1).
    public static func isEmojiModifierBase(_ v: UInt32) -> Bool {
        PackedProperties.lookup(v).has(PackedProperties.emojiModifierBaseBit)
    }

    /// Emoji_Component (emoji-data.txt): keycap bases, ZWJ, VS16, tags, skin tones, RIs and so on.
    /// - Complexity: O(1).
    public static func isEmojiComponent(_ v: UInt32) -> Bool {
        PackedProperties.lookup(v).has(PackedProperties.emojiComponentBit)
    }

    /// Regional_Indicator (U+1F1E6...U+1F1FF).
    /// - Complexity: O(1).
    public static func isRegionalIndicator(_ v: UInt32) -> Bool {
        PackedProperties.lookup(v).has(PackedProperties.regionalIndicatorBit)
    }

    /// Terminal columns a scalar occupies on its own.
    ///
    /// - 0 for nonspacing and enclosing marks (Mn, Me), format characters (Cf, so ZWJ and the variation
    ///   U+200B and the bidi controls; U+00AD SOFT HYPHEN excepted), controls (Cc, which the caller
    ///   draws itself if at all), U+2028/U+2029 and Hangul medial vowels and final consonants (jamo V
    ///   and T). Variation selectors are Mn, so they count 0 too.
    /// - 2 for East_Asian_Width W and F (this includes every Emoji_Presentation character except the
    ///   regional indicators, which are N: one column each, two for a flag).
    /// - 1 otherwise, including East_Asian_Width A, unassigned code points and invalid values.
    ///
    /// Emoji sequences (ZWJ sequences, flags, text-style characters with VS16) need cluster-level
    /// handling by the caller; this function only sees one scalar.
    /// - Complexity: O(1).
    public static func terminalColumns(_ v: UInt32) -> Int {
        let p = PackedProperties.lookup(v)
        if p.has(PackedProperties.zeroWidthBit) { return 0 }
        let w = p.eastAsianWidth
        return w == EastAsianWidth.wide.rawValue || w == EastAsianWidth.fullwidth.rawValue ? 2 : 1
    }

    /// Terminal columns of one extended grapheme cluster, given its scalars in order.
    ///
    /// The cluster takes the width of its first scalar (`terminalColumns(_:)`), except:
    /// - a regional-indicator pair (a flag) takes 2;
    /// - U+FE0F VARIATION SELECTOR-16 after an Emoji scalar asks for emoji presentation: 2;
    /// - U+FE0E VARIATION SELECTOR-15 after an Emoji scalar asks for text presentation: 1;
    /// - a cluster whose first scalar is zero-width takes the widest of its scalars (a lone
    ///   combining mark is 0, a ZWJ sequence that starts with ZWJ is measured by what follows).
    /// - Complexity: O(k) in the number of scalars.
    public static func terminalColumns<S: Sequence>(ofCluster scalars: S) -> Int where S.Element == UInt32 {
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        let firstProperties = PackedProperties.lookup(first)
        var columns = terminalColumns(first)
        var widest = columns
        var previousIsEmoji = firstProperties.has(PackedProperties.emojiBit)
        let firstIsRI = firstProperties.has(PackedProperties.regionalIndicatorBit)
        var index = 1
        while let v = iterator.next() {
            if index == 1 && firstIsRI && isRegionalIndicator(v) { columns = 2 }
            if previousIsEmoji && v == 0xFE0F { columns = 2 }
            if previousIsEmoji && v == 0xFE0E { columns = 1 }
            widest = max(widest, terminalColumns(v))
            previousIsEmoji = isEmoji(v)
            index += 1
        }
        return columns == 0 ? widest : columns
    }
}

/// The properties font itemization needs about a code point, from one table lookup.
public struct ScalarTraits: Sendable, Equatable {
    public let lineBreakClass: LineBreakClass
    public let isExtendedPictographic: Bool
    public let isEmojiPresentation: Bool
    public let isEmojiModifier: Bool
    public let isRegionalIndicator: Bool
}

extension UnicodeProperties {
    /// Line-break class and emoji properties of `v` in one lookup (invalid values: XX, no emoji).
    public static func traits(_ v: UInt32) -> ScalarTraits {
        let p = PackedProperties.lookup(v)
        return ScalarTraits(
            lineBreakClass: LineBreakClass(rawValue: p.lineBreak) ?? .XX,
            isExtendedPictographic: p.has(PackedProperties.extendedPictographicBit),
            isEmojiPresentation: p.has(PackedProperties.emojiPresentationBit),
            isEmojiModifier: p.has(PackedProperties.emojiModifierBit),
            isRegionalIndicator: p.has(PackedProperties.regionalIndicatorBit))
    }
}
