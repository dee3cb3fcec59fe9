// The JSON parser of the loaders: a strict RFC 8259 parser that turns a JSON text into a flat
// array of nodes (a "tape") over the input bytes, instead of a tree of Foundation objects.
//
// Why not JSONSerialization: on a 142 MB JSON Lines feed it built NSDictionary/NSNumber graphs at
// 46 MB/s and spent 23 % of an export in them; the tape costs no allocation per value (the node
// buffer and the scratch buffers keep their capacity from one line to the next), and the decoder
// reads strings straight from the input bytes. Why not simdjson (libsimdjson-dev): the decoder
// needs the same typed, path-naming errors and leniency for every format, which a C++ DOM behind
// a C header would have to re-expose node by node. Measured with callgrind on the generated feed,
// this parser costs about 16 instructions per input byte and the tape decoder 18
// (benchmarks/README.md, "Loader").
//
// What it enforces, besides the grammar: UTF-8 validity of every string (overlong forms,
// surrogates and code points above U+10FFFF are errors), escapes that form valid scalars (a lone
// `\uD800` is an error), no raw control characters inside strings, nesting no deeper than a given
// limit (an iterative parser: depth costs no stack), and unique keys in every object (a duplicated
// key is an error in every format the loaders read, never "first wins" or "last wins").
import Foundation

/// A JSON text as nodes in document order. A container's node is followed by its children; an
/// object's children alternate key and value.
struct JSONTape {
    enum Kind: UInt8 {
        case null, falseValue, trueValue, number, string, array, object
        /// A value of a property list that JSON has no type for (`<date>`, `<data>`, a `<real>`
        /// that is not finite): never taken for a field, its content is its description in
        /// errors (`XMLPlistReader`).
        case plistOther
    }

    struct Node {
        var kind: Kind
        /// Strings: the content holds escapes (`escaped`) or lives in `unescapedKeys` (`keyCopy`).
        /// Numbers: `integral` when the token has no fraction and no exponent.
        var flags: UInt8
        /// Strings and numbers: the byte length of the content. Containers: elements (pairs for objects).
        var length: UInt32
        /// Strings: the content's first byte (after the quote). Numbers: the token's first byte.
        /// Containers and literals: the byte of their first character (for error positions).
        var offset: UInt32
        /// The index of the node after this one's subtree.
        var end: UInt32

        static let escaped: UInt8 = 1
        static let keyCopy: UInt8 = 2
        static let integral: UInt8 = 4
    }

    /// A parse failure: what was wrong and where (a byte offset into the input).
    struct SyntaxError: Error {
        enum Kind { case syntax, tooDeep }
        var kind: Kind
        var reason: String
        var offset: Int
    }

    /// The nodes, in `buffer.base[0..<nodeCount]`: stored by hand, not in an array, because
    /// appending and counting elements are the parser's innermost steps (an array checks its
    /// uniqueness and capacity through calls on each; callgrind: 2.5 instructions per input byte).
    private var buffer = TapeBuffer<Node>()
    private(set) var nodeCount = 0
    /// The innermost open container's node, -1 at the top level; `stack` holds the outer ones.
    private var top = -1

    /// The nodes of the last parse; valid while the tape is neither parsed again nor released.
    var nodes: UnsafeBufferPointer<Node> { UnsafeBufferPointer(start: buffer.base, count: nodeCount) }
    /// Unescaped copies of the keys that held escapes, so that lookups compare bytes.
    private(set) var unescapedKeys: [UInt8] = []
    private var stack: [Int32] = []
    /// Scratch of the duplicate-key check: the keys of the object being closed.
    private var keyEntries = TapeBuffer<KeyEntry>()
    /// Slots of the duplicate-key check of large objects (-1 empty).
    private var table: [Int32] = []

    /// A key of the object being closed: its node, its length, and its first eight bytes
    /// (little-endian, zero-padded), which decide equality for keys of up to eight bytes.
    private struct KeyEntry {
        var signature: UInt64
        var length: UInt32
        var node: UInt32
    }

    init() {}

