/// The Unicode Script property (Scripts.txt), for choosing how a run is shaped.
public struct UnicodeScript: Hashable, Sendable {
    /// Index into the generated list of ISO 15924 codes.
    public let rawValue: UInt8

    public static let unknown = UnicodeScript(rawValue: 0)
    public static let common = UnicodeScript(rawValue: 1)
    public static let inherited = UnicodeScript(rawValue: 2)
    public static let han = UnicodeScript(rawValue: 3)
    public static let hiragana = UnicodeScript(rawValue: 4)
    public static let katakana = UnicodeScript(rawValue: 5)
    public static let hangul = UnicodeScript(rawValue: 6)
    public static let latin = UnicodeScript(rawValue: 7)

    /// The ISO 15924 code ("Hani", "Latn", "Zyyy").
    public var code: String { ScriptTableData.codes[Int(rawValue)] }

    /// Common, Inherited and Unknown take the script of their neighbours in a run (UAX #24).
    public var isWeak: Bool { rawValue <= 2 }

    /// The script of a code point (Unknown for unassigned and invalid values).
    /// - Complexity: O(log r) over the 1657 runs of the table.
    public static func of(_ scalar: UInt32) -> UnicodeScript {
        if scalar < 0x80 {
            // ASCII: letters are Latin, everything else Common.
            return (scalar | 0x20) &- 0x61 < 26 ? .latin : .common
        }
        let table = ScriptRuns.shared
        var lo = 0, hi = table.starts.count
        while hi - lo > 1 {
            let mid = (lo + hi) >> 1
            if table.starts[mid] <= scalar { lo = mid } else { hi = mid }
        }
        return UnicodeScript(rawValue: table.values[lo])
    }
}

/// The decoded run table.
private struct ScriptRuns: Sendable {
    let starts: [UInt32]
    let values: [UInt8]
    static let shared: ScriptRuns = {
        var starts: [UInt32] = []
        var values: [UInt8] = []
        for pair in ScriptTableData.runs.split(separator: ",") {
            let parts = pair.split(separator: ":")
            starts.append(UInt32(parts[0], radix: 16)!)
            values.append(UInt8(parts[1], radix: 16)!)
        }
        return ScriptRuns(starts: starts, values: values)
    }()
}
