// A reader of XML property lists that writes the JSON tape (`JSONTape`), in place of
// PropertyListSerialization: the loaders then decode a property list's statuses as they decode
// JSON (`JSONNode`, `TapeStatusDecoder`), with the same errors.
//
// Why not Foundation: its XML parser builds a tree of bridged Foundation objects, and every
// lookup of a key cast a dictionary back to Swift. A 32 MB feed of 10 000 statuses took 7.1 s
// to validate (4.5 MB/s; 56 % of the instructions in the casts, 25 % in the parser, 16 % in the
// byte scans that refused what Foundation hid: duplicate keys, clamped integers, data after the
// end). This reader is one pass over the bytes; see docs/hardening.md ("XML property lists").
//
// The grammar read is Apple's plist DTD: an optional `<plist>` around one value; values
// `<dict>` (pairs of `<key>` and a value), `<array>`, `<string>`, `<integer>` (decimal or `0x`
// hexadecimal), `<real>`, `<true/>`, `<false/>`, `<date>`, `<data>`; empty-element forms; text
// with the five predefined entities, character references and CDATA sections; comments and
// processing instructions between elements; a DOCTYPE (its internal subset skipped, its
// entities not defined). It refuses, naming the line and column: any other element or stray
// text, text that is not UTF-8, an unknown entity or a bare `&`, a duplicate key in a dict
// (compared by bytes once entities are decoded, as JSON keys are), an integer outside Int64 and
// UInt64, nesting deeper than the limit (an iterative reader: depth costs no stack), and
// anything after the end of the value but white space, comments and processing instructions.
// Files declaring another encoding than UTF-8 are transcoded first (`utf8Bytes`).
//
// The tape's bytes are the reader's `content`: every string and key decoded, every number
// rewritten as a JSON number token (so `lenientInt64` reads them as it reads JSON's), and, for
// the values JSON has no type for (`JSONTape.Kind.plistOther`), their description.
import Foundation

struct XMLPlistReader {
    /// What went wrong and where (a byte offset into the input).
    struct Failure: Error {
        enum Kind { case syntax, tooDeep }
        var kind: Kind
        var reason: String
        var offset: Int
    }

    /// The decoded strings, keys and number tokens the tape's nodes point into.
    private(set) var content: [UInt8] = []
    private let input: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var p = 0
    /// Per key, in the order written: its node and the offset of its `<key>` tag in the input,
    /// to place a duplicate key's error.
    private var keyPlaces: [(node: Int, input: Int)] = []

    private init(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.input = input
        self.maxDepth = maxDepth
        // The decoded text is shorter than the file but for rare values (`0xFF…` integers,
        // `<data/>`): reserved whole, the buffer is not copied as it grows, and pages never
        // written are never touched.
        content.reserveCapacity(input.count)
    }

    /// Reads the property list in `input` (UTF-8) into `tape`; returns the bytes its nodes point
    /// into (pass them to `JSONTape.withDocument`).
    static func read(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int, into tape: inout JSONTape) throws(Failure) -> [UInt8] {
        guard input.count < Int(UInt32.max) else {
            throw Failure(kind: .syntax, reason: "a property list larger than 4 GiB", offset: 0)
        }
        var reader = XMLPlistReader(input, maxDepth: maxDepth)
        tape.reset(expectingNodes: input.count / 16)
        try reader.document(into: &tape)
        return reader.content
    }

    /// Reads `input`, a run of values with white space, comments and processing instructions
    /// between them (elements of an array, without its tags), into `tape` as one root array of
    /// those values; returns the bytes its nodes point into. `maxDepth` counts that root array,
    /// and each value is read as the whole reader reads it.
    static func readElements(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int, into tape: inout JSONTape) throws(Failure) -> [UInt8] {
        guard input.count < Int(UInt32.max) else {
            throw Failure(kind: .syntax, reason: "a property list larger than 4 GiB", offset: 0)
        }
        guard maxDepth > 0 else { throw Failure(kind: .tooDeep, reason: "nested deeper than \(maxDepth)", offset: 0) }
        var reader = XMLPlistReader(input, maxDepth: maxDepth)
        tape.reset(expectingNodes: input.count / 16)
        tape.open(.array, at: 0)
        while true {
            try reader.skipMisc(prolog: false)
            guard reader.p < input.count else { break }
            if reader.isEndTag(at: reader.p) { throw reader.fail("an end tag where a value was expected") }
            try reader.value(try reader.startTag(), into: &tape, floor: 1)
        }
        try reader.close(&tape, at: input.count)
        return reader.content
    }

