// Weibo JSON documents as streams: a reader that finds the elements of a document's statuses array
// (the root array, or the array of the root object's "statuses" member) and cuts them into chunks
// of whole elements, and a decoder that parses each element into a tape of its own and decodes it
// as the whole-document load decodes it. The two are separate, as for JSON Lines, so that chunks
// are decoded on several threads while one thread reads, and the reader numbers the elements as it
// cuts, so a chunk decodes to the same statuses and the same errors wherever it is decoded.
//
// The reader follows the document's outer structure with the parser's own rules and messages: the
// root, the root object's keys (unique, as in every object), colons and commas, the array's commas
// and brackets, nothing after the root. Every value in that structure is first delimited by a scan
// that follows strings, escapes and nesting, then parsed by the loader's parser (`JSONTape`) from
// its first byte, with a few bytes after it: the root object's other members by the reader, the
// array's elements by the decoder. The parser decides whether a value is well formed and where it
// ends, so a document gives the same statuses and the same errors as when it is loaded whole: the
// same kind, file, status index, id and key path, and for syntax errors the same reason, line and
// column. Memory holds one chunk and the longest element, whatever the document's length.
//
// Two differences with the whole load. Problems are met in document order, so of two problems in
// one document the first one is reported (the whole load reports a syntax error anywhere before
// any invalid status, and a duplicate key at the root once the root has closed). And a document of
// more than 4 GiB is read (the whole load's tape refuses it; an element is still limited to that).
import Foundation

/// Whole elements of a JSON document's statuses array, with the bytes around them.
package struct JSONElementsChunk: Sendable {
    /// The document's bytes from the first element's first byte to a few bytes past the last
    /// one's end (what the parser may look at when an element is not well formed).
    package let bytes: [UInt8]
    /// Each element's bytes in `bytes`, in order.
    package let elements: [Range<Int>]
    /// The index of the first element among the array's elements.
    package let firstIndex: Int
    /// The array's key path, `statuses` or empty for a root array: errors name `keyPath[index]`.
    package let keyPath: String
    /// The nesting depth of the array's elements: 1 in a root array, 2 in the root's `statuses`.
    package let depth: Int
    /// The 1-based line and column of `bytes[0]` in the document (for syntax errors).
    package let line: Int
    package let column: Int

    /// Elements in the chunk (statuses, valid or not).
    package var statusCount: Int { elements.count }

    /// The 1-based line and column in the document of the byte at `offset` in `bytes`: lines
    /// counted as the whole load counts them (every line feed).
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = self.line
        var lineStart: Int?
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        guard let lineStart else { return (line, column + offset) }
        return (line, offset - lineStart + 1)
    }
}

