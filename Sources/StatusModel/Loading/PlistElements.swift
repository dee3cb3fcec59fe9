// Large property lists read on several threads. A model plist (a root dict whose `statuses` is
// an array, what `generate --format plist` writes) is mostly its statuses: a scan of an XML
// list's tags alone (about a tenth of the reader's cost per byte) finds where each status
// starts, or a binary list's measure (its first pass) gives each status's object; the document
// without them is read and checked at once, and batches of statuses are then read into tapes of
// their own and decoded by whichever worker takes them, as JSON Lines are. Loaded whole on one
// thread, 20 000 statuses (64 MB of XML) took 0.67 s before the first cell was laid out.
//
// The split changes nothing a user sees. A binary list is measured whole first, as the whole
// load measures it (cycles, depth, the expansion limit), and its batches write the same objects
// the whole load writes. The XML scan follows the tokens the reader follows
// (comments, CDATA, processing instructions, a DOCTYPE, quoted attribute values), and a batch is
// read by the same reader, starting where the whole read would be between two elements of the
// array, with the same nesting limit. A document the scan does not follow (another root, a key
// written with an entity, an encoding other than UTF-8) is loaded whole. When a batch or the
// document around the statuses fails, the whole load runs and its error is the one reported, so
// every error is the whole load's: the same reason, line and column, and the same first problem.
import Foundation

/// A model property list's statuses, found (by their start tags, or their objects' references)
/// to be read in batches.
package struct PlistElements: Sendable {
    /// The input's name in errors.
    package let fileName: String
    let options: LoadOptions
    /// The whole document.
    let bytes: [UInt8]
    let statuses: Statuses

    /// Where the statuses are.
    enum Statuses {
        /// An XML list: the offset of each status's start tag, and the array's content (just after
        /// its start tag to its end tag).
        case xml(starts: [Int], contentStart: Int, contentEnd: Int)
        /// A binary list: each status's object.
        case binary(objects: [Int])
    }

    /// Statuses in the document.
    package var statusCount: Int {
        switch statuses {
        case .xml(let starts, _, _): starts.count
        case .binary(let objects): objects.count
        }
    }

    /// Documents smaller than this are loaded whole: one batch, nothing to share out.
    package static let minimumBytes = 1 << 21

    /// The statuses of the model property list `bytes`, or nil when it is to be loaded whole
    /// (smaller than `minimumBytes`, another root than a dict with a non-empty `statuses`
    /// array, an XML document the tag scan does not follow or in another encoding than UTF-8,
    /// or a document whose part around the statuses is not valid: the whole load reports it).
    package static func split(
        _ bytes: [UInt8], fileName: String, options: LoadOptions, minimumBytes: Int = minimumBytes
    ) -> PlistElements? {
        // (From 4 GiB the whole load refuses a document; its batches would each be smaller.)
        guard bytes.count >= minimumBytes, bytes.count < Int(UInt32.max), options.format == nil || options.format == .modelPlist,
            options.maxNestingDepth > 2
        else { return nil }
        // The document without its statuses, decoded as the whole load decodes it (root keys,
        // what follows the array), gives no status and no error.
        func acceptsOutside<N: DecodedNode>(_ root: N) -> Bool {
            guard let result = try? FeedLoader.decodePlist(root, fileName: fileName, options: options) else { return false }
            return result.feed.format == .modelPlist && result.feed.statuses.isEmpty && result.skipped.isEmpty
        }
        if bytes.starts(with: Array("bplist".utf8)) {
            let objects = bytes.withUnsafeBufferPointer { all in
                BinaryPlistReader.statusesElements(all, maxDepth: options.maxNestingDepth) { content, tape in
                    tape.withDocument(content) { acceptsOutside($0.root) }
                }
            }
            guard let objects else { return nil }
            return PlistElements(fileName: fileName, options: options, bytes: bytes, statuses: .binary(objects: objects))
        }
        // Another declared encoding is transcoded by the whole load; offsets here are the file's.
        guard let utf8 = XMLPlistReader.utf8Bytes(bytes).bytes, utf8.count == bytes.count,
            let found = bytes.withUnsafeBufferPointer({ PlistTagScan.statuses(in: $0) })
        else { return nil }
        var outside = Array(bytes[0..<found.contentStart])
        outside += bytes[found.contentEnd...]
        guard (try? FeedLoader.withPlist(outside, fileName: fileName, maxDepth: options.maxNestingDepth) { acceptsOutside($0) }) == true
        else { return nil }
        return PlistElements(
            fileName: fileName, options: options, bytes: bytes,
            statuses: .xml(starts: found.starts, contentStart: found.contentStart, contentEnd: found.contentEnd))
    }

    /// The bytes of statuses `range` of an XML list: from the first one's start tag (the
    /// array's content for the first status) to the next status's (the array's end tag after
    /// the last).
    static func span(_ range: Range<Int>, starts: [Int], contentStart: Int, contentEnd: Int) -> Range<Int> {
        let lower = range.lowerBound == 0 ? contentStart : starts[range.lowerBound]
        let upper = range.upperBound == starts.count ? contentEnd : starts[range.upperBound]
        return lower..<upper
    }

    /// The bytes of statuses `range` in the document, for batch sizes (a binary list's
    /// statuses share their objects: its bytes over its statuses, for each).
    package func byteCount(_ range: Range<Int>) -> Int {
        switch statuses {
        case .xml(let starts, let contentStart, let contentEnd):
            Self.span(range, starts: starts, contentStart: contentStart, contentEnd: contentEnd).count
        case .binary(let objects): range.count * (bytes.count / max(1, objects.count))
        }
    }

    /// The error of the whole load of the document, which a batch's failure stands for (nil if
    /// the whole load succeeds, which a failing batch rules out).
    func wholeLoadError() -> StatusModelError? {
        do {
            _ = try FeedLoader.loadPlist(bytes, fileName: fileName, options: options)
            return nil
        } catch {
            return error
        }
    }
}

