// Binary property lists written byte by byte, for tests of the loader's limits (shared
// objects, deep nesting, integer widths) that no plist writer produces.
import Foundation

/// Builds binary property lists object by object (one-byte references, two-byte offsets).
public enum BinaryPlistBuilder {
    public static func file(_ objects: [[UInt8]], top: Int = 0) -> Data {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects {
            offsets.append(out.count)
            out += o
        }
        let table = out.count
        for o in offsets { out += [UInt8(o >> 8), UInt8(o & 0xFF)] }
        out += [0, 0, 0, 0, 0, 0, 2, 1]
        for v in [objects.count, top, table] { out += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(v) >> (56 - 8 * $0)) } }
        return Data(out)
    }

    public static func ascii(_ s: String) -> [UInt8] { [0x50 | UInt8(s.utf8.count)] + Array(s.utf8) }
    public static func int(_ v: UInt8) -> [UInt8] { [0x10, v] }
    /// A dictionary of `pairs` (key reference, value reference).
    public static func dict(_ pairs: [(Int, Int)]) -> [UInt8] {
        [0xD0 | UInt8(pairs.count)] + pairs.map { UInt8($0.0) } + pairs.map { UInt8($0.1) }
    }

    /// {"statuses": [status]} with status {"id": <object 5>, "text": "x", "user": {"id": 1, "screen_name": "a"}}.
    public static func feed(id: [UInt8]) -> Data {
        file([
            dict([(1, 2)]), ascii("statuses"), [0xA1, 3],
            dict([(4, 5), (6, 7), (8, 9)]), ascii("id"), id, ascii("text"), ascii("x"), ascii("user"),
            dict([(4, 10), (11, 12)]), int(1), ascii("screen_name"), ascii("a"),
        ])
    }
}
