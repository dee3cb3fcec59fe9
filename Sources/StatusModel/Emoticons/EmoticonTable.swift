import FeedLayoutSupport
import Foundation

/// Known emoticon codes ("[微笑]") and their image names.
///
/// Text layout turns a `[…]` code into an inline image only when the table knows it.
/// Value type, `Sendable`.
public struct EmoticonTable: Sendable, Hashable {
    /// Code (with brackets) → image file name (PNG preferred, else GIF).
    public private(set) var imageNames: [String: String] {
        didSet { index = CodeIndex(imageNames) }
    }
    /// The codes by their UTF-8 bytes, for `imageName(utf8:)`.
    private var index: CodeIndex

    public init(imageNames: [String: String] = [:]) {
        self.imageNames = imageNames
        index = CodeIndex(imageNames)
    }

    public static func == (a: EmoticonTable, b: EmoticonTable) -> Bool { a.imageNames == b.imageNames }
    public func hash(into hasher: inout Hasher) { hasher.combine(imageNames) }

    /// The built-in default group (about 100 codes, simplified and traditional spellings).
    public static let builtIn: EmoticonTable = {
        var names: [String: String] = [:]
        for (chs, cht, image) in defaultGroup {
            names[chs] = image
            names[cht] = image
        }
        return EmoticonTable(imageNames: names)
    }()

    /// Every known code.
    public var codes: Set<String> { Set(imageNames.keys) }
    public var count: Int { imageNames.count }

    /// - Complexity: O(1) on average.
    public func contains(_ code: some StringProtocol) -> Bool { imageNames[String(code)] != nil }

    /// - Complexity: O(1) on average.
    public func imageName(for code: some StringProtocol) -> String? { imageNames[String(code)] }

    /// The image name of the code whose UTF-8 is `code` (valid UTF-8), as `imageName(for:)` of
    /// that string, without making the string: a text parse looks up every bracketed candidate,
    /// and a string made and hashed per candidate cost ~860 instructions (0.7 M of 1 030 cold
    /// cells). The bytes are looked up first; when they are no key's, the answer is "none" only
    /// if string equality could not find another key: keys and candidate made only of scalars
    /// that are their own canonical decomposition and never combine (ASCII, CJK ideographs), so
    /// that canonically equivalent means equal bytes. Any other candidate goes to the dictionary.
    /// - Complexity: O(code) on average.
    package func imageName(utf8 code: UnsafeBufferPointer<UInt8>) -> String? {
        if let name = index.imageName(code) { return name }
        if index.keysArePlain && CodeIndex.isPlain(code) { return nil }
        return imageNames[String(decoding: code, as: UTF8.self)]
    }

    /// Adds `other`'s codes; on a clash `other` wins.
    public mutating func merge(_ other: EmoticonTable) {
        imageNames.merge(other.imageNames) { _, new in new }
    }

    /// Loads every group listed in `<bundle>/emoticons.plist` (`packages[].id` → `<id>/info.plist`).
    public static func load(bundle url: URL) throws(StatusModelError) -> EmoticonTable {
        let index = url.appendingPathComponent("emoticons.plist")
        let file = index.pathAsGiven
        let ids = try withPlist(index) { (root) throws(StatusModelError) -> [String] in
            guard root.isObject else {
                throw .wrongRoot(file: file, line: nil, expected: "a dict with \"packages\"", found: root.valueDescription)
            }
            do throws(FieldError) {
                var ids: [String] = []
                for p in try Fields(root, maxStringBytes: 1 << 20).objects("packages") { ids.append(try p.string("id")) }
                return ids
            } catch {
                throw error.error(in: StatusLocation(file: file, keyPath: error.path.rendered(prefix: "")))
            }
        }
        var table = EmoticonTable()
        for id in ids { table.merge(try load(group: url.appendingPathComponent(id).appendingPathComponent("info.plist"))) }
        return table
    }