    // MARK: - Structure

    private mutating func document(into tape: inout JSONTape) throws(Failure) {
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { p = 3 }
        try skipMisc(prolog: true)
        guard p < input.count else { throw fail("no value in the property list") }
        var tag = try startTag()
        var wrapped = false
        if tag.name == .plist {
            wrapped = true
            guard !tag.empty else { throw fail("an empty <plist>", at: tag.start) }
            try skipMisc(prolog: false)
            guard p < input.count, !isEndTag(at: p) else { throw fail("no value in the <plist>") }
            tag = try startTag()
        }
        try value(tag, into: &tape)
        try skipMisc(prolog: false)
        if wrapped {
            guard p < input.count, isEndTag(at: p) else { throw fail("expected </plist>") }
            try endTag(.plist)
            try skipMisc(prolog: false)
        }
        if p < input.count {
            throw fail("data after the end of the property list (\(wrapped ? "</plist>" : "its value")), which would be ignored")
        }
    }

    /// Reads the value whose start tag was just read, and everything nested in it, without
    /// recursion: the tape's open containers are the stack. Returns when the value is complete,
    /// with `floor` containers still open (those opened before it).
    private mutating func value(_ first: Tag, into tape: inout JSONTape, floor: Int = 0) throws(Failure) {
        var tag = first
        while true {
            var opened = false
            switch tag.name {
            case .dict, .array:
                guard tape.depth < maxDepth else {
                    throw Failure(kind: .tooDeep, reason: "nested deeper than \(maxDepth)", offset: tag.start)
                }
                tape.open(tag.name == .dict ? .object : .array, at: content.count)
                if tag.empty { try close(&tape, at: tag.start) } else { opened = true }
            case .string:
                let start = content.count
                if !tag.empty { try text(closing: .string) }
                appendLeaf(&tape, .string, start)
            case .integer:
                try integer(tag, into: &tape)
            case .real:
                try real(tag, into: &tape)
            case .trueValue, .falseValue:
                if !tag.empty {
                    try skipMisc(prolog: false)
                    try endTag(tag.name)
                }
                appendLeaf(&tape, tag.name == .trueValue ? .trueValue : .falseValue, content.count)
            case .date, .data:
                try opaque(tag, into: &tape)
            case .key, .plist, .other:
                throw fail("unexpected <\(spelling(tag))> where a value was expected", at: tag.start)
            }
            // Unless a container opened, the value is complete: count it, then find the next one
            // (closing containers on the way).
            var complete = !opened
            while true {
                if complete { tape.countElement() }
                complete = true
                guard tape.depth > floor, let open = tape.openKind else { return }
                try skipMisc(prolog: false)
                guard p < input.count else { throw fail("the property list ends inside a <\(open == .object ? "dict" : "array")>") }
                if isEndTag(at: p) {
                    let at = p
                    try endTag(open == .object ? .dict : .array)
                    try close(&tape, at: at)
                    continue
                }
                tag = try startTag()
                if open == .object {
                    guard tag.name == .key else {
                        throw fail("expected <key> or </dict>, found <\(spelling(tag))>", at: tag.start)
                    }
                    keyPlaces.append((tape.nodeCount, tag.start))
                    let start = content.count
                    if !tag.empty { try text(closing: .key) }
                    appendLeaf(&tape, .string, start)
                    try skipMisc(prolog: false)
                    guard p < input.count, !isEndTag(at: p) else { throw fail("a <key> without a value") }
                    tag = try startTag()
                }
                break
            }
        }
    }

