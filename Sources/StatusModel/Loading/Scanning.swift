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
