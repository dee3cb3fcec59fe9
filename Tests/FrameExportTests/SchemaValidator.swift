import Foundation

// A small JSON parser that keeps key order and each number's source text, and a JSON Schema
// validator for the subset of draft 2020-12 that docs/frames.schema.json uses. An unknown keyword
// in the schema is an error, so the schema cannot start relying on a check this validator skips.

/// A parsed JSON value; objects keep their key order, numbers their text.
indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double, text: String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x, _), .number(let y, _)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o.first { $0.0 == key }?.1 }
        return nil
    }

    var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    var double: Double? { if case .number(let d, _) = self { return d } else { return nil } }
    var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }

    /// Every number's source text in the value, depth first.
    func numberTexts(into out: inout [String]) {
        switch self {
        case .number(_, let t): out.append(t)
        case .array(let a): for v in a { v.numberTexts(into: &out) }
        case .object(let o): for (_, v) in o { v.numberTexts(into: &out) }
        default: break
        }
    }
}

struct JSONParseError: Error, CustomStringConvertible {
    var offset: Int
    var reason: String
    var description: String { "JSON parse error at byte \(offset): \(reason)" }
}

/// A strict RFC 8259 parser (no trailing commas, no comments).
struct JSONParser {
    private let b: [UInt8]
    private var i = 0

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var p = JSONParser(b: bytes)
        p.skipSpace()
        let v = try p.value()
        p.skipSpace()
        guard p.i == p.b.count else { throw JSONParseError(offset: p.i, reason: "trailing data") }
        return v
    }

    private init(b: [UInt8]) { self.b = b }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

    private mutating func expect(_ s: String) throws {
        for c in s.utf8 {
            guard i < b.count, b[i] == c else { throw fail("expected \(s)") }
            i += 1
        }
    }

    private mutating func value() throws -> JSONValue {
        guard i < b.count else { throw fail("unexpected end") }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var o: [(String, JSONValue)] = []
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(o) }
            while true {
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let k = try string()
                if o.contains(where: { $0.0 == k }) { throw fail("duplicate key \(k)") }
                skipSpace()
                try expect(":")
                skipSpace()
                o.append((k, try value()))
                skipSpace()
                guard i < b.count else { throw fail("unterminated object") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "}") { i += 1; return .object(o) }
                throw fail("expected , or }")
            }
        case UInt8(ascii: "["):
            i += 1
            var a: [JSONValue] = []
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(a) }
            while true {
                skipSpace()
                a.append(try value())
                skipSpace()
                guard i < b.count else { throw fail("unterminated array") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "]") { i += 1; return .array(a) }
                throw fail("expected , or ]")
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try number()
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = i
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count, (48...57).contains(b[i]) else { throw fail("bad number") }
        if b[i] == 48 { i += 1 } else { while i < b.count, (48...57).contains(b[i]) { i += 1 } }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard i < b.count, (48...57).contains(b[i]) else { throw fail("bad fraction") }
            while i < b.count, (48...57).contains(b[i]) { i += 1 }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count, (48...57).contains(b[i]) else { throw fail("bad exponent") }
            while i < b.count, (48...57).contains(b[i]) { i += 1 }
        }
        let text = String(decoding: b[start..<i], as: UTF8.self)
        guard let d = Double(text) else { throw fail("bad number \(text)") }
        return .number(d, text: text)
    }

    private mutating func string() throws -> String {
        i += 1
        var units: [UInt8] = []
        while true {
            guard i < b.count else { throw fail("unterminated string") }
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; break }
            if c < 0x20 { throw fail("raw control character in a string") }
            if c != UInt8(ascii: "\\") {
                units.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < b.count else { throw fail("bad escape") }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): units.append(0x22)
            case UInt8(ascii: "\\"): units.append(0x5C)
            case UInt8(ascii: "/"): units.append(0x2F)
            case UInt8(ascii: "b"): units.append(0x08)
            case UInt8(ascii: "f"): units.append(0x0C)
            case UInt8(ascii: "n"): units.append(0x0A)
            case UInt8(ascii: "r"): units.append(0x0D)
            case UInt8(ascii: "t"): units.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    try expect("\\u")
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("bad \\u escape") }
                units.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw fail("bad escape")
            }
        }
        guard let s = String(validating: units, as: UTF8.self) else { throw fail("invalid UTF-8") }
        return s
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= b.count, let v = UInt32(String(decoding: b[i..<(i + 4)], as: UTF8.self), radix: 16) else {
            throw fail("bad \\u escape")
        }
        i += 4
        return v
    }
}

/// Validates instances against a schema of the supported keyword subset.
struct SchemaValidator {
    static let supported: Set<String> = [
        "$schema", "$id", "$ref", "$defs", "title", "description", "type", "properties", "required",
        "additionalProperties", "items", "minItems", "maxItems", "enum", "const", "minimum", "exclusiveMinimum", "oneOf",
    ]

    let root: JSONValue
    private let defs: [String: JSONValue]
    /// Records every property seen in a validated instance, as "<sibling keys>/<key>" (see `allProperties`).
    final class Coverage { var seen: Set<String> = [] }
    let coverage = Coverage()

    /// - Throws: when the schema uses a keyword outside `supported`.
    init(schema: JSONValue) throws {
        root = schema
        var defs: [String: JSONValue] = [:]
        if case .object(let o)? = schema["$defs"] { for (k, v) in o { defs[k] = v } }
        self.defs = defs
        try Self.checkKeywords(schema, path: "#")
    }

