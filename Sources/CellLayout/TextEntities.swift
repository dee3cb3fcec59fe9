#if canImport(Glibc)
import FeedLayoutSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StatusModel
import TextMeasure

// Status text → attributed text with entities (docs/cell-spec.md, section 2).
//
// Design. The text is split into pieces over its UTF-8 bytes, one entity kind at a time and in
// the priority order of docs/cell-spec.md: short URLs (from `url_struct`), `#topic#` (from `topic_struct`),
// @mentions (`@[-_a-zA-Z0-9\u4E00-\u9FA5]+`), then emoticon codes (`\[[^ \[\]]+?\]` naming a known
// emoticon). Each pass only looks inside the plain pieces the previous passes left, so entities
// never overlap. The matchers are written by hand over bytes (no regular expressions): the ASCII
// characters the patterns name never occur inside a multi-byte sequence, and the CJK range of the
// mention pattern is decoded from its three-byte sequences, so matching bytes is matching
// characters. A pass that cannot match (no "#", "@" or "[" in the text) is skipped. The output is
// assembled from the pieces' bytes (`AttributedTextBuilder`, which decodes each piece to UTF-16 as
// it is appended); the cell engine prepares the text from the builder, so no string is made for
// it, and `build` without `finish` makes one `AttributedText` at the end, not one per piece.
//
// Cost model: the parse is linear in the text plus the URL and topic entries. All short URLs are
// matched in one pass (and all topics in one more), leftmost-longest: at each position the
// longest entry that starts there wins, whatever the order of the entries (a text holding
// http://t.cn/AB links to /AB even when url_struct lists http://t.cn/A first). One entry is found
// with memchr/memcmp; several with a trie walked from each candidate position, which is fast on
// real texts, and, once the walks have cost more than a few times the text (needles built to
// repeat the text), with an Aho-Corasick automaton over the reversed entries, which finds the
// longest entry starting at every position in one backward pass: O(text + entries) whatever the
// input. (Each url_struct entry rescanned the whole text before: 10 000 entries on a 1.2 MB
// status took 44.8 s.)

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

/// A piece of the text: a UTF-8 range and what it is. A plain value (an index into the status's
/// URL or topic list, or into the emoticon images found), so that splitting copies no reference.
struct TextPiece {
    enum Kind {
        case plain
        /// Index in the URL list.
        case link(Int)
        /// Index in the topic list.
        case topic(Int)
        case mention
        /// Index in the image names of the emoticons found.
        case emoticon(Int)
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
        build(text, urls: urls, topics: topics, prefixName: prefixName, removingTrailingURLOf: pageID, style: style) {
            $0.withContent { AttributedText(content: $0) }
        }
    }

    /// What `finish` makes of the builder that holds the text (a prepared text, read from the
    /// builder's buffers: no string or parts object is made).
    package static func build<Result>(
        _ text: String, urls: [URLEntity], topics: [Topic], prefixName: String?,
        removingTrailingURLOf pageID: String?, style: EntityStyle, finish: (borrowing AttributedTextBuilder) -> Result
    ) -> Result {
        var text = text
        if let pageID, !pageID.isEmpty {
            text = removingTrailingURL(text, urls: urls, pageID: pageID)
        }
        return text.withUTF8 { units in
            build(units, urls: urls, topics: topics, prefixName: prefixName, style: style, finish: finish)
        }
    }

