import StatusModel
import TextMeasure

// Status text → attributed text with entities (spec section 2).
//
// Design. The text is split into pieces over its UTF-16 code units, one entity kind at a time and in
// the spec's priority order: short URLs (from `url_struct`), `#topic#` (from `topic_struct`),
// @mentions (`@[-_a-zA-Z0-9\u4E00-\u9FA5]+`), then emoticon codes (`\[[^ \[\]]+?\]` naming a known
// emoticon). Each pass only looks inside the plain pieces the previous passes left, so entities
// never overlap. The matchers are written by hand over code units (no regular expressions): every
// character the patterns name is in the BMP, and a surrogate is never one of them, so matching code
// units is matching characters. The parse is linear in the text length times the number of URL and
// topic entries.

/// How entity text is styled and which emoticons exist.
package struct EntityStyle: Sendable {
    /// Attributes of plain text.
    var plain: TextAttributes
    /// Attributes of links, topics and mentions (same size, link role).
    var link: TextAttributes
    var linkTitleMaxLength: Int
    /// Known emoticon codes, brackets included ("[微笑]"), and their image names.
    var emoticons: EmoticonTable
    var ascentFraction: Double
}

/// A piece of the text: a UTF-16 range and what it is.
struct TextPiece {
    enum Kind {
        case plain
        case link(URLEntity)
        case topic(String)
        case mention
        case emoticon(image: String)
    }
    var range: Range<Int>
    var kind: Kind
}

/// Cuts a string at increasing UTF-16 offsets without transcoding: it walks one index forward,
/// so slicing a whole text piece by piece is linear.
struct Slicer {
    let text: String
    private var index: String.Index
    private var offset = 0

    init(text: String) {
        self.text = text
        index = text.utf16.startIndex
    }

    /// The index of UTF-16 offset `o`. - Precondition: offsets never decrease between calls.
    mutating func index(_ o: Int) -> String.Index {
        index = text.utf16.index(index, offsetBy: o - offset)
        offset = o
        return index
    }

    /// The text of `range` (at scalar boundaries; ranges in increasing order).
    mutating func slice(_ range: Range<Int>) -> String {
        let a = index(range.lowerBound)
        return String(text[a..<index(range.upperBound)])
    }
}