    /// Parses `input` (a whole JSON text), replacing the previous content; buffers keep their capacity.
    mutating func parse(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(SyntaxError) {
        _ = try parse(input, maxDepth: maxDepth, wholeText: true)
    }

    /// Parses the JSON value at the start of `input`, replacing the previous content, and returns
    /// the offset after it and the white space that follows it: what comes next is the caller's
    /// (a streamed document's reader parses the elements of its array one by one). Errors are the
    /// ones `parse` gives for the same bytes, as long as `input` holds the value and a few bytes
    /// after it (the parser looks at most 12 bytes ahead of where it fails).
    mutating func parseValue(atStartOf input: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(SyntaxError) -> Int {
        try parse(input, maxDepth: maxDepth, wholeText: false)
    }

    private mutating func parse(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int, wholeText: Bool) throws(SyntaxError) -> Int {
        reset()
        guard input.count < Int(UInt32.max) else {
            throw SyntaxError(kind: .syntax, reason: "a JSON text larger than 4 GiB", offset: 0)
        }
        var parser = Parser(input: input, maxDepth: maxDepth, wholeText: wholeText)
        try parser.run(into: &self)
        return parser.p
    }

    /// Empties the tape before a parse, or before another reader writes nodes into it
    /// (`XMLPlistReader`); buffers keep their capacity.
    /// `expectingNodes`: room to make first (a whole document's reader knows its size).
    mutating func reset(expectingNodes: Int = 0) {
        // A copied tape shares its node buffer: it gets one of its own before writing.
        if !isKnownUniquelyReferenced(&buffer) { buffer = TapeBuffer() }
        while buffer.capacity < expectingNodes { buffer.grow(keeping: 0) }
        if !isKnownUniquelyReferenced(&keyEntries) { keyEntries = TapeBuffer() }
        nodeCount = 0
        top = -1
        unescapedKeys.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func append(_ node: Node) {
        if nodeCount == buffer.capacity { buffer.grow(keeping: nodeCount) }
        (buffer.base + nodeCount).initialize(to: node)
        nodeCount += 1
    }

    /// Appends a string, number or other leaf whose bytes are `bytes` of the document's bytes
    /// (the property-list readers, which write those bytes themselves).
    @inline(__always)
    mutating func appendLeaf(_ kind: Kind, bytes: Range<Int>, flags: UInt8 = 0) {
        append(
            Node(
                kind: kind, flags: flags, length: UInt32(truncatingIfNeeded: bytes.count),
                offset: UInt32(truncatingIfNeeded: bytes.lowerBound), end: UInt32(truncatingIfNeeded: nodeCount + 1)))
    }

    /// The offset of the first byte at or after `p` that `attention` flags, looked for eight bytes
    /// at a time; the last partial word's offset (`p` itself when fewer than eight bytes are
    /// left) when none is, for the caller to look at byte by byte. `attention` sets the high bit
    /// of each flagged byte, exactly for the lowest one (borrows may flag bytes after it).
    @inline(__always)
    static func skipUnflagged(_ base: UnsafePointer<UInt8>, from p: Int, to n: Int, _ attention: (UInt64) -> UInt64) -> Int {
        var p = p
        while p + 8 <= n {
            let flagged = attention(UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self)))
            if flagged != 0 { return p + flagged.trailingZeroBitCount >> 3 }
            p += 8
        }
        return p
    }

    mutating func open(_ kind: Kind, at offset: Int) {
        stack.append(Int32(top))
        top = nodeCount
        append(Node(kind: kind, flags: 0, length: 0, offset: UInt32(truncatingIfNeeded: offset), end: 0))
    }

    var depth: Int { stack.count }

    /// The kind of the innermost open container, nil at the top level.
    @inline(__always)
    var openKind: Kind? { top >= 0 ? buffer.base[top].kind : nil }

    /// Counts a finished element of the innermost open container.
    @inline(__always)
    mutating func countElement() {
        if top >= 0 { buffer.base[top].length &+= 1 }
    }

    /// The first `min(count, 8)` bytes at `p` as a little-endian word, zero-padded; one load when
    /// eight bytes can be read.
    @inline(__always)
    static func signature(_ p: UnsafePointer<UInt8>, count: Int, readable: Int) -> UInt64 {
        if readable >= 8 {
            let w = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
            return count >= 8 ? w : w & ((1 << UInt64(count * 8)) &- 1)
        }
        var w: UInt64 = 0
        for k in 0..<min(count, 8) { w |= UInt64(p[k]) << UInt64(k * 8) }
        return w
    }

    /// Closes the innermost container; for an object, checks that its keys are unique.
    fileprivate mutating func close(input: UnsafeBufferPointer<UInt8>) throws(SyntaxError) {
        guard let duplicate = close(keysIn: input) else { return }
        let node = nodes[duplicate]
        let key = unescapedKeys.withUnsafeBufferPointer { String(decoding: Self.keyBytes(node, input, $0), as: UTF8.self) }
        throw SyntaxError(kind: .syntax, reason: "duplicate key \"\(key)\" in an object", offset: Int(node.offset))
    }

    /// Closes the innermost container; for an object, returns the node of its first key that
    /// repeats an earlier one (keys read from `input`, or from the unescaped copies), if any.
    mutating func close(keysIn input: UnsafeBufferPointer<UInt8>) -> Int? {
        let closed = top
        top = Int(stack.removeLast())
        let nodes = buffer.base
        nodes[closed].end = UInt32(truncatingIfNeeded: nodeCount)
        guard nodes[closed].kind == .object else { return nil }
        let count = Int(nodes[closed].length)
        return count > 1 ? duplicateKey(of: closed, count: count, input: input) : nil
    }

    /// The error reason for the duplicate key at node `index` of a tape whose bytes are
    /// `content` (a property list's decoded text), its container named as the format names it.
    func duplicateKeyReason(_ index: Int, in content: [UInt8], container: String) -> String {
        let node = nodes[index]
        let key = String(decoding: content[Int(node.offset)..<Int(node.offset + node.length)], as: UTF8.self)
        return "duplicate key \(DisplaySafe.quoted(key)) in a \(container) (a duplicate key in any object is an error)"
    }

    /// Checks the `count` keys of the object at node `object` for a duplicate. Each key's
    /// signature and length pick one bit of a 256-bit filter; only a key whose bit is already set
    /// is compared with the keys before it (by signature and length, then bytes for keys longer
    /// than eight bytes). Objects of more than 64 keys go through an open-addressing table of
    /// the keys' seeded hashes (kept between objects, emptied slot by slot): O(k) for k keys,
    /// whatever the keys. The key reported is the first that repeats an earlier one.
    private mutating func duplicateKey(of object: Int, count: Int, input: UnsafeBufferPointer<UInt8>) -> Int? {
        while keyEntries.capacity < count { keyEntries.grow(keeping: 0) }
        if count > 64 {
            var size = 32
            while size < count * 2 { size <<= 1 }
            if table.count < size { table = [Int32](repeating: -1, count: size) }
        }
        let nodes = self.nodes
        let found: Int? = withExtendedLifetime(buffer) {
            unescapedKeys.withUnsafeBufferPointer { keys in
                withExtendedLifetime(keyEntries) {
                    let entries = keyEntries.base
                    @inline(__always) func same(_ a: KeyEntry, _ b: KeyEntry) -> Bool {
                        guard a.signature == b.signature, a.length == b.length else { return false }
                        return a.length <= 8 || Self.equal(Self.keyBytes(nodes[Int(a.node)], input, keys), Self.keyBytes(nodes[Int(b.node)], input, keys))
                    }
                    @inline(__always) func mix(_ a: KeyEntry) -> UInt64 {
                        (a.signature ^ UInt64(a.length) << 59) &* 0x9E37_79B9_7F4A_7C15
                    }
                    // The keys' entries, in order; small objects are checked on the way.
                    let inputBase = input.baseAddress!
                    var filter: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                    let duplicate: Int? = withUnsafeMutableBytes(of: &filter) { filterBytes -> Int? in
                        let words = filterBytes.baseAddress!.assumingMemoryBound(to: UInt64.self)
                        var i = object + 1
                        for k in 0..<count {
                            let n = nodes[i]
                            let length = Int(n.length)
                            let signature =
                                n.flags & Node.keyCopy == 0
                                ? Self.signature(inputBase + Int(n.offset), count: length, readable: input.count - Int(n.offset))
                                : Self.signature(keys.baseAddress! + Int(n.offset), count: length, readable: keys.count - Int(n.offset))
                            let a = KeyEntry(signature: signature, length: n.length, node: UInt32(i))
                            entries[k] = a
                            i = Int(nodes[i + 1].end)
                            guard count <= 64 else { continue }
                            let h = Int(truncatingIfNeeded: mix(a) >> 56)
                            let bit: UInt64 = 1 << UInt64(h & 63)
                            let word = words[h >> 6]
                            words[h >> 6] = word | bit
                            if word & bit != 0 {
                                for j in 0..<k where same(a, entries[j]) { return k }
                            }
                        }
                        return nil
                    }
                    if count <= 64 { return duplicate }
                    return table.withUnsafeMutableBufferPointer { table -> Int? in
                        var size = 32
                        while size < count * 2 { size <<= 1 }
                        let mask = size - 1
                        var duplicate: Int?
                        // Slots from the process's seeded hasher over the whole key: keys built to
                        // share their first eight bytes, or a weak hash's bits, cannot be made to
                        // pile up on one slot (quadratic work). Which key is reported does not
                        // depend on the slots (the first that repeats an earlier one).
                        @inline(__always) func slotHash(_ a: KeyEntry) -> Int {
                            var h = Hasher()
                            if a.length <= 8 {
                                h.combine(a.signature)
                                h.combine(a.length)
                            } else {
                                h.combine(bytes: UnsafeRawBufferPointer(Self.keyBytes(nodes[Int(a.node)], input, keys)))
                            }
                            return h.finalize()
                        }
                        for k in 0..<count {
                            let a = entries[k]
                            var slot = slotHash(a) & mask
                            while table[slot] >= 0 {
                                if same(entries[Int(table[slot])], a) {
                                    duplicate = k
                                    break
                                }
                                slot = (slot + 1) & mask
                            }
                            if duplicate != nil { break }
                            table[slot] = Int32(k)
                        }
                        for k in 0..<size { table[k] = -1 }
                        return duplicate
                    }
                }
            }
        }
        return found.map { Int(keyEntries.base[$0].node) }
    }

    /// The bytes of the key (or string) node `n`: its unescaped copy in `keys` for keys that held
    /// escapes, else its content in `input`.
    @inline(__always)
    static func keyBytes(
        _ n: Node, _ input: UnsafeBufferPointer<UInt8>, _ keys: UnsafeBufferPointer<UInt8>
    ) -> UnsafeBufferPointer<UInt8> {
        let range = Int(n.offset)..<Int(n.offset) + Int(n.length)
        return UnsafeBufferPointer(rebasing: n.flags & Node.keyCopy != 0 ? keys[range] : input[range])
    }

    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// Stores the unescaped form of the key node just appended (its content held escapes).
    fileprivate mutating func copyUnescapedKey(_ input: UnsafeBufferPointer<UInt8>) {
        let i = nodeCount - 1
        let start = unescapedKeys.count
        let nodes = buffer.base
        let n = nodes[i]
        JSONTape.appendUnescaped(UnsafeBufferPointer(rebasing: input[Int(n.offset)..<Int(n.offset) + Int(n.length)]), to: &unescapedKeys)
        nodes[i].offset = UInt32(start)
        nodes[i].length = UInt32(unescapedKeys.count - start)
        nodes[i].flags = Node.keyCopy
    }

    /// Appends the UTF-8 of a string's content with its escapes resolved.
    static func appendUnescaped(_ raw: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: raw.count))
        let count = out.withUnsafeMutableBufferPointer { unescape(raw, into: $0.baseAddress! + start) }
        out.removeLast(raw.count - count)
    }

    /// Writes the UTF-8 of a string's content with its escapes resolved to `out` (room for
    /// `raw.count` bytes: an escape is never shorter than what it stands for) and returns the
    /// count. The content was validated by the parser (escapes well formed, surrogates paired).
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var i = 0
        var o = 0
        let n = raw.count
        @inline(__always) func put(_ b: UInt8) {
            out[o] = b
            o += 1
        }
        while i < n {
            let c = raw[i]
            if c != UInt8(ascii: "\\") {
                put(c)
                i += 1
                continue
            }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "u"):
                var v = hex4(raw, i)
                i += 4
                if v >= 0xD800 && v < 0xDC00 {
                    let low = hex4(raw, i + 2)
                    i += 6
                    v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                }
                switch v {
                case 0..<0x80: put(UInt8(v))
                case 0x80..<0x800:
                    put(UInt8(0xC0 | v >> 6))
                    put(UInt8(0x80 | v & 0x3F))
                case 0x800..<0x10000:
                    put(UInt8(0xE0 | v >> 12))
                    put(UInt8(0x80 | v >> 6 & 0x3F))
                    put(UInt8(0x80 | v & 0x3F))
                default:
                    put(UInt8(0xF0 | v >> 18))
                    put(UInt8(0x80 | v >> 12 & 0x3F))
                    put(UInt8(0x80 | v >> 6 & 0x3F))
                    put(UInt8(0x80 | v & 0x3F))
                }
            default: put(e)  // a quote, a backslash or a slash
            }
        }
        return o
    }

    @inline(__always)
    static func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 { v = v << 4 | UInt32(hexValue(raw[at + k])) }
        return v
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c &- UInt8(ascii: "A") &+ 10
        default: 0xFF
        }
    }
}