    private static func build<Result>(
        _ units: UnsafeBufferPointer<UInt8>, urls: [URLEntity], topics: [Topic], prefixName: String?, style: EntityStyle,
        finish: (borrowing AttributedTextBuilder) -> Result
    ) -> Result {
        // The pieces, matches, image names and output bytes are the thread's buffers, taken out
        // and given back (so that a parse allocates no temporary array).
        let buffers = ParseBuffers.current
        var taken = buffers.take()
        defer { buffers.giveBack(&taken) }
        // Which passes can match at all (one scan): a topic needs "#", a mention "@", an
        // emoticon "[".
        let hasHash = contains(units, hash), hasAt = contains(units, at), hasOpen = contains(units, open)
        taken.pieces.append(TextPiece(range: 0..<units.count, kind: .plain))
        let linkNeedles = urls.lazy.map(\.shortURL)
        if urls.count == 1, var needle = urls.first?.shortURL, !needle.isEmpty {
            needle.withUTF8 { n in split(&taken) { findAll(n, in: units, range: $0, kind: .link(0), into: &$1) } }
        } else if urls.count > 1 {
            var few = FewNeedles(taken.take(\.needles))
            if few.set(urls.lazy.map { ($0.shortURL, false) }) {
                if !few.isEmpty { split(&taken) { few.findAll(in: units, range: $0, kind: { .link($0) }, into: &$1) } }
            } else {
                var matcher = NeedleMatcher(linkNeedles)
                if !matcher.isEmpty { split(&taken) { matcher.findAll(in: units, range: $0, kind: { .link($0) }, into: &$1) } }
            }
            taken.needles = few.storage
        }
        if hasHash && !topics.isEmpty {
            var few = FewNeedles(taken.take(\.needles))
            if few.set(topics.lazy.map { ($0.title, true) }) {
                if !few.isEmpty { split(&taken) { few.findAll(in: units, range: $0, kind: { .topic($0) }, into: &$1) } }
            } else {
                var matcher = NeedleMatcher(topics.lazy.map { $0.title.isEmpty ? "" : "#" + $0.title + "#" })
                if !matcher.isEmpty { split(&taken) { matcher.findAll(in: units, range: $0, kind: { .topic($0) }, into: &$1) } }
            }
            taken.needles = few.storage
        }
        if hasAt {
            split(&taken) { mentions(in: units, range: $0, into: &$1) }
        }
        if hasOpen && style.emoticons.count > 0 {
            var images = taken.take(\.images)
            split(&taken) { emoticons(in: units, range: $0, known: style.emoticons, images: &images, into: &$1) }
            taken.images = images
        }
        // The pieces give the arrays' final sizes: a run per piece at most (plus the prefix's
        // two), an entity per piece that is not plain, an attachment per link and emoticon.
        var entityCount = 0, attachmentCount = 0
        for piece in taken.pieces {
            switch piece.kind {
            case .plain: continue
            case .link, .emoticon: attachmentCount += 1
            case .topic, .mention: break
            }
            entityCount += 1
        }
        let prefixed = prefixName.map { !$0.isEmpty } ?? false
        var out = AttributedTextBuilder(
            attributes: style.plain, capacity: units.count + (prefixName?.utf8.count ?? 0) + 2 + 3 * attachmentCount,
            buffers: taken.takeText(), runs: taken.pieces.count + (prefixed ? 2 : 0), attachments: attachmentCount,
            entities: entityCount + (prefixed ? 1 : 0))
        if let name = prefixName, !name.isEmpty {
            let r = out.append("@", name, attributes: style.link)
            out.addEntity(.mention, range: r, value: name)
            out.append(":", attributes: style.plain)
        }
        for piece in taken.pieces {
            append(piece, units, urls: urls, topics: topics, images: taken.images, to: &out, style: style)
        }
        let result = finish(out)
        out.release(returning: &taken.text)
        return result
    }

    /// The string of `units[range]`: a mention's name (after its "@", the whole characters the
    /// matcher took: ASCII bytes and three-byte sequences) or an emoticon's code (from "[" to
    /// "]"). The text is valid UTF-8 (a `String`'s), where an ASCII byte never occurs inside a
    /// multi-byte sequence, so either slice is whole sequences: it is copied without being
    /// validated again (`StringBytes.string(validUTF8:isASCII:)`; validating cost about 300
    /// instructions a cold cell).
    private static func string(_ units: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        StringBytes.string(validUTF8: UnsafeBufferPointer(rebasing: units[range]), isASCII: false)
    }