package enum StatusTextBuilder {
    /// Builds the attributed text of `text`, with an optional "@name:" prefix (a retweet's text).
    ///
    /// - Parameters:
    ///   - removingTrailingURLOf: a card page id; a short URL pointing at it (its `pageID`) at the
    ///     very end of the text is removed (the card shows it).
    package static func build(
        _ text: String, urls: [URLEntity], topics: [Topic], prefixName: String?,
        removingTrailingURLOf pageID: String?, style: EntityStyle
    ) -> AttributedText {
        var units = Array(text.utf16)
        if let pageID, !pageID.isEmpty {
            removeTrailingURL(&units, urls: urls.filter { $0.pageID == pageID })
        }
        var out = AttributedText("", attributes: style.plain)
        if let name = prefixName, !name.isEmpty {
            let r = out.append("@" + name, attributes: style.link)
            out.addEntity(.mention, range: r, value: name)
            out.append(":", attributes: style.plain)
        }
        var pieces = [TextPiece(range: 0..<units.count, kind: .plain)]
        for url in urls where !url.shortURL.isEmpty {
            let needle = Array(url.shortURL.utf16)
            pieces = split(pieces) { findAll(needle, in: units, range: $0, kind: .link(url)) }
        }
        for topic in topics where !topic.title.isEmpty {
            let needle = Array(("#" + topic.title + "#").utf16)
            pieces = split(pieces) { findAll(needle, in: units, range: $0, kind: .topic(topic.title)) }
        }
        pieces = split(pieces) { mentions(in: units, range: $0) }
        if style.emoticons.count > 0 {
            pieces = split(pieces) { emoticons(in: units, range: $0, known: style.emoticons) }
        }
        var slicer = Slicer(text: text)
        for piece in pieces {
            append(piece, units: units, slicer: &slicer, to: &out, style: style)
        }
        return out
    }

    private static func string(_ units: [UInt16], _ range: Range<Int>) -> String {
        String(decoding: units[range], as: UTF16.self)
    }

    private static func append(
        _ piece: TextPiece, units: [UInt16], slicer: inout Slicer, to out: inout AttributedText, style: EntityStyle
    ) {
        let size = style.plain.size
        switch piece.kind {
        case .plain:
            out.append(slicer.slice(piece.range), attributes: style.plain)
        case .link(let url):
            let icon = out.appendAttachment(
                width: size, ascent: style.ascentFraction * size, descent: (1 - style.ascentFraction) * size,
                name: "link-icon", attributes: style.link)
            var title = url.title.isEmpty ? "网页链接" : url.title
            if title.count > style.linkTitleMaxLength {
                title = String(title.prefix(style.linkTitleMaxLength)) + "…"
            }
            let r = out.append(title, attributes: style.link)
            out.addEntity(.link, range: icon.lowerBound..<r.upperBound, value: url.shortURL)
        case .topic(let title):
            let r = out.append(slicer.slice(piece.range), attributes: style.link)
            out.addEntity(.topic, range: r, value: title)
        case .mention:
            let name = slicer.slice(piece.range.dropFirst())
            let r = out.append("@" + name, attributes: style.link)
            out.addEntity(.mention, range: r, value: name)
        case .emoticon(let image):
            let code = slicer.slice(piece.range)
            let r = out.appendAttachment(
                width: size, ascent: style.ascentFraction * size, descent: (1 - style.ascentFraction) * size,
                name: image.isEmpty ? code : image, attributes: style.plain)
            out.addEntity(.emoticon, range: r, value: code)
        }
    }

    /// Replaces each plain piece by the matches `find` returns inside it and the plain gaps between.
    private static func split(_ pieces: [TextPiece], _ find: (Range<Int>) -> [TextPiece]) -> [TextPiece] {
        var out: [TextPiece] = []
        out.reserveCapacity(pieces.count)
        for piece in pieces {
            guard case .plain = piece.kind, !piece.range.isEmpty else {
                if !piece.range.isEmpty { out.append(piece) }
                continue
            }
            var at = piece.range.lowerBound
            for m in find(piece.range) {
                if m.range.lowerBound > at { out.append(TextPiece(range: at..<m.range.lowerBound, kind: .plain)) }
                out.append(m)
                at = m.range.upperBound
            }
            if at < piece.range.upperBound { out.append(TextPiece(range: at..<piece.range.upperBound, kind: .plain)) }
        }
        return out
    }

    /// Non-overlapping occurrences of `needle`, left to right.
    static func findAll(_ needle: [UInt16], in s: [UInt16], range: Range<Int>, kind: TextPiece.Kind) -> [TextPiece] {
        guard !needle.isEmpty, range.count >= needle.count else { return [] }
        var out: [TextPiece] = []
        var i = range.lowerBound
        let last = range.upperBound - needle.count
        while i <= last {
            if s[i] == needle[0] {
                var k = 1
                while k < needle.count && s[i + k] == needle[k] { k += 1 }
                if k == needle.count {
                    out.append(TextPiece(range: i..<(i + k), kind: kind))
                    i += k
                    continue
                }
            }
            i += 1
        }
        return out
    }

    /// True for the characters of a mention name: `[-_a-zA-Z0-9\u4E00-\u9FA5]`.
    static func isMentionUnit(_ c: UInt16) -> Bool {
        switch c {
        case 0x2D, 0x5F, 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x4E00...0x9FA5: return true
        default: return false
        }
    }

    /// Matches of `@[-_a-zA-Z0-9\u4E00-\u9FA5]+`, left to right.
    static func mentions(in s: [UInt16], range: Range<Int>) -> [TextPiece] {
        var out: [TextPiece] = []
        var i = range.lowerBound
        while i < range.upperBound {
            if s[i] == at {
                var j = i + 1
                while j < range.upperBound && isMentionUnit(s[j]) { j += 1 }
                if j > i + 1 {
                    out.append(TextPiece(range: i..<j, kind: .mention))
                    i = j
                    continue
                }
            }
            i += 1
        }
        return out
    }

    /// Matches of `\[[^ \[\]]+?\]` whose text is a known emoticon, left to right.
    static func emoticons(in s: [UInt16], range: Range<Int>, known: EmoticonTable) -> [TextPiece] {
        var out: [TextPiece] = []
        var i = range.lowerBound
        while i < range.upperBound {
            guard s[i] == open else { i += 1; continue }
            var j = i + 1
            while j < range.upperBound && s[j] != close && s[j] != open && s[j] != space { j += 1 }
            if j < range.upperBound && s[j] == close && j > i + 1 {
                if let image = known.imageName(for: string(s, i..<(j + 1))) {
                    out.append(TextPiece(range: i..<(j + 1), kind: .emoticon(image: image)))
                    i = j + 1
                } else {
                    // A regex would retry from the next "[" only, which is at or after j.
                    i = j + 1
                }
                continue
            }
            // No match from this "[": the scan stopped at a space, a "[" (retry there) or the end.
            i = (j < range.upperBound && s[j] == open) ? j : j + 1
        }
        return out
    }

    /// Removes a short URL of `urls` that ends the text (trailing whitespace ignored), with that
    /// whitespace.
    private static func removeTrailingURL(_ s: inout [UInt16], urls: [URLEntity]) {
        var end = s.count
        while end > 0 && isWhitespace(s[end - 1]) { end -= 1 }
        for url in urls where !url.shortURL.isEmpty {
            let needle = Array(url.shortURL.utf16)
            guard end >= needle.count, s[(end - needle.count)..<end].elementsEqual(needle) else { continue }
            var cut = end - needle.count
            while cut > 0 && isWhitespace(s[cut - 1]) { cut -= 1 }
            s.removeSubrange(cut..<s.count)
            return
        }
    }

    private static let at: UInt16 = 0x40, open: UInt16 = 0x5B, close: UInt16 = 0x5D, space: UInt16 = 0x20

    /// White space (a BMP code unit that is not a surrogate and has the White_Space property).
    private static func isWhitespace(_ u: UInt16) -> Bool {
        Unicode.Scalar(u)?.properties.isWhitespace ?? false
    }
}