/// Reads a Weibo JSON document (a root array of statuses, or a root object with `statuses`) as
/// chunks of whole elements of its statuses array, in order, and checks the rest of the document
/// as the whole load does (see the file comment). Memory is bounded by the chunk size and the
/// longest element.
///
/// Thread-safety: one reader is used by one thread at a time.
package final class JSONDocumentReader {
    /// The input's name in errors (the path as given, or `<stdin>`).
    package let fileName: String
    private let file: InputFile
    private let maxDepth: Int
    private let readBytes: Int
    /// Bytes of the document from offset `base` on. Offsets count from after a byte order mark,
    /// as the whole load's lines and columns do.
    private var pending: [UInt8] = []
    private var base = 0
    /// The offset of the next byte of the structure to read.
    private var position = 0
    /// The first offset still needed (the chunk being gathered, or the value being delimited);
    /// nil when nothing before `position` is.
    private var anchor: Int?
    private var atEnd = false
    private var started = false
    private var byteOrderMark = false
    /// Line feeds before `base`, and the offset where the line holding `base` starts.
    private var linesBeforeBase = 0
    private var lineStartBeforeBase = 0
    private var stage = Stage.root
    /// Where the statuses array sits: its elements' depth and key path.
    private var elementDepth = 1
    private var keyPath = ""
    private var nextIndex = 0
    /// The root object's keys so far (unescaped), for the duplicate-key rule.
    private var rootKeys = Set<[UInt8]>()
    private var foundStatuses = false
    /// A wrong root, or a `statuses` that is not an array: reported once the document was read to
    /// its end without a syntax error, as the whole load reports it after parsing.
    private var rootProblem: StatusModelError?
    /// An error met after the elements of the chunk last returned: thrown by the next call.
    private var failure: StatusModelError?
    /// The parser of the values the reader checks itself (keys, the root's other members).
    private var tape = JSONTape()

    /// Where the reader is in the document's structure.
    private enum Stage {
        /// Before the root value.
        case root
        /// In the root object, a key expected.
        case key
        /// After a root member's value: `,` or `}` expected.
        case afterMember
        /// In the statuses array, an element expected.
        case element
        /// After an element: `,` or `]` expected.
        case afterElement
        /// After the root value: only white space may follow.
        case afterRoot
        case finished
    }

    /// Bytes kept past each value for the parser: where a value is not well formed, the parser
    /// decides from at most 12 bytes past the byte it fails at.
    static let lookahead = 16
    static let expectedRoot = "an array of statuses or an object with \"statuses\""

    /// Opens the file at `url`.
    /// - Parameter readBytes: bytes read at a time.
    package convenience init(url: URL, options: LoadOptions = LoadOptions(), readBytes: Int = 1 << 20) throws(StatusModelError) {
        self.init(file: try InputFile(url: url), options: options, readBytes: readBytes)
    }

    /// Reads from an open file descriptor (standard input is 0), after `prefix`: bytes already
    /// read from it (to detect its format). The descriptor is not closed.
    package convenience init(
        fileDescriptor: Int32, fileName: String, prefix: [UInt8] = [], options: LoadOptions = LoadOptions(), readBytes: Int = 1 << 20
    ) {
        self.init(file: InputFile(descriptor: fileDescriptor, name: fileName, prefix: prefix), options: options, readBytes: readBytes)
    }

    init(file: InputFile, options: LoadOptions, readBytes: Int = 1 << 20) {
        self.file = file
        fileName = file.name
        maxDepth = options.maxNestingDepth
        self.readBytes = max(1, readBytes)
    }

    /// The next chunk: whole elements of about `targetBytes` (more when one element is longer),
    /// and at most `maxStatuses` of them; nil after the last.
    /// - Throws: `.unreadable` when reading fails; what the whole load throws for the document's
    ///   structure (`.empty`, `.malformed`, `.nestingTooDeep`, `.wrongRoot`, `.typeMismatch` for a
    ///   `statuses` that is not an array). An error met after some elements is thrown by the call
    ///   after the one that returns them, so that it comes after them in input order.
    package func next(targetBytes: Int = 1 << 20, maxStatuses: Int = .max) throws(StatusModelError) -> JSONElementsChunk? {
        if let failure {
            self.failure = nil
            throw failure
        }
        var elements: [Range<Int>] = []
        do throws(StatusModelError) {
            try advance(gathering: &elements, targetBytes: max(1, targetBytes), maxStatuses: max(1, maxStatuses))
        } catch {
            stage = .finished
            guard !elements.isEmpty else { throw error }
            failure = error
        }
        guard !elements.isEmpty else { return nil }
        return cut(elements)
    }

    // MARK: - The structure

    /// Reads the structure until `elements` holds about `targetBytes` of elements or
    /// `maxStatuses` elements, the array ends, or the document does.
    private func advance(gathering elements: inout [Range<Int>], targetBytes: Int, maxStatuses: Int) throws(StatusModelError) {
        while true {
            switch stage {
            case .root:
                try readRoot()
            case .key:
                try readMember()
            case .afterMember:
                guard let c = try peek() else { throw endOfData() }
                if c == UInt8(ascii: ",") {
                    position += 1
                    stage = .key
                } else if c == UInt8(ascii: "}") {
                    position += 1
                    stage = .afterRoot
                    if !foundStatuses {
                        rootProblem = .wrongRoot(file: fileName, line: nil, expected: Self.expectedRoot, found: "object without \"statuses\"")
                    }
                } else {
                    throw syntax("expected ',' or '}' after a value", at: position)
                }
            case .element:
                // White space between elements is not kept: a long run of it ends the chunk.
                if let first = elements.first, !(try skipWhitespace(until: first.lowerBound + targetBytes)) { return }
                guard let c = try peek() else { throw endOfData() }
                // After `[` the reader is here only when an element follows, so `]` follows a comma.
                if c == UInt8(ascii: "]") { throw syntax("a comma before ']'", at: position) }
                let start = position
                if elements.isEmpty { anchor = start }
                let end = try delimitValue()
                try keepLookahead(after: end)
                elements.append(start..<end)
                stage = .afterElement
                if end - elements[0].lowerBound >= targetBytes || elements.count >= maxStatuses { return }
            case .afterElement:
                if let first = elements.first, !(try skipWhitespace(until: first.lowerBound + targetBytes)) { return }
                guard let c = try peek() else { throw endOfData() }
                if c == UInt8(ascii: ",") {
                    position += 1
                    stage = .element
                } else if c == UInt8(ascii: "]") {
                    position += 1
                    stage = elementDepth == 1 ? .afterRoot : .afterMember
                    // What follows the array is read with no chunk open, so none of it is kept.
                    if !elements.isEmpty { return }
                } else {
                    throw syntax("expected ',' or ']' after a value", at: position)
                }
            case .afterRoot:
                if try peek() != nil { throw syntax("unexpected data after the JSON value", at: position) }
                stage = .finished
                if let rootProblem { throw rootProblem }
            case .finished:
                return
            }
        }
    }

    /// The root value: an array (its elements are the statuses), an object (its members are
    /// read next), or anything else (parsed, then reported as a wrong root once the document
    /// has been read).
    private func readRoot() throws(StatusModelError) {
        while !started { try fill() }
        guard let c = try peek() else {
            // Only white space is an empty input; after a byte order mark, a text that ends too soon.
            if byteOrderMark { throw endOfData() }
            throw .empty(file: fileName)
        }
        guard c == UInt8(ascii: "{") || c == UInt8(ascii: "[") else {
            let found = try parseValue(depth: 0, orElse: "unexpected data after the JSON value") { $0.valueDescription }
            rootProblem = .wrongRoot(file: fileName, line: nil, expected: Self.expectedRoot, found: found)
            stage = .afterRoot
            return
        }
        guard maxDepth > 0 else { throw .nestingTooDeep(file: fileName, line: nil, limit: maxDepth) }
        position += 1
        let isObject = c == UInt8(ascii: "{")
        if try peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            position += 1
            stage = .afterRoot
            if isObject {
                rootProblem = .wrongRoot(file: fileName, line: nil, expected: Self.expectedRoot, found: "object without \"statuses\"")
            }
            return
        }
        elementDepth = 1
        keyPath = ""
        stage = isObject ? .key : .element
    }

    /// One member of the root object: its key, and its value, which is the statuses array to
    /// stream or a value to check.
    private func readMember() throws(StatusModelError) {
        guard let c = try peek() else { throw endOfData() }
        guard c == UInt8(ascii: "\"") else {
            // After `{` the reader is here only when a key follows, so `}` follows a comma.
            throw syntax(c == UInt8(ascii: "}") ? "a comma before '}'" : "expected a key string", at: position)
        }
        let keyOffset = position + 1
        let key = try parseValue(depth: 1, orElse: "expected ':' after a key") { node in node.withUnescapedBytes { Array($0) } }
        guard rootKeys.insert(key).inserted else {
            throw syntax("duplicate key \"\(String(decoding: key, as: UTF8.self))\" in an object", at: keyOffset)
        }
        guard let colon = try peek() else { throw endOfData() }
        guard colon == UInt8(ascii: ":") else { throw syntax("expected ':' after a key", at: position) }
        position += 1
        guard let value = try peek() else { throw endOfData() }
        stage = .afterMember
        let isStatuses = key.elementsEqual("statuses".utf8)
        if isStatuses && value == UInt8(ascii: "[") {
            foundStatuses = true
            guard maxDepth > 1 else { throw .nestingTooDeep(file: fileName, line: nil, limit: maxDepth) }
            position += 1
            if try peek() == UInt8(ascii: "]") {
                position += 1
                return
            }
            elementDepth = 2
            keyPath = "statuses"
            stage = .element
            return
        }
        let found = try parseValue(depth: 1, orElse: "expected ',' or '}' after a value") { isStatuses ? $0.valueDescription : "" }
        if isStatuses {
            foundStatuses = true
            rootProblem = .typeMismatch(StatusLocation(file: fileName, keyPath: "statuses"), expected: "array", found: found)
        }
    }

    // MARK: - Values

    /// Delimits the value at `position` and parses it with the loader's parser (nesting counted
    /// from `depth`), then moves past it and calls `body` with it.
    /// - Parameter orElse: the parser's message for what follows the value when the value ends
    ///   before its delimited bytes do (`truex`: a literal, then something unexpected).
    private func parseValue<R>(depth: Int, orElse: String, _ body: (JSONNode) -> R) throws(StatusModelError) -> R {
        let start = position
        anchor = start
        defer { anchor = nil }
        let end = try delimitValue()
        try keepLookahead(after: end)
        let input = (start - base)..<(min(end + Self.lookahead, base + pending.count) - base)
        let outcome: Result<R, JSONTape.SyntaxError> = pending.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[input])
            do throws(JSONTape.SyntaxError) {
                let stop = try tape.parseValue(atStartOf: bytes, maxDepth: maxDepth - depth)
                if stop < end - start { return .failure(JSONTape.SyntaxError(kind: .syntax, reason: orElse, offset: stop)) }
                return .success(tape.withDocument(bytes) { body($0.root) })
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw syntaxError(error, at: start + error.offset)
        }
    }

    /// Finds the end of the value that starts at `position` (a scan that follows strings,
    /// escapes and nesting; the parser decides later whether the value is well formed) and moves
    /// `position` there. A value the input ends inside of ends at the end of the input.
    /// - Precondition: a byte at `position`, and `anchor` at or before it.
    private func delimitValue() throws(StatusModelError) -> Int {
        var scan = ValueScan()
        var at = position
        while true {
            let from = at - base
            let end: Int? = pending.withUnsafeBufferPointer { scan.run($0, from: from) }
            if let end {
                position = base + end
                return position
            }
            at = base + pending.count
            if atEnd {
                position = at
                return at
            }
            try fill()
        }
    }

    /// Reads until `lookahead` bytes follow `end`, or the input ends.
    private func keepLookahead(after end: Int) throws(StatusModelError) {
        while base + pending.count < end + Self.lookahead && !atEnd { try fill() }
    }

    /// Moves `position` past white space and returns the byte there, nil at the end of the input.
    private func peek() throws(StatusModelError) -> UInt8? {
        _ = try skipWhitespace(until: .max)
        return position - base < pending.count ? pending[position - base] : nil
    }

    /// Moves `position` past white space, up to offset `limit`; false when it stopped there.
    private func skipWhitespace(until limit: Int) throws(StatusModelError) -> Bool {
        while true {
            while position - base < pending.count {
                guard isSyntaxSpace(pending[position - base]) else { return true }
                if position >= limit { return false }
                position += 1
            }
            if atEnd { return true }
            try fill()
        }
    }

    // MARK: - Bytes

    /// Reads `readBytes` more, first dropping what is no longer needed (when that is at least
    /// half of what is held, so that each byte is moved a bounded number of times).
    private func fill() throws(StatusModelError) {
        let keep = min(anchor ?? position, position)
        if keep > base && 2 * (keep - base) >= pending.count { discard(upTo: keep) }
        let old = pending.count
        pending.append(contentsOf: repeatElement(0, count: readBytes))
        let n = try pending.withUnsafeMutableBufferPointer { (buffer) throws(StatusModelError) -> Int in
            try file.read(into: UnsafeMutableBufferPointer(rebasing: buffer[old...]))
        }
        pending.removeLast(readBytes - n)
        if n == 0 { atEnd = true }
        if !started && (pending.count >= 3 || atEnd) {
            started = true
            if pending.starts(with: [0xEF, 0xBB, 0xBF]) {
                pending.removeFirst(3)
                byteOrderMark = true
            }
        }
    }

    /// Drops the bytes before offset `offset`, counting their line feeds.
    private func discard(upTo offset: Int) {
        let count = offset - base
        guard count > 0 else { return }
        pending.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[0..<count])
            let lines = Self.lineFeeds(in: bytes)
            linesBeforeBase += lines
            if lines > 0, let last = bytes.lastIndex(of: 0x0A) { lineStartBeforeBase = base + last + 1 }
        }
        pending.removeSubrange(0..<count)
        base = offset
    }

    /// The line feeds in `bytes`, eight bytes at a time: each word adds one to the byte lanes
    /// that hold a line feed, and the lanes are summed every 255 words (before one can overflow).
    static func lineFeeds(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let n = bytes.count
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var count = 0
        var i = 0
        while i + 8 <= n {
            var lanes: UInt64 = 0
            var words = 0
            while words < 255 && i + 8 <= n {
                // Exact per byte (no borrow crosses bytes): the high bit of each line feed, moved to bit 0.
                let x = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
                lanes &+= ~(((x & low) &+ low) | x | low) >> 7
                words += 1
                i += 8
            }
            count += Int((lanes &* 0x0101_0101_0101_0101) >> 56)
        }
        while i < n {
            if base[i] == 0x0A { count += 1 }
            i += 1
        }
        return count
    }

    /// The chunk of `elements` (offsets in the document); drops what precedes `position`.
    private func cut(_ elements: [Range<Int>]) -> JSONElementsChunk {
        let start = elements[0].lowerBound
        let end = min(elements[elements.count - 1].upperBound + Self.lookahead, base + pending.count)
        let at = lineAndColumn(of: start)
        let chunk = JSONElementsChunk(
            bytes: Array(pending[(start - base)..<(end - base)]), elements: elements.map { ($0.lowerBound - start)..<($0.upperBound - start) },
            firstIndex: nextIndex, keyPath: keyPath, depth: elementDepth, line: at.line, column: at.column)
        nextIndex += elements.count
        anchor = nil
        discard(upTo: position)
        return chunk
    }

    // MARK: - Errors

    /// The 1-based line and column of offset `offset` (at or after `base`).
    private func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = linesBeforeBase + 1
        var lineStart = lineStartBeforeBase
        for i in 0..<min(offset - base, pending.count) where pending[i] == 0x0A {
            line += 1
            lineStart = base + i + 1
        }
        return (line, offset - lineStart + 1)
    }

    private func syntax(_ reason: String, at offset: Int) -> StatusModelError {
        let at = lineAndColumn(of: offset)
        return FeedLoader.malformedJSON(file: fileName, reason: reason, line: at.line, column: at.column)
    }

    private func syntaxError(_ error: JSONTape.SyntaxError, at offset: Int) -> StatusModelError {
        if error.kind == .tooDeep { return .nestingTooDeep(file: fileName, line: nil, limit: maxDepth) }
        return syntax(error.reason, at: offset)
    }

    private func endOfData() -> StatusModelError { syntax("unexpected end of the data", at: position) }
}

