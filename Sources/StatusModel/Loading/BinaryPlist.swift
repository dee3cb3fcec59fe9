// A reader of binary property lists (`bplist00`), in place of PropertyListSerialization.
//
// Why not Foundation: objects of a binary plist can be shared (an array's references may point at
// the same array many times, at any depth). Foundation on Linux copies nested arrays element by
// element, so 26 objects whose arrays reference each other (a 427-byte file) expanded to 10^25
// values: 8.3 GB after 45 s, then an abort. It also crashed bridging sets, leaked a CFError per
// rejected input, and kept the low 64 bits of a 128-bit integer. This reader:
//
// - builds each object once and shares the result (Swift arrays, dictionaries and strings are
//   copy-on-write), so the work is linear in the file's size: O(objects + references);
// - refuses a file whose tree, expanded as a decoder walks it, would be larger than
//   `expansionLimit(fileSize:)` values and bytes (sharing that blows up), before building it;
// - refuses duplicate keys in a dictionary (the rule of every format: a duplicate key in any
//   object is an error), sets and keyed-archiver UIDs (no feed value is one), cycles, integers
//   out of the range of Int64 and UInt64 (128-bit integers are read exactly and kept only when
//   they fit), nesting deeper than the limit, and any offset or length outside the file.
//
// Values are the types Foundation's parsers produce, so the decoders see the same tree:
// String, NSNumber (integers and reals), Bool, Data, Date, [Any] and [String: Any].
//
// Measured (release build, Fixtures and the corpus): see docs/hardening.md, "Binary plists".
import Foundation

/// Reads one binary property list. Not reusable: one instance per file.
struct BinaryPlistReader {
    /// The problems a binary plist can have; the loader adds the file name.
    enum Failure: Error {
        case malformed(String)
        case tooDeep
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let offsetSize: Int
    private let refSize: Int
    private let count: Int
    private let top: Int
    private let table: Int
    private let maxDepth: Int
    /// Built objects, by index (each built once).
    private var built: [Any?]
    /// Per object: 0 unvisited, 1 on the current path (a second visit is a cycle), 2 measured.
    private var state: [UInt8]
    /// Per object: height (containers with children on the longest path) and expanded size.
    private var height: [Int32]
    private var expanded: [Int]
    let limit: Int

    /// Values plus string and data bytes a file of `fileSize` bytes may expand to: 16 per byte of
    /// the file plus 1 MiB. A file without shared containers expands to about its own size (its
    /// shared strings and numbers count once per reference), so any real feed fits; a hostile one
    /// can make its decoders do at most this much work.
    static func expansionLimit(fileSize: Int) -> Int { 16 * fileSize + (1 << 20) }

    /// Parses `bytes` (a whole `bplist00` file) into its root value.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(Failure) -> Any {
        var r = try BinaryPlistReader(bytes, maxDepth: maxDepth)
        let (h, size) = try r.measure(r.top, depth: 0)
        _ = h
        if size > r.limit {
            throw .malformed(
                "shared objects expand to more than \(r.limit) values and bytes (\(r.count) objects in \(bytes.count) bytes); "
                    + "the limit is 16 per byte of the file plus 1 MiB")
        }
        return try r.build(r.top)
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(Failure) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        let n = bytes.count
        guard n >= 8 + 1 + 32, bytes[0..<8].elementsEqual("bplist00".utf8) else {
            throw .malformed("not a bplist00 binary property list, or shorter than its header and trailer")
        }
        let t = n - 32
        offsetSize = Int(bytes[t + 6])
        refSize = Int(bytes[t + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw .malformed("trailer: offset size \(offsetSize) or reference size \(refSize) outside 1...8")
        }
        func u64(_ at: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<8 { v = v << 8 | UInt64(bytes[at + i]) }
            return v
        }
        let c = u64(t + 8), tp = u64(t + 16), tb = u64(t + 24)
        guard c >= 1, c < UInt64(n), tp < c, tb >= 8, tb < UInt64(t) else {
            throw .malformed("trailer: object count \(c), top object \(tp) or offset table \(tb) out of range")
        }
        count = Int(c)
        top = Int(tp)
        table = Int(tb)
        guard count <= (t - table) / offsetSize else { throw .malformed("offset table runs past the trailer") }
        built = Array(repeating: nil, count: count)
        state = Array(repeating: 0, count: count)
        height = Array(repeating: 0, count: count)
        expanded = Array(repeating: 0, count: count)
        limit = Self.expansionLimit(fileSize: n)
    }