/// The grammar, as a loop over the states "a value is expected", "a key is expected" and "a value
/// has ended": no recursion, so nesting costs no stack.
private struct Parser {
    let input: UnsafeBufferPointer<UInt8>
    let base: UnsafePointer<UInt8>
    let n: Int
    let maxDepth: Int
    /// Whether the value must end the input (else the parse stops after it).
    let wholeText: Bool
    var p = 0

    init(input: UnsafeBufferPointer<UInt8>, maxDepth: Int, wholeText: Bool) {
        self.input = input
        // A non-null pointer even for an empty buffer; never read past `n`.
        base = input.baseAddress ?? UnsafePointer(bitPattern: 1)!
        n = input.count
        self.maxDepth = maxDepth
        self.wholeText = wholeText
    }

    private enum State { case value, key, ended }

    func fail(_ reason: String, at offset: Int? = nil) -> JSONTape.SyntaxError {
        JSONTape.SyntaxError(kind: .syntax, reason: reason, offset: offset ?? p)
    }

    func unexpected() -> JSONTape.SyntaxError {
        guard p < n else { return fail("unexpected end of the data") }
        let c = base[p]
        if c >= 0x21 && c < 0x7F { return fail("unexpected character '\(Character(Unicode.Scalar(c)))'") }
        return fail("unexpected byte 0x\(String(c, radix: 16, uppercase: true))")
    }