/// Reads and decodes batches of a `PlistElements`' statuses; keeps its tape's buffers from one
/// batch to the next.
///
/// Thread-safety: a value; use one per thread.
package struct PlistElementsDecoder {
    private var tape = JSONTape()
    private var recentSources = RecentSources()

    package init() {}

    /// Calls `body` with each status of `range` in `elements`, in order.
    ///
    /// Returns the statuses skipped (with `skipInvalid`); otherwise the first invalid status
    /// throws. Any failure is reported as the whole load reports the document's first problem.
    package mutating func decode(
        _ elements: PlistElements, statuses range: Range<Int>, _ body: (Status) -> Void
    ) throws(StatusModelError) -> [SkippedStatus] {
        if !isKnownUniquelyReferenced(&recentSources) { recentSources = RecentSources() }
        let options = elements.options
        let fileName = elements.fileName
        var content: [UInt8]
        switch elements.statuses {
        case .xml(let starts, let contentStart, let contentEnd):
            let span = PlistElements.span(range, starts: starts, contentStart: contentStart, contentEnd: contentEnd)
            do throws(XMLPlistReader.Failure) {
                // The statuses sit in the root dict's array: the batch's own root array is one level.
                content = try elements.bytes.withUnsafeBufferPointer { (all) throws(XMLPlistReader.Failure) -> [UInt8] in
                    try XMLPlistReader.readElements(
                        UnsafeBufferPointer(rebasing: all[span]), maxDepth: options.maxNestingDepth - 1, into: &tape)
                }
            } catch {
                throw elements.wholeLoadError() ?? .malformed(file: fileName, format: "property list", line: nil, reason: error.reason)
            }
        case .binary(let objects):
            do throws(BinaryPlistReader.Failure) {
                // Measured with the whole file when it was split: depth and expansion are known.
                content = try elements.bytes.withUnsafeBufferPointer { (all) throws(BinaryPlistReader.Failure) -> [UInt8] in
                    try BinaryPlistReader.readElements(all, refs: objects[range], into: &tape)
                }
            } catch {
                throw elements.wholeLoadError() ?? .malformed(file: fileName, format: "property list", line: nil, reason: "\(error)")
            }
        }
        content.append(contentsOf: repeatElement(0, count: 8))
        let recentSources = recentSources
        let decoded = content.withUnsafeBufferPointer { bytes in
            tape.withDocument(bytes) { (document) -> ([Status], [SkippedStatus])? in
                try? FeedLoader.decodeAll(
                    document.root.elements.map(\.rerooted), prefix: "statuses", fileName: fileName, classic: false, options: options,
                    firstIndex: range.lowerBound, recentSources: recentSources)
            }
        }
        guard let decoded else {
            throw elements.wholeLoadError() ?? .malformed(file: fileName, format: "property list", line: nil, reason: "a status that is not valid")
        }
        decoded.0.forEach(body)
        return decoded.1
    }
}