    /// Big-endian unsigned integer of `size` bytes at `at` (the caller checked the bounds).
    @inline(__always)
    private func uint(_ at: Int, _ size: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(bytes[at + i]) }
        return v
    }

    /// The offset of object `obj`, checked to lie in the object area.
    private func offset(_ obj: Int) throws(Failure) -> Int {
        let o = uint(table + obj * offsetSize, offsetSize)
        guard o >= 8, o < UInt64(table) else { throw .malformed("object \(obj) has offset \(o) outside the object area") }
        return Int(o)
    }

    /// The length of the object at `o` (marker's low nibble, or the integer after it) and where
    /// its content starts.
    private func lengthAndStart(_ o: Int) throws(Failure) -> (Int, Int) {
        let low = Int(bytes[o] & 0x0F)
        if low != 0x0F { return (low, o + 1) }
        guard o + 1 < table, bytes[o + 1] >> 4 == 0x1 else { throw .malformed("object at \(o): bad length") }
        let size = 1 << Int(bytes[o + 1] & 0x0F)
        guard size <= 8, o + 2 + size <= table else { throw .malformed("object at \(o): bad length") }
        let v = uint(o + 2, size)
        guard v < UInt64(table) else { throw .malformed("object at \(o): length \(v) larger than the file") }
        return (Int(v), o + 2 + size)
    }

