import FeedLayoutSupport
import TextMeasure

// A hand-written JSON emitter for the frame export: bytes appended to one growing buffer.
//
// Why not JSONEncoder: it is slow (a boxed value tree per row), its key order is not ours, and it
// writes doubles in their round-trip form (`0.30000000000000004`). Here every geometric number is
// first quantized to whole device pixels of the export's scale, then written as `pixels / scale`
// with at most three decimals, trailing zeros dropped and no ".0" on integers ("12", "12.5",
// "33.333", "-4"). Three decimals identify a pixel at any scale up to 4: multiply by the scale and
// round to get the exact pixel count back. The output never depends on the locale or the platform's
// float printing, so it is byte-identical everywhere.
//
// Speed (about 270 numbers and 20 strings in a 2.7 KB row): at a whole scale (1, 2, 3, 4) a
// number is its pixel count's integer part (pixels / scale) and one of at most four fixed
// fractions (".5", ".333", ...), taken from a table the general path fills; no floating-point
// division or rounding call. The row encoder reserves room for a whole group of keys and numbers
// at once and then writes with unchecked stores (`put…`); strings reserve their own worst case.

/// How numbers on the pixel grid of one scale are written: `px / scale` with at most three
/// decimals (see the file comment).
struct PixelNumberForm: Sendable {
    /// Pixels per point.
    let scale: Double
    /// The scale when it is a whole number in 1...4, else 0 (every number takes the general path).
    private let wholeScale: UInt64
    /// The fractions of 1, 2 and 3 pixels at a whole scale (".5", ".333"; none at scale 1): their
    /// bytes little-endian in the low bytes, their count in the top byte.
    private let fraction1: UInt64
    private let fraction2: UInt64
    private let fraction3: UInt64
    /// Pixel counts of magnitude below this take the whole-scale path: `px · 1000 / scale` is then
    /// exact enough in a Double that the general path's rounding gives the same digits (tested
    /// over every count up to it at each whole scale).
    static let wholeScaleLimit: UInt64 = 1 << 40
    /// `wholeScaleLimit` at a whole scale, else 0: one comparison picks the path.
    private let fastLimit: UInt64
    /// The most bytes one number takes (a sign, 17 digits, a point and 3 decimals, and the 4 bytes
    /// the fraction's store may touch).
    static let bound = 24

    init(scale: Double) {
        self.scale = scale
        let whole = scale >= 1 && scale <= 4 && scale == scale.rounded() ? UInt64(scale) : 0
        wholeScale = whole
        fastLimit = whole == 0 ? 0 : Self.wholeScaleLimit
        var table: [UInt64] = [0, 0, 0, 0]
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.bound) { buffer in
            let p = buffer.baseAddress!
            for r in 1..<max(1, Int(whole)) {
                // "0.333" from the general path; the fraction is what follows the "0".
                let n = Self.writeGeneral(Int64(r), scale: scale, to: p)
                var packed = UInt64(n - 1) << 56
                for i in 1..<n { packed |= UInt64(p[i]) << (8 * UInt64(i - 1)) }
                table[r] = packed
            }
        }
        (fraction1, fraction2, fraction3) = (table[1], table[2], table[3])
    }

    /// The whole number of device pixels nearest to `v` points (ties away from zero); 0 for a
    /// non-finite `v`.
    ///
    /// `(v * scale).rounded()` without the call into libm's `round` (x86-64 without SSE4.1): the
    /// fraction `t − trunc(t)` is exact for |t| < 2^52, so the comparison with ½ decides exactly.
    @inline(__always) func pixels(_ v: Double) -> Int64 {
        let t = v * scale
        guard abs(t) < 0x1p52 else { return Self.pixelsOfLarge(t) }
        let i = Int64(t)
        let f = t - Double(i)
        return f >= 0.5 ? i &+ 1 : (f <= -0.5 ? i &- 1 : i)
    }

    @inline(never) private static func pixelsOfLarge(_ t: Double) -> Int64 {
        let p = t.rounded()
        return p.isFinite ? Int64(p) : 0
    }

    /// Writes `px / scale` at `p` (at most `bound` bytes); returns the count.
    @inline(__always) func write(_ px: Int64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        let a = px.magnitude
        guard a < fastLimit else { return Self.writeGeneral(px, scale: scale, to: p) }
        // The sign is stored in any case and kept when the number is negative.
        p.pointee = UInt8(ascii: "-")
        let sign = Int(truncatingIfNeeded: UInt64(bitPattern: px) >> 63)
        let digits = p + sign
        let q: UInt64
        let fraction: UInt64
        switch wholeScale {
        case 1: (q, fraction) = (a, 0)
        case 2: (q, fraction) = (a >> 1, a & 1 == 0 ? 0 : fraction1)
        case 3:
            q = a / 3
            let r = a &- q &* 3
            fraction = r == 0 ? 0 : (r == 1 ? fraction1 : fraction2)
        default:
            q = a >> 2
            let r = a & 3
            fraction = r == 0 ? 0 : (r == 1 ? fraction1 : (r == 2 ? fraction2 : fraction3))
        }
        let n = DecimalText.writeUInt(q, to: digits)
        UnsafeMutableRawPointer(digits + n).storeBytes(of: UInt32(truncatingIfNeeded: fraction).littleEndian, as: UInt32.self)
        return sign &+ n &+ Int(truncatingIfNeeded: fraction >> 56)
    }

    /// The general path: `px / scale` rounded to thousandths (ties away from zero).
    static func writeGeneral(_ px: Int64, scale: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if scale == 1 { return DecimalText.writeFixed(px, decimals: 0, to: p) }
        let milli = Int64((Double(px) * 1000 / scale).rounded())
        return DecimalText.writeFixed(milli, decimals: 3, to: p)
    }
}

