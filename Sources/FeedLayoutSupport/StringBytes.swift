#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hashing and comparing strings by their UTF-8 bytes, for cache keys (`TextKey`, the cell
/// engine's label names). Swift's `String` hashing and equality go through Unicode canonical
/// equivalence: far slower for non-ASCII text (~1 600 instructions to hash a short Chinese word),
/// and not wanted here, since canonically equivalent texts may shape differently.
///
/// Public and inlinable (the module is no product): the keys of the other modules hash and
/// compare with these on every cache look-up, and `package` functions are not inlined there.
public enum StringBytes {
    /// One step of the keys' hash: a 64 × 64 → 128-bit multiply folded to 64 bits.
    @inlinable @inline(__always) public static func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
        let m = (h ^ v).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return m.high ^ m.low
    }

    /// A key's hash for a table seeded with `seed`: the key's 64-bit hash `h` mixed with the
    /// seed in one step. Keys that carry a well-mixed hash return this from `Hashable`'s
    /// underscored requirement `_rawHashValue(seed:)`, which `Dictionary` asks every key for;
    /// its default runs a whole `Hasher` over `hash(into:)` (~135 instructions).
    @inlinable @inline(__always) public static func seededHash(_ h: UInt64, seed: Int) -> Int {
        Int(truncatingIfNeeded: mix(h, UInt64(UInt(bitPattern: seed))))
    }

    /// `body` on the UTF-8 bytes of `string`, read in place.
    ///
    /// `String.withUTF8` is mutating: a caller holding the string as a constant had to copy it
    /// first (a retain and a release, about 40 instructions, per string read: 500 of a cold
    /// cell's label look-ups alone). A native string always answers
    /// `utf8.withContiguousStorageIfAvailable`, which borrows it; a bridged string without
    /// contiguous UTF-8 takes the copy.
    @inlinable
    public static func withUTF8<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let r = try string.utf8.withContiguousStorageIfAvailable(body) { return r }
        var s = string
        return try s.withUTF8(body)
    }

    /// A string of `bytes`, which the caller knows to be whole, valid UTF-8 sequences, copied
    /// without validating them again (`String(decoding:as:)` validates: ~1 400 instructions of a
    /// 300-byte text). `isASCII` only when every byte is below 0x80. Checked in debug builds.
    @inlinable
    public static func string(validUTF8 bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        assert(String(validating: bytes, as: UTF8.self) != nil, "the bytes are not whole, valid UTF-8 sequences")
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `h` with the UTF-8 bytes of `string` mixed in, 8 bytes at a time.
    @inlinable
    public static func hash(_ string: String, into h: UInt64) -> UInt64 {
        withUTF8(string) { hash($0, into: h) }
    }

    /// `h` with `bytes` mixed in, 8 at a time (the same value as `hash(_:into:)` of a string of
    /// these bytes).
    @inlinable
    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>, into h: UInt64) -> UInt64 {
        var h = h
        let n = bytes.count
        guard n > 0, let base = UnsafeRawPointer(bytes.baseAddress) else { return h }
        var i = 0
        while i + 8 <= n {
            h = mix(h, base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
            shift += 8
            i += 1
        }
        return mix(h, tail ^ UInt64(n))
    }

    /// Whether the two strings have the same UTF-8 bytes.
    @inlinable
    public static func equal(_ a: String, _ b: String) -> Bool {
        withUTF8(a) { x in
            withUTF8(b) { y in
                x.count == y.count
                    && (x.count == 0 || x.baseAddress == y.baseAddress || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }
    }
}