    /// The references of the container at `o` (`refs` of them from `start`).
    private func refs(_ start: Int, _ n: Int) throws(Failure) -> [Int] {
        guard n <= (table - start) / refSize else { throw .malformed("container at \(start) runs past the object area") }
        var out: [Int] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            let r = uint(start + i * refSize, refSize)
            guard r < UInt64(count) else { throw .malformed("reference \(r) to an object that does not exist") }
            out.append(Int(r))
        }
        return out
    }

    /// Height and expanded size of `obj` (memoized; a cycle or a path deeper than the limit
    /// fails). Recursion depth is at most `maxDepth + 1`.
    private mutating func measure(_ obj: Int, depth: Int) throws(Failure) -> (Int, Int) {
        switch state[obj] {
        case 2:
            if depth + Int(height[obj]) > maxDepth { throw .tooDeep }
            return (Int(height[obj]), expanded[obj])
        case 1: throw .malformed("object \(obj) contains itself")
        default: break
        }
        let o = try offset(obj)
        let marker = bytes[o] >> 4
        var h = 0
        var size = 1
        switch marker {
        case 0xA, 0xD:
            let (len, start) = try lengthAndStart(o)
            let children = try refs(start, marker == 0xD ? len * 2 : len)
            if !children.isEmpty {
                if depth + 1 > maxDepth { throw .tooDeep }
                state[obj] = 1
                for c in children {
                    let (ch, cs) = try measure(c, depth: depth + 1)
                    h = max(h, ch + 1)
                    size = size &+ cs
                    if size > limit || size < 0 { size = limit + 1 }
                }
            }
        case 0x4, 0x5, 0x7:
            let (len, _) = try lengthAndStart(o)
            size += len
        case 0x6:
            let (len, _) = try lengthAndStart(o)
            size += 2 * len
        default: break
        }
        state[obj] = 2
        height[obj] = Int32(h)
        expanded[obj] = size
        return (h, size)
    }

    /// The value of `obj` (built once; measured first, so no cycle and no excessive depth).
    private mutating func build(_ obj: Int) throws(Failure) -> Any {
        if let v = built[obj] { return v }
        let o = try offset(obj)
        let b = bytes[o]
        let v: Any
        switch b >> 4 {
        case 0x0:
            switch b {
            case 0x00: v = NSNull()
            case 0x08: v = false
            case 0x09: v = true
            default: throw .malformed("object \(obj): unknown marker 0x\(String(b, radix: 16))")
            }
        case 0x1:
            let size = 1 << Int(b & 0x0F)
            guard size <= 16, o + 1 + size <= table else { throw .malformed("object \(obj): bad integer") }
            v = try integer(at: o + 1, size: size, obj: obj)
        case 0x2:
            let size = 1 << Int(b & 0x0F)
            guard size == 4 || size == 8, o + 1 + size <= table else { throw .malformed("object \(obj): bad real") }
            let bits = uint(o + 1, size)
            v = NSNumber(value: size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
        case 0x3:
            guard b == 0x33, o + 9 <= table else { throw .malformed("object \(obj): bad date") }
            v = Date(timeIntervalSinceReferenceDate: Double(bitPattern: uint(o + 1, 8)))
        case 0x4:
            let (len, start) = try lengthAndStart(o)
            guard len <= table - start else { throw .malformed("object \(obj): data runs past the object area") }
            v = Data(UnsafeBufferPointer(rebasing: bytes[start..<(start + len)]))
        case 0x5:
            let (len, start) = try lengthAndStart(o)
            guard len <= table - start else { throw .malformed("object \(obj): string runs past the object area") }
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<(start + len)])
            guard raw.allSatisfy({ $0 < 0x80 }) else { throw .malformed("object \(obj): non-ASCII byte in an ASCII string") }
            v = String(decoding: raw, as: UTF8.self)
        case 0x6:
            let (len, start) = try lengthAndStart(o)
            guard len <= (table - start) / 2 else { throw .malformed("object \(obj): string runs past the object area") }
            var units: [UInt16] = []
            units.reserveCapacity(len)
            for i in 0..<len { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
            // Lone surrogates become U+FFFD, as when Foundation's strings are bridged.
            v = String(decoding: units, as: UTF16.self)
        case 0x7:
            let (len, start) = try lengthAndStart(o)
            guard len <= table - start else { throw .malformed("object \(obj): string runs past the object area") }
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<(start + len)])
            guard let s = String(validating: raw, as: UTF8.self) else { throw .malformed("object \(obj): invalid UTF-8 in a string") }
            v = s
        case 0x8: throw .malformed("it holds a keyed-archiver UID (no feed value is one)")
        case 0xA:
            let (len, start) = try lengthAndStart(o)
            var out: [Any] = []
            out.reserveCapacity(len)
            for r in try refs(start, len) { out.append(try build(r)) }
            v = out
        case 0xC: throw .malformed("it holds a set (no feed value is a set)")
        case 0xD:
            let (len, start) = try lengthAndStart(o)
            let all = try refs(start, len * 2)
            var out: [String: Any] = [:]
            out.reserveCapacity(len)
            for i in 0..<len {
                guard let key = try build(all[i]) as? String else {
                    throw .malformed("object \(obj): a dictionary key is not a string")
                }
                let value = try build(all[len + i])
                if out.updateValue(value, forKey: key) != nil {
                    throw .malformed("duplicate key \(DisplaySafe.quoted(key)) in a dictionary (a duplicate key in any object is an error)")
                }
            }
            v = out
        default:
            throw .malformed("object \(obj): unknown marker 0x\(String(b, radix: 16))")
        }
        built[obj] = v
        return v
    }

    /// An integer of 1, 2, 4 (unsigned), 8 (signed) or 16 bytes (signed, 128-bit). A value that
    /// fits neither Int64 nor UInt64 is an error: nothing is truncated.
    private func integer(at p: Int, size: Int, obj: Int) throws(Failure) -> NSNumber {
        switch size {
        case 1, 2, 4: return NSNumber(value: Int64(uint(p, size)))
        case 8: return NSNumber(value: Int64(bitPattern: uint(p, 8)))
        default:
            let high = uint(p, 8), low = uint(p + 8, 8)
            if high == 0 { return low <= UInt64(Int64.max) ? NSNumber(value: Int64(low)) : NSNumber(value: low) }
            if high == UInt64.max && low > UInt64(Int64.max) { return NSNumber(value: Int64(bitPattern: low)) }
            throw .malformed(
                "object \(obj): 128-bit integer \(Self.decimal(high: high, low: low)) out of range "
                    + "(integers must fit 64 bits; nothing is truncated)")
        }
    }

    /// The signed 128-bit integer `high:low` in decimal.
    static func decimal(high: UInt64, low: UInt64) -> String {
        let negative = high >> 63 == 1
        var (h, l) = (high, low)
        if negative {  // two's complement
            h = ~h
            l = ~l
            let (s, o) = l.addingReportingOverflow(1)
            l = s
            if o { h &+= 1 }
        }
        var digits: [UInt8] = []
        while h != 0 || l != 0 {
            // Divide the 128-bit value by 10.
            let (qh, rh) = h.quotientAndRemainder(dividingBy: 10)
            let (ql, rl) = UInt64(10).dividingFullWidth((high: rh, low: l))
            h = qh
            l = ql
            digits.append(UInt8(rl) + 0x30)
        }
        if digits.isEmpty { digits = [0x30] }
        return (negative ? "-" : "") + String(decoding: digits.reversed(), as: UTF8.self)
    }
}
