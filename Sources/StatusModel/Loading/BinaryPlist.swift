// A reader of binary property lists (`bplist00`) into the JSON tape, in place of
// PropertyListSerialization.
//
// Why not Foundation: objects of a binary plist can be shared (an array's references may point at
// the same array many times, at any depth). Foundation on Linux copies nested arrays element by
// element, so 26 objects whose arrays reference each other (a 427-byte file) expanded to 10^25
// values: 8.3 GB after 45 s, then an abort. It also crashed bridging sets, leaked a CFError per
// rejected input, and kept the low 64 bits of a 128-bit integer. This reader:
//
// - measures each object once (memoized): O(objects + references), and refuses a file whose
//   tree, expanded, would be larger than `expansionLimit(fileSize:)` values and bytes (sharing
//   that blows up), before writing anything;
// - then writes the expanded tree to the JSON tape, as `XMLPlistReader` writes an XML list, so
//   that every property list is decoded as JSON is; that work is bounded by the same limit;
// - for a job, can write the document with its statuses array empty and then the array's
//   elements in batches on several threads (`statusesElements`, `readElements`; `PlistElements`);
// - refuses duplicate keys in a dictionary (the rule of every format: a duplicate key in any
//   object is an error), sets and keyed-archiver UIDs (no feed value is one), cycles, integers
//   out of the range of Int64 and UInt64 (128-bit integers are read exactly and kept only when
//   they fit), nesting deeper than the limit, and any offset or length outside the file.
//
// Strings and keys are written as UTF-8, integers as decimal tokens, reals up to 2^53 as JSON
// numbers; dates, data and other reals are `JSONTape.Kind.plistOther` (described in errors).
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
    /// The decoded strings and keys, number tokens and descriptions the tape's nodes point into.
    private var content: [UInt8] = []
    /// Per object: 0 unvisited, 1 on the current path (a second visit is a cycle), 2 measured.
    private var state: [UInt8]
    /// Per object: height (containers with children on the longest path) and expanded size.
    private var height: [Int32]
    private var expanded: [Int]
    let limit: Int
    /// An array written empty wherever it is referenced (the statuses array, when the document
    /// around it is checked apart from its elements); -1 for none.
    private var emptied = -1

    /// Values plus string and data bytes a file of `fileSize` bytes may expand to: 16 per byte of
    /// the file plus 1 MiB. A file without shared containers expands to about its own size (its
    /// shared strings and numbers count once per reference), so any real feed fits; a hostile one
    /// can make its decoders do at most this much work.
    static func expansionLimit(fileSize: Int) -> Int { 16 * fileSize + (1 << 20) }

    /// Reads `bytes` (a whole `bplist00` file) into `tape` as `XMLPlistReader` reads an XML
    /// list (the same node kinds and tokens); returns the bytes its nodes point into. A shared
    /// object is written wherever it is referenced: the measured expansion bounds that work.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, into tape: inout JSONTape) throws(Failure) -> [UInt8] {
        var r = try BinaryPlistReader(bytes, maxDepth: maxDepth)
        let (h, size) = try r.measure(r.top, depth: 0)
        _ = h
        if size > r.limit {
            throw .malformed(
                "shared objects expand to more than \(r.limit) values and bytes (\(r.count) objects in \(bytes.count) bytes); "
                    + "the limit is 16 per byte of the file plus 1 MiB")
        }
        tape.reset()
        r.content.reserveCapacity(min(size, 2 * bytes.count))
        try r.write(r.top, into: &tape)
        return r.content
    }

    /// The references of the elements of the root dict's `statuses` array, when the file is a
    /// model plist whose measure passes and whose every other object is written without an error
    /// (`checkOutside` decodes the document with that array empty, as the whole load decodes it,
    /// and says whether it gives no status); nil otherwise, for the whole load to read (and report).
    static func statusesElements(
        _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, checkOutside: (UnsafeBufferPointer<UInt8>, JSONTape) -> Bool
    ) -> [Int]? {
        guard var r = try? BinaryPlistReader(bytes, maxDepth: maxDepth, measuring: true),
            let (_, size) = try? r.measure(r.top, depth: 0), size <= r.limit,
            let o = try? r.offset(r.top), bytes[o] >> 4 == 0xD,
            let (len, first) = try? r.lengthAndStart(o), let all = try? r.refs(first, len * 2)
        else { return nil }
        // The array of the key `statuses` (a second one is a duplicate key the check refuses).
        var array = -1
        for i in 0..<len {
            guard let k = try? r.offset(all[i]), (0x5...0x7).contains(bytes[k] >> 4) else { return nil }
            r.content.removeAll(keepingCapacity: true)
            guard (try? r.appendString(all[i], at: k)) != nil else { return nil }
            if r.content.elementsEqual("statuses".utf8) { array = all[len + i] }
        }
        guard array >= 0, let a = try? r.offset(array), bytes[a] >> 4 == 0xA, let (count, start) = try? r.lengthAndStart(a),
            count > 0, let elements = try? r.refs(start, count)
        else { return nil }
        r.content.removeAll(keepingCapacity: true)
        r.emptied = array
        var tape = JSONTape()
        guard (try? r.write(r.top, into: &tape)) != nil else { return nil }
        r.content.append(contentsOf: repeatElement(0, count: 8))
        let accepted = r.content.withUnsafeBufferPointer { checkOutside($0, tape) }
        return accepted ? elements : nil
    }

    /// Writes the objects `refs` (elements of an array, measured with the whole file by
    /// `statusesElements`) into `tape` as one root array; returns the bytes its nodes point into.
    static func readElements(_ bytes: UnsafeBufferPointer<UInt8>, refs: ArraySlice<Int>, into tape: inout JSONTape) throws(Failure) -> [UInt8] {
        var r = try BinaryPlistReader(bytes, maxDepth: .max, measuring: false)
        tape.reset()
        tape.open(.array, at: 0)
        for obj in refs {
            try r.write(obj, into: &tape)
            tape.countElement()
        }
        _ = tape.close(keysIn: UnsafeBufferPointer(start: nil, count: 0))
        return r.content
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, measuring: Bool = true) throws(Failure) {
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
        // The measure's memo (not needed to write objects already measured).
        state = measuring ? Array(repeating: 0, count: count) : []
        height = measuring ? Array(repeating: 0, count: count) : []
        expanded = measuring ? Array(repeating: 0, count: count) : []
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

    /// Appends a leaf whose bytes are `content[start...]`.
    private func appendLeaf(_ tape: inout JSONTape, _ kind: JSONTape.Kind, _ start: Int, flags: UInt8 = 0) {
        tape.appendLeaf(kind, bytes: start..<content.count, flags: flags)
    }

    /// Writes `obj` and what it holds to the tape (measured first: no cycle, no excessive depth,
    /// a bounded expansion).
    private mutating func write(_ obj: Int, into tape: inout JSONTape) throws(Failure) {
        let o = try offset(obj)
        let b = bytes[o]
        let start = content.count
        switch b >> 4 {
        case 0x0:
            switch b {
            case 0x00: appendLeaf(&tape, .null, start)
            case 0x08: appendLeaf(&tape, .falseValue, start)
            case 0x09: appendLeaf(&tape, .trueValue, start)
            default: throw .malformed("object \(obj): unknown marker 0x\(String(b, radix: 16))")
            }
        case 0x1:
            let size = 1 << Int(b & 0x0F)
            guard size <= 16, o + 1 + size <= table else { throw .malformed("object \(obj): bad integer") }
            content.append(contentsOf: try integer(at: o + 1, size: size, obj: obj).utf8)
            appendLeaf(&tape, .number, start, flags: JSONTape.Node.integral)
        case 0x2:
            let size = 1 << Int(b & 0x0F)
            guard size == 4 || size == 8, o + 1 + size <= table else { throw .malformed("object \(obj): bad real") }
            let bits = uint(o + 1, size)
            let d = size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
            // The shortest decimal that reads back as the double is its value only up to 2^53:
            // past it (and for values that are not finite) the real is no number a field takes.
            if d.isFinite && abs(d) <= 9_007_199_254_740_992 {
                content.append(contentsOf: "\(d)".utf8)
                appendLeaf(&tape, .number, start)
            } else {
                content.append(contentsOf: "number \(d)".utf8)
                appendLeaf(&tape, .plistOther, start)
            }
        case 0x3:
            guard b == 0x33, o + 9 <= table else { throw .malformed("object \(obj): bad date") }
            content.append(contentsOf: "date".utf8)
            appendLeaf(&tape, .plistOther, start)
        case 0x4:
            let (len, first) = try lengthAndStart(o)
            guard len <= table - first else { throw .malformed("object \(obj): data runs past the object area") }
            content.append(contentsOf: "data".utf8)
            appendLeaf(&tape, .plistOther, start)
        case 0x5, 0x6, 0x7:
            try appendString(obj, at: o)
            appendLeaf(&tape, .string, start)
        case 0x8: throw .malformed("it holds a keyed-archiver UID (no feed value is one)")
        case 0xA:
            let (len, first) = try lengthAndStart(o)
            tape.open(.array, at: start)
            for r in try refs(first, obj == emptied ? 0 : len) {
                try write(r, into: &tape)
                tape.countElement()
            }
            _ = tape.close(keysIn: UnsafeBufferPointer(start: nil, count: 0))
        case 0xC: throw .malformed("it holds a set (no feed value is a set)")
        case 0xD:
            let (len, first) = try lengthAndStart(o)
            let all = try refs(first, len * 2)
            tape.open(.object, at: start)
            for i in 0..<len {
                let k = try offset(all[i])
                guard (0x5...0x7).contains(bytes[k] >> 4) else { throw .malformed("object \(obj): a dictionary key is not a string") }
                let keyStart = content.count
                try appendString(all[i], at: k)
                appendLeaf(&tape, .string, keyStart)
                try write(all[len + i], into: &tape)
                tape.countElement()
            }
            let duplicate = content.withUnsafeBufferPointer { tape.close(keysIn: $0) }
            if let duplicate { throw .malformed(tape.duplicateKeyReason(duplicate, in: content, container: "dictionary")) }
        default:
            throw .malformed("object \(obj): unknown marker 0x\(String(b, radix: 16))")
        }
    }

    /// Appends the UTF-8 of the string object at `o`: ASCII (checked), UTF-16 (lone surrogates
    /// become U+FFFD, as when Foundation's strings are bridged) or UTF-8 (validated).
    private mutating func appendString(_ obj: Int, at o: Int) throws(Failure) {
        let (len, start) = try lengthAndStart(o)
        switch bytes[o] >> 4 {
        case 0x6:
            guard len <= (table - start) / 2 else { throw .malformed("object \(obj): string runs past the object area") }
            var units: [UInt16] = []
            units.reserveCapacity(len)
            for i in 0..<len { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
            _ = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: false) { content.append($0) }
        default:
            guard len <= table - start else { throw .malformed("object \(obj): string runs past the object area") }
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<(start + len)])
            if bytes[o] >> 4 == 0x5 {
                guard raw.allSatisfy({ $0 < 0x80 }) else { throw .malformed("object \(obj): non-ASCII byte in an ASCII string") }
            } else {
                guard String(validating: raw, as: UTF8.self) != nil else { throw .malformed("object \(obj): invalid UTF-8 in a string") }
            }
            content.append(contentsOf: raw)
        }
    }

    /// An integer of 1, 2, 4 (unsigned), 8 (signed) or 16 bytes (signed, 128-bit). A value that
    /// fits neither Int64 nor UInt64 is an error: nothing is truncated.
    private func integer(at p: Int, size: Int, obj: Int) throws(Failure) -> String {
        switch size {
        case 1, 2, 4: return String(uint(p, size))
        case 8: return String(Int64(bitPattern: uint(p, 8)))
        default:
            let high = uint(p, 8), low = uint(p + 8, 8)
            if high == 0 { return String(low) }
            if high == UInt64.max && low > UInt64(Int64.max) { return String(Int64(bitPattern: low)) }
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
