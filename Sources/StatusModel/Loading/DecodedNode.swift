// What the decoders read: one value of a parsed document, a node of the JSON tape (`JSONNode`),
// which holds JSON and JSON Lines as parsed and property lists as their readers write them
// (`XMLPlistReader`, `BinaryPlistReader`). `Fields` and `StatusDecoder` are written against the
// protocol, so that what they ask of a value is stated in one place.
import Foundation

/// One value of a parsed document, with what the decoders ask of it.
protocol DecodedNode {
    /// JSON null (never true for property lists, which have no null).
    var isNull: Bool { get }
    var isString: Bool { get }
    var isObject: Bool { get }
    var isArray: Bool { get }
    /// The value of a boolean (JSON true/false, plist `<true/>`/`<false/>`); nil for other kinds,
    /// including the numbers 0 and 1.
    var booleanValue: Bool? { get }
    /// A string's UTF-8 length; nil for other kinds.
    var utf8Count: Int? { get }
    /// A string's value; nil for other kinds.
    var stringValue: String? { get }
    /// An integer from a number without fraction that fits `Int64`, or from a decimal string;
    /// nil otherwise (booleans included).
    var lenientInt64: Int64? { get }
    /// The value of `key` in an object; nil when absent or when this is not an object.
    func member(_ key: String) -> Self?
    /// An object's keys, in document order.
    var memberKeys: [String] { get }
    /// `keys.map(member)`, in time linear in the keys and members together (however many of
    /// each), for lookups of many keys in one object.
    func members(forKeys keys: [String]) -> [Self?]
    /// An array's elements; empty for other kinds.
    var elements: [Self] { get }
    /// An array's element count; 0 for other kinds.
    var elementCount: Int { get }
    /// Where this value is, relative to the status being decoded (computed when an error needs it).
    var path: FieldPath { get }
    /// The same value as the root of key paths (a status, a group or a section being decoded).
    var rerooted: Self { get }
    /// A short description for "found …" in errors: `string "abc"`, `number 12.5`, `object`.
    var valueDescription: String { get }
}

// MARK: - JSON

/// A parsed JSON text and the bytes it was parsed from, for reading its nodes.
///
/// The pointers are valid only inside `JSONTape.withDocument`; nodes never escape it.
struct JSONDocument {
    let nodes: UnsafePointer<JSONTape.Node>
    let bytes: UnsafePointer<UInt8>
    let keys: UnsafePointer<UInt8>

    /// The root value, as the root of key paths.
    var root: JSONNode { node(0, root: 0) }

    func node(_ index: Int, root: Int) -> JSONNode {
        JSONNode(document: self, root: Int32(root), index: Int32(index))
    }

    /// 1-based line and column of a byte offset, for syntax errors of whole documents.
    static func lineAndColumn(of offset: Int, in input: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, input.count) where input[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }
}

extension JSONTape {
    /// Calls `body` with the parsed document over `input` (the bytes `parse` was given).
    func withDocument<R, E: Error>(
        _ input: UnsafeBufferPointer<UInt8>, _ body: (JSONDocument) throws(E) -> R
    ) throws(E) -> R {
        let empty: UInt8 = 0
        // The node buffer lives as long as this tape, which the call holds.
        let nodes = nodes.baseAddress!
        return try withUnsafePointer(to: empty) { (placeholder) throws(E) -> R in
            try unescapedKeys.withUnsafeBufferPointer { (keys) throws(E) -> R in
                try body(JSONDocument(nodes: nodes, bytes: input.baseAddress ?? placeholder, keys: keys.baseAddress ?? placeholder))
            }
        }
    }
}

/// A node of a `JSONDocument`: three pointers and two indices, no reference counting.
struct JSONNode: DecodedNode {
    let document: JSONDocument
    /// The node key paths start from (the status being decoded).
    let root: Int32
    let index: Int32

    @inline(__always) var node: JSONTape.Node { document.nodes[Int(index)] }
    @inline(__always) var kind: JSONTape.Kind { node.kind }

    var isNull: Bool { kind == .null }
    var isString: Bool { kind == .string }
    var isObject: Bool { kind == .object }
    var isArray: Bool { kind == .array }

    var booleanValue: Bool? {
        switch kind {
        case .trueValue: true
        case .falseValue: false
        default: nil
        }
    }

