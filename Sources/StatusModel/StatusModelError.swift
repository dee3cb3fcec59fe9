/// The section (or friend group) a problem is in: its index and, once read, its title.
public struct SectionLocation: Sendable, Hashable {
    /// What the file calls its sections.
    public enum Kind: String, Sendable, Hashable {
        /// A section of a model plist with `sections`; its rows are statuses.
        case section
        /// A group of a friend list; its rows are friends.
        case group
    }

    public var kind: Kind
    /// Zero-based index of the section in the file.
    public var index: Int
    /// The section's title (`GroupName`, `title`), when it was read before the problem.
    public var title: String?

    public init(kind: Kind, index: Int, title: String? = nil) {
        self.kind = kind
        self.index = index
        self.title = title
    }
}

/// Where in a file a status-level problem is: file, section (for sectioned inputs), status index
/// (and id when known), key path.
public struct StatusLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the loader (last path component).
    public var file: String
    /// The section or friend group, for sectioned inputs; nil otherwise.
    public var section: SectionLocation?
    /// Zero-based index of the status in the file (in its section, for sectioned inputs); nil for
    /// problems outside any status.
    public var index: Int?
    /// The status id, when it was read before the problem.
    public var id: Int64?
    /// Dotted key path from the root, e.g. `statuses[3].user.screen_name`.
    public var keyPath: String
    /// One-based line number (JSON Lines only).
    public var line: Int?

    public init(
        file: String, section: SectionLocation? = nil, index: Int? = nil, id: Int64? = nil, keyPath: String, line: Int? = nil
    ) {
        self.file = file
        self.section = section
        self.index = index
        self.id = id
        self.keyPath = keyPath
        self.line = line
    }

    /// File name and key path escaped (`DisplaySafe`): both come from content.
    public var description: String {
        var s = DisplaySafe.escaped(file)
        if let line { s += ":\(line)" }
        if let section {
            s += ": \(section.kind.rawValue) \(section.index)"
            if let title = section.title { s += " \"\(DisplaySafe.escaped(title))\"" }
        }
        if let index { s += section?.kind == .group ? ": friend \(index)" : ": status \(index)" }
        if let id { s += " (id \(id))" }
        if !keyPath.isEmpty { s += ": \(DisplaySafe.escaped(keyPath))" }
        return s
    }
}

/// Every way loading a feed or an emoticon table can fail. Typed, with context, `Equatable`.
public enum StatusModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(file: String, reason: String)
    /// An output file could not be created, written or renamed into place.
    case unwritable(file: String, reason: String)
    /// The file holds no data (or only whitespace).
    case empty(file: String)
    /// The first bytes are neither JSON, JSON Lines nor a property list.
    case unrecognizedFormat(file: String, found: String)
    /// The parser rejected the bytes: truncated, invalid UTF-8, bad syntax. `line` for JSON Lines.
    case malformed(file: String, format: String, line: Int?, reason: String)
    /// Arrays/objects nested deeper than `limit` (checked before parsing, so it cannot overflow the stack).
    case nestingTooDeep(file: String, line: Int?, limit: Int)
    /// The root value (or a JSON Lines line) is not what the format needs.
    case wrongRoot(file: String, line: Int?, expected: String, found: String)
    /// A required key is absent.
    case missingKey(StatusLocation)
    /// A value has the wrong type.
    case typeMismatch(StatusLocation, expected: String, found: String)
    /// A value has the right type but an unusable content (a bad date, a negative count).
    case invalidValue(StatusLocation, expected: String, found: String)
    /// A string longer than the loader accepts (`LoadOptions.maxStringBytes`).
    case valueTooLarge(StatusLocation, limit: Int, found: Int)

    /// The case name, as used by `Fixtures/invalid/EXPECTED.json`.
    package var caseName: String {
        switch self {
        case .unreadable: "unreadable"
        case .unwritable: "unwritable"
        case .empty: "empty"
        case .unrecognizedFormat: "unrecognizedFormat"
        case .malformed: "malformed"
        case .nestingTooDeep: "nestingTooDeep"
        case .wrongRoot: "wrongRoot"
        case .missingKey: "missingKey"
        case .typeMismatch: "typeMismatch"
        case .invalidValue: "invalidValue"
        case .valueTooLarge: "valueTooLarge"
        }
    }

    /// The status-level location, when the error concerns one status.
    public var location: StatusLocation? {
        switch self {
        case .missingKey(let l), .typeMismatch(let l, _, _), .invalidValue(let l, _, _), .valueTooLarge(let l, _, _): l
        default: nil
        }
    }

    /// The file the error is about.
    public var file: String {
        switch self {
        case .unreadable(let f, _), .unwritable(let f, _), .empty(let f), .unrecognizedFormat(let f, _), .malformed(let f, _, _, _),
            .nestingTooDeep(let f, _, _), .wrongRoot(let f, _, _, _):
            f
        case .missingKey(let l), .typeMismatch(let l, _, _), .invalidValue(let l, _, _), .valueTooLarge(let l, _, _):
            l.file
        }
    }

    /// The message, safe to print: every part taken from content (file names, key paths, values,
    /// parser reasons) has its control and bidi characters escaped (`DisplaySafe.escaped`).
    public var description: String { DisplaySafe.escaped(rawDescription) }

    private var rawDescription: String {
        func at(_ f: String, _ line: Int?) -> String { line.map { "\(f):\($0)" } ?? f }
        switch self {
        case .unreadable(let f, let r): return "\(f): cannot read the file: \(r)"
        case .unwritable(let f, let r): return "\(f): cannot write the file: \(r)"
        case .empty(let f): return "\(f): the file is empty"
        case .unrecognizedFormat(let f, let found):
            return "\(f): not a feed (expected JSON, JSON Lines or a property list; the file starts with \(found))"
        case .malformed(let f, let format, let line, let r): return "\(at(f, line)): malformed \(format): \(r)"
        case .nestingTooDeep(let f, let line, let limit):
            return "\(at(f, line)): arrays/objects nested deeper than \(limit) levels"
        case .wrongRoot(let f, let line, let e, let found): return "\(at(f, line)): expected \(e) at the root, found \(found)"
        case .missingKey(let l): return "\(l): required key is missing"
        case .typeMismatch(let l, let e, let found): return "\(l): expected \(e), found \(found)"
        case .invalidValue(let l, let e, let found): return "\(l): expected \(e), found \(found)"
        case .valueTooLarge(let l, let limit, let found): return "\(l): string of \(found) bytes exceeds the limit of \(limit)"
        }
    }
}
