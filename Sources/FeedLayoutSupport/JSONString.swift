/// The package's one JSON string escaper: the frame export writes its strings with it, and the
/// command line its JSON reports (`literal(_:)`).
///
/// A literal is the UTF-8 of the string between quotes, with these escaped:
/// - `"` and `\` (`\"`, `\\`);
/// - the C0 controls: `\n`, `\r`, `\t`, the others as `\u00XX`;
/// - DEL and the C1 controls (U+007F–U+009F) as `\u00XX`, so no byte of content can act on a
///   terminal the JSON is printed to (as `DisplaySafe` treats them);
/// - U+2028 and U+2029 (`\u2028`, `\u2029`), so a JSON Lines line is also a valid JavaScript line;
/// - the bidi controls U+200E, U+200F, U+202A–U+202E and U+2066–U+2069 (`\u202e`), which would
///   reorder a line of the terminal the JSON is printed to (U+061C, the Arabic letter mark, is
///   copied: it orders text as an Arabic letter does, and its lead byte starts most Arabic
///   letters, which the eight-byte scan would then stop at);
/// - U+FEFF (`\ufeff`), which Foundation's JSON reader drops at the start of a string.
/// Everything else is copied as it is. Text without any of these is copied eight bytes at a time.
/// The feed writer, the frame export and the command line's reports use it.
package enum JSONString {
    /// The most bytes `write` writes for `count` bytes of UTF-8: six per byte at worst, the two
    /// quotes, and eight of slack for the word stores of the copy.
    @inlinable
    package static func bound(_ count: Int) -> Int { 6 * count + 10 }

    /// Writes `utf8` (valid UTF-8) as a JSON string literal at `out`, which MUST have room for
    /// `bound(utf8.count)` bytes; returns the end of what was written.
    /// - Complexity: O(n).
    package static func write(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var end = out
        end.pointee = UInt8(ascii: "\"")
        end += 1
        if let bytes = utf8.baseAddress, !utf8.isEmpty {
            let n = utf8.count
            let copied = copyPlainWords(bytes, count: n, to: &end)
            if copied < n { escape(bytes, count: n, from: copied, to: &end) }
        }
        end.pointee = UInt8(ascii: "\"")
        return end + 1
    }

    /// Appends `s` as a JSON string literal to `out`.
    package static func append(_ s: String, to out: inout [UInt8]) {
        StringBytes.withUTF8(s) { utf8 in
            // Written into scratch memory (on the stack when small), then copied once: making
            // `out` room of the worst-case size first would fill it with zeros to shrink it again.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound(utf8.count)) { scratch in
                let end = write(utf8, to: scratch.baseAddress!)
                out.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress!, count: end - scratch.baseAddress!))
            }
        }
    }

    /// `s` as a JSON string literal.
    package static func literal(_ s: String) -> String {
        StringBytes.withUTF8(s) { utf8 in
            String(unsafeUninitializedCapacity: bound(utf8.count)) { buffer in
                write(utf8, to: buffer.baseAddress!) - buffer.baseAddress!
            }
        }
    }

    /// Copies `bytes` eight at a time while no byte may need an escape (the last, shorter word
    /// is checked too, overlapping the one before or padded); returns the count copied.
    @inline(__always)
    private static func copyPlainWords(
        _ bytes: UnsafePointer<UInt8>, count n: Int, to end: inout UnsafeMutablePointer<UInt8>
    ) -> Int {
        var i = 0
        while i + 8 <= n {
            let w = UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)
            if mayNeedEscape(w) { return i }
            UnsafeMutableRawPointer(end).storeBytes(of: w, as: UInt64.self)
            end += 8
            i += 8
        }
        let rest = n - i
        guard rest > 0 else { return n }
        let w: UInt64
        if n >= 8 {
            // The last eight bytes: those before `i` were copied as they are, so the overlap
            // writes the same bytes again.
            w = UnsafeRawPointer(bytes + n - 8).loadUnaligned(as: UInt64.self)
            if mayNeedEscape(w) { return i }
            UnsafeMutableRawPointer(end - (8 - rest)).storeBytes(of: w, as: UInt64.self)
        } else {
            // Fewer than eight bytes: a word of them padded with "A"s.
            var v: UInt64 = 0x4141_4141_4141_4141 & ~0 << (8 * UInt64(rest))
            for k in 0..<rest { v |= UInt64(bytes[k]) << (8 * UInt64(k)) }
            if mayNeedEscape(v) { return i }
            UnsafeMutableRawPointer(end).storeBytes(of: v.littleEndian, as: UInt64.self)
        }
        end += rest
        return n
    }

    /// Writes `bytes[from...]` with escapes (the bytes before `from` are written already).
    private static func escape(
        _ bytes: UnsafePointer<UInt8>, count n: Int, from: Int, to end: inout UnsafeMutablePointer<UInt8>
    ) {
        @inline(__always) func put(_ s: StaticString) {
            end.update(from: s.utf8Start, count: s.utf8CodeUnitCount)
            end += s.utf8CodeUnitCount
        }
        @inline(__always) func putHex(_ v: UInt8) {
            put("\\u00")
            end[0] = hexDigit(v >> 4)
            end[1] = hexDigit(v & 15)
            end += 2
        }
        var start = from
        var i = from
        while i < n {
            while i + 8 <= n && !mayNeedEscape(UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)) {
                i += 8
            }
            guard i < n else { break }
            let b = bytes[i]
            // The bytes of this escape: 1, or 2 for a C1 control (C2 80–9F), 3 for U+2028, U+2029
            // and U+FEFF.
            let length: Int
            if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F {
                length = 1
            } else if b == 0xC2, i + 1 < n, bytes[i + 1] >= 0x80, bytes[i + 1] <= 0x9F {
                length = 2
            } else if b == 0xE2, i + 2 < n, Self.isEscapedPunctuation(bytes[i + 1], bytes[i + 2]) {
                length = 3
            } else if b == 0xEF, i + 2 < n, bytes[i + 1] == 0xBB, bytes[i + 2] == 0xBF {
                length = 3
            } else {
                i += 1
                continue
            }
            end.update(from: bytes + start, count: i - start)
            end += i - start
            switch (b, length) {
            case (0x22, _): put("\\\"")
            case (0x5C, _): put("\\\\")
            case (0x0A, _): put("\\n")
            case (0x0D, _): put("\\r")
            case (0x09, _): put("\\t")
            case (_, 2): putHex(bytes[i + 1])
            case (0xEF, _): put("\\ufeff")
            case (_, 3):
                // U+2000–U+207F (E2 80–81 xx): `\u20` and the code point's low byte.
                let v = (bytes[i + 1] & 0x3F) << 6 | (bytes[i + 2] & 0x3F)
                put("\\u20")
                end[0] = hexDigit(v >> 4)
                end[1] = hexDigit(v & 15)
                end += 2
            default: putHex(b)
            }
            i += length
            start = i
        }
        end.update(from: bytes + start, count: n - start)
        end += n - start
    }

    /// Whether E2 `b1` `b2` is one of the escaped characters of U+2000–U+207F: the line and
    /// paragraph separators, and the bidi controls (marks U+200E–U+200F, embeddings and
    /// overrides U+202A–U+202E, isolates U+2066–U+2069), which reorder what a terminal shows.
    @inline(__always) private static func isEscapedPunctuation(_ b1: UInt8, _ b2: UInt8) -> Bool {
        (b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xA8 && b2 <= 0xAE))) || (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9)
    }

    @inline(__always) private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? v &+ 48 : v &+ 87 }

    /// True when one of the eight bytes is below 0x20, a quote, a backslash, DEL, 0xC2 (the lead
    /// byte of the C1 controls) or 0xE2 (that of U+2028, U+2029 and the bidi controls), or an
    /// 0xEF followed by 0xBB (U+FEFF) or last in the word. False positives only cost the
    /// byte-by-byte check.
    @inline(__always)
    package static func mayNeedEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let control = (w &- ones &* 0x20) & ~w & highs
        let quoteOrBackslash = zeroByte(w ^ (ones &* 0x22)) | zeroByte(w ^ (ones &* 0x5C))
        let leads = zeroByte(w ^ (ones &* 0x7F)) | zeroByte(w ^ (ones &* 0xC2)) | zeroByte(w ^ (ones &* 0xE2))
        // Fullwidth punctuation (U+FF00–U+FFEF) also starts with 0xEF: only EF BB counts.
        let byteOrderMark = zeroByte(w ^ (ones &* 0xEF)) & (zeroByte(w ^ (ones &* 0xBB)) >> 8 | 0x80 << 56)
        return (control | quoteOrBackslash | leads | byteOrderMark) != 0
    }
}