    private static func append(
        _ piece: TextPiece, _ units: UnsafeBufferPointer<UInt8>, urls: [URLEntity], topics: [Topic], images: [String],
        to out: inout AttributedTextBuilder, style: EntityStyle
    ) {
        let size = style.plain.size
        let bytes = UnsafeBufferPointer(rebasing: units[piece.range])
        switch piece.kind {
        case .plain:
            out.append(utf8: bytes, attributes: style.plain)
        case .link(let k):
            let url = urls[k]
            let icon = out.appendAttachment(
                width: size, ascent: style.ascentFraction * size, descent: (1 - style.ascentFraction) * size,
                name: "link-icon", attributes: style.link)
            var title = url.title.isEmpty ? "网页链接" : url.title
            // A title of at most that many UTF-16 units has at most that many characters: only a
            // longer one is counted (by grapheme clusters, which is slow).
            if title.utf16.count > style.linkTitleMaxLength && title.count > style.linkTitleMaxLength {
                title = String(title.prefix(style.linkTitleMaxLength)) + "…"
            }
            let r = out.append(title, attributes: style.link)
            out.addEntity(.link, range: icon.lowerBound..<r.upperBound, value: url.shortURL)
        case .topic(let k):
            let r = out.append(utf8: bytes, attributes: style.link)
            out.addEntity(.topic, range: r, value: topics[k].title)
        case .mention:
            // The piece is "@" and the name.
            let r = out.append(utf8: bytes, attributes: style.link)
            out.addEntity(.mention, range: r, value: string(units, piece.range.dropFirst()))
        case .emoticon(let k):
            let code = string(units, piece.range)
            let image = images[k]
            let r = out.appendAttachment(
                width: size, ascent: style.ascentFraction * size, descent: (1 - style.ascentFraction) * size,
                name: image.isEmpty ? code : image, attributes: style.plain)
            out.addEntity(.emoticon, range: r, value: code)
        }
    }

    /// Replaces each plain piece of `b.pieces` by the matches `find` appends for it and the plain
    /// gaps between.
    private static func split(_ b: inout ParseBuffers.Arrays, _ find: (Range<Int>, inout [TextPiece]) -> Void) {
        // Taken out, not copied: a second reference would make the first append copy the storage.
        var scratch = b.take(\.spare), matches = b.take(\.matches)
        scratch.removeAllKeepingCapacity()
        for piece in b.pieces {
            guard case .plain = piece.kind, !piece.range.isEmpty else {
                if !piece.range.isEmpty { scratch.append(piece) }
                continue
            }
            matches.removeAllKeepingCapacity()
            find(piece.range, &matches)
            var at = piece.range.lowerBound
            for m in matches {
                if m.range.lowerBound > at { scratch.append(TextPiece(range: at..<m.range.lowerBound, kind: .plain)) }
                scratch.append(m)
                at = m.range.upperBound
            }
            if at < piece.range.upperBound { scratch.append(TextPiece(range: at..<piece.range.upperBound, kind: .plain)) }
        }
        b.spare = b.take(\.pieces)
        b.pieces = scratch
        b.matches = matches
    }