    /// Closes the innermost container; a duplicate key of a dict is an error at its `<key>`.
    private mutating func close(_ tape: inout JSONTape, at offset: Int) throws(Failure) {
        let duplicate = content.withUnsafeBufferPointer { tape.close(keysIn: $0) }
        guard let duplicate else { return }
        // The key's tag (keys are listed in node order).
        var lo = 0, hi = keyPlaces.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keyPlaces[mid].node < duplicate { lo = mid + 1 } else { hi = mid }
        }
        let at = lo < keyPlaces.count && keyPlaces[lo].node == duplicate ? keyPlaces[lo].input : offset
        throw fail(tape.duplicateKeyReason(duplicate, in: content, container: "dict"), at: at)
    }

    /// Appends a string, number or other leaf whose bytes are `content[start...]`.
    @inline(__always)
    private func appendLeaf(_ tape: inout JSONTape, _ kind: JSONTape.Kind, _ start: Int, flags: UInt8 = 0) {
        tape.appendLeaf(kind, bytes: start..<content.count, flags: flags)
    }

    /// The value of `b` as a digit of `radix` (10 or 16, either case), nil when it is none.
    @inline(__always)
    static func digit(_ b: UInt8, radix: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: - Scalars

    /// `<integer>`: white space, a sign, decimal or `0x` hexadecimal digits; written as a decimal
    /// token. Outside Int64 and UInt64 it is an error (nothing is clamped).
    private mutating func integer(_ tag: Tag, into tape: inout JSONTape) throws(Failure) {
        guard !tag.empty else { throw fail("an empty <integer>", at: tag.start) }
        let start = content.count
        try text(closing: .integer)
        let raw = trimmed(start)
        var i = raw.lowerBound
        var negative = false
        if i < raw.upperBound && (content[i] == UInt8(ascii: "-") || content[i] == UInt8(ascii: "+")) {
            negative = content[i] == UInt8(ascii: "-")
            i += 1
        }
        var radix: UInt8 = 10
        if raw.upperBound - i > 2 && content[i] == UInt8(ascii: "0") && content[i + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            i += 2
        }
        var magnitude: UInt64 = 0
        var overflow = false
        guard i < raw.upperBound else { throw fail("an <integer> without digits: \(shown(raw))", at: tag.start) }
        while i < raw.upperBound {
            guard let d = Self.digit(content[i], radix: radix) else {
                throw fail("an <integer> that is not an integer: \(shown(raw))", at: tag.start)
            }
            let (m, o1) = magnitude.multipliedReportingOverflow(by: UInt64(radix))
            let (s, o2) = m.addingReportingOverflow(UInt64(d))
            overflow = overflow || o1 || o2
            magnitude = s
            i += 1
        }
        if overflow || (negative && magnitude > UInt64(Int64.max) + 1) {
            throw fail("integer \(shown(raw)) out of range (integers must fit 64 bits; nothing is truncated)", at: tag.start)
        }
        content.removeSubrange(start...)
        if negative && magnitude != 0 { content.append(UInt8(ascii: "-")) }
        appendDecimal(magnitude)
        appendLeaf(&tape, .number, start, flags: JSONTape.Node.integral)
    }

    /// `<real>`: what `strtod` reads (`1.5`, `.5`, `1e3`, `nan`, `-infinity`, hexadecimal); a
    /// finite value is written as a JSON number (its own token when it is one), another as a
    /// `plistOther` described as `number nan`.
    private mutating func real(_ tag: Tag, into tape: inout JSONTape) throws(Failure) {
        guard !tag.empty else { throw fail("an empty <real>", at: tag.start) }
        let start = content.count
        try text(closing: .real)
        let raw = trimmed(start)
        let token = String(decoding: content[raw], as: UTF8.self)
        guard raw.count <= 1_000, let v = Double(token) else {
            throw fail("a <real> that is not a number: \(shown(raw))", at: tag.start)
        }
        if !v.isFinite {
            content.removeSubrange(start...)
            content.append(contentsOf: "number \(v)".utf8)
            appendLeaf(&tape, .plistOther, start)
            return
        }
        let written = Self.isJSONNumber(content[raw]) ? token : "\(v)"
        content.removeSubrange(start...)
        content.append(contentsOf: written.utf8)
        let integral = !written.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        appendLeaf(&tape, .number, start, flags: integral ? JSONTape.Node.integral : 0)
    }

    /// `<date>` (ISO 8601: digits, `-`, `:`, `T`, `Z`) and `<data>` (base64 and white space):
    /// checked, then kept as their kind's name, for errors.
    private mutating func opaque(_ tag: Tag, into tape: inout JSONTape) throws(Failure) {
        let start = content.count
        if !tag.empty { try text(closing: tag.name) }
        let raw = trimmed(start)
        let isDate = tag.name == .date
        for b in content[raw] {
            let ok =
                isDate
                ? (b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "-") || b == UInt8(ascii: ":") || b == UInt8(ascii: "T")
                    || b == UInt8(ascii: "Z"))
                : (b &- UInt8(ascii: "A") < 26 || b &- UInt8(ascii: "a") < 26 || b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "+")
                    || b == UInt8(ascii: "/") || b == UInt8(ascii: "=") || isSyntaxSpace(b))
            guard ok else { throw fail("a <\(spelling(tag))> that is not \(isDate ? "an ISO 8601 date" : "base64"): \(shown(raw))", at: tag.start) }
        }
        if isDate && raw.isEmpty { throw fail("an empty <date>", at: tag.start) }
        content.removeSubrange(start...)
        content.append(contentsOf: (isDate ? "date" : "data").utf8)
        appendLeaf(&tape, .plistOther, start)
    }

    /// The range of `content[start...]` without the white space around it.
    private func trimmed(_ start: Int) -> Range<Int> {
        var lo = start, hi = content.count
        while lo < hi && isSyntaxSpace(content[lo]) { lo += 1 }
        while hi > lo && isSyntaxSpace(content[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    /// A value for an error message: at most 48 bytes of it, display-safe.
    private func shown(_ range: Range<Int>) -> String {
        let head = String(decoding: content[range.lowerBound..<min(range.upperBound, range.lowerBound + 48)], as: UTF8.self)
        return DisplaySafe.escaped(head) + (range.count > 48 ? "…" : "")
    }

    /// Appends the decimal digits of `v` (at most 20).
    private mutating func appendDecimal(_ v: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var v = v
            var k = 0
            repeat {
                buffer[23 - k] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                k += 1
            } while v > 0
            content.append(contentsOf: buffer[(24 - k)...])
        }
    }

    /// Whether `token` is a number in JSON's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ token: ArraySlice<UInt8>) -> Bool {
        var i = token.startIndex
        let n = token.endIndex
        @inline(__always) func digits() -> Int {
            let from = i
            while i < n && token[i] &- UInt8(ascii: "0") < 10 { i += 1 }
            return i - from
        }
        if i < n && token[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n else { return false }
        if token[i] == UInt8(ascii: "0") { i += 1 } else if digits() == 0 { return false }
        if i < n && token[i] == UInt8(ascii: ".") {
            i += 1
            if digits() == 0 { return false }
        }
        if i < n && token[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < n && (token[i] == UInt8(ascii: "+") || token[i] == UInt8(ascii: "-")) { i += 1 }
            if digits() == 0 { return false }
        }
        return i == n
    }

    // MARK: - Text

    /// Appends the text of an element to `content` up to its end tag `</name>` (read too):
    /// entities and character references decoded, CDATA sections copied, comments skipped,
    /// UTF-8 checked.
    private mutating func text(closing name: Name) throws(Failure) {
        let n = input.count
        while true {
            // A run of plain bytes, copied at once; eight at a time while none is '<', '&' or
            // not ASCII (the lowest flagged byte of a word is exact).
            let from = p
            let base = input.baseAddress!
            while p < n {
                p = JSONTape.skipUnflagged(base, from: p, to: n, Self.attention)
                guard p < n else { break }
                let b = input[p]
                if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") { break }
                if b < 0x80 {
                    p += 1
                } else {
                    // Runs of three-byte sequences (CJK) first: a lead byte E1–EC or EE–EF and two
                    // continuation bytes is always well formed.
                    while p + 3 <= n {
                        let lead = input[p]
                        guard lead >= 0xE1 && lead <= 0xEF && lead != 0xED, input[p + 1] & 0xC0 == 0x80, input[p + 2] & 0xC0 == 0x80
                        else { break }
                        p += 3
                    }
                    if p < n && input[p] >= 0x80 { try multibyte() }
                }
            }
            if p > from { content.append(contentsOf: UnsafeBufferPointer(rebasing: input[from..<p])) }
            guard p < n else { throw fail("the property list ends inside a <\(name.spelling)>") }
            if input[p] == UInt8(ascii: "&") {
                try entity()
                continue
            }
            if starts("<![CDATA[", at: p) {
                let body = p + 9
                guard let end = find("]]>", from: body) else { throw fail("a CDATA section without its end (]]>)") }
                // (A UTF-8 sequence cannot run into the `]]>`: its bytes after the first are ≥ 0x80.)
                p = body
                while p < end {
                    if input[p] < 0x80 { p += 1 } else { try multibyte() }
                }
                content.append(contentsOf: UnsafeBufferPointer(rebasing: input[body..<end]))
                p = end + 3
                continue
            }
            if starts("<!--", at: p) {
                try comment()
                continue
            }
            guard isEndTag(at: p) else { throw fail("an element inside <\(name.spelling)>, which holds text only") }
            try endTag(name)
            return
        }
    }

    /// The high bit of each byte of `w` that is '<', '&' or not ASCII (and possibly of bytes
    /// after the first such byte: borrows carry upwards only).
    @inline(__always)
    static func attention(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let lt = w ^ (ones &* 0x3C)
        let amp = w ^ (ones &* 0x26)
        return (((lt &- ones) & ~lt) | ((amp &- ones) & ~amp) | w) & (ones &* 0x80)
    }

    /// Checks the UTF-8 sequence at `p` (overlong forms, surrogates and values past U+10FFFF are
    /// errors) and moves past it.
    private mutating func multibyte() throws(Failure) {
        let n = input.count
        let b0 = input[p]
        @inline(__always) func cont(_ i: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            i < n && input[i] >= lo && input[i] <= hi
        }
        let length: Int
        switch b0 {
        case 0xC2...0xDF: length = cont(p + 1) ? 2 : 0
        case 0xE0: length = cont(p + 1, 0xA0) && cont(p + 2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: length = cont(p + 1) && cont(p + 2) ? 3 : 0
        case 0xED: length = cont(p + 1, 0x80, 0x9F) && cont(p + 2) ? 3 : 0
        case 0xF0: length = cont(p + 1, 0x90) && cont(p + 2) && cont(p + 3) ? 4 : 0
        case 0xF1...0xF3: length = cont(p + 1) && cont(p + 2) && cont(p + 3) ? 4 : 0
        case 0xF4: length = cont(p + 1, 0x80, 0x8F) && cont(p + 2) && cont(p + 3) ? 4 : 0
        default: length = 0
        }
        guard length > 0 else { throw fail("invalid UTF-8 (the text of a property list is UTF-8)") }
        p += length
    }

    /// Decodes the entity or character reference at `p` (`&amp;`, `&#233;`, `&#xE9;`). Its `;`
    /// is looked for in the next 12 bytes only: no search to the end of the file per `&`.
    private mutating func entity() throws(Failure) {
        let at = p
        let limit = min(input.count, p + 13)
        var semi = p + 1
        while semi < limit && input[semi] != UInt8(ascii: ";") { semi += 1 }
        guard semi < limit else { throw fail("a '&' that begins no entity (write &amp;)") }
        let name = UnsafeBufferPointer(rebasing: input[(p + 1)..<semi])
        var scalar: UInt32?
        if name.first == UInt8(ascii: "#") {
            var i = 1
            var radix: UInt8 = 10
            if name.count > 1 && name[1] | 0x20 == UInt8(ascii: "x") {
                radix = 16
                i = 2
            }
            var v: UInt32 = 0
            var ok = i < name.count
            while i < name.count && ok {
                if let d = Self.digit(name[i], radix: radix) {
                    v = v &* UInt32(radix) &+ UInt32(d)
                    ok = v <= 0x10FFFF
                } else {
                    ok = false
                }
                i += 1
            }
            if ok, v != 0, Unicode.Scalar(v) != nil { scalar = v }
        } else {
            switch String(decoding: name, as: UTF8.self) {
            case "lt": scalar = 0x3C
            case "gt": scalar = 0x3E
            case "amp": scalar = 0x26
            case "quot": scalar = 0x22
            case "apos": scalar = 0x27
            default: break
            }
        }
        guard let scalar, let s = Unicode.Scalar(scalar) else {
            throw fail("an unknown entity \(DisplaySafe.escaped(String(decoding: input[at...semi], as: UTF8.self)))", at: at)
        }
        content.append(contentsOf: UTF8.encode(s)!)
        p = semi + 1
    }

    // MARK: - Tags

    enum Name {
        case plist, dict, array, key, string, integer, real, trueValue, falseValue, date, data, other

        var spelling: String { String(describing: bytes) }

        /// The name's bytes.
        var bytes: StaticString {
            switch self {
            case .plist: "plist"
            case .dict: "dict"
            case .array: "array"
            case .key: "key"
            case .string: "string"
            case .integer: "integer"
            case .real: "real"
            case .trueValue: "true"
            case .falseValue: "false"
            case .date: "date"
            case .data: "data"
            case .other: "?"
            }
        }
    }

    struct Tag {
        var name: Name
        /// `<name/>`.
        var empty: Bool
        /// The offset of its `<`.
        var start: Int
        /// The name's bytes in the input (for errors: `spelling`).
        var written: Range<Int>
    }

    /// A tag's name as written, display-safe, for errors.
    private func spelling(_ tag: Tag) -> String {
        DisplaySafe.escaped(String(decoding: input[tag.written.lowerBound..<min(tag.written.upperBound, tag.written.lowerBound + 40)], as: UTF8.self))
    }

    /// Reads the start tag at `p` (attributes skipped).
    private mutating func startTag() throws(Failure) -> Tag {
        let start = p
        guard p < input.count, input[p] == UInt8(ascii: "<") else {
            throw fail(p < input.count ? "text outside an element (values are elements: <string>…)" : "the property list ends early")
        }
        p += 1
        let nameStart = p
        while p < input.count, Self.isNameByte(input[p]) { p += 1 }
        let written = UnsafeBufferPointer(rebasing: input[nameStart..<p])
        guard !written.isEmpty else { throw fail("a '<' that begins no element", at: start) }
        // Attributes (`<plist version="1.0">`), quoted values may hold '>'.
        p = Self.tagEnd(input, from: p)
        guard p < input.count else { throw fail("a start tag without its '>'", at: start) }
        let empty = input[p - 1] == UInt8(ascii: "/") && p - 1 >= nameStart + written.count
        p += 1
        return Tag(name: Self.name(written), empty: empty, start: start, written: nameStart..<(nameStart + written.count))
    }

    /// Reads the end tag `</name>` at `p` (white space allowed before its '>').
    private mutating func endTag(_ name: Name) throws(Failure) {
        let start = p
        // The usual case: `</name>` exactly.
        let k = name.bytes.utf8CodeUnitCount
        if p + 3 + k <= input.count && input[p + 2 + k] == UInt8(ascii: ">")
            && memcmp(name.bytes.utf8Start, input.baseAddress! + p + 2, k) == 0
        {
            p += 3 + k
            return
        }
        p += 2
        let nameStart = p
        while p < input.count, Self.isNameByte(input[p]) { p += 1 }
        let written = UnsafeBufferPointer(rebasing: input[nameStart..<p])
        while p < input.count && isSyntaxSpace(input[p]) { p += 1 }
        guard p < input.count, input[p] == UInt8(ascii: ">") else { throw fail("an end tag without its '>'", at: start) }
        p += 1
        guard Self.name(written) == name, name != .other else {
            let shownName = DisplaySafe.escaped(String(decoding: written.prefix(40), as: UTF8.self))
            throw fail("expected </\(name.spelling)>, found </\(shownName)>", at: start)
        }
    }

    /// The offset of the `>` that ends a tag whose attributes start at `from` (quoted values may
    /// hold one), `input.count` when none does.
    @inline(__always)
    static func tagEnd(_ input: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var i = from
        var quote: UInt8 = 0
        while i < input.count {
            let b = input[i]
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                return i
            }
            i += 1
        }
        return i
    }

    private func isEndTag(at i: Int) -> Bool {
        i + 1 < input.count && input[i] == UInt8(ascii: "<") && input[i + 1] == UInt8(ascii: "/")
    }

    static func name(_ b: UnsafeBufferPointer<UInt8>) -> Name {
        @inline(__always) func is_(_ s: StaticString) -> Bool {
            s.utf8CodeUnitCount == b.count && memcmp(s.utf8Start, b.baseAddress!, b.count) == 0
        }
        switch b.count {
        case 3: return is_("key") ? .key : .other
        case 4: return is_("dict") ? .dict : is_("real") ? .real : is_("true") ? .trueValue : is_("date") ? .date : is_("data") ? .data : .other
        case 5: return is_("array") ? .array : is_("plist") ? .plist : is_("false") ? .falseValue : .other
        case 6: return is_("string") ? .string : .other
        case 7: return is_("integer") ? .integer : .other
        default: return .other
        }
    }

    @inline(__always)
    static func isNameByte(_ b: UInt8) -> Bool {
        b &- UInt8(ascii: "a") < 26 || b &- UInt8(ascii: "A") < 26 || b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "-")
            || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b == UInt8(ascii: ".")
    }

    // MARK: - Between elements

    /// Skips white space, comments and processing instructions (and, in the prolog, the XML
    /// declaration and a DOCTYPE).
    private mutating func skipMisc(prolog: Bool) throws(Failure) {
        let n = input.count
        while p < n {
            let b = input[p]
            if isSyntaxSpace(b) {
                p += 1
            } else if starts("<!--", at: p) {
                try comment()
            } else if starts("<?", at: p) {
                guard let end = find("?>", from: p + 2) else { throw fail("a processing instruction without its end (?>)") }
                p = end + 2
            } else if prolog && starts("<!DOCTYPE", at: p) {
                try doctype()
            } else {
                return
            }
        }
    }

    private mutating func comment() throws(Failure) {
        guard let end = find("-->", from: p + 4) else { throw fail("a comment without its end (-->)") }
        p = end + 3
    }

    /// Skips `<!DOCTYPE …>`, with an internal subset in brackets and quoted identifiers.
    private mutating func doctype() throws(Failure) {
        guard let end = Self.doctypeEnd(input, from: p + 9) else { throw fail("a DOCTYPE without its end", at: p) }
        p = end
    }

    /// The offset after the `>` that ends a DOCTYPE whose name ends at `from` (quoted
    /// identifiers and an internal subset in brackets followed); nil when none does.
    static func doctypeEnd(_ input: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var quote: UInt8 = 0
        var brackets = false
        var i = from
        while i < input.count {
            let b = input[i]
            i += 1
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "[") {
                brackets = true
            } else if b == UInt8(ascii: "]") {
                brackets = false
            } else if b == UInt8(ascii: ">") && !brackets {
                return i
            }
        }
        return nil
    }

    @inline(__always)
    private func starts(_ s: StaticString, at i: Int) -> Bool { Self.starts(s, in: input, at: i) }

    private func find(_ s: StaticString, from: Int) -> Int? { Self.find(s, in: input, from: from) }

    /// Whether `s` starts at offset `i` of `input`.
    @inline(__always)
    static func starts(_ s: StaticString, in input: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let k = s.utf8CodeUnitCount
        return i + k <= input.count && memcmp(s.utf8Start, input.baseAddress! + i, k) == 0
    }

    /// The first offset at or after `from` where `s` starts in `input` (memchr for its first byte).
    static func find(_ s: StaticString, in input: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let n = input.count
        let first = s.utf8Start.pointee
        var i = from
        while i < n {
            guard let hit = memchr(input.baseAddress! + i, Int32(first), n - i) else { return nil }
            i = input.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if starts(s, in: input, at: i) { return i }
            i += 1
        }
        return nil
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> Failure {
        Failure(kind: .syntax, reason: reason, offset: min(offset ?? p, input.count))
    }
}