    private static func checkKeywords(_ s: JSONValue, path: String) throws {
        guard case .object(let o) = s else { return }
        for (k, v) in o {
            guard supported.contains(k) else { throw JSONParseError(offset: 0, reason: "unsupported schema keyword \(k) at \(path)") }
            switch k {
            case "properties", "$defs":
                if case .object(let subs) = v { for (name, sub) in subs { try checkKeywords(sub, path: "\(path)/\(k)/\(name)") } }
            case "items", "additionalProperties": try checkKeywords(v, path: "\(path)/\(k)")
            case "oneOf": for (i, sub) in (v.array ?? []).enumerated() { try checkKeywords(sub, path: "\(path)/oneOf/\(i)") }
            default: break
            }
        }
    }

    /// The first few violations of `instance` against the schema at `ref` (the root when nil).
    func errors(_ instance: JSONValue, ref: String? = nil) -> [String] {
        var out: [String] = []
        let schema = ref.map { resolve($0) } ?? root
        validate(instance, schema, "$", &out)
        return out
    }

    /// Every property the schema declares, in the form `coverage` records.
    var allProperties: Set<String> {
        var out: Set<String> = []
        func walk(_ v: JSONValue) {
            switch v {
            case .object(let o):
                if case .object(let props)? = o.first(where: { $0.0 == "properties" })?.1 {
                    let signature = props.map(\.0).joined(separator: ",")
                    for (name, _) in props { out.insert(signature + "/" + name) }
                }
                for (_, sub) in o { walk(sub) }
            case .array(let a): for sub in a { walk(sub) }
            default: break
            }
        }
        walk(root)
        return out
    }

    private func resolve(_ ref: String) -> JSONValue {
        precondition(ref.hasPrefix("#/$defs/"), "only local $defs references are supported: \(ref)")
        let name = String(ref.dropFirst("#/$defs/".count))
        guard let s = defs[name] else { preconditionFailure("no definition \(name)") }
        return s
    }

    private func validate(_ v: JSONValue, _ s: JSONValue, _ path: String, _ out: inout [String]) {
        guard out.count < 20, case .object(let keywords) = s else { return }
        for (k, rule) in keywords {
            switch k {
            case "$ref":
                validate(v, resolve(rule.stringValue ?? ""), path, &out)
            case "type":
                if !Self.hasType(v, rule.stringValue ?? "") { out.append("\(path): expected \(rule.stringValue ?? "?"), found \(Self.typeName(v))") }
            case "properties":
                guard case .object(let props) = rule, case .object(let fields) = v else { break }
                let signature = props.map(\.0).joined(separator: ",")
                for (name, _) in fields where props.contains(where: { $0.0 == name }) { coverage.seen.insert(signature + "/" + name) }
                for (name, sub) in props { if let fv = fields.first(where: { $0.0 == name })?.1 { validate(fv, sub, "\(path).\(name)", &out) } }
                // Beyond JSON Schema: the export promises keys in the schema's order.
                let order = fields.compactMap { f in props.firstIndex { $0.0 == f.0 } }
                if order != order.sorted() { out.append("\(path): keys \(fields.map(\.0)) are not in the schema's order") }
            case "required":
                guard case .object(let fields) = v else { break }
                for name in rule.array ?? [] {
                    if let n = name.stringValue, !fields.contains(where: { $0.0 == n }) { out.append("\(path): missing required \(n)") }
                }
            case "additionalProperties":
                guard case .object(let fields) = v else { break }
                let known = Set(s["properties"].flatMap { p -> [String]? in if case .object(let o) = p { return o.map(\.0) } else { return nil } } ?? [])
                for (name, fv) in fields where !known.contains(name) {
                    if case .bool(false) = rule { out.append("\(path): unexpected key \(name)") } else { validate(fv, rule, "\(path).\(name)", &out) }
                }
            case "items":
                for (i, item) in (v.array ?? []).enumerated() { validate(item, rule, "\(path)[\(i)]", &out) }
            case "minItems":
                if let a = v.array, let m = rule.double, Double(a.count) < m { out.append("\(path): fewer than \(Int(m)) items") }
            case "maxItems":
                if let a = v.array, let m = rule.double, Double(a.count) > m { out.append("\(path): more than \(Int(m)) items") }
            case "enum":
                if !(rule.array ?? []).contains(v) { out.append("\(path): not one of the allowed values") }
            case "const":
                if v != rule { out.append("\(path): not the constant value") }
            case "minimum":
                if let d = v.double, let m = rule.double, d < m { out.append("\(path): \(d) < minimum \(m)") }
            case "exclusiveMinimum":
                if let d = v.double, let m = rule.double, d <= m { out.append("\(path): \(d) ≤ exclusive minimum \(m)") }
            case "oneOf":
                let matches = (rule.array ?? []).filter { sub in
                    var e: [String] = []
                    validate(v, sub, path, &e)
                    return e.isEmpty
                }.count
                if matches != 1 { out.append("\(path): matches \(matches) of the oneOf schemas, not exactly one") }
            default:
                break
            }
        }
    }

    private static func hasType(_ v: JSONValue, _ t: String) -> Bool {
        switch (v, t) {
        case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"), (.object, "object"), (.number, "number"): return true
        case (.number(let d, let text), "integer"): return d == d.rounded() && !text.contains(".") && !text.contains("e") && !text.contains("E")
        default: return false
        }
    }

    private static func typeName(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
