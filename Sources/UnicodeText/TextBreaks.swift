// Grapheme cluster boundaries (UAX #29) and line-break opportunities (UAX #14) in one forward pass.
//
// Design: one loop over the UTF-16 code units decodes a scalar, does one packed-table lookup and
// runs two small state machines side by side.
//
// - Grapheme clusters (Unicode 15.0 extended clusters, GB1-GB999, no GB9c): the state is the
//   previous scalar's property, whether the scalars since the last Extended_Pictographic are
//   `Extend* ZWJ?` (GB11) and the parity of the current run of regional indicators (GB12/13).
// - Line breaking (Unicode 15.0, LB1-LB31 with LB25 in the regular-expression form of UAX #14
//   section 8.2 example 7, which is what LineBreakTest.txt uses; no LB28a): the state is the
//   effective previous class after LB9/LB10 (a combining mark or ZWJ after a base is absorbed into
//   it and keeps its properties), the class before that (LB21a, LB25), the last class before the
//   current run of spaces (LB8, LB14-LB17), the number-sequence state of LB25, the parity of the
//   regional-indicator run (LB30a) and the East Asian width / unassigned-pictographic bits of the
//   previous class (LB30, LB30b).
//
// Every rule looks back a bounded distance through this state, so the pass is O(n) whatever the
// text (100 000 combining marks after one base cost 100 000 constant-time steps). The only rule
// that looks ahead, LB25's `(PR | PO) × OP NU`, is applied backwards: when `NU` arrives after
// `PR OP`, the opportunity already written before `OP` is cleared. Nothing earlier than LB25 can
// have decided that position (only LB31 breaks between PR/PO and OP), so clearing it is exact.

/// Break flags for one UTF-16 position `i`, meaning "a boundary before code unit `i`".
public struct BreakFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// An extended grapheme cluster boundary (UAX #29).
    public static let grapheme = BreakFlags(rawValue: 1 << 0)
    /// A line-break opportunity (UAX #14).
    public static let lineAllowed = BreakFlags(rawValue: 1 << 1)
    /// A mandatory line break (after BK, CR, LF, CR LF, NL, and at the end of text); always comes
    /// with `lineAllowed`.
    public static let lineMandatory = BreakFlags(rawValue: 1 << 2)
}

/// A line-break opportunity as a UTF-16 offset.
public struct LineBreakOpportunity: Sendable, Equatable {
    /// The UTF-16 offset the break comes before.
    public var offset: Int
    /// Whether the line MUST break here.
    public var isMandatory: Bool

    public init(offset: Int, isMandatory: Bool) {
        self.offset = offset
        self.isMandatory = isMandatory
    }
}

/// Grapheme cluster and line-break analysis of UTF-16 text (Unicode 15.0, UAX #29 and UAX #14).
///
/// Thread safety: all members may be called concurrently.
public enum TextBreaks {
    /// Fills `flags` with grapheme boundaries and line-break opportunities of UTF-16 text.
    ///
    /// On return `flags.count == utf16.count + 1` and `flags[i]` describes the position before code
    /// unit `i`:
    /// - position 0 has `.grapheme` only (LB2: no line break at the start of text);
    /// - position `count` has `.grapheme`, `.lineAllowed` and `.lineMandatory` (LB3); for empty text
    ///   that is position 0, and the end of text wins;
    /// - a position between the two halves of a surrogate pair has no flag;
    /// - an unpaired surrogate is analysed as U+FFFD.
    ///
    /// The existing capacity of `flags` is reused.
    /// - Complexity: O(n) in `utf16.count`, no allocation beyond growing `flags`.
    public static func analyze(_ utf16: UnsafeBufferPointer<UInt16>, into flags: inout [BreakFlags]) {
        let n = utf16.count
        flags.removeAll(keepingCapacity: true)
        flags.append(contentsOf: repeatElement(BreakFlags(), count: n + 1))
        flags.withUnsafeMutableBufferPointer { out in
            guard let outBase = out.baseAddress else { return }
            var analyzer = Analyzer()
            analyzer.run(utf16, into: outBase)
        }
    }

    /// `analyze` that also returns how many state-machine steps it took (one per scalar plus one per
    /// backwards LB25 fix-up), so tests can check linearity without timing anything.
    package static func _analyzeCountingSteps(_ utf16: [UInt16]) -> (flags: [BreakFlags], steps: Int) {
        var flags = [BreakFlags](repeating: [], count: utf16.count + 1)
        var analyzer = Analyzer()
        utf16.withUnsafeBufferPointer { text in
            flags.withUnsafeMutableBufferPointer { out in analyzer.run(text, into: out.baseAddress!) }
        }
        return (flags, analyzer.steps)
    }

