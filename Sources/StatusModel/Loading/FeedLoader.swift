// Loading feeds: format detection by content, parsing, decoding, error context.
//
// Detection looks at the first non-whitespace bytes (after a UTF-8 BOM), never only at the name:
//   "bplist" or "<"  -> property list; an array whose first dict has `Id`/`userName` is the
//                       classic format, one whose first dict has `GroupName` and `Friends` a
//                       friend list, a dict with `sections` (and no `statuses`) the sectioned
//                       model plist, anything else the full model (Weibo keys)
//                       (SectionedInputs.swift describes the two sectioned forms);
//   "["              -> Weibo JSON (a bare array of statuses);
//   "{"              -> JSON Lines when the name ends in .jsonl/.ndjson, or when the first line
//                       holds a complete object and more data follows; Weibo JSON otherwise.
// Anything else is `unrecognizedFormat`.
//
// Every parser is the loader's own and enforces `LoadOptions.maxNestingDepth` as it reads: JSON
// (`JSONTape`) and XML property lists (`XMLPlistReader`) keep their open containers on a stack
// of their own, not the call stack; binary property lists are measured by walking their object
// table before anything is written (`BinaryPlistReader`). Property lists of both kinds are read
// into the JSON tape, so every format is decoded by the same decoders.
import FeedLayoutSupport
import Foundation

/// How strictly and with which limits a feed is loaded.
public struct LoadOptions: Sendable, Hashable {
    /// When false (default) the first invalid status fails the load; when true invalid statuses
    /// are skipped and reported in `LoadResult.skipped`. File-level errors (unreadable, malformed
    /// JSON, wrong root) always fail, except per-line errors of JSON Lines, which are skippable.
    public var skipInvalid: Bool
    /// Longest accepted string value, in UTF-8 bytes (default 1 MiB; Weibo texts are ≤ 2 000 characters).
    public var maxStringBytes: Int
    /// Deepest accepted nesting of arrays/objects (default 128; Weibo statuses nest about 8 deep).
    public var maxNestingDepth: Int
    /// Longest accepted JSON Lines line, in bytes (default 64 MiB).
    public var maxLineBytes: Int
    /// Forces a format instead of detecting it (for property lists, classic versus full model is
    /// still decided by the keys of the first status).
    public var format: FeedFormat?

    public init(
        skipInvalid: Bool = false, maxStringBytes: Int = 1 << 20, maxNestingDepth: Int = 128,
        maxLineBytes: Int = 64 << 20, format: FeedFormat? = nil
    ) {
        self.skipInvalid = skipInvalid
        self.maxStringBytes = maxStringBytes
        self.maxNestingDepth = maxNestingDepth
        self.maxLineBytes = maxLineBytes
        self.format = format
    }
}

/// A status left out by a `skipInvalid` load, with the reason.
public struct SkippedStatus: Sendable, Hashable {
    /// Zero-based index of the status in the file (for JSON Lines: among non-blank lines).
    public var index: Int
    /// Its id, when it could be read.
    public var id: Int64?
    public var error: StatusModelError
}

extension SkippedStatus: CustomStringConvertible {
    /// "skipped: <the error>" when the error names the status (file, index, id, key path), else
    /// "skipped status N (id …): <the error>": every status named once.
    public var description: String {
        if error.location != nil { return "skipped: \(error)" }
        return "skipped status \(index)\(id.map { " (id \($0))" } ?? ""): \(error)"
    }
}

/// The result of a load: the feed and, with `skipInvalid`, what was left out.
public struct LoadResult: Sendable, Hashable {
    public var feed: Feed
    public var skipped: [SkippedStatus]
}

/// Loads feeds from files or memory. Stateless; safe to call from any thread.
///
/// Required keys (a status without them is invalid): Weibo JSON / model plist / JSON Lines:
/// `id`, `text`, `user` with `id` and `screen_name` (a status marked `deleted` may omit `user`);
/// classic plist: `Id`, `userName`, `text`. Every other key is optional and defaults as documented
/// on the model's properties, but a present key with the wrong type is always an error.
public enum FeedLoader {
    static let chunkSize = 1 << 16

