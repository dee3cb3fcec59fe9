// A hand-written JSON emitter for the frame export: bytes appended to one growing buffer.
//
// Why not JSONEncoder: it is slow (a boxed value tree per row), its key order is not ours, and it
// writes doubles in their round-trip form (`0.30000000000000004`). Here every geometric number is
// first quantized to whole device pixels of the export's scale, then written as `pixels / scale`
// with at most three decimals, trailing zeros dropped and no ".0" on integers ("12", "12.5",
// "33.333", "-4"). Three decimals identify a pixel at any scale up to 4: multiply by the scale and
// round to get the exact pixel count back. The output never depends on the locale or the platform's
// float printing, so it is byte-identical everywhere.

/// An append-only JSON byte buffer with the export's number form.
///
/// The bytes live in a buffer of its own (not an `Array`): appending a byte is a store and an
/// increment after one capacity check, with no uniqueness check, which made the encoder about
/// twice as fast. Noncopyable, so the buffer has one owner and is freed once.
struct JSONBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count: Int
    private var capacity: Int
    /// Pixels per point: the grid numbers are quantized to.
    let scale: Double

    init(scale: Double, capacity: Int = 1 << 16) {
        self.scale = scale
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        count = 0
    }

    deinit { base.deallocate() }

    /// Room for `n` more bytes.
    @inline(__always) mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    @inline(never) private mutating func grow(_ minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) mutating func byte(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    @inline(__always) mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        reserve(buffer.count)
        (base + count).update(from: source, count: buffer.count)
        count += buffer.count
    }

    /// Appends ASCII punctuation or a key literal such as `,"frame":`.
    @inline(__always) mutating func raw(_ s: StaticString) {
        append(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The bytes written, as an array (a copy).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Appends the bytes written to `out`.
    func append(to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    /// Calls `body` with the bytes written.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Forgets the bytes written, keeping the buffer.
    mutating func removeAll() { count = 0 }

    /// Appends a signed integer in decimal.
    mutating func int(_ v: Int64) {
        if v < 0 {
            byte(UInt8(ascii: "-"))
            // Int64.min cannot be negated; it never occurs in a layout (ids are non-negative here).
            uint(UInt64(bitPattern: 0 &- v))
        } else {
            uint(UInt64(v))
        }
    }

    @inline(__always) mutating func int(_ v: Int) { int(Int64(v)) }

    /// Appends an unsigned integer in decimal, without building a String.
    mutating func uint(_ v: UInt64) {
        if v < 10 {
            byte(UInt8(truncatingIfNeeded: v) &+ 48)
            return
        }
        withScratch { Self.writeUInt(v, to: $0) }
    }

    /// Calls `write` with room for 128 bytes at the end and keeps what it wrote (the count it
    /// returns): one capacity check for a whole number or rect, instead of one per byte.
    @inline(__always)
    mutating func withScratch(_ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(128)
        count += write(base + count)
    }

    /// Writes `v` in decimal at `p`; returns the count of digits.
    @inline(__always)
    static func writeUInt(_ v: UInt64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var t = v
        while t >= 10 {
            t /= 10
            digits += 1
        }
        var x = v
        var i = digits
        while i > 0 {
            i -= 1
            p[i] = UInt8(truncatingIfNeeded: x % 10) &+ 48
            x /= 10
        }
        return digits
    }

    /// Writes `px / scale` in the export's number form at `p` (at most 24 bytes); returns the count.
    @inline(__always)
    static func writePixelNumber(_ px: Int64, scale: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if scale == 1 {
            if px < 0 {
                p[0] = UInt8(ascii: "-")
                n = 1
            }
            return n + writeUInt(px.magnitude, to: p + n)
        }
        let milli = Int64((Double(px) * 1000 / scale).rounded())
        if milli < 0 {
            p[0] = UInt8(ascii: "-")
            n = 1
        }
        let a = milli.magnitude
        n += writeUInt(a / 1000, to: p + n)
        var frac = a % 1000
        guard frac != 0 else { return n }
        p[n] = UInt8(ascii: ".")
        n += 1
        var digits = 3
        while frac % 10 == 0 {
            frac /= 10
            digits -= 1
        }
        var i = digits
        while i > 0 {
            i -= 1
            p[n + i] = UInt8(truncatingIfNeeded: frac % 10) &+ 48
            frac /= 10
        }
        return n + digits
    }

    /// The whole number of device pixels nearest to `v` points (ties away from zero).
    @inline(__always) func pixels(_ v: Double) -> Int64 {
        let p = (v * scale).rounded()
        return p.isFinite ? Int64(p) : 0
    }

    /// Appends `v` quantized to the pixel grid, in the export's number form.
    @inline(__always) mutating func number(_ v: Double) { pixelNumber(pixels(v)) }

    /// Appends `px / scale` with at most three decimals (see the file comment).
    mutating func pixelNumber(_ px: Int64) {
        let scale = scale
        withScratch { Self.writePixelNumber(px, scale: scale, to: $0) }
    }

    /// Appends a value that is not geometry (the export's scale, a width given by the user) with
    /// at most three decimals, in the same form.
    mutating func plainNumber(_ v: Double) {
        let milli = (v * 1000).rounded()
        guard milli.isFinite else { return byte(UInt8(ascii: "0")) }
        let m = Int64(milli)
        if m % 1000 == 0 { return int(m / 1000) }
        withScratch { Self.writePixelNumber(m, scale: 1000, to: $0) }
    }

    @inline(__always) mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    /// A rect as `[x,y,width,height]`; each edge is rounded to the grid, so adjacent rects stay
    /// adjacent (width = right edge − left edge, in pixels).
    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        let x0 = pixels(x), y0 = pixels(y)
        let x1 = pixels(x + w), y1 = pixels(y + h)
        let scale = scale
        withScratch { p in
            p[0] = UInt8(ascii: "[")
            var n = 1
            n += Self.writePixelNumber(x0, scale: scale, to: p + n)
            p[n] = UInt8(ascii: ",")
            n += 1
            n += Self.writePixelNumber(y0, scale: scale, to: p + n)
            p[n] = UInt8(ascii: ",")
            n += 1
            n += Self.writePixelNumber(x1 - x0, scale: scale, to: p + n)
            p[n] = UInt8(ascii: ",")
            n += 1
            n += Self.writePixelNumber(y1 - y0, scale: scale, to: p + n)
            p[n] = UInt8(ascii: "]")
            return n + 1
        }
    }

    /// A JSON string: UTF-8 as is, with `"`, `\` and control characters escaped, and U+2028/U+2029
    /// escaped so a JSON Lines line is also a valid JavaScript line.
    mutating func string(_ s: String) {
        byte(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var start = 0
            var i = 0
            let n = utf8.count
            while i < n {
                // Eight bytes at a time while none is below 0x20, a quote, a backslash or 0xE2
                // (the lead byte of U+2028/U+2029).
                while i + 8 <= n && !Self.mayNeedEscape(UnsafeRawPointer(utf8.baseAddress! + i).loadUnaligned(as: UInt64.self)) {
                    i += 8
                }
                guard i < n else { break }
                let b = utf8[i]
                let needsEscape: Bool
                if b < 0x20 || b == 0x22 || b == 0x5C {
                    needsEscape = true
                } else if b == 0xE2, i + 2 < n, utf8[i + 1] == 0x80, utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9 {
                    needsEscape = true
                } else {
                    needsEscape = false
                }
                if !needsEscape {
                    i += 1
                    continue
                }
                if i > start { append(UnsafeBufferPointer(rebasing: utf8[start..<i])) }
                switch b {
                case 0x22: raw("\\\"")
                case 0x5C: raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0xE2:
                    raw(utf8[i + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                    i += 2
                default:
                    raw("\\u00")
                    byte(Self.hex[Int(b >> 4)])
                    byte(Self.hex[Int(b & 15)])
                }
                i += 1
                start = i
            }
            if n > start { append(UnsafeBufferPointer(rebasing: utf8[start..<n])) }
        }
        byte(UInt8(ascii: "\""))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// True when one of the eight bytes is below 0x20, a quote, a backslash or 0xE2.
    @inline(__always)
    static func mayNeedEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let control = (w &- ones &* 0x20) & ~w & highs
        return (control | zeroByte(w ^ (ones &* 0x22)) | zeroByte(w ^ (ones &* 0x5C)) | zeroByte(w ^ (ones &* 0xE2))) != 0
    }
}