    /// Loads one group table (an `info.plist` with `emoticons`: [{chs, cht, png, gif}]).
    /// Entries without a `chs` code (the Unicode emoji group's `code` entries) are not bracket
    /// codes and are left out.
    public static func load(group url: URL) throws(StatusModelError) -> EmoticonTable {
        let file = url.pathAsGiven
        let names = try withPlist(url) { (root) throws(StatusModelError) -> [String: String] in
            guard root.isObject else {
                throw .wrongRoot(file: file, line: nil, expected: "a dict with \"emoticons\"", found: root.valueDescription)
            }
            var names: [String: String] = [:]
            do throws(FieldError) {
                let f = Fields(root, maxStringBytes: 1 << 20)
                guard f.has("emoticons") else { throw f.fail("emoticons", .missing) }
                for e in try f.objects("emoticons") {
                    guard let chs = try e.optionalString("chs") else { continue }
                    let png = try e.string("png", default: "")
                    let image = png.isEmpty ? try e.string("gif", default: "") : png
                    names[chs] = image
                    if let cht = try e.optionalString("cht"), !cht.isEmpty { names[cht] = image }
                }
            } catch {
                throw error.error(in: StatusLocation(file: file, keyPath: error.path.rendered(prefix: "")))
            }
            return names
        }
        return EmoticonTable(imageNames: names)
    }

    /// Reads the property list at `url` and calls `body` with its root.
    private static func withPlist<R>(_ url: URL, _ body: (JSONNode) throws(StatusModelError) -> R) throws(StatusModelError) -> R {
        let name = url.pathAsGiven
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw .unreadable(file: name, reason: FeedLoader.readableReason(error))
        }
        if bytes.isEmpty { throw .empty(file: name) }
        return try FeedLoader.withPlist(bytes, fileName: name, maxDepth: 64, body)
    }
}

/// The codes of a table by their UTF-8 bytes: an open-addressing hash table (`StringBytes.hash`)
/// over one buffer of the codes' bytes. Immutable once built, shared by copies of the table.
private final class CodeIndex: Sendable {
    /// Per slot: 1 + the code's entry, or 0 for an empty slot; a power of two at least twice the
    /// codes' count.
    private let slots: [Int32]
    /// The codes' bytes, one after another; entry `k` spans `ends[k - 1]..<ends[k]` (from 0 for `k` = 0).
    private let bytes: [UInt8]
    private let ends: [Int]
    private let names: [String]
    /// Whether every code is made of plain scalars (`isPlain`).
    let keysArePlain: Bool

    init(_ imageNames: [String: String]) {
        var bytes: [UInt8] = [], ends: [Int] = [], names: [String] = []
        var plain = true
        var capacity = 8
        while capacity < 2 * imageNames.count { capacity *= 2 }
        var slots = [Int32](repeating: 0, count: capacity)
        for (code, name) in imageNames {
            var code = code
            code.withUTF8 { c in
                plain = plain && Self.isPlain(c)
                var slot = Int(truncatingIfNeeded: StringBytes.hash(c, into: 0)) & (capacity - 1)
                while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                bytes.append(contentsOf: c)
                ends.append(bytes.count)
                names.append(name)
                slots[slot] = Int32(ends.count)
            }
        }
        self.slots = slots
        self.bytes = bytes
        self.ends = ends
        self.names = names
        keysArePlain = plain
    }

    /// The name of the code with exactly these bytes, if any.
    func imageName(_ code: UnsafeBufferPointer<UInt8>) -> String? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: StringBytes.hash(code, into: 0)) & mask
        return bytes.withUnsafeBufferPointer { all -> String? in
            while true {
                let entry = Int(slots[slot]) - 1
                if entry < 0 { return nil }
                let start = entry == 0 ? 0 : ends[entry - 1], end = ends[entry]
                if end - start == code.count
                    && (code.count == 0 || memcmp(all.baseAddress! + start, code.baseAddress!, code.count) == 0)
                {
                    return names[entry]
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Whether valid UTF-8 holds only ASCII and CJK ideographs U+3400 ... U+9FFF: scalars with no
    /// canonical decomposition and combining class 0, so that no other scalar sequence is
    /// canonically equivalent to a string of them (as three-byte sequences: lead E3 with a second
    /// byte from 90, or leads E4 ... E9).
    static func isPlain(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < s.count {
            let b = s[i]
            if b < 0x80 {
                i += 1
            } else if (b == 0xE3 && s[i + 1] >= 0x90) || (0xE4...0xE9).contains(b) {
                i += 3
            } else {
                return false
            }
        }
        return true
    }
}