    /// Grapheme boundaries and line-break opportunities of a UTF-16 array; see
    /// `analyze(_:into:)` for the meaning of the result.
    /// - Complexity: O(n).
    public static func analyze(_ utf16: [UInt16]) -> [BreakFlags] {
        var flags: [BreakFlags] = []
        utf16.withUnsafeBufferPointer { analyze($0, into: &flags) }
        return flags
    }

    /// Grapheme boundaries and line-break opportunities of a string's UTF-16 view; see
    /// `analyze(_:into:)` for the meaning of the result.
    /// - Complexity: O(n).
    public static func analyze(_ string: String) -> [BreakFlags] {
        analyze(Array(string.utf16))
    }

    /// UTF-16 offsets of the extended grapheme cluster boundaries, from 0 to `count` inclusive.
    /// - Complexity: O(n).
    public static func graphemeBoundaries(_ utf16: [UInt16]) -> [Int] {
        analyze(utf16).indices(where: .grapheme)
    }

    /// UTF-16 offsets of the extended grapheme cluster boundaries of a string, from 0 to its
    /// `utf16.count` inclusive.
    /// - Complexity: O(n).
    public static func graphemeBoundaries(_ string: String) -> [Int] {
        graphemeBoundaries(Array(string.utf16))
    }

    /// Line-break opportunities, in order; the last one is always the mandatory break at the end.
    /// - Complexity: O(n).
    public static func lineBreaks(_ utf16: [UInt16]) -> [LineBreakOpportunity] {
        let flags = analyze(utf16)
        var result: [LineBreakOpportunity] = []
        for (i, f) in flags.enumerated() where f.contains(.lineAllowed) {
            result.append(LineBreakOpportunity(offset: i, isMandatory: f.contains(.lineMandatory)))
        }
        return result
    }

    /// Line-break opportunities of a string (UTF-16 offsets), in order.
    /// - Complexity: O(n).
    public static func lineBreaks(_ string: String) -> [LineBreakOpportunity] {
        lineBreaks(Array(string.utf16))
    }
}

extension Array where Element == BreakFlags {
    fileprivate func indices(where flag: BreakFlags) -> [Int] {
        var result: [Int] = []
        for (i, f) in enumerated() where f.contains(flag) { result.append(i) }
        return result
    }
}

// MARK: - The state machines

/// Line_Break raw values as UInt8 constants, and class sets as 64-bit masks.
private enum LB {
    static let BK = LineBreakClass.BK.rawValue, CR = LineBreakClass.CR.rawValue, LF = LineBreakClass.LF.rawValue
    static let CM = LineBreakClass.CM.rawValue, NL = LineBreakClass.NL.rawValue, WJ = LineBreakClass.WJ.rawValue
    static let ZW = LineBreakClass.ZW.rawValue, GL = LineBreakClass.GL.rawValue, SP = LineBreakClass.SP.rawValue
    static let ZWJ = LineBreakClass.ZWJ.rawValue, B2 = LineBreakClass.B2.rawValue, BA = LineBreakClass.BA.rawValue
    static let BB = LineBreakClass.BB.rawValue, HY = LineBreakClass.HY.rawValue, CB = LineBreakClass.CB.rawValue
    static let CL = LineBreakClass.CL.rawValue, CP = LineBreakClass.CP.rawValue, EX = LineBreakClass.EX.rawValue
    static let IN = LineBreakClass.IN.rawValue, NS = LineBreakClass.NS.rawValue, OP = LineBreakClass.OP.rawValue
    static let QU = LineBreakClass.QU.rawValue, IS = LineBreakClass.IS.rawValue, NU = LineBreakClass.NU.rawValue
    static let PO = LineBreakClass.PO.rawValue, PR = LineBreakClass.PR.rawValue, SY = LineBreakClass.SY.rawValue
    static let AL = LineBreakClass.AL.rawValue, EB = LineBreakClass.EB.rawValue, EM = LineBreakClass.EM.rawValue
    static let H2 = LineBreakClass.H2.rawValue, H3 = LineBreakClass.H3.rawValue, HL = LineBreakClass.HL.rawValue
    static let ID = LineBreakClass.ID.rawValue, JL = LineBreakClass.JL.rawValue, JV = LineBreakClass.JV.rawValue
    static let JT = LineBreakClass.JT.rawValue, RI = LineBreakClass.RI.rawValue
    /// "No previous character" (start of text).
    static let none: UInt8 = 0xFF

