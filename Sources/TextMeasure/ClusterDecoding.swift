import UnicodeText

// Cluster decoding: what a grapheme cluster is (emoji or text presentation, separator,
// hanging), the face it is drawn with, paired brackets and the first strong script.
extension TextMeasurer {
    /// The face a grapheme cluster is drawn with.
    func itemize(_ info: ClusterInfo, bold: Bool, missing: inout Int) -> FontSlot {
        let text: FontSlot = bold ? .bold : .primary
        if info.isEmojiPresentation { return .emoji }
        if fonts.covers(text, info.first, bits: bold ? coverageBold : coveragePrimary) { return text }
        if !info.isTextPresentation, fonts.covers(.emoji, info.first, bits: coverageEmoji) { return .emoji }
        missing += 1
        return text
    }

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
