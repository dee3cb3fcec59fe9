/// The package's one number formatter: fixed-point decimals written without trailing zeros.
///
/// A value is a whole count of units of 10^-decimals (`units`): written as its integer part,
/// then, when the remainder is not zero, a point and the remainder's digits with trailing zeros
/// dropped ("12", "12.5", "-33.333"). There is no "-0", no exponent, and nothing depends on the
/// locale or the platform's float printing. The frame export writes its pixel numbers with it,
/// and the command line and the cell descriptions their figures (`string(_:decimals:)`).
package enum DecimalText {
    /// The most bytes `writeUInt` writes (UInt64.max has 20 digits).
    package static let uintBound = 20
    /// The most bytes `writeFixed` writes: a sign, 20 digits and a point.
    package static let fixedBound = 22

    /// Writes `v` in decimal at `p`; returns the count of bytes (1...20).
    @inlinable @inline(__always)
    package static func writeUInt(_ v: UInt64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        // Nearly every number of a layout is below 1000: a known digit count unrolls the loop.
        if v < 10 {
            p[0] = UInt8(truncatingIfNeeded: v) &+ 48
            return 1
        }
        if v < 100 {
            writeDigits(v, count: 2, to: p)
            return 2
        }
        if v < 1000 {
            writeDigits(v, count: 3, to: p)
            return 3
        }
        return writeLongUInt(v, to: p)
    }

    /// Writes the last `count` decimal digits of `v` at `p`, with leading zeros.
    @inlinable @inline(__always)
    package static func writeDigits(_ v: UInt64, count: Int, to p: UnsafeMutablePointer<UInt8>) {
        var x = v
        var i = count
        while i > 0 {
            i -= 1
            let q = x / 10
            p[i] = UInt8(truncatingIfNeeded: x &- q &* 10) &+ 48
            x = q
        }
    }

    @usableFromInline
    static func writeLongUInt(_ v: UInt64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var t = v
        while t >= 10 {
            t /= 10
            digits += 1
        }
        writeDigits(v, count: digits, to: p)
        return digits
    }

    /// Writes `units / 10^decimals` at `p` (see the type's comment); returns the count of bytes
    /// (at most `fixedBound`).
    /// - Precondition: `decimals` in 0...18.
    @inlinable
    package static func writeFixed(_ units: Int64, decimals: Int, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if units < 0 {
            p[0] = UInt8(ascii: "-")
            n = 1
        }
        let a = units.magnitude
        let one = powerOfTen(decimals)
        n += writeUInt(a / one, to: p + n)
        var fraction = a % one
        guard fraction != 0 else { return n }
        p[n] = UInt8(ascii: ".")
        n += 1
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        writeDigits(fraction, count: digits, to: p + n)
        return n + digits
    }

    /// 10^e for e in 0...19.
    @inlinable @inline(__always)
    package static func powerOfTen(_ e: Int) -> UInt64 {
        precondition(e >= 0 && e <= 19, "DecimalText: 10^\(e) does not fit in 64 bits")
        var r: UInt64 = 1
        for _ in 0..<e { r &*= 10 }
        return r
    }

    /// `v` rounded to `decimals` places (ties away from zero) in the fixed form: "350.0107",
    /// "345", "0.5"; never "-0" and never an exponent. A non-finite value is written "0" (callers
    /// that must not write one refuse it first); from 10^15 on, or when the units do not fit in
    /// 2^63, it is written in Swift's shortest form ("1e+300"), still a valid JSON number.
    /// - Precondition: `decimals` in 0...18.
    package static func string(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "0" }
        let units = (v * Double(powerOfTen(decimals))).rounded()
        guard abs(v) < 1e15, abs(units) < 0x1p63 else { return "\(v)" }
        return String(unsafeUninitializedCapacity: fixedBound) { buffer in
            writeFixed(Int64(units), decimals: decimals, to: buffer.baseAddress!)
        }
    }
}
