import StatusModel
import TextMeasure

// Status text → attributed text with entities (spec section 2).
//
// Design. The text is split into pieces over its Unicode scalars, one entity kind at a time and in
// the spec's priority order: short URLs (from `url_struct`), `#topic#` (from `topic_struct`),
// @mentions (`@[-_a-zA-Z0-9\u4E00-\u9FA5]+`), then emoticon codes (`\[[^ \[\]]+?\]` naming a known
// emoticon). Each pass only looks inside the plain pieces the previous passes left, so entities
// never overlap. The matchers are written by hand over scalars (no regular expressions): the whole
// parse is linear in the text length times the number of URL and topic entries.

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

/// A piece of the text: a scalar range and what it is.
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
        var scalars = Array(text.unicodeScalars)
        if let pageID, !pageID.isEmpty {
            removeTrailingURL(&scalars, urls: urls.filter { $0.pageID == pageID })
        }
        var out = AttributedText("", attributes: style.plain)
        if let name = prefixName, !name.isEmpty {
            let r = out.append("@" + name, attributes: style.link)
            out.addEntity(.mention, range: r, value: name)
            out.append(":", attributes: style.plain)
        }
        var pieces = [TextPiece(range: 0..<scalars.count, kind: .plain)]
        for url in urls where !url.shortURL.isEmpty {
            let needle = Array(url.shortURL.unicodeScalars)
            pieces = split(pieces) { findAll(needle, in: scalars, range: $0, kind: .link(url)) }
        }
        for topic in topics where !topic.title.isEmpty {
            let needle = Array(("#" + topic.title + "#").unicodeScalars)
            pieces = split(pieces) { findAll(needle, in: scalars, range: $0, kind: .topic(topic.title)) }
        }
        pieces = split(pieces) { mentions(in: scalars, range: $0) }
        if style.emoticons.count > 0 {
            pieces = split(pieces) { emoticons(in: scalars, range: $0, known: style.emoticons) }
        }
        for piece in pieces {
            append(piece, scalars: scalars, to: &out, style: style)
        }
        return out
    }

    private static func string(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars[range])
        return String(s)
    }

    private static func append(_ piece: TextPiece, scalars: [Unicode.Scalar], to out: inout AttributedText, style: EntityStyle) {
        let size = style.plain.size
        switch piece.kind {
        case .plain:
            out.append(string(scalars, piece.range), attributes: style.plain)
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
            let r = out.append(string(scalars, piece.range), attributes: style.link)
            out.addEntity(.topic, range: r, value: title)
        case .mention:
            let r = out.append(string(scalars, piece.range), attributes: style.link)
            out.addEntity(.mention, range: r, value: string(scalars, piece.range.dropFirst()))
        case .emoticon(let image):
            let code = string(scalars, piece.range)
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
    static func findAll(_ needle: [Unicode.Scalar], in s: [Unicode.Scalar], range: Range<Int>, kind: TextPiece.Kind) -> [TextPiece] {
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
    static func isMentionScalar(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x2D, 0x5F, 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x4E00...0x9FA5: return true
        default: return false
        }
    }

    /// Matches of `@[-_a-zA-Z0-9\u4E00-\u9FA5]+`, left to right.
    static func mentions(in s: [Unicode.Scalar], range: Range<Int>) -> [TextPiece] {
        var out: [TextPiece] = []
        var i = range.lowerBound
        while i < range.upperBound {
            if s[i] == "@" {
                var j = i + 1
                while j < range.upperBound && isMentionScalar(s[j]) { j += 1 }
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
    static func emoticons(in s: [Unicode.Scalar], range: Range<Int>, known: EmoticonTable) -> [TextPiece] {
        var out: [TextPiece] = []
        var i = range.lowerBound
        while i < range.upperBound {
            guard s[i] == "[" else { i += 1; continue }
            var j = i + 1
            while j < range.upperBound && s[j] != "]" && s[j] != "[" && s[j] != " " { j += 1 }
            if j < range.upperBound && s[j] == "]" && j > i + 1 {
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
            i = (j < range.upperBound && s[j] == "[") ? j : j + 1
        }
        return out
    }

    /// Removes a short URL of `urls` that ends the text (trailing whitespace ignored), with that
    /// whitespace.
    private static func removeTrailingURL(_ s: inout [Unicode.Scalar], urls: [URLEntity]) {
        var end = s.count
        while end > 0 && s[end - 1].properties.isWhitespace { end -= 1 }
        for url in urls where !url.shortURL.isEmpty {
            let needle = Array(url.shortURL.unicodeScalars)
            guard end >= needle.count, Array(s[(end - needle.count)..<end]) == needle else { continue }
            var cut = end - needle.count
            while cut > 0 && s[cut - 1].properties.isWhitespace { cut -= 1 }
            s.removeSubrange(cut..<s.count)
            return
        }
    }
}
