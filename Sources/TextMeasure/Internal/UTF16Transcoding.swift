/// UTF-8 to UTF-16 and back, for valid text: the measurer's code units are decoded once, where
/// the text is built (from a `String`'s bytes, or whole pieces of them), and a prepared text's
/// string is made from its units.
package enum UTF16Transcoding {
    /// Decodes `utf8` into `out`, which has room for `utf8.count` units (a UTF-8 sequence never
    /// gives more UTF-16 units than it has bytes), and returns the number of units written.
    ///
    /// The bytes MUST be valid UTF-8. A sequence cut short at the end is not read past the end:
    /// decoding stops before it (the caller, which knows the expected count, sees the shortfall).
    package static func decode(_ utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt16>) -> Int {
        guard let p = utf8.baseAddress else { return 0 }
        let n = utf8.count
        var i = 0, o = 0
        while i < n {
            let c0 = UInt32(p[i])
            if c0 < 0x80 {
                out[o] = UInt16(truncatingIfNeeded: c0)
                i &+= 1
                o &+= 1
            } else if c0 & 0xF0 == 0xE0 {
                // Three-byte sequences (CJK) come in runs: decoded in a loop of their own.
                var c = c0
                // Two at a time while both are three-byte sequences (valid UTF-8: a lead byte's
                // continuation bytes follow it, so only the leads are tested).
                while i &+ 6 <= n && UInt32(p[i &+ 3]) & 0xF0 == 0xE0 {
                    out[o] = threeByte(c, p + i)
                    out[o &+ 1] = threeByte(UInt32(p[i &+ 3]), p + (i &+ 3))
                    i &+= 6
                    o &+= 2
                    guard i < n else { return o }
                    c = UInt32(p[i])
                    guard c & 0xF0 == 0xE0 else { break }
                }
                if c & 0xF0 != 0xE0 { continue }
                repeat {
                    guard i &+ 3 <= n else { return o }
                    out[o] = threeByte(c, p + i)
                    i &+= 3
                    o &+= 1
                    guard i < n else { return o }
                    c = UInt32(p[i])
                } while c & 0xF0 == 0xE0
                continue
            } else if c0 < 0xE0 {
                guard i &+ 2 <= n else { return o }
                out[o] = UInt16(truncatingIfNeeded: (c0 & 0x1F) << 6 | UInt32(p[i &+ 1] & 0x3F))
                i &+= 2
                o &+= 1
            } else {
                guard i &+ 4 <= n else { return o }
                let v = (c0 & 0x07) << 18 | UInt32(p[i &+ 1] & 0x3F) << 12 | UInt32(p[i &+ 2] & 0x3F) << 6 | UInt32(p[i &+ 3] & 0x3F)
                out[o] = UInt16(truncatingIfNeeded: 0xD800 &+ ((v &- 0x10000) >> 10))
                out[o &+ 1] = UInt16(truncatingIfNeeded: 0xDC00 &+ ((v &- 0x10000) & 0x3FF))
                o &+= 2
                i &+= 4
            }
        }
        return o
    }

    /// The unit of the three-byte sequence at `p`, whose lead byte is `lead`.
    @inline(__always) private static func threeByte(_ lead: UInt32, _ p: UnsafePointer<UInt8>) -> UInt16 {
        UInt16(truncatingIfNeeded: (lead & 0x0F) << 12 | UInt32(p[1] & 0x3F) << 6 | UInt32(p[2] & 0x3F))
    }

    /// The string of `units`: encoded as UTF-8 in place, in one pass (`String(decoding:as:)`
    /// goes through the generic transcoder, about 300 instructions for a three-character
    /// label). A lone surrogate becomes U+FFFD, as `String(decoding:as:)` makes it.
    package static func string(_ units: UnsafeBufferPointer<UInt16>) -> String {
        guard !units.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: 3 * units.count) { encodeUTF8(units, into: $0.baseAddress!) }
    }

    /// Writes the UTF-8 of `units` at `out`, which MUST have room for `3 * units.count` bytes;
    /// returns the bytes written. A lone surrogate becomes U+FFFD.
    package static func encodeUTF8(_ units: UnsafeBufferPointer<UInt16>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = 0, i = 0
        let n = units.count
        while i < n {
            var v = UInt32(units[i])
            i &+= 1
            if v < 0x80 {
                out[o] = UInt8(truncatingIfNeeded: v)
                o &+= 1
                continue
            }
            if v < 0x800 {
                out[o] = UInt8(truncatingIfNeeded: 0xC0 | v >> 6)
                out[o &+ 1] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
                o &+= 2
                continue
            }
            if v & 0xF800 == 0xD800 {
                if v < 0xDC00, i < n, units[i] & 0xFC00 == 0xDC00 {
                    v = 0x10000 &+ ((v &- 0xD800) << 10) &+ (UInt32(units[i]) &- 0xDC00)
                    i &+= 1
                    out[o] = UInt8(truncatingIfNeeded: 0xF0 | v >> 18)
                    out[o &+ 1] = UInt8(truncatingIfNeeded: 0x80 | (v >> 12) & 0x3F)
                    out[o &+ 2] = UInt8(truncatingIfNeeded: 0x80 | (v >> 6) & 0x3F)
                    out[o &+ 3] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
                    o &+= 4
                    continue
                }
                v = 0xFFFD
            }
            out[o] = UInt8(truncatingIfNeeded: 0xE0 | v >> 12)
            out[o &+ 1] = UInt8(truncatingIfNeeded: 0x80 | (v >> 6) & 0x3F)
            out[o &+ 2] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
            o &+= 3
        }
        return o
    }
}

/// A block of UTF-16 units that a thread's text builders reuse (`AttributedTextBuilder.Buffers`):
/// it owns the memory, freed with it. A builder copies the pointer and capacity and writes
/// through them (an access to the object per append retained and released it: about 900
/// instructions a cold cell), asking the object only to grow.
final class UnitBlock {
    private(set) var base: UnsafeMutablePointer<UInt16>
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for at least `needed` units (at least doubling), keeping the first `keeping`.
    func grow(to needed: Int, keeping: Int) {
        guard needed > capacity else { return }
        let grown = max(needed, 2 * capacity)
        let block = UnsafeMutablePointer<UInt16>.allocate(capacity: grown)
        block.update(from: base, count: keeping)
        base.deallocate()
        base = block
        capacity = grown
    }
}
