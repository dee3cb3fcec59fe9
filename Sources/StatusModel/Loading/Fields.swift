// Typed, path-tracking access to parsed documents (the JSON tape, Foundation's property-list
// trees: `DecodedNode`). Decoders read through `Fields`, so every failure names the key path
// relative to the status (`user.screen_name`, `pic_infos.abc.large.width`) and what was expected
// and found; the loader adds the file, status index, id and root prefix.
//
// Leniency (the Weibo API is inconsistent): integers may arrive as JSON numbers, integral
// doubles or decimal strings ("305"); booleans as true/false, 0/1 or "0"/"1"/"true"/"false";
// JSON null counts as absent for optional keys. Booleans are never accepted as integers.
import Foundation

enum PathComponent: Hashable, Sendable {
    case key(String)
    case index(Int)
}

/// A key path relative to a status; rendered only when an error is reported.
struct FieldPath: Sendable {
    var components: [PathComponent] = []

    func appending(_ c: PathComponent) -> FieldPath {
        var p = self
        p.components.append(c)
        return p
    }

    /// Renders after `prefix` (e.g. "statuses[3]"): keys joined with ".", indices as "[i]", keys
    /// that are not plain identifiers as `["key"]`, escaped.
    func rendered(prefix: String) -> String {
        var s = prefix
        for c in components {
            switch c {
            case .key(let k):
                // Keys come from content: odd ones are quoted (`DisplaySafe.keyPathComponent`).
                let c = DisplaySafe.keyPathComponent(k)
                s += c.bare ? (s.isEmpty ? c.text : ".\(c.text)") : c.text
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }
}

/// A problem inside one status; the loader turns it into a `StatusModelError` with context.
struct FieldError: Error {
    enum Kind {
        case missing
        case type(expected: String, found: String)
        case invalid(expected: String, found: String)
        case tooLarge(limit: Int, found: Int)
    }
    var path: FieldPath
    var kind: Kind

    func error(in location: StatusLocation) -> StatusModelError {
        switch kind {
        case .missing: .missingKey(location)
        case .type(let e, let f): .typeMismatch(location, expected: e, found: f)
        case .invalid(let e, let f): .invalidValue(location, expected: e, found: f)
        case .tooLarge(let l, let f): .valueTooLarge(location, limit: l, found: f)
        }
    }
}

/// Typed read access to one object of a status; errors name the key path.
struct Fields<Node: DecodedNode> {
    let node: Node
    let maxStringBytes: Int

    init(_ node: Node, maxStringBytes: Int) {
        self.node = node
        self.maxStringBytes = maxStringBytes
    }

    func fail(_ key: String, _ kind: FieldError.Kind) -> FieldError {
        FieldError(path: node.path.appending(.key(key)), kind: kind)
    }

    /// The value for `key`, or nil when absent or null.
    @inline(__always)
    func raw(_ key: String) -> Node? {
        guard let v = node.member(key), !v.isNull else { return nil }
        return v
    }

    func has(_ key: String) -> Bool { raw(key) != nil }

    func checkedString(_ v: Node, key: String) throws(FieldError) -> String {
        guard let n = v.utf8Count else { throw fail(key, .type(expected: "string", found: v.valueDescription)) }
        if n > maxStringBytes { throw fail(key, .tooLarge(limit: maxStringBytes, found: n)) }
        return v.stringValue!
    }

    func string(_ key: String) throws(FieldError) -> String {
        guard let v = raw(key) else { throw fail(key, .missing) }
        return try checkedString(v, key: key)
    }

    func optionalString(_ key: String) throws(FieldError) -> String? {
        guard let v = raw(key) else { return nil }
        return try checkedString(v, key: key)
    }

    func string(_ key: String, default d: String) throws(FieldError) -> String {
        try optionalString(key) ?? d
    }

    func int64(_ key: String) throws(FieldError) -> Int64 {
        guard let v = raw(key) else { throw fail(key, .missing) }
        return try int64(v, key: key)
    }

    func int64(_ v: Node, key: String) throws(FieldError) -> Int64 {
        guard let i = v.lenientInt64 else {
            let expected = "integer (number or decimal string)"
            if v.isString { throw fail(key, .invalid(expected: expected, found: v.valueDescription)) }
            throw fail(key, .type(expected: expected, found: v.valueDescription))
        }
        return i
    }

    func int(_ key: String, default d: Int) throws(FieldError) -> Int {
        guard let v = raw(key) else { return d }
        let i = try int64(v, key: key)
        guard let r = Int(exactly: i) else { throw fail(key, .invalid(expected: "integer", found: "\(i)")) }
        return r
    }

    /// A count: an integer ≥ 0, 0 when absent.
    func count(_ key: String) throws(FieldError) -> Int {
        let c = try int(key, default: 0)
        if c < 0 { throw fail(key, .invalid(expected: "count ≥ 0", found: "\(c)")) }
        return c
    }

    func bool(_ key: String, default d: Bool) throws(FieldError) -> Bool {
        guard let v = raw(key) else { return d }
        if let b = v.booleanValue { return b }
        if let s = v.stringValue {
            switch s.lowercased() {
            case "1", "true": return true
            case "0", "false", "": return false
            default: throw fail(key, .invalid(expected: "boolean", found: v.valueDescription))
            }
        }
        if let i = v.lenientInt64 { return i != 0 }
        throw fail(key, .type(expected: "boolean", found: v.valueDescription))
    }

    func object(_ key: String) throws(FieldError) -> Fields? {
        guard let v = raw(key) else { return nil }
        guard v.isObject else { throw fail(key, .type(expected: "object", found: v.valueDescription)) }
        return Fields(v, maxStringBytes: maxStringBytes)
    }

    /// The element count of the array at `key`; nil when absent.
    func arrayCount(_ key: String) throws(FieldError) -> Int? {
        guard let v = raw(key) else { return nil }
        guard v.isArray else { throw fail(key, .type(expected: "array", found: v.valueDescription)) }
        return v.elementCount
    }

    /// The elements of the array at `key` (empty when absent).
    func elements(_ key: String) throws(FieldError) -> [Node] {
        guard let v = raw(key) else { return [] }
        guard v.isArray else { throw fail(key, .type(expected: "array", found: v.valueDescription)) }
        return v.elements
    }

    /// The objects of the array at `key` (empty when absent).
    func objects(_ key: String) throws(FieldError) -> [Fields] {
        let items = try elements(key)
        var out: [Fields] = []
        out.reserveCapacity(items.count)
        for e in items {
            guard e.isObject else { throw FieldError(path: e.path, kind: .type(expected: "object", found: e.valueDescription)) }
            out.append(Fields(e, maxStringBytes: maxStringBytes))
        }
        return out
    }

    /// The strings of the array at `key` (empty when absent).
    func strings(_ key: String) throws(FieldError) -> [String] {
        let items = try elements(key)
        var out: [String] = []
        out.reserveCapacity(items.count)
        for e in items {
            guard let n = e.utf8Count else {
                throw FieldError(path: e.path, kind: .type(expected: "string", found: e.valueDescription))
            }
            if n > maxStringBytes { throw FieldError(path: e.path, kind: .tooLarge(limit: maxStringBytes, found: n)) }
            out.append(e.stringValue!)
        }
        return out
    }
}