/// Finds where a JSON value ends, resumably, chunk by chunk of its bytes: a container at the
/// bracket that closes it, a string at its closing quote (strings and escapes followed inside
/// containers too), anything else (a number, a literal, a stray byte) at the first byte that
/// cannot continue a number or a literal. Well-formedness is the parser's business.
private struct ValueScan {
    private enum Mode { case start, nested, scalar }
    private var mode = Mode.start
    private var depth = 0
    private var inString = false
    private var escaped = false

    /// Scans `bytes` from `from` (the offset where the previous call stopped, or the value's
    /// first byte); returns the offset after the value, or nil when `bytes` ends first.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        let n = bytes.count
        guard i < n, let base = bytes.baseAddress else { return nil }
        if mode == .start {
            let c = base[i]
            i += 1
            switch c {
            case UInt8(ascii: "\""):
                mode = .nested
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                mode = .nested
                depth = 1
            default:
                mode = .scalar
            }
        }
        if mode == .scalar {
            while i < n && Self.continuesScalar(base[i]) { i += 1 }
            return i < n ? i : nil
        }
        while i < n {
            if inString {
                if escaped {
                    escaped = false
                    i += 1
                    continue
                }
                i = JSONTape.skipUnflagged(base, from: i, to: n, Self.quoteOrBackslash)
                guard i < n else { break }
                let c = base[i]
                i += 1
                if c == UInt8(ascii: "\\") {
                    escaped = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return i }
                }
                continue
            }
            i = JSONTape.skipUnflagged(base, from: i, to: n, Self.quoteOrBracket)
            guard i < n else { break }
            let c = base[i]
            i += 1
            switch c {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return i }
            default: break
            }
        }
        return nil
    }

    /// Bytes of number and literal tokens.
    @inline(__always)
    static func continuesScalar(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// The high bit of each byte of `w` that is a quote or a backslash (exact for the lowest such
    /// byte; borrows may flag bytes above it).
    @inline(__always)
    static func quoteOrBackslash(_ w: UInt64) -> UInt64 {
        zero(w ^ 0x2222_2222_2222_2222) | zero(w ^ 0x5C5C_5C5C_5C5C_5C5C)
    }

    /// The high bit of each byte of `w` that is a quote or one of `[ ] { }` (exact for the lowest
    /// such byte). With bit 5 set, `[` reads as `{` and `]` as `}`.
    @inline(__always)
    static func quoteOrBracket(_ w: UInt64) -> UInt64 {
        let folded = w | 0x2020_2020_2020_2020
        return zero(w ^ 0x2222_2222_2222_2222) | zero(folded ^ 0x7B7B_7B7B_7B7B_7B7B) | zero(folded ^ 0x7D7D_7D7D_7D7D_7D7D)
    }

    /// The high bit of each zero byte of `x` (exact for the lowest one; borrows may flag bytes
    /// above it).
    @inline(__always)
    static func zero(_ x: UInt64) -> UInt64 {
        (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }
}

/// Decodes chunks of a streamed JSON document into statuses: each element parsed into the
/// decoder's tape and decoded as the same element of the document loaded whole. Keeps its
/// parser's buffers from one element to the next.
///
/// Thread-safety: a value; use one per thread.
package struct JSONElementsDecoder {
    package let fileName: String
    package let options: LoadOptions
    private var tape = JSONTape()
    private var recentSources = RecentSources()

    package init(fileName: String, options: LoadOptions = LoadOptions()) {
        self.fileName = fileName
        self.options = options
    }

    /// Calls `body` with each status of `chunk`, in order.
    ///
    /// Returns the statuses skipped (with `options.skipInvalid`); otherwise the first invalid
    /// status throws, naming the file, the status index and id, and the key path. An element
    /// that is not well-formed JSON fails the document, as in the whole load, even with
    /// `skipInvalid`.
    package mutating func decode(_ chunk: JSONElementsChunk, _ body: (Status) -> Void) throws(StatusModelError) -> [SkippedStatus] {
        // A copied decoder shares its recent sources: it gets its own before writing.
        if !isKnownUniquelyReferenced(&recentSources) { recentSources = RecentSources() }
        var skipped: [SkippedStatus] = []
        try chunk.bytes.withUnsafeBufferPointer { (all) throws(StatusModelError) in
            for (k, element) in chunk.elements.enumerated() {
                let index = chunk.firstIndex + k
                let input = UnsafeBufferPointer(rebasing: all[element.lowerBound..<min(all.count, element.upperBound + JSONDocumentReader.lookahead)])
                do throws(JSONTape.SyntaxError) {
                    let stop = try tape.parseValue(atStartOf: input, maxDepth: options.maxNestingDepth - chunk.depth)
                    if stop < element.count {
                        throw JSONTape.SyntaxError(kind: .syntax, reason: "expected ',' or ']' after a value", offset: stop)
                    }
                } catch {
                    throw syntaxError(error, at: element.lowerBound + error.offset, in: chunk)
                }
                do throws(StatusModelError) {
                    body(try status(input, index: index, keyPath: chunk.keyPath))
                } catch {
                    guard options.skipInvalid else { throw error }
                    skipped.append(SkippedStatus(index: index, id: error.location?.id, error: error))
                }
            }
        }
        return skipped
    }

    /// The status in the tape just parsed from `input`.
    private func status(_ input: UnsafeBufferPointer<UInt8>, index: Int, keyPath: String) throws(StatusModelError) -> Status {
        let fileName = fileName
        let options = options
        let recentSources = recentSources
        return try tape.withDocument(input) { (document) throws(StatusModelError) -> Status in
            try FeedLoader.decodeStatus(
                document.root, index: index, keyPrefix: keyPath, line: nil, fileName: fileName, classic: false, options: options,
                recentSources: recentSources)
        }
    }

    private func syntaxError(_ error: JSONTape.SyntaxError, at offset: Int, in chunk: JSONElementsChunk) -> StatusModelError {
        if error.kind == .tooDeep { return .nestingTooDeep(file: fileName, line: nil, limit: options.maxNestingDepth) }
        let at = chunk.lineAndColumn(of: offset)
        return FeedLoader.malformedJSON(file: fileName, reason: error.reason, line: at.line, column: at.column)
    }
}