    /// The raw bytes of a string's content (escapes unresolved) or a number's token.
    @inline(__always) var rawBytes: UnsafeBufferPointer<UInt8> {
        let n = node
        return UnsafeBufferPointer(start: document.bytes + Int(n.offset), count: Int(n.length))
    }

    var utf8Count: Int? {
        let n = node
        guard n.kind == .string else { return nil }
        guard n.flags & JSONTape.Node.escaped != 0 else { return Int(n.length) }
        return withUnescapedBytes { $0.count }
    }

    var stringValue: String? {
        guard kind == .string else { return nil }
        return withUnescapedBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with a string's content, escapes resolved (in a temporary buffer when needed).
    @inline(__always)
    func withUnescapedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let n = node
        if n.flags & JSONTape.Node.escaped == 0 { return body(rawBytes) }
        let raw = rawBytes
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, raw.count)) { buffer in
            let count = JSONTape.unescape(raw, into: buffer.baseAddress!)
            return body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    var lenientInt64: Int64? {
        switch kind {
        case .number:
            if node.flags & JSONTape.Node.integral != 0 { return Self.parseInteger(rawBytes) }
            return Self.parseExactInteger(rawBytes)
        case .string:
            return stringValue.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        default:
            return nil
        }
    }

    /// The value of a number token with a fraction or an exponent when it is exactly an integer
    /// that fits `Int64` (`12.0`, `1.5e3`, `-0.0`); nil otherwise (`1.5`, `1e-400`, `1e19`).
    /// Decided on the decimal digits, not through `Double`, which rounds what the file says
    /// (`12345678901234567.0` read as 12345678901234568) and makes tiny values 0.
    /// - Complexity: O(n) in the token's bytes.
    static func parseExactInteger(_ token: UnsafeBufferPointer<UInt8>) -> Int64? {
        let n = token.count
        var i = 0
        let negative = n > 0 && token[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        // The significant digits (leading zeros skipped), and how many came after the point.
        var digits: [UInt8] = []
        var fractionDigits = 0
        var afterPoint = false
        while i < n {
            let b = token[i]
            if b == UInt8(ascii: ".") {
                afterPoint = true
            } else if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                if afterPoint { fractionDigits += 1 }
                if !(digits.isEmpty && b == UInt8(ascii: "0")) { digits.append(b &- UInt8(ascii: "0")) }
            } else {
                break
            }
            i += 1
        }
        // The exponent, saturated far past any that could give an Int64.
        var exponent = 0
        if i < n && (token[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            var negativeExponent = false
            if i < n && (token[i] == UInt8(ascii: "-") || token[i] == UInt8(ascii: "+")) {
                negativeExponent = token[i] == UInt8(ascii: "-")
                i += 1
            }
            while i < n {
                exponent = min(exponent * 10 + Int(token[i] &- UInt8(ascii: "0")), 1 << 20)
                i += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        guard !digits.isEmpty else { return 0 }
        // The value is digits × 10^scale; trailing zeros move into the scale.
        var scale = exponent - fractionDigits
        while let last = digits.last, last == 0 {
            digits.removeLast()
            scale += 1
        }
        guard scale >= 0, digits.count + scale <= 19 else { return nil }
        // Accumulated as a negative number, whose range includes Int64.min.
        var v: Int64 = 0
        for d in digits + [UInt8](repeating: 0, count: scale) {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (r, o2) = m.subtractingReportingOverflow(Int64(d))
            if o1 || o2 { return nil }
            v = r
        }
        if negative { return v }
        return v == .min ? nil : -v
    }

    /// An integer token's value; nil when it does not fit `Int64`.
    static func parseInteger(_ token: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let negative = token[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        // Up to 18 digits cannot overflow.
        if token.count - i <= 18 {
            var v: Int64 = 0
            while i < token.count {
                v = v &* 10 &+ Int64(token[i] &- UInt8(ascii: "0"))
                i += 1
            }
            return negative ? -v : v
        }
        // Accumulated as a negative number, whose range includes Int64.min.
        var v: Int64 = 0
        while i < token.count {
            let d = Int64(token[i] &- UInt8(ascii: "0"))
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(d)
            if o1 || o2 { return nil }
            v = s
            i += 1
        }
        if negative { return v }
        return v == .min ? nil : -v
    }

    func member(_ key: String) -> JSONNode? {
        let n = node
        guard n.kind == .object else { return nil }
        var key = key
        return key.withUTF8 { k -> JSONNode? in
            let nodes = document.nodes
            var i = Int(index) + 1
            for _ in 0..<n.length {
                let keyNode = nodes[i]
                if keyNode.length == k.count {
                    let base = keyNode.flags & JSONTape.Node.keyCopy != 0 ? document.keys : document.bytes
                    if Self.same(base + Int(keyNode.offset), k) {
                        return JSONNode(document: document, root: root, index: Int32(i + 1))
                    }
                }
                i = Int(nodes[i + 1].end)
            }
            return nil
        }
    }

    /// One pass over the members indexes them by their bytes (keys compare by bytes, as in
    /// `member`) when there are more than a few keys to find: `member` alone is a scan of the
    /// object per key.
    func members(forKeys keys: [String]) -> [JSONNode?] {
        let n = node
        guard keys.count > 8, n.kind == .object else { return keys.map(member) }
        var table: [[UInt8]: Int32] = [:]
        table.reserveCapacity(Int(n.length))
        let nodes = document.nodes
        var i = Int(index) + 1
        for _ in 0..<n.length {
            let keyNode = nodes[i]
            let base = keyNode.flags & JSONTape.Node.keyCopy != 0 ? document.keys : document.bytes
            table[Array(UnsafeBufferPointer(start: base + Int(keyNode.offset), count: Int(keyNode.length)))] = Int32(i + 1)
            i = Int(nodes[i + 1].end)
        }
        return keys.map { key in table[Array(key.utf8)].map { JSONNode(document: document, root: root, index: $0) } }
    }

    /// True when the `key.count` bytes at `bytes` are `key`'s (keys are short: a loop beats a call).
    @inline(__always)
    static func same(_ bytes: UnsafePointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        for j in 0..<key.count where bytes[j] != key[j] { return false }
        return true
    }

    /// The key node's string.
    private func keyString(at i: Int) -> String {
        let keyNode = document.nodes[i]
        let base = keyNode.flags & JSONTape.Node.keyCopy != 0 ? document.keys : document.bytes
        return String(decoding: UnsafeBufferPointer(start: base + Int(keyNode.offset), count: Int(keyNode.length)), as: UTF8.self)
    }

    var memberKeys: [String] {
        let n = node
        guard n.kind == .object else { return [] }
        var out: [String] = []
        out.reserveCapacity(Int(n.length))
        var i = Int(index) + 1
        for _ in 0..<n.length {
            out.append(keyString(at: i))
            i = Int(document.nodes[i + 1].end)
        }
        return out
    }

    var elements: [JSONNode] {
        let n = node
        guard n.kind == .array else { return [] }
        var out: [JSONNode] = []
        out.reserveCapacity(Int(n.length))
        var i = Int(index) + 1
        for _ in 0..<n.length {
            out.append(JSONNode(document: document, root: root, index: Int32(i)))
            i = Int(document.nodes[i].end)
        }
        return out
    }

    var elementCount: Int { kind == .array ? Int(node.length) : 0 }

    var rerooted: JSONNode { JSONNode(document: document, root: index, index: index) }

    /// Walks from the root down to this node (`end` bounds each subtree): O(depth × siblings).
    var path: FieldPath {
        var path = FieldPath()
        var at = Int(root)
        let target = Int(index)
        let nodes = document.nodes
        while at != target {
            let n = nodes[at]
            var i = at + 1
            var found = false
            for k in 0..<Int(n.length) {
                let valueIndex = n.kind == .object ? i + 1 : i
                let end = Int(nodes[valueIndex].end)
                if target >= valueIndex && target < end {
                    path.components.append(n.kind == .object ? .key(keyString(at: i)) : .index(k))
                    at = valueIndex
                    found = true
                    break
                }
                i = end
            }
            if !found { break }
        }
        return path
    }

    var valueDescription: String {
        switch kind {
        case .null: return "null"
        case .trueValue: return "boolean true"
        case .falseValue: return "boolean false"
        case .number: return "number \(String(decoding: rawBytes.prefix(40), as: UTF8.self))"
        case .string: return describeString(stringValue ?? "")
        case .array: return "array"
        case .object: return "object"
        case .plistOther: return String(decoding: rawBytes, as: UTF8.self)
        }
    }
}

/// `string "…"` with at most 24 characters of the value.
func describeString(_ s: String) -> String {
    let head = s.prefix(24)
    return head.count < s.count ? "string \"\(head)…\"" : "string \"\(s)\""
}