    @inline(__always) static func bit(_ c: UInt8) -> UInt64 { 1 &<< UInt64(c) }
    @inline(__always) static func set(_ cs: UInt8...) -> UInt64 { cs.reduce(0) { $0 | bit($1) } }

    static let hardBreaks = set(BK, CR, LF, NL)
    static let lb6and7 = set(BK, CR, LF, NL, SP, ZW)
    static let noAbsorb = set(BK, CR, LF, NL, SP, ZW)
    static let lb13 = set(CL, CP, EX, IS, SY)
    static let lb21After = set(BA, HY, NS)
    static let alhl = set(AL, HL)
    static let prpo = set(PR, PO)
    static let ophy = set(OP, HY)
    static let clcp = set(CL, CP)
    static let idebem = set(ID, EB, EM)
    static let lb25Number = set(NU, SY, IS, CL, CP)
    static let jamo = set(JL, JV, JT, H2, H3)
    static let lb26AfterJL = set(JL, JV, H2, H3)
    static let jvh2 = set(JV, H2)
    static let jvjt = set(JV, JT)
    static let jth3 = set(JT, H3)
    static let alhlnu = set(AL, HL, NU)
    static let spbahy = set(SP, BA, HY)
    static let habahy = set(HY, BA)
}

/// Grapheme_Cluster_Break raw values as masks.
private enum GB {
    static let cr = GraphemeBreakProperty.cr.rawValue, lf = GraphemeBreakProperty.lf.rawValue
    static let l = GraphemeBreakProperty.l.rawValue, zwj = GraphemeBreakProperty.zwj.rawValue
    static let extend = GraphemeBreakProperty.extend.rawValue, prepend = GraphemeBreakProperty.prepend.rawValue
    static let ri = GraphemeBreakProperty.regionalIndicator.rawValue
    static let none: UInt8 = 0xFF

    @inline(__always) static func bit(_ c: UInt8) -> UInt32 { 1 &<< UInt32(c) }
    static let controls = bit(cr) | bit(lf) | bit(GraphemeBreakProperty.control.rawValue)
    static let afterL = bit(l) | bit(GraphemeBreakProperty.v.rawValue) | bit(GraphemeBreakProperty.lv.rawValue)
        | bit(GraphemeBreakProperty.lvt.rawValue)
    static let lvv = bit(GraphemeBreakProperty.lv.rawValue) | bit(GraphemeBreakProperty.v.rawValue)
    static let vt = bit(GraphemeBreakProperty.v.rawValue) | bit(GraphemeBreakProperty.t.rawValue)
    static let lvtt = bit(GraphemeBreakProperty.lvt.rawValue) | bit(GraphemeBreakProperty.t.rawValue)
    static let gb9 = bit(extend) | bit(zwj) | bit(GraphemeBreakProperty.spacingMark.rawValue)
}

/// Mutable state of one analysis pass.
private struct Analyzer {
    // Grapheme clusters.
    var gbPrev = GB.none
    /// 0: not after a pictographic; 1: after `ExtPict Extend*`; 2: after `ExtPict Extend* ZWJ`.
    var emojiState: UInt8 = 0
    var gbRIOdd = false

    // Line breaking.
    /// Effective previous class after LB9/LB10.
    var prev = LB.none
    /// Effective class before `prev`.
    var prev2 = LB.none
    /// Last effective class that is not SP.
    var base = LB.none
    /// UTF-16 offset where `prev` starts.
    var prevStart = 0
    /// The code point just before the current one had class ZWJ (LB8a).
    var prevWasZWJ = false
    /// `prev` is East Asian F, W or H (LB30).
    var prevWide = false
    /// `prev` is an unassigned Extended_Pictographic (LB30b).
    var prevExtPictCn = false
    var lbRIOdd = false
    /// LB25: 0 outside a number, 1 after `NU (NU|SY|IS)*`, 2 after `NU (NU|SY|IS)* (CL|CP)`.
    var numState: UInt8 = 0

    /// Work done: one step per scalar and one per backwards fix-up (for the linearity test).
    var steps = 0