/// An append-only JSON byte buffer with the export's number form.
///
/// The bytes live in a buffer of its own (not an `Array`): appending is a store and a pointer
/// increment, with no uniqueness check. The checked writers (`byte`, `raw`, `number`, `string`,
/// ...) make room themselves; the unchecked ones (`put…`) write into room made before by
/// `reserve`, so that a group of keys and numbers costs one capacity check. Noncopyable, so the
/// buffer has one owner and is freed once.
struct JSONBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    /// Where the next byte goes.
    private var end: UnsafeMutablePointer<UInt8>
    /// The end of the allocation.
    private var limit: UnsafeMutablePointer<UInt8>
    /// The number form of the export's scale.
    let form: PixelNumberForm

    /// The most bytes `putInt` writes.
    static let intBound = 20
    /// The most bytes `putRect` writes.
    static let rectBound = 4 * PixelNumberForm.bound + 5

    init(scale: Double, capacity: Int = 1 << 16) {
        form = PixelNumberForm(scale: scale)
        let capacity = max(capacity, 64)
        base = .allocate(capacity: capacity)
        end = base
        limit = base + capacity
    }

    deinit { base.deallocate() }

    /// Pixels per point: the grid numbers are quantized to.
    var scale: Double { form.scale }

    /// The count of bytes written.
    var count: Int { end - base }

    /// Makes room for `n` more bytes: the `put…` writers that follow MAY write `n` bytes in all.
    @inline(__always) mutating func reserve(_ n: Int) {
        if limit - end < n { grow(n) }
    }

    @inline(never) private mutating func grow(_ n: Int) {
        let count = end - base
        let newCapacity = max(count + n, 2 * (limit - base))
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        end = newBase + count
        limit = newBase + newCapacity
    }

    /// Checks, in debug builds, that `n` bytes were reserved.
    @inline(__always) private func checkRoom(_ n: Int) {
        assert(limit - end >= n, "JSONBytes: writing \(n) bytes past the reserved room")
    }

    // MARK: Unchecked writers: room made by `reserve` first

    /// Writes ASCII punctuation or a key literal such as `,"frame":`.
    @inline(__always) mutating func put(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        checkRoom(n)
        end.update(from: s.utf8Start, count: n)
        end += n
    }

    @inline(__always) mutating func put(byte b: UInt8) {
        checkRoom(1)
        end.pointee = b
        end += 1
    }

    /// Writes a signed integer in decimal (at most `intBound` bytes).
    @inline(__always) mutating func putInt(_ v: Int64) {
        checkRoom(Self.intBound)
        if v < 0 {
            end.pointee = UInt8(ascii: "-")
            end += 1
        }
        end += DecimalText.writeUInt(v.magnitude, to: end)
    }

    /// Writes `px / scale` in the export's number form (at most `PixelNumberForm.bound` bytes).
    @inline(__always) mutating func putPixels(_ px: Int64) {
        checkRoom(PixelNumberForm.bound)
        end += form.write(px, to: end)
    }

    /// Writes `v` quantized to the pixel grid (at most `PixelNumberForm.bound` bytes).
    @inline(__always) mutating func putNumber(_ v: Double) { putPixels(form.pixels(v)) }

    /// Writes `true` or `false` (at most 5 bytes).
    @inline(__always) mutating func putBool(_ b: Bool) {
        if b { put("true") } else { put("false") }
    }

    /// Writes a rect as `[x,y,width,height]` (at most `rectBound` bytes); each edge is rounded to
    /// the grid, so adjacent rects stay adjacent (width = right edge − left edge, in pixels).
    @inline(__always) mutating func putRect(_ r: Rect) {
        checkRoom(Self.rectBound)
        let form = form
        let x0 = form.pixels(r.minX), y0 = form.pixels(r.minY)
        let x1 = form.pixels(r.minX + r.width), y1 = form.pixels(r.minY + r.height)
        var p = end
        p[0] = UInt8(ascii: "[")
        p += 1
        p += form.write(x0, to: p)
        p[0] = UInt8(ascii: ",")
        p += 1
        p += form.write(y0, to: p)
        p[0] = UInt8(ascii: ",")
        p += 1
        p += form.write(x1 &- x0, to: p)
        p[0] = UInt8(ascii: ",")
        p += 1
        p += form.write(y1 &- y0, to: p)
        p[0] = UInt8(ascii: "]")
        end = p + 1
    }

    // MARK: Checked writers

    @inline(__always) mutating func byte(_ b: UInt8) {
        reserve(1)
        put(byte: b)
    }

    /// Appends ASCII punctuation or a key literal such as `,"frame":`.
    @inline(__always) mutating func raw(_ s: StaticString) {
        reserve(s.utf8CodeUnitCount)
        put(s)
    }

    /// Appends `buffer`'s bytes.
    mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        reserve(buffer.count)
        end.update(from: source, count: buffer.count)
        end += buffer.count
    }

    /// Appends a signed integer in decimal.
    mutating func int(_ v: Int64) {
        reserve(Self.intBound)
        putInt(v)
    }

    @inline(__always) mutating func int(_ v: Int) { int(Int64(v)) }

    /// Appends an unsigned integer in decimal.
    mutating func uint(_ v: UInt64) {
        reserve(DecimalText.uintBound)
        end += DecimalText.writeUInt(v, to: end)
    }

    /// The whole number of device pixels nearest to `v` points (ties away from zero).
    @inline(__always) func pixels(_ v: Double) -> Int64 { form.pixels(v) }

    /// Appends `v` quantized to the pixel grid, in the export's number form.
    mutating func number(_ v: Double) {
        reserve(PixelNumberForm.bound)
        putNumber(v)
    }

    /// Appends `px / scale` with at most three decimals (see the file comment).
    mutating func pixelNumber(_ px: Int64) {
        reserve(PixelNumberForm.bound)
        putPixels(px)
    }

    /// Appends a value that is not geometry (the export's scale, a width given by the user) with
    /// at most three decimals, in the same form.
    mutating func plainNumber(_ v: Double) {
        let milli = (v * 1000).rounded()
        guard milli.isFinite else { return byte(UInt8(ascii: "0")) }
        reserve(DecimalText.fixedBound)
        end += DecimalText.writeFixed(Int64(milli), decimals: 3, to: end)
    }

    mutating func bool(_ b: Bool) {
        reserve(5)
        putBool(b)
    }

    /// Appends a rect as `[x,y,width,height]` (see `putRect`).
    mutating func rect(_ r: Rect) {
        reserve(Self.rectBound)
        putRect(r)
    }

    /// Appends the rect of origin (`x`, `y`) and size `w` × `h` (see `putRect`).
    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        rect(Rect(x: x, y: y, width: w, height: h))
    }

    /// Appends a JSON string literal (`JSONString`: UTF-8 as is, controls, quotes, backslashes,
    /// U+2028/U+2029 and U+FEFF escaped). Makes its own room.
    mutating func string(_ s: String) {
        StringBytes.withUTF8(s) { utf8 in string(utf8: utf8) }
    }

    /// Writes UTF-8 as a JSON string literal.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        reserve(JSONString.bound(utf8.count))
        end = JSONString.write(utf8, to: end)
    }

    /// Writes UTF-16 units as a JSON string literal, the bytes `string(_:)` writes for the
    /// string they make (a lone surrogate as U+FFFD), without making the string: a text box's
    /// string took 4 % of a one-thread export to make and validate.
    mutating func string(utf16 units: UnsafeBufferPointer<UInt16>) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, 3 * units.count)) { utf8 in
            let n = UTF16Transcoding.encodeUTF8(units, into: utf8.baseAddress!)
            string(utf8: UnsafeBufferPointer(start: utf8.baseAddress!, count: n))
        }
    }

    // MARK: Reading the bytes

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
    mutating func removeAll() { end = base }
}