    /// Loads the feed in `url`, detecting its format from its content.
    ///
    /// Throws the first problem as a `StatusModelError` (with file, status index, id and key path)
    /// unless `options.skipInvalid` is set. JSON Lines files are streamed, not read whole.
    public static func load(contentsOf url: URL, options: LoadOptions = LoadOptions()) throws(StatusModelError)
        -> LoadResult
    {
        let name = url.pathAsGiven
        // A pipe, a FIFO or a device can be read only once: read whole, then detected in memory.
        let file = try InputFile(url: url)
        if !file.isRegularFile { return try load(bytes: try file.readAll(), fileName: name, options: options) }
        var format = options.format ?? .weiboJSON
        if options.format == nil { format = try detectFormat(of: url) }
        if format == .jsonLines {
            var statuses: [Status] = []
            let skipped = try forEachStatus(inJSONLines: url, options: options) { statuses.append($0) }
            return LoadResult(feed: Feed(statuses: statuses, sourceName: name, format: .jsonLines), skipped: skipped)
        }
        // read(2) through InputFile: the system's own words ("No such file or directory"), not
        // Foundation's wrappers.
        return try load(bytes: try file.readAll(), fileName: name, options: options)
    }

    /// Loads a feed from bytes already in memory; `fileName` is used for detection and in errors.
    public static func load(data: Data, fileName: String, options: LoadOptions = LoadOptions()) throws(StatusModelError)
        -> LoadResult
    {
        try load(bytes: [UInt8](data), fileName: fileName, options: options)
    }

    /// `load(data:fileName:options:)` of bytes already in an array (no copy).
    static func load(bytes: [UInt8], fileName: String, options: LoadOptions) throws(StatusModelError) -> LoadResult {
        var offset = 0
        var format = options.format ?? .weiboJSON
        if options.format == nil {
            format = try detectFormat(fileName: fileName) { () -> ArraySlice<UInt8>? in
                guard offset < bytes.count else { return nil }
                let end = min(bytes.count, offset + chunkSize)
                defer { offset = end }
                return bytes[offset..<end]
            }
        }
        switch format {
        case .jsonLines:
            var statuses: [Status] = []
            let chunk = JSONLinesChunk(wholeInput: bytes)
            var decoder = JSONLinesDecoder(fileName: fileName, options: options)
            let skipped = try decoder.decode(chunk) { statuses.append($0) }
            return LoadResult(feed: Feed(statuses: statuses, sourceName: fileName, format: .jsonLines), skipped: skipped)
        case .weiboJSON:
            return try loadJSON(bytes, fileName: fileName, options: options)
        case .classicPlist, .modelPlist, .friendList:
            return try loadPlist(bytes, fileName: fileName, options: options)
        }
    }

    /// Calls `body` for every status of a JSON Lines file, in order, reading it in chunks:
    /// memory stays bounded by the longest line, whatever the file's length.
    ///
    /// Returns the skipped statuses (always empty unless `options.skipInvalid`).
    public static func forEachStatus(
        inJSONLines url: URL, options: LoadOptions = LoadOptions(), _ body: (Status) -> Void
    ) throws(StatusModelError) -> [SkippedStatus] {
        let reader = try JSONLinesReader(url: url, options: options)
        var decoder = JSONLinesDecoder(fileName: reader.fileName, options: options)
        var skipped: [SkippedStatus] = []
        while let chunk = try reader.next() {
            skipped += try decoder.decode(chunk, body)
        }
        return skipped
    }

    /// Detects the format of the file at `url` from its first bytes (see the file comment).
    package static func detectFormat(of url: URL) throws(StatusModelError) -> FeedFormat {
        let file = try InputFile(url: url)
        return try detectFormat(fileName: url.pathAsGiven) { () throws(StatusModelError) -> ArraySlice<UInt8>? in
            var chunk = [UInt8](repeating: 0, count: chunkSize)
            let n = try chunk.withUnsafeMutableBufferPointer { (b) throws(StatusModelError) -> Int in try file.read(into: b) }
            return n == 0 ? nil : chunk[0..<n]
        }
    }