    mutating func run(_ utf16: UnsafeBufferPointer<UInt16>, into out: UnsafeMutablePointer<BreakFlags>) {
        let n = utf16.count
        out[n] = [.grapheme, .lineAllowed, .lineMandatory]
        guard n > 0, let text = utf16.baseAddress else { return }
        out[0] = .grapheme
        let table = PropertyTable.shared
        var pos = 0
        while pos < n {
            let start = pos
            var cp = UInt32(text[pos])
            pos &+= 1
            if cp & 0xF800 == 0xD800 {
                if cp < 0xDC00, pos < n, text[pos] & 0xFC00 == 0xDC00 {
                    cp = 0x10000 &+ ((cp &- 0xD800) &<< 10) &+ (UInt32(text[pos]) &- 0xDC00)
                    pos &+= 1
                } else {
                    cp = 0xFFFD
                }
            }
            let p = table.lookup(cp)
            steps &+= 1
            var f = BreakFlags()
            if grapheme(p) { f.insert(.grapheme) }
            switch line(p, at: start, out: out) {
            case 1: f.insert(.lineAllowed)
            case 2: f.formUnion([.lineAllowed, .lineMandatory])
            default: break
            }
            if start > 0 { out[start] = f }
        }
    }

    /// Returns whether there is a grapheme boundary before the scalar with properties `p`, and
    /// advances the state.
    @inline(__always)
    mutating func grapheme(_ p: PackedProperties) -> Bool {
        let cur = p.graphemeBreak
        let prevBit = GB.bit(gbPrev)  // 0 at start of text
        let curBit = GB.bit(cur)
        let isPict = p.has(PackedProperties.extendedPictographicBit)
        let boundary: Bool
        if gbPrev == GB.cr && cur == GB.lf {
            boundary = false  // GB3
        } else if prevBit & GB.controls != 0 || curBit & GB.controls != 0 {
            boundary = true  // GB4, GB5
        } else if gbPrev == GB.l && curBit & GB.afterL != 0 {
            boundary = false  // GB6
        } else if prevBit & GB.lvv != 0 && curBit & GB.vt != 0 {
            boundary = false  // GB7
        } else if prevBit & GB.lvtt != 0 && cur == GraphemeBreakProperty.t.rawValue {
            boundary = false  // GB8
        } else if curBit & GB.gb9 != 0 || gbPrev == GB.prepend {
            boundary = false  // GB9, GB9a, GB9b
        } else if gbPrev == GB.zwj && emojiState == 2 && isPict {
            boundary = false  // GB11
        } else if gbPrev == GB.ri && cur == GB.ri && gbRIOdd {
            boundary = false  // GB12, GB13
        } else {
            boundary = true  // GB999
        }
        if isPict {
            emojiState = 1
        } else if emojiState == 1 && cur == GB.extend {
            emojiState = 1
        } else if emojiState == 1 && cur == GB.zwj {
            emojiState = 2
        } else {
            emojiState = 0
        }
        gbRIOdd = cur == GB.ri ? !(gbPrev == GB.ri && gbRIOdd) : false
        gbPrev = cur
        return boundary
    }

    /// Returns 0 (no break), 1 (break allowed) or 2 (mandatory break) for the position before the
    /// scalar with properties `p`, which starts at `start`, and advances the state.
    @inline(__always)
    mutating func line(_ p: PackedProperties, at start: Int, out: UnsafeMutablePointer<BreakFlags>) -> UInt8 {
        let raw = p.resolvedLineBreak  // after LB1
        var cls = raw
        var wide = p.has(PackedProperties.wideOrHalfwidthBit)
        var extPictCn = p.has(PackedProperties.extPictUnassignedBit)
        let isMark = raw == LB.CM || raw == LB.ZWJ
        let absorbed = isMark && prev != LB.none && LB.bit(prev) & LB.noAbsorb == 0
        if isMark && !absorbed {
            cls = LB.AL  // LB10
            wide = false
            extPictCn = false
        }
        if cls == LB.NU && !absorbed && LB.bit(prev) & LB.ophy != 0 && LB.bit(prev2) & LB.prpo != 0 {
            // LB25 `(PR | PO) × (OP | HY) NU`, decided now that NU is here. Whatever rule decides the
            // position before NU, only LB31 can have broken between PR/PO and OP/HY.
            out[prevStart].subtract([.lineAllowed, .lineMandatory])
            steps &+= 1
        }
        let result = decide(cls, raw: raw, absorbed: absorbed, wide: wide)
        prevWasZWJ = raw == LB.ZWJ
        if absorbed { return result }  // LB9: X CM* keeps X's state.
        switch cls {
        case LB.NU: numState = 1
        case LB.SY, LB.IS: numState = numState == 1 ? 1 : 0
        case LB.CL, LB.CP: numState = numState == 1 ? 2 : 0
        default: numState = 0
        }
        lbRIOdd = cls == LB.RI ? !(prev == LB.RI && lbRIOdd) : false
        prev2 = prev
        prev = cls
        prevStart = start
        if cls != LB.SP { base = cls }
        prevWide = wide
        prevExtPictCn = extPictCn
        return result
    }

