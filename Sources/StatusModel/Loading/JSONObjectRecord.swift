// One JSON object read by the feeds' own parser, for line-oriented inputs that are not statuses
// (`feedlayout measure`): the same grammar, nesting limit and duplicate-key refusal as a feed, and
// numbers kept as their tokens, so that a caller decides their range and names the field that is
// out of it (Foundation's parser lets the last of duplicate keys win and turns 1e400 into an error
// about the whole text).

/// The members of one JSON object, each reduced to what a flat record needs.
package struct JSONObjectRecord: Sendable {
    /// A member's value: scalars in full, containers by kind only.
    package enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        /// The number's token as written (`15`, `-0.5`, `1e400`).
        case number(String)
        case string(String)
        case array
        case object

        /// The number's value when it is a number (infinite past the range of `Double`).
        package var doubleValue: Double? {
            guard case .number(let token) = self else { return nil }
            // The grammar is checked: a token `Double` cannot read is out of its range.
            return Double(token) ?? (token.hasPrefix("-") ? -.infinity : .infinity)
        }

        /// A short description for "found …" in errors.
        package var kindDescription: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// Why a text is not one JSON object.
    package struct SyntaxError: Error, Sendable, Hashable {
        /// What is wrong, with the byte where it was found when it is a syntax error.
        package var reason: String
    }

    package let members: [String: Value]

    /// Parses `bytes` as one JSON object (white space around it allowed).
    ///
    /// - Parameter maxDepth: the nesting limit of feeds (`LoadOptions.maxNestingDepth`).
    /// - Throws: `SyntaxError` for malformed JSON, duplicate keys, nesting past the limit, or a
    ///   value other than an object.
    package init(parsing bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = LoadOptions().maxNestingDepth) throws(SyntaxError) {
        var tape = JSONTape()
        do throws(JSONTape.SyntaxError) {
            try tape.parse(bytes, maxDepth: maxDepth)
        } catch {
            switch error.kind {
            case .tooDeep: throw SyntaxError(reason: "nested deeper than \(maxDepth) levels")
            case .syntax: throw SyntaxError(reason: "\(error.reason) (byte \(error.offset + 1) of the line)")
            }
        }
        members = try tape.withDocument(bytes) { (document) throws(SyntaxError) -> [String: Value] in
            let root = document.root
            guard root.isObject else { throw SyntaxError(reason: "\(root.valueDescription), not a JSON object") }
            var members: [String: Value] = [:]
            // One pass over the members (`member(_:)` per key searched the object each time).
            let keys = root.memberKeys
            for (key, found) in zip(keys, root.members(forKeys: keys)) {
                guard let node = found else { continue }
                let value: Value
                switch node.kind {
                case .null: value = .null
                case .falseValue: value = .bool(false)
                case .trueValue: value = .bool(true)
                case .number: value = .number(String(decoding: node.rawBytes, as: UTF8.self))
                case .string: value = .string(node.stringValue ?? "")
                case .array: value = .array
                case .object: value = .object
                case .plistOther: continue  // (from property lists only, never from a JSON text)
                }
                members[key] = value
            }
            return members
        }
    }

    package subscript(key: String) -> Value? { members[key] }
}