    static func detectFormat(
        fileName: String, next: () throws(StatusModelError) -> ArraySlice<UInt8>?
    ) throws(StatusModelError) -> FeedFormat {
        var chunk: ArraySlice<UInt8> = []
        var first = true
        let ext = (fileName as NSString).pathExtension.lowercased()
        let namedJSONLines = ext == "jsonl" || ext == "ndjson"
        // The first non-whitespace byte.
        while true {
            if chunk.isEmpty {
                guard let c = try next() else {
                    // A JSON Lines file of no line, or of blank lines, holds no status (what
                    // `generate --count 0` writes, an empty partition); any other format is a
                    // document, which an empty file is not.
                    if namedJSONLines { return .jsonLines }
                    throw .empty(file: fileName)
                }
                chunk = c
                if first {
                    first = false
                    if chunk.starts(with: [0xEF, 0xBB, 0xBF]) { chunk = chunk.dropFirst(3) }
                }
                continue
            }
            if isSyntaxSpace(chunk.first!) {
                chunk = chunk.drop(while: isSyntaxSpace)
                continue
            }
            break
        }
        let lead = chunk.first!
        if chunk.starts(with: Array("bplist".utf8)) || lead == UInt8(ascii: "<") {
            return .modelPlist  // refined to classic once parsed
        }
        if lead == UInt8(ascii: "[") { return .weiboJSON }
        guard lead == UInt8(ascii: "{") else { throw .unrecognizedFormat(file: fileName, found: describeLeadingBytes(chunk)) }
        if namedJSONLines { return .jsonLines }
        // JSON Lines when the first line holds a complete value and more data follows it. JSON
        // escapes newlines inside strings, so a raw newline before the value closes means JSON.
        var scanner = JSONDepthScanner()
        while true {
            var i = chunk.startIndex
            while i < chunk.endIndex && !scanner.closedTopLevel {
                let b = chunk[i]
                if b == 0x0A || !scanner.feed(b, limit: 1 << 20) { return .weiboJSON }
                i += 1
            }
            if scanner.closedTopLevel {
                while i < chunk.endIndex && isSyntaxSpace(chunk[i]) { i += 1 }
                if i < chunk.endIndex { return .jsonLines }
            }
            guard let c = try next() else { return .weiboJSON }
            chunk = c
        }
    }

    // MARK: - JSON and property lists

    static func loadJSON(_ bytes: [UInt8], fileName: String, options: LoadOptions) throws(StatusModelError) -> LoadResult {
        if bytes.allSatisfy(isSyntaxSpace) { throw .empty(file: fileName) }
        var tape = JSONTape()
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return try bytes.withUnsafeBufferPointer { (whole) throws(StatusModelError) -> LoadResult in
            let input = UnsafeBufferPointer(rebasing: whole[bom...])
            do throws(JSONTape.SyntaxError) {
                try tape.parse(input, maxDepth: options.maxNestingDepth)
            } catch {
                throw syntaxError(error, file: fileName, format: "JSON", line: nil, input: input, limit: options.maxNestingDepth)
            }
            return try tape.withDocument(input) { (document) throws(StatusModelError) -> LoadResult in
                let root = document.root
                let expected = JSONDocumentReader.expectedRoot
                let items: [JSONNode]
                let prefix: String
                if root.isArray {
                    items = root.elements
                    prefix = ""
                } else if root.isObject {
                    guard let s = root.member("statuses") else {
                        throw .wrongRoot(file: fileName, line: nil, expected: expected, found: "object without \"statuses\"")
                    }
                    guard s.isArray else {
                        throw .typeMismatch(
                            StatusLocation(file: fileName, keyPath: "statuses"), expected: "array", found: s.valueDescription)
                    }
                    items = s.elements
                    prefix = "statuses"
                } else {
                    throw .wrongRoot(file: fileName, line: nil, expected: expected, found: root.valueDescription)
                }
                let (statuses, skipped) = try decodeAll(
                    items.map { document.node(Int($0.index), root: Int($0.index)) }, prefix: prefix, fileName: fileName,
                    classic: false, options: options)
                return LoadResult(feed: Feed(statuses: statuses, sourceName: fileName, format: .weiboJSON), skipped: skipped)
            }
        }
    }

    /// The loader's error for a JSON syntax error: nesting past the limit, or malformed with the
    /// reason and the byte in the line (JSON Lines, `line` given) or, for a whole document (JSON,
    /// `line` nil), the line and column.
    static func syntaxError(
        _ error: JSONTape.SyntaxError, file: String, format: String, line: Int?, input: UnsafeBufferPointer<UInt8>, limit: Int
    ) -> StatusModelError {
        switch error.kind {
        case .tooDeep:
            return .nestingTooDeep(file: file, line: line, limit: limit)
        case .syntax:
            if line != nil {
                return .malformed(file: file, format: format, line: line, reason: "\(error.reason) (byte \(error.offset + 1) of the line)")
            }
            let at = JSONDocument.lineAndColumn(of: error.offset, in: input)
            return malformedJSON(file: file, reason: error.reason, line: at.line, column: at.column)
        }
    }

