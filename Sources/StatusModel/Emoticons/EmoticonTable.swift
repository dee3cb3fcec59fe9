import FeedLayoutSupport
import Foundation

/// Known emoticon codes ("[微笑]") and their image names.
///
/// Text layout turns a `[…]` code into an inline image only when the table knows it.
/// Value type, `Sendable`.
public struct EmoticonTable: Sendable, Hashable {
    /// Code (with brackets) → image file name (PNG preferred, else GIF).
    public private(set) var imageNames: [String: String]

    public init(imageNames: [String: String] = [:]) { self.imageNames = imageNames }

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

    /// Adds `other`'s codes; on a clash `other` wins.
    public mutating func merge(_ other: EmoticonTable) {
        imageNames.merge(other.imageNames) { _, new in new }
    }

    /// Loads every group listed in `<bundle>/emoticons.plist` (`packages[].id` → `<id>/info.plist`).
    public static func load(bundle url: URL) throws(StatusModelError) -> EmoticonTable {
        let index = url.appendingPathComponent("emoticons.plist")
        let root = try readPlist(index)
        let name = index.pathAsGiven
        guard let dict = root as? [String: Any] else {
            throw .wrongRoot(file: name, line: nil, expected: "a dict with \"packages\"", found: describeValue(root))
        }
        var table = EmoticonTable()
        do {
            for p in try Fields(dict, maxStringBytes: 1 << 20).objects("packages") {
                let id = try p.string("id")
                table.merge(try load(group: url.appendingPathComponent(id).appendingPathComponent("info.plist")))
            }
        } catch let e as FieldError {
            throw e.error(in: StatusLocation(file: name, keyPath: e.path.rendered(prefix: "")))
        } catch let e as StatusModelError {
            throw e
        } catch {
            throw .unreadable(file: name, reason: "\(error)")
        }
        return table
    }

    /// Loads one group table (an `info.plist` with `emoticons`: [{chs, cht, png, gif}]).
    /// Entries without a `chs` code (the Unicode emoji group's `code` entries) are not bracket
    /// codes and are left out.
    public static func load(group url: URL) throws(StatusModelError) -> EmoticonTable {
        let name = url.pathAsGiven
        let root = try readPlist(url)
        guard let dict = root as? [String: Any] else {
            throw .wrongRoot(file: name, line: nil, expected: "a dict with \"emoticons\"", found: describeValue(root))
        }
        var names: [String: String] = [:]
        do throws(FieldError) {
            let f = Fields(dict, maxStringBytes: 1 << 20)
            guard f.has("emoticons") else { throw f.fail("emoticons", .missing) }
            for e in try f.objects("emoticons") {
                guard let chs = try e.optionalString("chs") else { continue }
                let png = try e.string("png", default: "")
                let image = png.isEmpty ? try e.string("gif", default: "") : png
                names[chs] = image
                if let cht = try e.optionalString("cht"), !cht.isEmpty { names[cht] = image }
            }
        } catch {
            throw error.error(in: StatusLocation(file: name, keyPath: error.path.rendered(prefix: "")))
        }
        return EmoticonTable(imageNames: names)
    }

    private static func readPlist(_ url: URL) throws(StatusModelError) -> Any {
        let name = url.pathAsGiven
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(file: name, reason: FeedLoader.readableReason(error))
        }
        if data.isEmpty { throw .empty(file: name) }
        guard plistXMLDepthWithinLimit([UInt8](data), limit: 64) else { throw .nestingTooDeep(file: name, line: nil, limit: 64) }
        do {
            return try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .malformed(file: name, format: "property list", line: nil, reason: FeedLoader.readableReason(error))
        }
    }
}