/// A scan of an XML property list's tags that finds its `statuses` array's elements, without
/// reading what is between the tags (text holds no `<`: it is written `&lt;`).
enum PlistTagScan {
    /// The start tags of the elements of the root dict's `statuses` array, and the array's
    /// content; nil for any other document, or one the scan does not follow.
    static func statuses(in b: UnsafeBufferPointer<UInt8>) -> (starts: [Int], contentStart: Int, contentEnd: Int)? {
        guard let base = b.baseAddress else { return nil }
        let n = b.count
        @inline(__always) func has(_ s: StaticString, at i: Int) -> Bool { XMLPlistReader.starts(s, in: b, at: i) }
        func find(_ s: StaticString, from: Int) -> Int? { XMLPlistReader.find(s, in: b, from: from) }
        // The next '<' at or after `i`: eight bytes at a time (text between tags is short, so a
        // call to memchr per tag cost more than the search).
        @inline(__always) func nextTag(_ i: Int) -> Int? {
            var i = JSONTape.skipUnflagged(base, from: i, to: n) { w in
                let x = w ^ 0x3C3C_3C3C_3C3C_3C3C
                return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            }
            while i < n {
                if base[i] == UInt8(ascii: "<") { return i }
                i += 1
            }
            return nil
        }
        var p = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var depth = 0  // open dicts and arrays
        var rootSeen = false
        var statusesKey = false  // the root dict's last key was `statuses`, its value not yet seen
        var contentStart = -1
        var starts: [Int] = []
        while let t = nextTag(p) {
            guard t + 1 < n else { return nil }
            let c = b[t + 1]
            if c == UInt8(ascii: "!") {
                if has("<!--", at: t) {
                    guard let end = find("-->", from: t + 4) else { return nil }
                    p = end + 3
                } else if has("<![CDATA[", at: t) {
                    guard let end = find("]]>", from: t + 9) else { return nil }
                    p = end + 3
                } else {
                    // A DOCTYPE, before the root only; its internal subset may hold '>'.
                    guard !rootSeen, has("<!DOCTYPE", at: t), let end = XMLPlistReader.doctypeEnd(b, from: t + 9) else { return nil }
                    p = end
                }
                continue
            }
            if c == UInt8(ascii: "?") {
                guard let end = find("?>", from: t + 2) else { return nil }
                p = end + 2
                continue
            }
            let isEnd = c == UInt8(ascii: "/")
            let nameStart = t + (isEnd ? 2 : 1)
            if depth >= 2 && nameStart < n && b[nameStart] != UInt8(ascii: "d") && b[nameStart] != UInt8(ascii: "a") {
                // Inside the root's members only dicts and arrays count: the other tags (keys,
                // strings, numbers: most of them) need not be read. No '<' is inside a tag.
                if !isEnd && depth == 2 && contentStart >= 0 { starts.append(t) }
                p = nameStart
                continue
            }
            // A plist's names are letters; another name byte after them makes a name the scan
            // does not act on.
            var q = nameStart
            while q < n, (b[q] | 0x20) &- UInt8(ascii: "a") < 26 { q += 1 }
            var name = tagName(base + nameStart, count: q - nameStart)
            if q < n && XMLPlistReader.isNameByte(b[q]) {
                name = .other
                while q < n, XMLPlistReader.isNameByte(b[q]) { q += 1 }
            }
            let nameEnd = q
            // Attributes or white space: on to the '>' (quoted values may hold one).
            if q < n && b[q] != UInt8(ascii: ">") { q = XMLPlistReader.tagEnd(b, from: q) }
            guard q < n, nameEnd > nameStart else { return nil }
            let empty = !isEnd && b[q - 1] == UInt8(ascii: "/") && q - 1 >= nameEnd
            p = q + 1
            let container = name == .dict || name == .array
            if isEnd {
                if container {
                    depth -= 1
                    if contentStart >= 0 && depth == 1 { return starts.isEmpty ? nil : (starts, contentStart, t) }
                    if depth < 1 { return nil }
                }
                continue
            }
            if contentStart >= 0 && depth == 2 { starts.append(t) }
            if depth == 0 {
                // The root: a dict, once (`<plist>` around it is not counted).
                if name == .plist && !rootSeen { continue }
                guard name == .dict, !rootSeen, !empty else { return nil }
                rootSeen = true
                depth = 1
                continue
            }
            if depth == 1 && contentStart < 0 {
                if name == .key {
                    // The key's text, written plainly, up to `</key>`.
                    guard !empty, let end = nextTag(p) else { return nil }
                    guard has("</key>", at: end), memchr(base + p, Int32(UInt8(ascii: "&")), end - p) == nil else { return nil }
                    statusesKey = end - p == 8 && has("statuses", at: p)
                    p = end + 6
                    continue
                }
                if statusesKey {
                    guard name == .array, !empty else { return nil }
                    contentStart = p
                    depth = 2
                    statusesKey = false
                    continue
                }
            }
            if container && !empty { depth += 1 }
        }
        return nil
    }

    /// The names the scan acts on (`dict`, `array`, `key`, `plist`), `.other` for the rest:
    /// compared as words, for the millions of tags of a large feed.
    @inline(__always)
    private static func tagName(_ at: UnsafePointer<UInt8>, count: Int) -> XMLPlistReader.Name {
        guard count >= 3 && count <= 5 else { return .other }
        let raw = UnsafeRawPointer(at)
        if count == 3 {
            return at[0] == UInt8(ascii: "k") && at[1] == UInt8(ascii: "e") && at[2] == UInt8(ascii: "y") ? .key : .other
        }
        let head = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
        @inline(__always) func word(_ s: StaticString) -> UInt32 {
            UInt32(littleEndian: UnsafeRawPointer(s.utf8Start).loadUnaligned(as: UInt32.self))
        }
        if count == 4 { return head == word("dict") ? .dict : .other }
        if head == word("arra") && at[4] == UInt8(ascii: "y") { return .array }
        if head == word("plis") && at[4] == UInt8(ascii: "t") { return .plist }
        return .other
    }
}
