/// The Unicode Script property (Scripts.txt), for choosing how a run is shaped.
public struct UnicodeScript: Hashable, Sendable, BitwiseCopyable {
    /// Index into the generated list of ISO 15924 codes.
    public let rawValue: UInt8

    @usableFromInline init(rawValue: UInt8) { self.rawValue = rawValue }

    // Constants as inlinable computed values: other modules read them as immediates, not
    // through a global's lazy-initialization accessor.
    @inlinable public static var unknown: UnicodeScript { UnicodeScript(rawValue: 0) }
    @inlinable public static var common: UnicodeScript { UnicodeScript(rawValue: 1) }
    @inlinable public static var inherited: UnicodeScript { UnicodeScript(rawValue: 2) }
    @inlinable public static var han: UnicodeScript { UnicodeScript(rawValue: 3) }
    @inlinable public static var hiragana: UnicodeScript { UnicodeScript(rawValue: 4) }
    @inlinable public static var katakana: UnicodeScript { UnicodeScript(rawValue: 5) }
    @inlinable public static var hangul: UnicodeScript { UnicodeScript(rawValue: 6) }
    @inlinable public static var latin: UnicodeScript { UnicodeScript(rawValue: 7) }

    /// The ISO 15924 code ("Hani", "Latn", "Zyyy").
    public var code: String { ScriptTableData.codes[Int(rawValue)] }

    /// Every script of the table, by raw value (0, 1, 2, …).
    public static var all: [UnicodeScript] { ScriptTableData.codes.indices.map { UnicodeScript(rawValue: UInt8($0)) } }

    /// Common, Inherited and Unknown take the script of their neighbours in a run (UAX #24).
    /// (Always inlined, as `of`: the measurer's cluster loop is too long for the inliner to
    /// take these on its own, and a call costs more than the test.)
    @inlinable @inline(__always) public var isWeak: Bool { rawValue <= 2 }

    /// The script of a code point (Unknown for unassigned and invalid values).
    /// - Complexity: O(1) in the BMP (one table read), O(log r) over the runs above it.
    @inlinable @inline(__always) public static func of(_ scalar: UInt32) -> UnicodeScript {
        if scalar < 0x80 {
            // ASCII: letters are Latin, everything else Common.
            return (scalar | 0x20) &- 0x61 < 26 ? .latin : .common
        }
        return ofNonASCII(scalar)
    }

    @usableFromInline static func ofNonASCII(_ scalar: UInt32) -> UnicodeScript {
        let table = ScriptRuns.shared
        if scalar < 0x10000 { return UnicodeScript(rawValue: table.bmp[Int(scalar)]) }
        var lo = 0, hi = table.starts.count
        while hi - lo > 1 {
            let mid = (lo + hi) >> 1
            if table.starts[mid] <= scalar { lo = mid } else { hi = mid }
        }
        return UnicodeScript(rawValue: table.values[lo])
    }
}

/// The decoded run table, and the script of every BMP code point (64 KiB, filled from the runs).
private struct ScriptRuns: Sendable {
    let starts: [UInt32]
    let values: [UInt8]
    let bmp: [UInt8]

    static let shared: ScriptRuns = {
        // "start:index," pairs in hexadecimal, read byte by byte.
        var starts: [UInt32] = []
        var values: [UInt8] = []
        starts.reserveCapacity(2048)
        values.reserveCapacity(2048)
        var field: UInt32 = 0
        var text = ScriptTableData.runs
        text.withUTF8 { bytes in
            for b in bytes {
                switch b {
                case UInt8(ascii: ":"):
                    starts.append(field)
                    field = 0
                case UInt8(ascii: ","):
                    values.append(UInt8(field))
                    field = 0
                default:
                    let digit = b <= UInt8(ascii: "9") ? b &- UInt8(ascii: "0") : (b | 0x20) &- UInt8(ascii: "a") &+ 10
                    precondition(digit < 16, "script table: unexpected byte \(b)")
                    field = field << 4 | UInt32(digit)
                }
            }
        }
        if values.count < starts.count { values.append(UInt8(field)) }
        precondition(starts.count == values.count && starts.first == 0, "script table: malformed runs")
        var bmp = [UInt8](repeating: 0, count: 0x10000)
        for (i, start) in starts.enumerated() where start < 0x10000 {
            let end = i + 1 < starts.count ? min(Int(starts[i + 1]), 0x10000) : 0x10000
            for cp in Int(start)..<end { bmp[cp] = values[i] }
        }
        return ScriptRuns(starts: starts, values: values, bmp: bmp)
    }()
}

/// The direction of a strong character (UAX #9 bidi classes L, R and AL).
public enum StrongDirection: Sendable {
    /// Bidi class L.
    case leftToRight
    /// Bidi classes R and AL.
    case rightToLeft
}

extension UnicodeScript {
    /// The direction of a character without a script of its own (Common or Inherited) whose bidi
    /// class is strong: a regional indicator, a circled or squared letter, U+0640 ARABIC TATWEEL,
    /// U+200E and U+200F. Nil for every other character (a character with a script takes its
    /// script's direction; the others are weak or neutral).
    /// - Complexity: O(log r) over the 107 ranges of such characters; none is below U+00B5.
    public static func strongDirectionWithoutScript(_ scalar: UInt32) -> StrongDirection? {
        guard scalar >= 0xB5 else { return nil }
        let table = StrongRanges.shared
        var lo = 0, hi = table.starts.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if table.ends[mid] < scalar { lo = mid + 1 } else { hi = mid }
        }
        guard lo < table.starts.count, table.starts[lo] <= scalar else { return nil }
        return table.rightToLeft[lo] ? .rightToLeft : .leftToRight
    }
}

/// The decoded ranges of `ScriptTableData.strongWithoutScript`.
private struct StrongRanges: Sendable {
    let starts: [UInt32]
    let ends: [UInt32]
    let rightToLeft: [Bool]

    static let shared: StrongRanges = {
        var starts: [UInt32] = [], ends: [UInt32] = [], rightToLeft: [Bool] = []
        for entry in ScriptTableData.strongWithoutScript.split(separator: ",") {
            let parts = entry.split(separator: ":")
            let bounds = parts[0].split(separator: "-")
            guard parts.count == 2, bounds.count == 2, let a = UInt32(bounds[0], radix: 16), let b = UInt32(bounds[1], radix: 16)
            else { preconditionFailure("script table: malformed strong range \(entry)") }
            starts.append(a)
            ends.append(b)
            rightToLeft.append(parts[1] == "1")
        }
        return StrongRanges(starts: starts, ends: ends, rightToLeft: rightToLeft)
    }()
}