    /// The loader's error for a syntax error in a JSON document at a line and column (1-based),
    /// whether the document is loaded whole or streamed.
    static func malformedJSON(file: String, reason: String, line: Int, column: Int) -> StatusModelError {
        .malformed(file: file, format: "JSON", line: nil, reason: "\(reason) at line \(line), column \(column)")
    }

    static func loadPlist(_ bytes: [UInt8], fileName: String, options: LoadOptions) throws(StatusModelError) -> LoadResult {
        try withPlist(bytes, fileName: fileName, maxDepth: options.maxNestingDepth) { (root) throws(StatusModelError) -> LoadResult in
            try decodePlist(root, fileName: fileName, options: options)
        }
    }

    /// Reads the property list in `bytes` (binary or XML) into a tape and calls `body` with its
    /// root: every property list is decoded as JSON is.
    static func withPlist<R>(
        _ bytes: [UInt8], fileName: String, maxDepth: Int, _ body: (JSONNode) throws(StatusModelError) -> R
    ) throws(StatusModelError) -> R {
        var tape = JSONTape()
        var content: [UInt8]
        if bytes.starts(with: Array("bplist".utf8)) {
            do throws(BinaryPlistReader.Failure) {
                content = try bytes.withUnsafeBufferPointer { (input) throws(BinaryPlistReader.Failure) -> [UInt8] in
                    try BinaryPlistReader.read(input, maxDepth: maxDepth, into: &tape)
                }
            } catch {
                switch error {
                case .tooDeep: throw .nestingTooDeep(file: fileName, line: nil, limit: maxDepth)
                case .malformed(let reason): throw .malformed(file: fileName, format: "property list", line: nil, reason: reason)
                }
            }
        } else {
            let (utf8, encoding) = XMLPlistReader.utf8Bytes(bytes)
            guard let utf8 else {
                throw .malformed(
                    file: fileName, format: "property list", line: nil,
                    reason: "text in the encoding \(DisplaySafe.quoted(encoding)), which is unknown or which the bytes do not follow")
            }
            content = try utf8.withUnsafeBufferPointer { (input) throws(StatusModelError) -> [UInt8] in
                do throws(XMLPlistReader.Failure) {
                    return try XMLPlistReader.read(input, maxDepth: maxDepth, into: &tape)
                } catch {
                    if error.kind == .tooDeep { throw .nestingTooDeep(file: fileName, line: nil, limit: maxDepth) }
                    let at = JSONDocument.lineAndColumn(of: error.offset, in: input)
                    throw .malformed(
                        file: fileName, format: "property list", line: nil,
                        reason: "\(error.reason) at line \(at.line), column \(at.column)")
                }
            }
        }
        // The tape decoder reads a key's first eight bytes as one word when four bytes follow it,
        // which JSON always has (a quote, a colon, a value, a brace). A plist's last key may end
        // its bytes (`<key>id</key><true/>`): they are padded so that the read stays inside them.
        content.append(contentsOf: repeatElement(0, count: 8))
        return try content.withUnsafeBufferPointer { (bytes) throws(StatusModelError) -> R in
            try tape.withDocument(bytes) { (document) throws(StatusModelError) -> R in try body(document.root) }
        }
    }