    /// The UAX #14 rules in order; `cls` is the class after LB1 and LB10.
    @inline(__always)
    func decide(_ cls: UInt8, raw: UInt8, absorbed: Bool, wide: Bool) -> UInt8 {
        if prev == LB.none { return 0 }  // LB2
        let prevBit = LB.bit(prev)
        let curBit = LB.bit(cls)
        if prevBit & LB.hardBreaks != 0 {
            return prev == LB.CR && cls == LB.LF ? 0 : 2  // LB4, LB5
        }
        if LB.bit(raw) & LB.lb6and7 != 0 { return 0 }  // LB6, LB7
        let afterSpaces = prev == LB.SP
        if prev == LB.ZW || (afterSpaces && base == LB.ZW) { return 1 }  // LB8
        if prevWasZWJ { return 0 }  // LB8a
        if absorbed { return 0 }  // LB9
        if cls == LB.WJ || prev == LB.WJ { return 0 }  // LB11
        if prev == LB.GL { return 0 }  // LB12
        if cls == LB.GL && prevBit & LB.spbahy == 0 { return 0 }  // LB12a
        if curBit & LB.lb13 != 0 { return 0 }  // LB13
        let last = afterSpaces ? base : prev  // the class before `SP*`
        if last == LB.OP { return 0 }  // LB14
        if cls == LB.OP && last == LB.QU { return 0 }  // LB15
        if cls == LB.NS && LB.bit(last) & LB.clcp != 0 { return 0 }  // LB16
        if cls == LB.B2 && last == LB.B2 { return 0 }  // LB17
        if afterSpaces { return 1 }  // LB18
        if cls == LB.QU || prev == LB.QU { return 0 }  // LB19
        if cls == LB.CB || prev == LB.CB { return 1 }  // LB20
        if curBit & LB.lb21After != 0 || prev == LB.BB { return 0 }  // LB21
        if prevBit & LB.habahy != 0 && prev2 == LB.HL { return 0 }  // LB21a
        if prev == LB.SY && cls == LB.HL { return 0 }  // LB21b
        if cls == LB.IN { return 0 }  // LB22
        if (prevBit & LB.alhl != 0 && cls == LB.NU) || (prev == LB.NU && curBit & LB.alhl != 0) {
            return 0  // LB23
        }
        if (prev == LB.PR && curBit & LB.idebem != 0) || (prevBit & LB.idebem != 0 && cls == LB.PO) {
            return 0  // LB23a
        }
        if (prevBit & LB.prpo != 0 && curBit & LB.alhl != 0) || (prevBit & LB.alhl != 0 && curBit & LB.prpo != 0) {
            return 0  // LB24
        }
        if cls == LB.NU {
            if prevBit & LB.prpo != 0 { return 0 }  // LB25: (PR | PO) × NU
            if prevBit & LB.ophy != 0 { return 0 }  // LB25: (OP | HY) × NU
        }
        if numState == 1 && curBit & LB.lb25Number != 0 { return 0 }  // LB25: NU (NU|SY|IS)* × (NU|SY|IS|CL|CP)
        if numState != 0 && curBit & LB.prpo != 0 { return 0 }  // LB25: NU (NU|SY|IS)* (CL|CP)? × (PO|PR)
        if prev == LB.JL && curBit & LB.lb26AfterJL != 0 { return 0 }  // LB26
        if prevBit & LB.jvh2 != 0 && curBit & LB.jvjt != 0 { return 0 }  // LB26
        if prevBit & LB.jth3 != 0 && cls == LB.JT { return 0 }  // LB26
        if (prevBit & LB.jamo != 0 && cls == LB.PO) || (prev == LB.PR && curBit & LB.jamo != 0) {
            return 0  // LB27
        }
        if prevBit & LB.alhl != 0 && curBit & LB.alhl != 0 { return 0 }  // LB28
        if prev == LB.IS && curBit & LB.alhl != 0 { return 0 }  // LB29
        if prevBit & LB.alhlnu != 0 && cls == LB.OP && !wide { return 0 }  // LB30
        if prev == LB.CP && !prevWide && curBit & LB.alhlnu != 0 { return 0 }  // LB30
        if prev == LB.RI && cls == LB.RI && lbRIOdd { return 0 }  // LB30a
        if cls == LB.EM && (prev == LB.EB || prevExtPictCn) { return 0 }  // LB30b
        return 1  // LB31
    }
}
