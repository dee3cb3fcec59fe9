import Foundation

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

/// True when the XML property list nests `<array>` / `<dict>` no deeper than `limit` (tags in
/// comments and CDATA sections are text, not elements).
func plistXMLDepthWithinLimit(_ bytes: [UInt8], limit: Int) -> Bool {
    var depth = 0
    var i = 0
    let n = bytes.count
    let lt = UInt8(ascii: "<")
    /// The offset after `terminator` from `p` (the end when it does not occur).
    func after(_ terminator: String, from p: Int) -> Int {
        xmlFind(terminator, in: bytes, from: p).map { $0 + terminator.utf8.count } ?? n
    }
    while i < n {
        if bytes[i] != lt {
            i += 1
            continue
        }
        if i + 3 < n && bytes[i + 1] == UInt8(ascii: "!") {
            if bytes[i + 2] == UInt8(ascii: "-") && bytes[i + 3] == UInt8(ascii: "-") {
                i = after("-->", from: i + 4)
                continue
            }
            if bytes[i + 2] == UInt8(ascii: "[") {
                i = after("]]>", from: i + 3)
                continue
            }
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

/// Whether the bytes of `s` start at `p` in `bytes`.
@inline(__always)
private func xmlStarts(_ s: String, in bytes: [UInt8], at p: Int) -> Bool {
    var k = p
    for b in s.utf8 {
        guard k < bytes.count, bytes[k] == b else { return false }
        k += 1
    }
    return true
}

/// The first offset at or after `p` where the bytes of `s` start in `bytes`, or nil.
private func xmlFind(_ s: String, in bytes: [UInt8], from p: Int) -> Int? {
    var k = p
    let first = s.utf8.first!
    while k < bytes.count {
        if bytes[k] == first && xmlStarts(s, in: bytes, at: k) { return k }
        k += 1
    }
    return nil
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

/// The first problem of an XML property list that Foundation's parser would hide, or nil:
/// a duplicate key in a `<dict>` (Foundation keeps the last one silently; keys are compared as
/// Swift strings, canonical equivalence included, as the decoded dictionaries compare them) or an
/// `<integer>` outside Int64 and UInt64 (Foundation clamps it).
/// - Complexity: O(n) in the bytes, plus the keys hashed.
func plistXMLProblem(_ bytes: [UInt8]) -> String? {
    let n = bytes.count
    /// Per open container: the keys of a dict, nil for an array.
    var stack: [Set<String>?] = []
    var i = 0
    @inline(__always) func starts(_ s: String, at p: Int) -> Bool { xmlStarts(s, in: bytes, at: p) }
    func find(_ s: String, from p: Int) -> Int? { xmlFind(s, in: bytes, from: p) }
    /// The text of an element whose content starts at `p`, up to `</name>`, entities decoded.
    func text(from p: Int, closing name: String) -> (String, Int)? {
        var out: [UInt8] = []
        var k = p
        while k < n {
            let b = bytes[k]
            if b == UInt8(ascii: "<") {
                if starts("<![CDATA[", at: k) {
                    guard let e = find("]]>", from: k + 9) else { return nil }
                    out.append(contentsOf: bytes[(k + 9)..<e])
                    k = e + 3
                    continue
                }
                if starts("<!--", at: k) {
                    guard let e = find("-->", from: k + 4) else { return nil }
                    k = e + 3
                    continue
                }
                guard starts("</" + name, at: k), let e = find(">", from: k) else { return nil }
                return (String(decoding: out, as: UTF8.self), e + 1)
            }
            // An entity's `;` is looked for in the next 12 bytes only: searching to the end for each
            // `&` made a key of 100 000 `&` take 8.6 s.
            if b == UInt8(ascii: "&"), let semi = bytes[k..<min(n, k + 13)].firstIndex(of: UInt8(ascii: ";")) {
                let entity = String(decoding: bytes[(k + 1)..<semi], as: UTF8.self)
                var scalar: Unicode.Scalar?
                switch entity {
                case "lt": scalar = "<"
                case "gt": scalar = ">"
                case "amp": scalar = "&"
                case "quot": scalar = "\""
                case "apos": scalar = "'"
                default:
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                        scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                    } else if entity.hasPrefix("#") {
                        scalar = UInt32(entity.dropFirst(1)).flatMap(Unicode.Scalar.init)
                    }
                }
                if let scalar {
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    k = semi + 1
                    continue
                }
            }
            out.append(b)
            k += 1
        }
        return nil
    }
    while i < n {
        guard bytes[i] == UInt8(ascii: "<") else {
            i += 1
            continue
        }
        if starts("<!--", at: i) {
            guard let e = find("-->", from: i + 4) else { return nil }
            i = e + 3
            continue
        }
        if starts("<![CDATA[", at: i) {
            guard let e = find("]]>", from: i + 9) else { return nil }
            i = e + 3
            continue
        }
        if starts("<?", at: i) || starts("<!", at: i) {
            guard let e = find(">", from: i) else { return nil }
            i = e + 1
            continue
        }
        var j = i + 1
        let closing = j < n && bytes[j] == UInt8(ascii: "/")
        if closing { j += 1 }
        var k = j
        while k < n && ((bytes[k] >= UInt8(ascii: "a") && bytes[k] <= UInt8(ascii: "z")) || bytes[k] == UInt8(ascii: "-")) { k += 1 }
        let name = String(decoding: bytes[j..<k], as: UTF8.self)
        guard let close = find(">", from: k) else { return nil }
        let selfClosing = close > i && bytes[close - 1] == UInt8(ascii: "/")
        i = close + 1
        switch (name, closing) {
        case ("plist", true):
            // Nothing but white space, comments and processing instructions may follow: a second
            // property list after the first was read by no one.
            var k = i
            while k < n {
                let b = bytes[k]
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                    k += 1
                } else if starts("<!--", at: k), let e = find("-->", from: k + 4) {
                    k = e + 3
                } else if starts("<?", at: k), let e = find("?>", from: k + 2) {
                    k = e + 2
                } else {
                    return "data after the end of the property list (</plist>), which would be ignored"
                }
            }
            return nil
        case ("dict", false): if !selfClosing { stack.append(Set<String>()) }
        case ("array", false): if !selfClosing { stack.append(nil) }
        case ("dict", true), ("array", true): if !stack.isEmpty { stack.removeLast() }
        case ("key", false):
            if selfClosing {
                if let last = stack.last, var keys = last {
                    if !keys.insert("").inserted { return "duplicate key \"\" in a dict (a duplicate key in any object is an error)" }
                    stack[stack.count - 1] = keys
                }
                continue
            }
            guard let (key, next) = text(from: i, closing: "key") else { return nil }
            i = next
            if let last = stack.last, var keys = last {
                stack[stack.count - 1] = nil  // one reference to the set while it grows
                if !keys.insert(key).inserted {
                    return "duplicate key \(DisplaySafe.quoted(key)) in a dict (a duplicate key in any object is an error)"
                }
                stack[stack.count - 1] = keys
            }
        case ("integer", false):
            guard !selfClosing, let (value, next) = text(from: i, closing: "integer") else { continue }
            i = next
            let t = value.trimmingCharacters(in: .whitespacesAndNewlines)
            let digits = t.hasPrefix("-") || t.hasPrefix("+") ? t.dropFirst() : Substring(t)
            if !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) && Int64(t) == nil
                && UInt64(t.hasPrefix("+") ? String(t.dropFirst()) : t) == nil
            {
                let shown = t.count > 48 ? String(t.prefix(48)) + "…" : t
                return "integer \(shown) out of range (integers must fit 64 bits; nothing is truncated)"
            }
        default: break
        }
    }
    return nil
}