    /// The feed of a property list's root: statuses (classic or model), a friend list, or sections.
    static func decodePlist<N: DecodedNode>(_ root: N, fileName: String, options: LoadOptions) throws(StatusModelError) -> LoadResult {
        let expected = "an array of statuses or of friend groups, or a dict with \"statuses\" or \"sections\""
        let items: [N]
        var prefix = ""
        if root.isArray {
            items = root.elements
            if isFriendList(items) { return try decodeFriendList(items, fileName: fileName, options: options) }
        } else if root.isObject, root.member("statuses") != nil, root.member("sections") != nil {
            // One of the two would be dropped without a word.
            throw .wrongRoot(
                file: fileName, line: nil, expected: "a dict with \"statuses\" or \"sections\" (not both)",
                found: "a dict with both")
        } else if root.isObject, let sections = root.member("sections") {
            return try decodeSections(sections, fileName: fileName, options: options)
        } else if root.isObject, let s = root.member("statuses") {
            guard s.isArray else {
                throw .typeMismatch(StatusLocation(file: fileName, keyPath: "statuses"), expected: "array", found: s.valueDescription)
            }
            items = s.elements
            prefix = "statuses"
        } else {
            throw .wrongRoot(file: fileName, line: nil, expected: expected, found: root.valueDescription)
        }
        let classic = prefix.isEmpty && items.first.map { $0.isObject && ($0.member("Id") != nil || $0.member("userName") != nil) } ?? false
        let (statuses, skipped) = try decodeAll(
            items.map(\.rerooted), prefix: prefix, fileName: fileName, classic: classic, options: options)
        return LoadResult(
            feed: Feed(statuses: statuses, sourceName: fileName, format: classic ? .classicPlist : .modelPlist),
            skipped: skipped)
    }

    /// The statuses `items` (the array's elements from index `firstIndex` on), with those
    /// skipped (`skipInvalid`); otherwise the first invalid one throws.
    static func decodeAll<N: DecodedNode>(
        _ items: [N], prefix: String, fileName: String, classic: Bool, options: LoadOptions, firstIndex: Int = 0,
        recentSources: RecentSources? = nil
    ) throws(StatusModelError) -> ([Status], [SkippedStatus]) {
        var statuses: [Status] = []
        statuses.reserveCapacity(items.count)
        var skipped: [SkippedStatus] = []
        for (k, item) in items.enumerated() {
            let i = firstIndex + k
            do throws(StatusModelError) {
                statuses.append(
                    try decodeStatus(
                        item, index: i, keyPrefix: prefix, line: nil, fileName: fileName, classic: classic, options: options,
                        recentSources: recentSources))
            } catch {
                guard options.skipInvalid else { throw error }
                skipped.append(SkippedStatus(index: i, id: error.location?.id, error: error))
            }
        }
        return (statuses, skipped)
    }

    /// Decodes the status `item` (the root of its key paths); errors name `keyPrefix[index]` and the path in it.
    /// `recentSources`: the last source anchors of the caller's previous statuses, if it keeps them.
    static func decodeStatus<N: DecodedNode>(
        _ item: N, index: Int, keyPrefix: String, line: Int?, fileName: String, classic: Bool, options: LoadOptions,
        recentSources: RecentSources? = nil
    ) throws(StatusModelError) -> Status {
        guard item.isObject else {
            throw .typeMismatch(
                StatusLocation(file: fileName, index: index, keyPath: "\(keyPrefix)[\(index)]", line: line), expected: "object",
                found: item.valueDescription)
        }
        // JSON: the tape decoder first; it answers nil for anything the generic decoder must
        // decide (or report), and the generic decoder decodes such a status again.
        if !classic, let json = item as? JSONNode {
            let status = withExtendedLifetime(recentSources) { () -> Status? in
                TapeStatusDecoder(
                    document: json.document, maxStringBytes: options.maxStringBytes,
                    recentSources: recentSources.map(Unmanaged.passUnretained)
                ).status(Int(json.index))
            }
            if let status { return status }
        }
        let fields = Fields(item, maxStringBytes: options.maxStringBytes)
        do {
            return classic ? try StatusDecoder.classic(fields) : try StatusDecoder.weibo(fields)
        } catch {
            let id = item.member(classic ? "Id" : "id")?.lenientInt64
            let loc = StatusLocation(
                file: fileName, index: index, id: id, keyPath: error.path.rendered(prefix: "\(keyPrefix)[\(index)]"), line: line)
            throw error.error(in: loc)
        }
    }

    static func readableReason(_ error: any Error) -> String {
        let ns = error as NSError
        if let d = ns.userInfo[NSDebugDescriptionErrorKey] as? String { return d }
        // (A system call's error: its own message, not Foundation's "The operation could not be
        // completed." before it.)
        if ns.domain == NSPOSIXErrorDomain, let reason = strerror(Int32(truncatingIfNeeded: ns.code)) {
            return String(cString: reason)
        }
        if let u = ns.userInfo[NSUnderlyingErrorKey] as? NSError { return u.localizedDescription }
        return ns.localizedDescription
    }
}