    @inline(__always) mutating func skipWhitespace() {
        while p < n {
            let c = base[p]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            p += 1
        }
    }

    mutating func run(into tape: inout JSONTape) throws(JSONTape.SyntaxError) {
        var state = State.value
        while true {
            switch state {
            case .value:
                skipWhitespace()
                guard p < n else { throw unexpected() }
                let c = base[p]
                switch c {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    // A container opens; an empty one closes at once.
                    let isObject = c == UInt8(ascii: "{")
                    guard tape.depth < maxDepth else {
                        throw JSONTape.SyntaxError(kind: .tooDeep, reason: "nested deeper than \(maxDepth)", offset: p)
                    }
                    tape.open(isObject ? .object : .array, at: p)
                    p += 1
                    skipWhitespace()
                    if p < n && base[p] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        p += 1
                        try tape.close(input: input)
                        state = .ended
                    } else {
                        state = isObject ? .key : .value
                    }
                case UInt8(ascii: "\""):
                    let start = p + 1
                    let escaped = try scanString()
                    tape.append(stringNode(start: start, escaped: escaped, count: tape.nodeCount))
                    state = .ended
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let start = p
                    let integral = try scanNumber()
                    tape.append(
                        JSONTape.Node(
                            kind: .number, flags: integral ? JSONTape.Node.integral : 0, length: UInt32(p - start),
                            offset: UInt32(start), end: UInt32(tape.nodeCount + 1)))
                    state = .ended
                case UInt8(ascii: "t"):
                    try literal("true")
                    tape.append(JSONTape.Node(kind: .trueValue, flags: 0, length: 0, offset: UInt32(p - 4), end: UInt32(tape.nodeCount + 1)))
                    state = .ended
                case UInt8(ascii: "f"):
                    try literal("false")
                    tape.append(JSONTape.Node(kind: .falseValue, flags: 0, length: 0, offset: UInt32(p - 5), end: UInt32(tape.nodeCount + 1)))
                    state = .ended
                case UInt8(ascii: "n"):
                    try literal("null")
                    tape.append(JSONTape.Node(kind: .null, flags: 0, length: 0, offset: UInt32(p - 4), end: UInt32(tape.nodeCount + 1)))
                    state = .ended
                default:
                    throw unexpected()
                }
            case .key:
                skipWhitespace()
                guard p < n, base[p] == UInt8(ascii: "\"") else {
                    if p < n && base[p] == UInt8(ascii: "}") { throw fail("a comma before '}'") }
                    throw p < n ? fail("expected a key string") : unexpected()
                }
                let start = p + 1
                let escaped = try scanString()
                tape.append(stringNode(start: start, escaped: escaped, count: tape.nodeCount))
                if escaped { tape.copyUnescapedKey(input) }
                skipWhitespace()
                guard p < n, base[p] == UInt8(ascii: ":") else { throw p < n ? fail("expected ':' after a key") : unexpected() }
                p += 1
                state = .value
            case .ended:
                tape.countElement()
                skipWhitespace()
                guard let open = tape.openKind else {
                    guard p == n || !wholeText else { throw fail("unexpected data after the JSON value") }
                    return
                }
                guard p < n else { throw unexpected() }
                let c = base[p]
                p += 1
                if c == UInt8(ascii: ",") {
                    state = open == .object ? .key : .value
                } else if c == (open == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    try tape.close(input: input)
                    state = .ended
                } else {
                    p -= 1
                    throw fail(open == .object ? "expected ',' or '}' after a value" : "expected ',' or ']' after a value")
                }
                if state == .value, open == .array {
                    skipWhitespace()
                    if p < n && base[p] == UInt8(ascii: "]") { throw fail("a comma before ']'") }
                }
            }
        }
    }

    /// The node of the string just scanned (offsets fit: `parse` refuses inputs of 4 GiB).
    @inline(__always)
    func stringNode(start: Int, escaped: Bool, count: Int) -> JSONTape.Node {
        JSONTape.Node(
            kind: .string, flags: escaped ? JSONTape.Node.escaped : 0, length: UInt32(truncatingIfNeeded: p - 1 - start),
            offset: UInt32(truncatingIfNeeded: start), end: UInt32(truncatingIfNeeded: count + 1))
    }

    mutating func literal(_ word: StaticString) throws(JSONTape.SyntaxError) {
        let len = word.utf8CodeUnitCount
        guard p + len <= n, memcmp(base + p, word.utf8Start, len) == 0 else { throw fail("invalid literal") }
        p += len
    }

    /// Scans a string from its opening quote to past its closing one; returns whether it holds
    /// escapes. Validates UTF-8 and escapes.
    @inline(__always)
    mutating func scanString() throws(JSONTape.SyntaxError) -> Bool {
        let open = p
        p += 1
        var escaped = false
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control or non-ASCII.
            // The first byte that is one of those is found in its word (the lowest flagged byte
            // of each test is exact), so the ordinary bytes before it are not looked at again.
            p = JSONTape.skipUnflagged(base, from: p, to: n, Self.attention)
            guard p < n else { throw fail("unterminated string", at: open) }
            let c = base[p]
            if c == UInt8(ascii: "\"") {
                p += 1
                return escaped
            } else if c == UInt8(ascii: "\\") {
                escaped = true
                try scanEscape()
            } else if c < 0x20 {
                throw fail("a control character (0x\(String(c, radix: 16, uppercase: true))) inside a string must be escaped")
            } else if c < 0x80 {
                p += 1
            } else {
                // Runs of three-byte sequences (CJK) without the general table: a lead byte
                // E1–EC or EE–EF and two continuation bytes is always well formed.
                while p + 3 <= n {
                    let lead = base[p]
                    guard lead >= 0xE1 && lead <= 0xEF && lead != 0xED,
                        base[p + 1] & 0xC0 == 0x80, base[p + 2] & 0xC0 == 0x80
                    else { break }
                    p += 3
                }
                if p < n && base[p] >= 0x80 { try scanMultibyte() }
            }
        }
    }

    /// The high bit of each byte of `w` that is a quote, a backslash, a control character or
    /// not ASCII (and possibly of bytes after the first such byte: borrows carry upwards only).
    @inline(__always)
    static func attention(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* 0x22)
        let slash = w ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroSlash = (slash &- ones) & ~slash
        let control = (w &- ones &* 0x20) & ~w
        return (zeroQuote | zeroSlash | control | w) & highs
    }

    mutating func scanEscape() throws(JSONTape.SyntaxError) {
        guard p + 1 < n else { throw fail("unterminated string") }
        let e = base[p + 1]
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            p += 2
        case UInt8(ascii: "u"):
            let v = try hex4(at: p + 2)
            if v >= 0xDC00 && v < 0xE000 { throw fail("a low surrogate escape without a high one") }
            if v >= 0xD800 && v < 0xDC00 {
                guard p + 11 < n, base[p + 6] == UInt8(ascii: "\\"), base[p + 7] == UInt8(ascii: "u") else {
                    throw fail("a high surrogate escape without a low one")
                }
                let low = try hex4(at: p + 8)
                guard low >= 0xDC00 && low < 0xE000 else { throw fail("a high surrogate escape without a low one") }
                p += 12
            } else {
                p += 6
            }
        default:
            throw fail("invalid escape in a string")
        }
    }

    func hex4(at: Int) throws(JSONTape.SyntaxError) -> UInt32 {
        guard at + 4 <= n else { throw fail("unterminated \\u escape") }
        var v: UInt32 = 0
        for k in 0..<4 {
            let h = JSONTape.hexValue(base[at + k])
            guard h != 0xFF else { throw fail("invalid \\u escape") }
            v = v << 4 | UInt32(h)
        }
        return v
    }

    /// Validates one multi-byte UTF-8 sequence (Unicode's table of well-formed sequences).
    @inline(__always)
    mutating func scanMultibyte() throws(JSONTape.SyntaxError) {
        let c = base[p]
        @inline(__always) func cont(_ i: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            p + i < n && base[p + i] >= lo && base[p + i] <= hi
        }
        switch c {
        case 0xC2...0xDF:
            guard cont(1) else { throw invalidUTF8() }
            p += 2
        case 0xE0:
            guard cont(1, 0xA0), cont(2) else { throw invalidUTF8() }
            p += 3
        case 0xE1...0xEC, 0xEE...0xEF:
            guard cont(1), cont(2) else { throw invalidUTF8() }
            p += 3
        case 0xED:
            guard cont(1, 0x80, 0x9F), cont(2) else { throw invalidUTF8() }
            p += 3
        case 0xF0:
            guard cont(1, 0x90), cont(2), cont(3) else { throw invalidUTF8() }
            p += 4
        case 0xF1...0xF3:
            guard cont(1), cont(2), cont(3) else { throw invalidUTF8() }
            p += 4
        case 0xF4:
            guard cont(1, 0x80, 0x8F), cont(2), cont(3) else { throw invalidUTF8() }
            p += 4
        default:
            throw invalidUTF8()
        }
    }

    func invalidUTF8() -> JSONTape.SyntaxError { fail("invalid UTF-8 in a string") }

    /// Scans a number token; returns whether it is an integer (no fraction, no exponent).
    mutating func scanNumber() throws(JSONTape.SyntaxError) -> Bool {
        @inline(__always) func digit(_ i: Int) -> Bool { i < n && base[i] &- UInt8(ascii: "0") < 10 }
        if base[p] == UInt8(ascii: "-") { p += 1 }
        if p < n && base[p] == UInt8(ascii: "0") {
            p += 1
        } else if digit(p) {
            while digit(p) { p += 1 }
        } else {
            throw fail("invalid number")
        }
        var integral = true
        if p < n && base[p] == UInt8(ascii: ".") {
            p += 1
            guard digit(p) else { throw fail("invalid number: no digit after the decimal point") }
            while digit(p) { p += 1 }
            integral = false
        }
        if p < n && (base[p] == UInt8(ascii: "e") || base[p] == UInt8(ascii: "E")) {
            p += 1
            if p < n && (base[p] == UInt8(ascii: "+") || base[p] == UInt8(ascii: "-")) { p += 1 }
            guard digit(p) else { throw fail("invalid number: no digit in the exponent") }
            while digit(p) { p += 1 }
            integral = false
        }
        return integral
    }
}

/// Storage of a `JSONTape` (its nodes, its key stack): grown by doubling, kept from one parse to
/// the next.
///
/// `@unchecked Sendable`: a tape writes only to buffers no other tape holds (it replaces shared
/// ones before parsing), so a buffer reachable from two tapes is only read.
final class TapeBuffer<Element>: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int

    init() {
        capacity = 64
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Doubles the capacity, keeping the first `count` elements (plain values: nothing to deinitialize).
    func grow(keeping count: Int) {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }
}