extension XMLPlistReader {
    /// The bytes of an XML property list as UTF-8: as they are when the XML declaration names
    /// UTF-8 (or none, or ASCII); transcoded when it names another encoding Foundation knows
    /// (UTF-16 and UTF-32 with a byte-order mark are not property lists this loader detects).
    /// Nil, with the name, when the encoding is unknown or the bytes are not in it.
    static func utf8Bytes(_ bytes: [UInt8]) -> (bytes: [UInt8]?, encoding: String) {
        guard let name = declaredEncoding(bytes) else { return (bytes, "UTF-8") }
        let encodings: [String: String.Encoding] = [
            "utf-8": .utf8, "utf8": .utf8, "us-ascii": .ascii, "ascii": .ascii,
            "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso-8859-2": .isoLatin2, "windows-1252": .windowsCP1252,
            "cp1252": .windowsCP1252, "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251,
            "shift_jis": .shiftJIS, "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP, "macintosh": .macOSRoman,
        ]
        guard let encoding = encodings[name.lowercased()] else { return (nil, name) }
        if encoding == .utf8 || encoding == .ascii { return (bytes, name) }
        guard let s = String(bytes: bytes, encoding: encoding) else { return (nil, name) }
        return (Array(s.utf8), name)
    }

    /// The `encoding` of the XML declaration at the start of `bytes`, if any.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count && isSyntaxSpace(bytes[i]) { i += 1 }
        guard bytes[i...].starts(with: Array("<?xml".utf8)) else { return nil }
        let end = bytes[i...].prefix(512).firstIndex(of: UInt8(ascii: ">")) ?? min(bytes.count, i + 512)
        let decl = String(decoding: bytes[i..<end], as: UTF8.self)
        guard let r = decl.range(of: "encoding") else { return nil }
        let rest = decl[r.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let q = rest.first, q == "\"" || q == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != q }
        return value.isEmpty ? nil : String(value)
    }
}
