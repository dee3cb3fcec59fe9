// Packed property lookup.
//
// Every code point has one 32-bit packed value (bit layout in scripts/gen-unicode-tables.py, mirrored by
// the masks below). The generated file stores a three-level table as base-64 string literals; they are
// decoded once, on first use of `PropertyTable.shared`, into never-freed heap buffers, so a lookup is
// three dependent loads with no bounds checks, no dictionary and no String API:
//
//     values[stage2[stage1[cp >> 7] << 7 | cp & 127]]
//
// Values above U+10FFFF and surrogates are mapped to U+FFFD's block by the callers that need it
// (`PackedProperties.lookup` returns the "invalid" value for them).

/// One code point's packed properties.
struct PackedProperties: Sendable, Equatable {
    let bits: UInt32

    init(bits: UInt32) { self.bits = bits }

    static let extendedPictographicBit: UInt32 = 1 << 19
    static let emojiBit: UInt32 = 1 << 20
    static let emojiPresentationBit: UInt32 = 1 << 21
    static let emojiModifierBit: UInt32 = 1 << 22
    static let emojiModifierBaseBit: UInt32 = 1 << 23
    static let emojiComponentBit: UInt32 = 1 << 24
    static let regionalIndicatorBit: UInt32 = 1 << 25
    static let extPictUnassignedBit: UInt32 = 1 << 26
    static let zeroWidthBit: UInt32 = 1 << 27
    static let wideOrHalfwidthBit: UInt32 = 1 << 28

    /// The value reported for scalars that are not Unicode scalar values: XX, other, neutral, no flags.
    static let invalid = PackedProperties(
        bits: UInt32(LineBreakClass.XX.rawValue) | UInt32(LineBreakClass.AL.rawValue) << 6)

    /// Line_Break as listed.
    var lineBreak: UInt8 { UInt8(truncatingIfNeeded: bits & 0x3F) }
    /// Line_Break after LB1.
    var resolvedLineBreak: UInt8 { UInt8(truncatingIfNeeded: (bits >> 6) & 0x3F) }
    var graphemeBreak: UInt8 { UInt8(truncatingIfNeeded: (bits >> 12) & 0xF) }
    var eastAsianWidth: UInt8 { UInt8(truncatingIfNeeded: (bits >> 16) & 0x7) }

    @inline(__always) func has(_ mask: UInt32) -> Bool { bits & mask != 0 }

    /// Looks up a scalar value; anything outside the Unicode scalar values gives `invalid`.
    @inline(__always)
    static func lookup(_ v: UInt32) -> PackedProperties {
        if v > 0x10FFFF || (v &- 0xD800) < 0x800 { return invalid }
        return PropertyTable.shared.lookup(v)
    }
}

/// The decoded three-level table. Immutable after initialization; safe to share across threads.
struct PropertyTable: @unchecked Sendable {
    let stage1: UnsafePointer<UInt16>
    let stage2: UnsafePointer<UInt8>
    let values: UnsafePointer<UInt32>

    static let shared = PropertyTable()

    /// Looks up a scalar value. Precondition (unchecked): `v <= 0x10FFFF`.
    @inline(__always)
    func lookup(_ v: UInt32) -> PackedProperties {
        let block = Int(truncatingIfNeeded: stage1[Int(truncatingIfNeeded: v >> 7)])
        let index = stage2[block << 7 | Int(truncatingIfNeeded: v & 0x7F)]
        return PackedProperties(bits: values[Int(truncatingIfNeeded: index)])
    }

    /// The index in `values` of a scalar's packed value, for tables indexed by value. Precondition
    /// (unchecked): `v <= 0x10FFFF`.
    @inline(__always)
    func valueIndex(_ v: UInt32) -> Int {
        let block = Int(truncatingIfNeeded: stage1[Int(truncatingIfNeeded: v >> 7)])
        return Int(truncatingIfNeeded: stage2[block << 7 | Int(truncatingIfNeeded: v & 0x7F)])
    }

    /// The packed value at `index` (`0..<GeneratedTables.valueCount`).
    func value(at index: Int) -> PackedProperties {
        precondition(index >= 0 && index < GeneratedTables.valueCount)
        return PackedProperties(bits: values[index])
    }

    private init() {
        precondition(GeneratedTables.blockShift == 7, "generated table layout does not match PropertyTable")
        let s1 = Self.decode(GeneratedTables.stage1Base64)
        let s2 = Self.decode(GeneratedTables.stage2Base64)
        let vs = Self.decode(GeneratedTables.valuesBase64)
        precondition(s1.count == GeneratedTables.stage1Count * 2 && s2.count == GeneratedTables.stage2Count
            && vs.count == GeneratedTables.valueCount * 4, "generated Unicode tables are corrupt")

        let p1 = UnsafeMutablePointer<UInt16>.allocate(capacity: GeneratedTables.stage1Count)
        for i in 0..<GeneratedTables.stage1Count {
            p1[i] = UInt16(s1[2 * i]) | UInt16(s1[2 * i + 1]) << 8
        }
        let p2 = UnsafeMutablePointer<UInt8>.allocate(capacity: GeneratedTables.stage2Count)
        p2.initialize(from: s2, count: s2.count)
        let pv = UnsafeMutablePointer<UInt32>.allocate(capacity: GeneratedTables.valueCount)
        for i in 0..<GeneratedTables.valueCount {
            pv[i] = UInt32(vs[4 * i]) | UInt32(vs[4 * i + 1]) << 8 | UInt32(vs[4 * i + 2]) << 16
                | UInt32(vs[4 * i + 3]) << 24
        }
        // Every stage2 entry must name a value and every stage1 entry a block: checked once here so the
        // lookups can skip bounds checks.
        for i in 0..<GeneratedTables.stage2Count { precondition(Int(p2[i]) < GeneratedTables.valueCount) }
        for i in 0..<GeneratedTables.stage1Count {
            precondition((Int(p1[i]) + 1) << 7 <= GeneratedTables.stage2Count)
        }
        stage1 = UnsafePointer(p1)
        stage2 = UnsafePointer(p2)
        values = UnsafePointer(pv)
    }

    /// Decodes standard base 64, skipping newlines.
    ///
    /// Reads the literal's UTF-8 bytes in place: iterating `String.UTF8View` costs about 40
    /// instructions a character (2.7 M for these tables, more than the whole decoding from the
    /// bytes).
    static func decode(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count * 3 / 4)
            var acc: UInt32 = 0
            var n = 0
            for c in bytes {
                let d: UInt32
                switch c {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): d = UInt32(c - UInt8(ascii: "A"))
                case UInt8(ascii: "a")...UInt8(ascii: "z"): d = UInt32(c - UInt8(ascii: "a")) + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0")) + 52
                case UInt8(ascii: "+"): d = 62
                case UInt8(ascii: "/"): d = 63
                default: continue  // newlines and "=" padding
                }
                acc = acc << 6 | d
                n += 1
                if n == 4 {
                    out.append(UInt8(truncatingIfNeeded: acc >> 16))
                    out.append(UInt8(truncatingIfNeeded: acc >> 8))
                    out.append(UInt8(truncatingIfNeeded: acc))
                    acc = 0
                    n = 0
                }
            }
            if n == 3 {
                out.append(UInt8(truncatingIfNeeded: acc >> 10))
                out.append(UInt8(truncatingIfNeeded: acc >> 2))
            } else if n == 2 {
                out.append(UInt8(truncatingIfNeeded: acc >> 4))
            }
            return out
        }
    }
}
