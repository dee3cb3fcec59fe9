import Foundation

// Byte-level scans of format detection: the end of the first top-level JSON value (to tell
// JSON from JSON Lines), and the leading bytes shown when no format matches.

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

/// White space between JSON tokens and in XML markup: space, tab, LF and CR.
@inline(__always)
func isSyntaxSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

/// A readable rendering of a file's first bytes for "unrecognized format" errors.
func describeLeadingBytes<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    let head = Array(bytes.prefix(8))
    if head.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return "\"\(String(decoding: head, as: UTF8.self))\"" }
    return "bytes " + head.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        .joined(separator: " ")
}
