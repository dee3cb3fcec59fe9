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
struct JSONBytes {
    var bytes: [UInt8]
    /// Pixels per point: the grid numbers are quantized to.
    let scale: Double

    init(scale: Double, capacity: Int = 1 << 16) {
        self.scale = scale
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inline(__always) mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// Appends ASCII punctuation or a key literal such as `,"frame":`.
    @inline(__always) mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a signed integer in decimal.
    mutating func int(_ v: Int64) {
        if v < 0 {
            bytes.append(UInt8(ascii: "-"))
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
            bytes.append(UInt8(truncatingIfNeeded: v) &+ 48)
            return
        }
        var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, enough for 20 digits
        withUnsafeMutableBytes(of: &tmp) { buf in
            var i = buf.count
            var x = v
            while x > 0 {
                i -= 1
                buf[i] = UInt8(truncatingIfNeeded: x % 10) &+ 48
                x /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buf[i...]))
        }
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
        if scale == 1 {
            int(px)
            return
        }
        let milli = Int64((Double(px) * 1000 / scale).rounded())
        if milli < 0 { bytes.append(UInt8(ascii: "-")) }
        let a = milli.magnitude
        uint(a / 1000)
        var frac = a % 1000
        guard frac != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var digits = 3
        while frac % 10 == 0 {
            frac /= 10
            digits -= 1
        }
        if digits == 3 {
            bytes.append(UInt8(truncatingIfNeeded: frac / 100) &+ 48)
            bytes.append(UInt8(truncatingIfNeeded: frac / 10 % 10) &+ 48)
            bytes.append(UInt8(truncatingIfNeeded: frac % 10) &+ 48)
        } else if digits == 2 {
            bytes.append(UInt8(truncatingIfNeeded: frac / 10) &+ 48)
            bytes.append(UInt8(truncatingIfNeeded: frac % 10) &+ 48)
        } else {
            bytes.append(UInt8(truncatingIfNeeded: frac) &+ 48)
        }
    }

    /// Appends a value that is not geometry (the export's scale, a width given by the user) with
    /// at most three decimals, in the same form.
    mutating func plainNumber(_ v: Double) {
        let milli = (v * 1000).rounded()
        guard milli.isFinite else { return bytes.append(UInt8(ascii: "0")) }
        let m = Int64(milli)
        if m % 1000 == 0 { return int(m / 1000) }
        var copy = JSONBytes(scale: 1000, capacity: 24)
        copy.pixelNumber(m)
        bytes.append(contentsOf: copy.bytes)
    }

    @inline(__always) mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    /// A rect as `[x,y,width,height]`; each edge is rounded to the grid, so adjacent rects stay
    /// adjacent (width = right edge − left edge, in pixels).
    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        let x0 = pixels(x), y0 = pixels(y)
        let x1 = pixels(x + w), y1 = pixels(y + h)
        bytes.append(UInt8(ascii: "["))
        pixelNumber(x0)
        bytes.append(UInt8(ascii: ","))
        pixelNumber(y0)
        bytes.append(UInt8(ascii: ","))
        pixelNumber(x1 - x0)
        bytes.append(UInt8(ascii: ","))
        pixelNumber(y1 - y0)
        bytes.append(UInt8(ascii: "]"))
    }

    /// A JSON string: UTF-8 as is, with `"`, `\` and control characters escaped, and U+2028/U+2029
    /// escaped so a JSON Lines line is also a valid JavaScript line.
    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var start = 0
            var i = 0
            let n = utf8.count
            while i < n {
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
                if i > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i])) }
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
                    bytes.append(Self.hex[Int(b >> 4)])
                    bytes.append(Self.hex[Int(b & 15)])
                }
                i += 1
                start = i
            }
            if n > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<n])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}
