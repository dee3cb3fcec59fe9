// Typed, path-tracking access to the untyped trees JSONSerialization and PropertyListSerialization
// return. Decoders read through `Fields`, so every failure names the key path relative to the
// status (`user.screen_name`, `pic_infos.abc.large.width`) and what was expected and found; the
// loader adds the file, status index, id and root prefix.
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

/// A short, readable description of an untyped value, for "found …" in error messages.
func describeValue(_ v: Any) -> String {
    if isBoolean(v) { return "boolean \((v as? Bool) ?? false)" }
    if isNull(v) { return "null" }
    if let s = v as? String {
        let head = s.prefix(24)
        return head.count < s.count ? "string \"\(head)…\"" : "string \"\(s)\""
    }
    if let n = v as? NSNumber { return "number \(n)" }
    if v is [Any] { return "array" }
    if v is [String: Any] { return "object" }
    if v is Data { return "data" }
    if v is Date { return "date" }
    return "\(type(of: v))"
}

/// True for JSON null. Compares the dynamic type: `v is NSNull` would bridge a Swift dictionary
/// or array to Foundation (a deep copy) just to answer no.
func isNull(_ v: Any) -> Bool { type(of: v) == NSNull.self }

/// True for JSON true/false and plist booleans (not for the numbers 0 and 1).
func isBoolean(_ v: Any) -> Bool {
    let t = type(of: v)
    return t == Bool.self || t == boxedBooleanType
}

/// The class Foundation uses for boxed booleans (JSON true/false), distinct from other numbers.
private let boxedBooleanType: Any.Type = type(of: NSNumber(value: true) as Any)

/// An integer from a number (no fraction, in range) or a decimal string; nil otherwise.
///
/// Dispatches on the dynamic type first: a failed `as? String` on an NSNumber (or `as? NSNumber`
/// on a String) makes the runtime try a Foundation bridge, which dominated decoding time.
func lenientInt64(_ v: Any) -> Int64? {
    if isBoolean(v) { return nil }
    if type(of: v) is NSNumber.Type, let n = v as? NSNumber {
        let d = n.doubleValue
        guard d.isFinite, abs(d) < 9.2e18 else { return nil }
        let i = n.int64Value
        return Double(i) == d ? i : nil
    }
    if let s = v as? String {
        return Int64(s.trimmingCharacters(in: .whitespaces))
    }
    if let i = v as? Int { return Int64(i) }
    if let i = v as? Int64 { return i }
    return nil
}

/// Read access to one dictionary of a status, remembering its path.
struct Fields {
    let dict: [String: Any]
    let path: FieldPath
    let maxStringBytes: Int

    init(_ dict: [String: Any], path: FieldPath = FieldPath(), maxStringBytes: Int) {
        self.dict = dict
        self.path = path
        self.maxStringBytes = maxStringBytes
    }

    func fail(_ key: String, _ kind: FieldError.Kind) -> FieldError {
        FieldError(path: path.appending(.key(key)), kind: kind)
    }

    /// The value for `key`, or nil when absent or null.
    func raw(_ key: String) -> Any? {
        guard let v = dict[key], !isNull(v) else { return nil }
        return v
    }

    func has(_ key: String) -> Bool { raw(key) != nil }

    func checkedString(_ v: Any, key: String) throws(FieldError) -> String {
        guard let s = v as? String else { throw fail(key, .type(expected: "string", found: describeValue(v))) }
        let n = s.utf8.count
        if n > maxStringBytes { throw fail(key, .tooLarge(limit: maxStringBytes, found: n)) }
        return s
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
        guard let i = lenientInt64(v) else {
            let expected = "integer (number or decimal string)"
            if v is String { throw fail(key, .invalid(expected: expected, found: describeValue(v))) }
            throw fail(key, .type(expected: expected, found: describeValue(v)))
        }
        return i
    }

    func int(_ key: String, default d: Int) throws(FieldError) -> Int {
        guard has(key) else { return d }
        let i = try int64(key)
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
        if isBoolean(v), let b = v as? Bool { return b }
        if let s = v as? String {
            switch s.lowercased() {
            case "1", "true": return true
            case "0", "false", "": return false
            default: throw fail(key, .invalid(expected: "boolean", found: describeValue(v)))
            }
        }
        if let i = lenientInt64(v) { return i != 0 }
        throw fail(key, .type(expected: "boolean", found: describeValue(v)))
    }

    func object(_ key: String) throws(FieldError) -> Fields? {
        guard let v = raw(key) else { return nil }
        guard let d = v as? [String: Any] else { throw fail(key, .type(expected: "object", found: describeValue(v))) }
        return Fields(d, path: path.appending(.key(key)), maxStringBytes: maxStringBytes)
    }

    func array(_ key: String) throws(FieldError) -> [Any]? {
        guard let v = raw(key) else { return nil }
        guard let a = v as? [Any] else { throw fail(key, .type(expected: "array", found: describeValue(v))) }
        return a
    }

    /// The objects of the array at `key` (empty when absent), each with its indexed path.
    func objects(_ key: String) throws(FieldError) -> [Fields] {
        guard let a = try array(key) else { return [] }
        var out: [Fields] = []
        out.reserveCapacity(a.count)
        let base = path.appending(.key(key))
        for (i, e) in a.enumerated() {
            let p = base.appending(.index(i))
            guard let d = e as? [String: Any] else {
                throw FieldError(path: p, kind: .type(expected: "object", found: describeValue(e)))
            }
            out.append(Fields(d, path: p, maxStringBytes: maxStringBytes))
        }
        return out
    }

    /// The strings of the array at `key` (empty when absent).
    func strings(_ key: String) throws(FieldError) -> [String] {
        guard let a = try array(key) else { return [] }
        let base = path.appending(.key(key))
        var out: [String] = []
        for (i, e) in a.enumerated() {
            guard let s = e as? String else {
                throw FieldError(path: base.appending(.index(i)), kind: .type(expected: "string", found: describeValue(e)))
            }
            out.append(s)
        }
        return out
    }
}
