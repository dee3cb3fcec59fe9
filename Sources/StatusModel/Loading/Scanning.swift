// Byte-level pre-checks run before Foundation's parsers see the data: nesting depth (both
// JSONSerialization and the XML plist parser recurse, so a 100 000-deep input must be refused
// before parsing) and the end of the first top-level JSON value (to tell JSON from JSON Lines).

/// Incremental JSON structure scanner: tracks string state and nesting depth, byte by byte.
struct JSONDepthScanner {
    private(set) var depth = 0
    private(set) var maxDepth = 0
    private var inString = false
    private var escaped = false
    /// Set when a top-level container closes (depth returns to 0).
    private(set) var closedTopLevel = false

    /// Feeds one byte; returns false once `maxDepth` exceeds `limit`.
    @inline(__always)
    mutating func feed(_ b: UInt8, limit: Int) -> Bool {
        if inString {
            if escaped {
                escaped = false
            } else if b == UInt8(ascii: "\\") {
                escaped = true
            } else if b == UInt8(ascii: "\"") {
                inString = false
            }
            return true
        }
        switch b {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            depth += 1
            if depth > maxDepth {
                maxDepth = depth
                if depth > limit { return false }
            }
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            depth -= 1
            if depth == 0 { closedTopLevel = true }
        default: break
        }
        return true
    }
}

/// True when the JSON bytes nest no deeper than `limit`.
func jsonDepthWithinLimit(_ bytes: ArraySlice<UInt8>, limit: Int) -> Bool {
    bytes.withUnsafeBufferPointer { buf in
        var s = JSONDepthScanner()
        for b in buf where !s.feed(b, limit: limit) { return false }
        return true
    }
}

/// True when the XML property list nests `<array>` / `<dict>` no deeper than `limit`.
func plistXMLDepthWithinLimit(_ bytes: [UInt8], limit: Int) -> Bool {
    var depth = 0
    var i = 0
    let n = bytes.count
    let lt = UInt8(ascii: "<")
    while i < n {
        if bytes[i] != lt {
            i += 1
            continue
        }
        var j = i + 1
        var closing = false
        if j < n && bytes[j] == UInt8(ascii: "/") {
            closing = true
            j += 1
        }
        var k = j
        while k < n && bytes[k] >= UInt8(ascii: "a") && bytes[k] <= UInt8(ascii: "z") { k += 1 }
        let isContainer =
            (k - j == 5 && bytes[j] == UInt8(ascii: "a") && bytes[j + 1] == UInt8(ascii: "r"))  // array
            || (k - j == 4 && bytes[j] == UInt8(ascii: "d") && bytes[j + 1] == UInt8(ascii: "i"))  // dict
        if isContainer && k < n {
            if closing {
                depth -= 1
            } else if bytes[k] == UInt8(ascii: ">") {
                depth += 1
                if depth > limit { return false }
            }
        }
        i = k
    }
    return true
}

@inline(__always)
func isJSONWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

/// A readable rendering of a file's first bytes for "unrecognized format" errors.
func describeLeadingBytes<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    let head = Array(bytes.prefix(8))
    if head.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return "\"\(String(decoding: head, as: UTF8.self))\"" }
    return "bytes " + head.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        .joined(separator: " ")
}

/// True when the binary property list (`bplist00`) nests arrays/dicts/sets no deeper than `limit`.
///
/// Walks the object graph level by level from the top object (each level deduplicated, so a
/// shared subtree is visited once per level and a cycle ends at `limit`). Structural damage
/// (offsets out of range, a short trailer) returns true: Foundation's parser reports it as malformed.
func binaryPlistDepthWithinLimit(_ bytes: [UInt8], limit: Int) -> Bool {
    let n = bytes.count
    guard n >= 40 else { return true }
    func uint(_ at: Int, _ size: Int) -> Int? {
        guard size > 0, size <= 8, at >= 0, at + size <= n else { return nil }
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(bytes[at + i]) }
        return v > UInt64(Int.max) ? nil : Int(v)
    }
    let t = n - 32
    guard let offsetSize = uint(t + 6, 1), let refSize = uint(t + 7, 1), let count = uint(t + 8, 8),
        let top = uint(t + 16, 8), let table = uint(t + 24, 8), count < n, top < count, table < n
    else { return true }
    func offset(_ obj: Int) -> Int? { uint(table + obj * offsetSize, offsetSize) }
    /// The references held by the container at `obj` (empty for scalars).
    func children(_ obj: Int) -> [Int] {
        guard let o = offset(obj), o < n else { return [] }
        let marker = bytes[o] >> 4
        guard marker == 0xA || marker == 0xC || marker == 0xD else { return [] }
        var len = Int(bytes[o] & 0x0F)
        var start = o + 1
        if len == 0x0F {  // the length follows as an int object: 0x1s then 2^s bytes
            guard start < n, bytes[start] >> 4 == 0x1, let l = uint(start + 1, 1 << Int(bytes[start] & 0x0F)) else { return [] }
            start += 1 + (1 << Int(bytes[start] & 0x0F))
            len = l
        }
        let refs = marker == 0xD ? len * 2 : len
        guard refs < n else { return [] }
        var out: [Int] = []
        out.reserveCapacity(refs)
        for i in 0..<refs {
            guard let r = uint(start + i * refSize, refSize), r < count else { return out }
            out.append(r)
        }
        return out
    }
    var level: Set<Int> = [top]
    var depth = 0
    while !level.isEmpty {
        var next: Set<Int> = []
        for obj in level { next.formUnion(children(obj)) }
        if next.isEmpty { break }
        depth += 1
        if depth > limit { return false }
        level = next
    }
    return true
}

/// True when an object of the binary property list's offset table is a set (marker 0xC).
/// An unreadable trailer or table answers false (the parser then rejects the file).
/// - Complexity: O(objects).
func binaryPlistHoldsSet(_ bytes: [UInt8]) -> Bool {
    let n = bytes.count
    guard n >= 40 else { return false }
    func uint(_ at: Int, _ size: Int) -> Int? {
        guard size > 0, size <= 8, at >= 0, at + size <= n else { return nil }
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(bytes[at + i]) }
        return v > UInt64(Int.max) ? nil : Int(v)
    }
    let t = n - 32
    guard let offsetSize = uint(t + 6, 1), let count = uint(t + 8, 8), let table = uint(t + 24, 8), count < n, table < n else {
        return false
    }
    for obj in 0..<count {
        guard let o = uint(table + obj * offsetSize, offsetSize) else { return false }
        if o < n && bytes[o] >> 4 == 0xC { return true }
    }
    return false
}