    /// Whether `byte` occurs in `s`.
    private static func contains(_ s: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Bool {
        next(byte, in: s, from: 0, to: s.count) < s.count
    }

    /// The offset of the first `byte` in `s[from..<to]`, or `to` (`memchr`: a vector scan, not a
    /// loop over bytes).
    private static func next(_ byte: UInt8, in s: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let base = s.baseAddress, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }

    /// Non-overlapping occurrences of `needle`, left to right: candidates by their first byte
    /// (`memchr`), then the rest compared (`memcmp`).
    static func findAll(
        _ needle: UnsafeBufferPointer<UInt8>, in s: UnsafeBufferPointer<UInt8>, range: Range<Int>, kind: TextPiece.Kind,
        into out: inout [TextPiece]
    ) {
        guard let base = s.baseAddress, let n = needle.baseAddress, !needle.isEmpty, range.count >= needle.count else { return }
        let m = needle.count
        var i = range.lowerBound
        let last = range.upperBound - m  // the last offset a match can start at
        while i <= last {
            let at = next(n[0], in: s, from: i, to: last + 1)
            guard at <= last else { return }
            if m == 1 || memcmp(base + at + 1, n + 1, m - 1) == 0 {
                out.append(TextPiece(range: at..<(at + m), kind: kind))
                i = at + m
            } else {
                i = at + 1
            }
        }
    }

    /// The length in bytes of the mention-name character at `i` (`[-_a-zA-Z0-9\u4E00-\u9FA5]`), or 0.
    static func mentionCharacterLength(_ s: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Int {
        let b = s[i]
        switch b {
        case 0x2D, 0x5F, 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return 1
        case 0xE4...0xE9:
            // U+4E00 ... U+9FA5 are the three-byte sequences E4 B8 80 ... E9 BE A5.
            guard i + 2 < end else { return 0 }
            let v = (UInt32(b & 0x0F) << 12) | (UInt32(s[i + 1] & 0x3F) << 6) | UInt32(s[i + 2] & 0x3F)
            return (0x4E00...0x9FA5).contains(v) ? 3 : 0
        default: return 0
        }
    }

    /// Matches of `@[-_a-zA-Z0-9\u4E00-\u9FA5]+`, left to right.
    static func mentions(in s: UnsafeBufferPointer<UInt8>, range: Range<Int>, into out: inout [TextPiece]) {
        var i = range.lowerBound
        while i < range.upperBound {
            i = next(at, in: s, from: i, to: range.upperBound)
            if i < range.upperBound {
                var j = i + 1
                while j < range.upperBound {
                    let n = mentionCharacterLength(s, at: j, end: range.upperBound)
                    if n == 0 { break }
                    j += n
                }
                if j > i + 1 {
                    out.append(TextPiece(range: i..<j, kind: .mention))
                    i = j
                    continue
                }
            }
            i += 1
        }
    }

    /// Matches of `\[[^ \[\]]+?\]` whose text is a known emoticon, left to right.
    /// The image name of each match is appended to `images`; its piece holds the index.
    static func emoticons(
        in s: UnsafeBufferPointer<UInt8>, range: Range<Int>, known: EmoticonTable, images: inout [String],
        into out: inout [TextPiece]
    ) {
        var i = range.lowerBound
        while i < range.upperBound {
            i = next(open, in: s, from: i, to: range.upperBound)
            guard i < range.upperBound else { return }
            var j = i + 1
            while j < range.upperBound && s[j] != close && s[j] != open && s[j] != space { j += 1 }
            if j < range.upperBound && s[j] == close && j > i + 1 {
                if let image = known.imageName(utf8: UnsafeBufferPointer(rebasing: s[i..<(j + 1)])) {
                    out.append(TextPiece(range: i..<(j + 1), kind: .emoticon(images.count)))
                    images.append(image)
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
    }

    /// `text` without a short URL of `urls` pointing at `pageID` that ends it (trailing white
    /// space ignored) and the white space before that URL; `text` itself when none does. The
    /// URL ends the text when it is the text's last characters (`hasSuffix`).
    ///
    /// A short URL is ASCII: the text ends with it as characters exactly when it ends with its
    /// bytes and a character starts at the first of them (every ASCII character is its own
    /// grapheme cluster but CR LF, the same in both, and no other characters are canonically
    /// equivalent to ASCII ones), which is tested by bytes and one boundary check: comparing
    /// characters from the end and counting them back cost ~17 000 instructions a card (0.9 M of
    /// 1 030 cold cells). Another URL is compared as characters.
    private static func removingTrailingURL(_ text: String, urls: [URLEntity], pageID: String) -> String {
        var text = text
        let end = text.withUTF8 { whiteSpaceStart(before: $0.count, in: $0) }
        for url in urls where url.pageID == pageID && !url.shortURL.isEmpty {
            var short = url.shortURL
            let n = short.utf8.count
            guard short.withUTF8({ $0.allSatisfy { $0 < 0x80 } }) else {
                let body = text[..<text.utf8.index(text.utf8.startIndex, offsetBy: end)]
                guard body.hasSuffix(url.shortURL) else { continue }
                // The URL is the body's last `count` characters (its scalars may differ from the
                // text's, by canonical equivalence).
                let start = body.index(body.endIndex, offsetBy: -url.shortURL.count)
                return prefix(text, before: text.utf8.distance(from: text.utf8.startIndex, to: start))
            }
            guard n <= end else { continue }
            let bytesEqual = text.withUTF8 { t in short.withUTF8 { u in memcmp(t.baseAddress! + (end - n), u.baseAddress!, n) == 0 } }
            guard bytesEqual, text.utf8.index(text.utf8.startIndex, offsetBy: end - n).samePosition(in: text) != nil else { continue }
            return prefix(text, before: end - n)
        }
        return text
    }

    /// `text` up to the white space that ends `text[..<offset]` (a UTF-8 offset on a scalar boundary).
    private static func prefix(_ text: String, before offset: Int) -> String {
        var text = text
        let cut = text.withUTF8 { whiteSpaceStart(before: offset, in: $0) }
        return String(text[..<text.utf8.index(text.utf8.startIndex, offsetBy: cut)])
    }

    /// The start of the white space (`Unicode.Scalar.Properties.isWhitespace`) that ends
    /// `s[..<end]`, scalar by scalar from `end` (a scalar boundary of valid UTF-8): `end` when
    /// none does.
    static func whiteSpaceStart(before end: Int, in s: UnsafeBufferPointer<UInt8>) -> Int {
        var end = end
        while end > 0 {
            var start = end - 1
            while s[start] & 0xC0 == 0x80 { start -= 1 }
            let b = s[start]
            let white: Bool
            if b < 0x80 {
                white = b == space || (0x09...0x0D).contains(b)
            } else {
                var decoder = UTF8()
                var bytes = s[start..<end].makeIterator()
                guard case .scalarValue(let scalar) = decoder.decode(&bytes) else { return end }
                white = scalar.properties.isWhitespace
            }
            if !white { return end }
            end = start
        }
        return end
    }

    private static let at: UInt8 = 0x40, open: UInt8 = 0x5B, close: UInt8 = 0x5D, space: UInt8 = 0x20, hash: UInt8 = 0x23
}

/// The temporary arrays of a status-text parse, kept per thread (`ThreadLocalObject`) and reused: a
/// parse takes them out (leaving empty arrays), and gives them back emptied with their capacity.
final class ParseBuffers {
    private static let slot = ThreadLocalObject { ParseBuffers() }

    /// This thread's buffers.
    static var current: ParseBuffers { slot.current }

    struct Arrays {
        var pieces: [TextPiece] = []
        var spare: [TextPiece] = []
        var matches: [TextPiece] = []
        var images: [String] = []
        /// The buffers of an attributed text's builder (its UTF-16 units and parts).
        var text = AttributedTextBuilder.Buffers()
        var needles: [UInt8] = []

        /// The array at `field`, leaving an empty one there (so that the caller holds the only
        /// reference to its storage).
        mutating func take<T>(_ field: WritableKeyPath<Arrays, [T]>) -> [T] {
            var out: [T] = []
            swap(&out, &self[keyPath: field])
            return out
        }

        /// The builder's buffers, leaving empty ones.
        mutating func takeText() -> AttributedTextBuilder.Buffers {
            var out = AttributedTextBuilder.Buffers()
            swap(&out, &text)
            return out
        }
    }

    private var kept = Arrays()

    func take() -> Arrays {
        var out = Arrays()
        swap(&out, &kept)
        return out
    }

    /// Keeps the arrays for the thread's next parse, emptied; those a long text grew past
    /// `largestKept` elements are dropped with it.
    func giveBack(_ a: inout Arrays) {
        func keep<T>(_ array: inout [T]) {
            if array.capacity > Self.largestKept { array = [] } else { array.removeAllKeepingCapacity() }
        }
        keep(&a.pieces)
        keep(&a.spare)
        keep(&a.matches)
        keep(&a.images)
        if a.text.largestCapacity > Self.largestKept { a.text = AttributedTextBuilder.Buffers() } else { a.text.removeAll() }
        keep(&a.needles)
        swap(&kept, &a)
    }

    static let largestKept = 1 << 14
}

/// Leftmost-longest matching of a few short needles, as `NeedleMatcher` matches them, without
/// building a trie: at each position that starts a needle, every needle is compared (`memcmp`)
/// and the longest that matches wins (of equal needles, the first). A status names a few short
/// URLs and topics, for which this costs less than the trie's tables, and allocates nothing: the
/// needles' bytes sit in one buffer the thread reuses (`ParseBuffers`).
///
/// Bound: at most `maxCount` needles of `maxBytes` bytes in all, so a position costs at most
/// `maxBytes` compared bytes; longer or more needles go to `NeedleMatcher`.
struct FewNeedles {
    static let maxCount = 8
    static let maxBytes = 256
    /// The needles' bytes, one after another.
    private(set) var storage: [UInt8]
    /// Each needle's end in `storage` (its start is the previous one's end); index = the needle's.
    private var ends: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    /// Which bytes start a non-empty needle.
    private var first = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))

    /// - Parameter storage: an empty array whose capacity is reused.
    init(_ storage: consuming [UInt8]) {
        self.storage = consume storage
        self.storage.removeAllKeepingCapacity()
    }

    var isEmpty: Bool { first == (0, 0, 0, 0) }

    /// Sets the needles: each a string, or with `hashes`, "#" + the string + "#" (an empty string
    /// is an empty needle either way, which never matches).
    /// - Returns: false (and no needles) when there are more than `maxCount` or their bytes
    ///   exceed `maxBytes`.
    mutating func set<S: Sequence>(_ needles: S) -> Bool where S.Element == (String, Bool) {
        storage.removeAllKeepingCapacity()
        count = 0
        first = (0, 0, 0, 0)
        for (string, hashes) in needles {
            guard count < Self.maxCount else { return fail() }
            let n = string.utf8.count
            if n > 0 {
                guard storage.count + n + (hashes ? 2 : 0) <= Self.maxBytes else { return fail() }
                if hashes { storage.append(0x23) }
                storage.append(contentsOf: string.utf8)
                if hashes { storage.append(0x23) }
                let b = storage[storage.count - n - (hashes ? 2 : 0)]
                switch b >> 6 {
                case 0: first.0 |= 1 << (b & 63)
                case 1: first.1 |= 1 << (b & 63)
                case 2: first.2 |= 1 << (b & 63)
                default: first.3 |= 1 << (b & 63)
                }
            }
            withUnsafeMutableBytes(of: &ends) { $0.storeBytes(of: storage.count, toByteOffset: count * 8, as: Int.self) }
            count += 1
        }
        return true
    }

    private mutating func fail() -> Bool {
        storage.removeAll(keepingCapacity: true)
        count = 0
        first = (0, 0, 0, 0)
        return false
    }

    private func starts(_ b: UInt8) -> Bool {
        let word =
            switch b >> 6 {
            case 0: first.0
            case 1: first.1
            case 2: first.2
            default: first.3
            }
        return word & (1 << (b & 63)) != 0
    }

    /// Appends the leftmost-longest non-overlapping matches in `s[range]`, left to right.
    func findAll(
        in s: UnsafeBufferPointer<UInt8>, range: Range<Int>, kind: (Int) -> TextPiece.Kind, into out: inout [TextPiece]
    ) {
        guard !isEmpty, !range.isEmpty, let base = s.baseAddress else { return }
        withUnsafeBytes(of: ends) { endBytes in
            storage.withUnsafeBufferPointer { needles in
                guard let nb = needles.baseAddress else { return }
                var p = range.lowerBound
                while p < range.upperBound {
                    if !starts(base[p]) {
                        p += 1
                        continue
                    }
                    var best = -1, bestLength = 0, start = 0
                    for k in 0..<count {
                        let end = endBytes.load(fromByteOffset: k * 8, as: Int.self)
                        let length = end - start
                        if length > bestLength && length <= range.upperBound - p && memcmp(base + p, nb + start, length) == 0 {
                            best = k
                            bestLength = length
                        }
                        start = end
                    }
                    if best >= 0 {
                        out.append(TextPiece(range: p..<(p + bestLength), kind: kind(best)))
                        p += bestLength
                    } else {
                        p += 1
                    }
                }
            }
        }
    }
}

/// Leftmost-longest matching of several needles (see the file comment's cost model).
///
/// Needles are kept in a trie keyed by (node, byte); an empty needle never matches; of equal
/// needles the first one's index is reported.
struct NeedleMatcher {
    /// Edges of the forward trie: node << 8 | byte → child.
    private var edges: [Int: Int32] = [:]
    /// Per node of the forward trie: the index of the needle ending there, or -1.
    private var terminal: [Int32] = [-1]
    private var lengths: [Int] = []
    private var indices: [Int] = []
    /// First bytes of the needles.
    private var firstBytes = [Bool](repeating: false, count: 256)
    private var firstByteCount = 0
    private var onlyFirstByte: UInt8 = 0
    /// Trie steps taken by `findAll` so far (each call), against the budget that switches to
    /// the automaton.
    private var steps = 0
    /// The reversed automaton, built on first need.
    private var reversed: ReversedAutomaton?
    private var needles: [[UInt8]] = []

    init<S: Sequence>(_ strings: S) where S.Element == String {
        for (k, s) in strings.enumerated() where !s.isEmpty {
            let bytes = Array(s.utf8)
            var node = 0
            for b in bytes {
                let key = node << 8 | Int(b)
                if let child = edges[key] {
                    node = Int(child)
                } else {
                    terminal.append(-1)
                    edges[key] = Int32(terminal.count - 1)
                    node = terminal.count - 1
                }
            }
            if terminal[node] < 0 {
                terminal[node] = Int32(lengths.count)
                lengths.append(bytes.count)
                indices.append(k)
                needles.append(bytes)
                if !firstBytes[Int(bytes[0])] {
                    firstBytes[Int(bytes[0])] = true
                    firstByteCount += 1
                    onlyFirstByte = bytes[0]
                }
            }
        }
    }

    var isEmpty: Bool { lengths.isEmpty }

    /// Appends the leftmost-longest non-overlapping matches in `s[range]`, left to right.
    mutating func findAll(
        in s: UnsafeBufferPointer<UInt8>, range: Range<Int>, kind: (Int) -> TextPiece.Kind, into out: inout [TextPiece]
    ) {
        guard !lengths.isEmpty, !range.isEmpty, let base = s.baseAddress else { return }
        // Trie walks from candidate positions, within a budget of a few times the text.
        let budget = 8 * range.count + 4096
        var p = range.lowerBound
        let start = out.count
        while p < range.upperBound {
            // The next candidate: a byte that starts a needle.
            if firstByteCount == 1 {
                guard let hit = memchr(base + p, Int32(onlyFirstByte), range.upperBound - p) else { return }
                p = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            } else {
                while p < range.upperBound && !firstBytes[Int(s[p])] { p += 1 }
                if p == range.upperBound { return }
            }
            var node = 0, q = p, best = -1
            while q < range.upperBound, let child = edges[node << 8 | Int(s[q])] {
                node = Int(child)
                q += 1
                if terminal[node] >= 0 { best = Int(terminal[node]) }
            }
            steps += q - p
            if steps > budget {
                // Needles built to make the walks long: the linear automaton takes over.
                out.removeSubrange(start...)
                if reversed == nil { reversed = ReversedAutomaton(needles) }
                reversed!.findAll(in: s, range: range, lengths: lengths, kind: { kind(indices[$0]) }, into: &out)
                steps = 0
                return
            }
            if best >= 0 {
                out.append(TextPiece(range: p..<(p + lengths[best]), kind: kind(indices[best])))
                p += lengths[best]
            } else {
                p += 1
            }
        }
    }
}

/// Aho-Corasick automaton over reversed needles: a backward pass gives, at each position, the
/// longest needle starting there. O(text) per pass (failure links amortized), O(needles) to build.
struct ReversedAutomaton {
    private var edges: [Int: Int32] = [:]
    private var fail: [Int32] = [0]
    /// Per node: the longest needle that is a suffix of the node's string (own or by failure), or -1.
    private var longest: [Int32] = [-1]

    init(_ needles: [[UInt8]]) {
        var own: [Int32] = [-1]
        for (k, n) in needles.enumerated() {
            var node = 0
            for b in n.reversed() {
                let key = node << 8 | Int(b)
                if let child = edges[key] {
                    node = Int(child)
                } else {
                    own.append(-1)
                    edges[key] = Int32(own.count - 1)
                    node = own.count - 1
                }
            }
            if own[node] < 0 { own[node] = Int32(k) }
        }
        // Children per node, for the breadth-first pass.
        var children = [[(UInt8, Int32)]](repeating: [], count: own.count)
        for (key, child) in edges { children[key >> 8].append((UInt8(key & 0xFF), child)) }
        fail = Array(repeating: 0, count: own.count)
        longest = own
        var queue: [Int] = [0]
        var head = 0
        while head < queue.count {
            let u = queue[head]
            head += 1
            for (b, v) in children[u] {
                let v = Int(v)
                if u != 0 {
                    var f = Int(fail[u])
                    while f != 0 && edges[f << 8 | Int(b)] == nil { f = Int(fail[f]) }
                    if let t = edges[f << 8 | Int(b)], Int(t) != v { fail[v] = t }
                }
                if longest[v] < 0 { longest[v] = longest[Int(fail[v])] }
                queue.append(v)
            }
        }
    }

    func findAll(
        in s: UnsafeBufferPointer<UInt8>, range: Range<Int>, lengths: [Int], kind: (Int) -> TextPiece.Kind,
        into out: inout [TextPiece]
    ) {
        var best = [Int32](repeating: -1, count: range.count)
        var node = 0
        var p = range.upperBound
        while p > range.lowerBound {
            p -= 1
            let b = Int(s[p])
            while node != 0 && edges[node << 8 | b] == nil { node = Int(fail[node]) }
            node = edges[node << 8 | b].map(Int.init) ?? 0
            best[p - range.lowerBound] = longest[node]
        }
        p = range.lowerBound
        while p < range.upperBound {
            let k = best[p - range.lowerBound]
            if k >= 0 {
                out.append(TextPiece(range: p..<(p + lengths[Int(k)]), kind: kind(Int(k))))
                p += lengths[Int(k)]
            } else {
                p += 1
            }
        }
    }
}
