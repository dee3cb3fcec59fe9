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
// Speed: the grapheme rules are a small automaton (`PairTables.graphemeStep`, tabulated once: one
// load per scalar). Most line-break positions are decided by one load from a pair table (previous
// class, or the class before a run of spaces, × current class) that is precomputed from the rule
// cascade itself (`PairTables`): an entry is filled only where the cascade gives the same answer in
// every context, otherwise it says "slow" and the cascade (`LineContext.decide`) runs. Combining
// marks and the position after a ZWJ always take the cascade. Tests compare both paths on random
// strings. A CJK Unified Ideograph (U+4E00-U+9FFF, most of a Chinese text) skips the property
// lookup: the block shares one set of properties, checked scalar by scalar when the tables are
// built, and its step is the general one with those values folded in.
//
// Every rule looks back a bounded distance through this state, so the pass is O(n) whatever the
// text (100 000 combining marks after one base cost 100 000 constant-time steps). The only rule
// that looks ahead, LB25's `(PR | PO) × OP NU`, is applied backwards: when `NU` arrives after
// `PR OP`, the opportunity already written before `OP` is cleared. Nothing earlier than LB25 can
// have decided that position (only LB31 breaks between PR/PO and OP), so clearing it is exact.

/// Break flags for one UTF-16 position `i`, meaning "a boundary before code unit `i`".
public struct BreakFlags: OptionSet, Sendable, Hashable, BitwiseCopyable {
    public let rawValue: UInt8

    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    // Computed and inlinable, so that other modules test flags against immediates.
    /// An extended grapheme cluster boundary (UAX #29).
    @inlinable public static var grapheme: BreakFlags { BreakFlags(rawValue: 1 << 0) }
    /// A line-break opportunity (UAX #14).
    @inlinable public static var lineAllowed: BreakFlags { BreakFlags(rawValue: 1 << 1) }
    /// A mandatory line break (after BK, CR, LF, CR LF, NL, and at the end of text); always comes
    /// with `lineAllowed`.
    @inlinable public static var lineMandatory: BreakFlags { BreakFlags(rawValue: 1 << 2) }
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
    /// The existing capacity of `flags` is reused. The first call in a process also builds the shared
    /// property and pair tables (a few milliseconds in a release build).
    /// - Complexity: O(n) in `utf16.count`, no allocation beyond growing `flags`.
    public static func analyze(_ utf16: UnsafeBufferPointer<UInt16>, into flags: inout [BreakFlags]) {
        let n = utf16.count
        flags.removeAll(keepingCapacity: true)
        flags.append(contentsOf: repeatElement(BreakFlags(), count: n + 1))
        flags.withUnsafeMutableBufferPointer { out in
            analyze(utf16, writingInto: out.baseAddress!)  // never nil: count >= 1
        }
    }

    /// `analyze(_:into:)` into memory the caller owns: `flags` must have room for
    /// `utf16.count + 1` values, and all of them are written (for buffers reused across texts).
    /// - Complexity: O(n), no allocation.
    public static func analyze(_ utf16: UnsafeBufferPointer<UInt16>, writingInto flags: UnsafeMutablePointer<BreakFlags>) {
        flags.update(repeating: BreakFlags(), count: utf16.count + 1)
        _ = Analyzer.run(utf16, into: flags)
    }

    /// `analyze` that also returns how many state-machine steps it took (one per scalar plus one per
    /// backwards LB25 fix-up), so tests can check linearity without timing anything.
    ///
    /// `withoutPairTable` evaluates the UAX #14 rules at every position instead of using the
    /// precomputed pair decisions; the results must be identical.
    package static func _analyzeCountingSteps(
        _ utf16: [UInt16], withoutPairTable: Bool = false
    ) -> (flags: [BreakFlags], steps: Int) {
        var flags = [BreakFlags](repeating: [], count: utf16.count + 1)
        let steps = utf16.withUnsafeBufferPointer { text in
            flags.withUnsafeMutableBufferPointer { out in
                Analyzer.run(text, into: out.baseAddress!, withoutPairTable: withoutPairTable)
            }
        }
        return (flags, steps)
    }

    /// Whether CJK Unified Ideographs take the folded step (their properties were found uniform
    /// when the tables were built); for tests, since a data change would only turn it off.
    package static var _ideographPathIsOn: Bool { PairTables.shared.hanProperties != nil }

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
    static var BK: UInt8 { LineBreakClass.BK.rawValue }
    static var CR: UInt8 { LineBreakClass.CR.rawValue }
    static var LF: UInt8 { LineBreakClass.LF.rawValue }
    static var CM: UInt8 { LineBreakClass.CM.rawValue }
    static var NL: UInt8 { LineBreakClass.NL.rawValue }
    static var WJ: UInt8 { LineBreakClass.WJ.rawValue }
    static var ZW: UInt8 { LineBreakClass.ZW.rawValue }
    static var GL: UInt8 { LineBreakClass.GL.rawValue }
    static var SP: UInt8 { LineBreakClass.SP.rawValue }
    static var ZWJ: UInt8 { LineBreakClass.ZWJ.rawValue }
    static var B2: UInt8 { LineBreakClass.B2.rawValue }
    static var BA: UInt8 { LineBreakClass.BA.rawValue }
    static var BB: UInt8 { LineBreakClass.BB.rawValue }
    static var HY: UInt8 { LineBreakClass.HY.rawValue }
    static var CB: UInt8 { LineBreakClass.CB.rawValue }
    static var CL: UInt8 { LineBreakClass.CL.rawValue }
    static var CP: UInt8 { LineBreakClass.CP.rawValue }
    static var EX: UInt8 { LineBreakClass.EX.rawValue }
    static var IN: UInt8 { LineBreakClass.IN.rawValue }
    static var NS: UInt8 { LineBreakClass.NS.rawValue }
    static var OP: UInt8 { LineBreakClass.OP.rawValue }
    static var QU: UInt8 { LineBreakClass.QU.rawValue }
    static var IS: UInt8 { LineBreakClass.IS.rawValue }
    static var NU: UInt8 { LineBreakClass.NU.rawValue }
    static var PO: UInt8 { LineBreakClass.PO.rawValue }
    static var PR: UInt8 { LineBreakClass.PR.rawValue }
    static var SY: UInt8 { LineBreakClass.SY.rawValue }
    static var AL: UInt8 { LineBreakClass.AL.rawValue }
    static var EB: UInt8 { LineBreakClass.EB.rawValue }
    static var EM: UInt8 { LineBreakClass.EM.rawValue }
    static var H2: UInt8 { LineBreakClass.H2.rawValue }
    static var H3: UInt8 { LineBreakClass.H3.rawValue }
    static var HL: UInt8 { LineBreakClass.HL.rawValue }
    static var ID: UInt8 { LineBreakClass.ID.rawValue }
    static var JL: UInt8 { LineBreakClass.JL.rawValue }
    static var JV: UInt8 { LineBreakClass.JV.rawValue }
    static var JT: UInt8 { LineBreakClass.JT.rawValue }
    static var RI: UInt8 { LineBreakClass.RI.rawValue }
    /// "No previous character" (start of text); `bit(none)` is bit 63, in no mask, and row 63 of
    /// the pair table is all "slow".
    static var none: UInt8 { 63 }

    @inline(__always) static func bit(_ c: UInt8) -> UInt64 { 1 &<< UInt64(c) }

    static var hardBreaks: UInt64 { bit(BK) | bit(CR) | bit(LF) | bit(NL) }
    static var lb6and7: UInt64 { bit(BK) | bit(CR) | bit(LF) | bit(NL) | bit(SP) | bit(ZW) }
    static var noAbsorb: UInt64 { bit(BK) | bit(CR) | bit(LF) | bit(NL) | bit(SP) | bit(ZW) }
    static var lb13: UInt64 { bit(CL) | bit(CP) | bit(EX) | bit(IS) | bit(SY) }
    static var lb21After: UInt64 { bit(BA) | bit(HY) | bit(NS) }
    static var alhl: UInt64 { bit(AL) | bit(HL) }
    static var prpo: UInt64 { bit(PR) | bit(PO) }
    static var ophy: UInt64 { bit(OP) | bit(HY) }
    static var clcp: UInt64 { bit(CL) | bit(CP) }
    static var idebem: UInt64 { bit(ID) | bit(EB) | bit(EM) }
    static var lb25Number: UInt64 { bit(NU) | bit(SY) | bit(IS) | bit(CL) | bit(CP) }
    static var jamo: UInt64 { bit(JL) | bit(JV) | bit(JT) | bit(H2) | bit(H3) }
    static var lb26AfterJL: UInt64 { bit(JL) | bit(JV) | bit(H2) | bit(H3) }
    static var jvh2: UInt64 { bit(JV) | bit(H2) }
    static var jvjt: UInt64 { bit(JV) | bit(JT) }
    static var jth3: UInt64 { bit(JT) | bit(H3) }
    static var alhlnu: UInt64 { bit(AL) | bit(HL) | bit(NU) }
    static var spbahy: UInt64 { bit(SP) | bit(BA) | bit(HY) }
    static var habahy: UInt64 { bit(HY) | bit(BA) }
}

/// Grapheme_Cluster_Break raw values as masks.
private enum GB {
    static var cr: UInt8 { GraphemeBreakProperty.cr.rawValue }
    static var lf: UInt8 { GraphemeBreakProperty.lf.rawValue }
    static var control: UInt8 { GraphemeBreakProperty.control.rawValue }
    static var l: UInt8 { GraphemeBreakProperty.l.rawValue }
    static var v: UInt8 { GraphemeBreakProperty.v.rawValue }
    static var t: UInt8 { GraphemeBreakProperty.t.rawValue }
    static var lv: UInt8 { GraphemeBreakProperty.lv.rawValue }
    static var lvt: UInt8 { GraphemeBreakProperty.lvt.rawValue }
    static var zwj: UInt8 { GraphemeBreakProperty.zwj.rawValue }
    static var extend: UInt8 { GraphemeBreakProperty.extend.rawValue }
    static var spacingMark: UInt8 { GraphemeBreakProperty.spacingMark.rawValue }
    static var prepend: UInt8 { GraphemeBreakProperty.prepend.rawValue }
    static var ri: UInt8 { GraphemeBreakProperty.regionalIndicator.rawValue }
    /// Not a property value: Other that is also Extended_Pictographic (every Extended_Pictographic
    /// scalar is Other; scripts/gen-unicode-tables.py refuses data where that is not so).
    static var pict: UInt8 { 14 }
    /// "No previous scalar" (start of text); `bit(none)` is bit 15, in no mask.
    static var none: UInt8 { 15 }

    @inline(__always) static func bit(_ c: UInt8) -> UInt32 { 1 &<< UInt32(c) }
    static var controls: UInt32 { bit(cr) | bit(lf) | bit(control) }
    static var afterL: UInt32 { bit(l) | bit(v) | bit(lv) | bit(lvt) }
    static var lvv: UInt32 { bit(lv) | bit(v) }
    static var vt: UInt32 { bit(v) | bit(t) }
    static var lvtt: UInt32 { bit(lvt) | bit(t) }
    static var gb9: UInt32 { bit(extend) | bit(zwj) | bit(spacingMark) }
}

/// Everything the UAX #14 rules look at for one position.
private struct LineContext {
    /// The current class after LB1 and LB10.
    var cls: UInt8
    /// The current class after LB1 only (CM and ZWJ stay CM and ZWJ).
    var raw: UInt8
    /// LB9 absorbs the current mark into `prev`.
    var absorbed = false
    /// The current character is East Asian F, W or H.
    var wide = false
    /// Effective previous class after LB9/LB10.
    var prev: UInt8
    /// Effective class before `prev`.
    var prev2: UInt8 = LB.none
    /// Last effective class that is not SP.
    var base: UInt8
    /// The scalar just before the current one had class ZWJ (LB8a).
    var prevWasZWJ = false
    /// `prev` is East Asian F, W or H (LB30).
    var prevWide = false
    /// `prev` is an unassigned Extended_Pictographic (LB30b).
    var prevExtPictCn = false
    /// The current run of regional indicators before this one has odd length (LB30a).
    var riOdd = false
    /// LB25: 0 outside a number, 1 after `NU (NU|SY|IS)*`, 2 after `NU (NU|SY|IS)* (CL|CP)`.
    var numState: UInt8 = 0

    /// The UAX #14 rules in order: 0 no break, 1 break allowed, 2 mandatory break.
    func decide() -> UInt8 {
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
        // LB25. `(PR | PO) × (OP | HY) NU` is applied backwards by the caller when NU arrives.
        if cls == LB.NU && prevBit & (LB.prpo | LB.ophy) != 0 { return 0 }  // (PR|PO) × NU, (OP|HY) × NU
        if numState == 1 && curBit & LB.lb25Number != 0 { return 0 }  // NU (NU|SY|IS)* × (NU|SY|IS|CL|CP)
        if numState != 0 && curBit & LB.prpo != 0 { return 0 }  // NU (NU|SY|IS)* (CL|CP)? × (PO|PR)
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
        if prev == LB.RI && cls == LB.RI && riOdd { return 0 }  // LB30a
        if cls == LB.EM && (prev == LB.EB || prevExtPictCn) { return 0 }  // LB30b
        return 1  // LB31
    }
}

/// Decisions that depend only on a pair of classes, precomputed from `LineContext.decide` and the
/// grapheme rules so the common case is one table load.
///
/// - `line[row << 6 | cls]`: the `BreakFlags` line bits `decide` gives, or `slow` (0xFF) when the
///   answer also depends on context (the
///   class before, the LB25 state, RI parity, widths) and `decide` must run. `row` is the effective
///   previous class, or `64 + base` after spaces (the rules after `SP*` only look at the class
///   before the spaces); row 63 and 127 (start of text) are all `slow`.
/// - `grapheme[state << 4 | class]`: the UAX #29 rules as an automaton (`graphemeStep` tabulated):
///   bits 0-6 the next state, bit 7 a boundary before the scalar.
///
/// Built once on first use (about 360 000 `decide` calls); immutable afterwards.
private struct PairTables: @unchecked Sendable {
    let line: UnsafePointer<UInt8>
    let grapheme: UnsafePointer<UInt8>
    /// LB25 number state after a class: `numberState[state << 6 | cls]`.
    let numberState: UnsafePointer<UInt8>
    /// The properties every scalar of `hanRange` shares (CJK Unified Ideographs), or nil when the
    /// data gives them different properties or ones the fast path does not handle (checked here,
    /// scalar by scalar, when the tables are built).
    let hanProperties: PackedProperties?
    static let hanRange: ClosedRange<UInt16> = 0x4E00...0x9FFF

    static let shared = PairTables()

    /// `line` entry meaning "run `LineContext.decide`".
    static let slow: UInt8 = 0xFF
    /// `decide` results as flag bits.
    static let lineFlags: (UInt8, UInt8, UInt8) = (
        0, BreakFlags.lineAllowed.rawValue, BreakFlags([.lineAllowed, .lineMandatory]).rawValue
    )

    @inline(__always) static func flags(ofDecision d: UInt8) -> UInt8 {
        d == 0 ? lineFlags.0 : d == 1 ? lineFlags.1 : lineFlags.2
    }

    private init() {
        let lineTable = UnsafeMutablePointer<UInt8>.allocate(capacity: 128 * 64)
        lineTable.initialize(repeating: Self.slow, count: 128 * 64)
        let classes = UInt8(0)..<UInt8(LineBreakClass.allCases.count)
        let resolved = classes.filter {
            let c = LineBreakClass(rawValue: $0)!
            return ![.AI, .SG, .XX, .SA, .CJ, .CM, .ZWJ].contains(c)
        }
        for row in 0..<128 {
            let prev = row < 64 ? UInt8(row) : LB.SP
            let bases: [UInt8] = row < 64 ? [prev] : [UInt8(row - 64)]
            guard resolved.contains(prev), prev != LB.SP || row >= 64,
                bases.allSatisfy({ resolved.contains($0) && $0 != LB.SP })
            else { continue }
            for cls in resolved {
                var answer: UInt8? = nil
                var varies = false
                var ctx = LineContext(cls: cls, raw: cls, prev: prev, base: bases[0])
                outer: for prev2 in [LB.HL, LB.AL] {
                    for numState: UInt8 in 0...2 {
                        for bits in 0..<16 {
                            ctx.prev2 = prev2
                            ctx.numState = numState
                            ctx.riOdd = bits & 1 != 0
                            ctx.prevWide = bits & 2 != 0
                            ctx.prevExtPictCn = bits & 4 != 0
                            ctx.wide = bits & 8 != 0
                            let d = ctx.decide()
                            if answer == nil { answer = d } else if answer != d { varies = true; break outer }
                        }
                    }
                }
                if !varies, let answer { lineTable[row << 6 | Int(cls)] = Self.flags(ofDecision: answer) }
            }
        }
        line = UnsafePointer(lineTable)

        let gbTable = UnsafeMutablePointer<UInt8>.allocate(capacity: 128 * 16)
        for state in UInt8(0)..<128 {
            for cls in UInt8(0)..<16 {
                let (next, boundary) = Self.graphemeStep(state, cls)
                gbTable[Int(state) << 4 | Int(cls)] = next | (boundary ? 0x80 : 0)
            }
        }
        grapheme = UnsafePointer(gbTable)

        let numberTable = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * 64)
        for state in UInt8(0)..<4 {
            for cls in UInt8(0)..<64 {
                let next: UInt8
                switch cls {
                case LB.NU: next = 1
                case LB.SY, LB.IS: next = state == 1 ? 1 : 0
                case LB.CL, LB.CP: next = state == 1 ? 2 : 0
                default: next = 0
                }
                numberTable[Int(state) << 6 | Int(cls)] = next
            }
        }
        numberState = UnsafePointer(numberTable)

        let properties = PropertyTable.shared
        let first = properties.lookup(UInt32(Self.hanRange.lowerBound))
        let uniform = Self.hanRange.allSatisfy { properties.lookup(UInt32($0)) == first }
        let cls = first.resolvedLineBreak
        let plain = cls == first.lineBreak && cls != LB.CM && cls != LB.ZWJ && cls != LB.NU && cls != LB.SP && cls != LB.RI
            && !first.has(PackedProperties.extendedPictographicBit)
        hanProperties = uniform && plain ? first : nil
    }

    /// One step of the UAX #29 rules: the state after a scalar of class `cls` (a grapheme property
    /// value, or `GB.pict`) and whether there is a boundary before it.
    ///
    /// State layout: bits 0-3 the previous class (`GB.none` at the start), bits 4-5 the GB11
    /// progress (1 after `ExtPict Extend*`, 2 after `ExtPict Extend* ZWJ`), bit 6 "the run of regional
    /// indicators ending here has odd length" (GB12/13).
    static func graphemeStep(_ state: UInt8, _ cls: UInt8) -> (next: UInt8, boundary: Bool) {
        let prevClass = state & 0xF
        let emoji = (state >> 4) & 3
        let riOdd = state & 0x40 != 0
        let prev = prevClass == GB.pict ? 0 : prevClass  // Extended_Pictographic scalars are Other
        let cur = cls == GB.pict ? 0 : cls
        let prevBit = GB.bit(prev)
        let curBit = GB.bit(cur)
        let boundary: Bool
        if prev == GB.cr && cur == GB.lf {
            boundary = false  // GB3
        } else if prevBit & GB.controls != 0 || curBit & GB.controls != 0 {
            boundary = true  // GB4, GB5
        } else if prev == GB.l && curBit & GB.afterL != 0 {
            boundary = false  // GB6
        } else if prevBit & GB.lvv != 0 && curBit & GB.vt != 0 {
            boundary = false  // GB7
        } else if prevBit & GB.lvtt != 0 && cur == GB.t {
            boundary = false  // GB8
        } else if curBit & GB.gb9 != 0 || prev == GB.prepend {
            boundary = false  // GB9, GB9a, GB9b
        } else if prev == GB.zwj && emoji == 2 && cls == GB.pict {
            boundary = false  // GB11
        } else if prev == GB.ri && cur == GB.ri && riOdd {
            boundary = false  // GB12, GB13
        } else {
            boundary = true  // GB999
        }
        let nextEmoji: UInt8
        if cls == GB.pict {
            nextEmoji = 1
        } else if emoji == 1 && cur == GB.extend {
            nextEmoji = 1
        } else if emoji == 1 && cur == GB.zwj {
            nextEmoji = 2
        } else {
            nextEmoji = 0
        }
        let nextRIOdd = cur == GB.ri && !(prev == GB.ri && riOdd)
        return (cls | nextEmoji << 4 | (nextRIOdd ? 0x40 : 0), boundary)
    }
}

/// One analysis pass. All state lives in locals so it stays in registers.
private enum Analyzer {
    /// Writes the flags of `text` into `out` (`out[count]` included) and returns the number of steps
    /// taken: one per scalar plus one per backwards LB25 fix-up.
    ///
    /// `withoutPairTable` runs `LineContext.decide` for every position instead of trusting the
    /// precomputed pair table (tests compare both).
    static func run(
        _ utf16: UnsafeBufferPointer<UInt16>, into out: UnsafeMutablePointer<BreakFlags>, withoutPairTable: Bool = false
    ) -> Int {
        let n = utf16.count
        out[n] = [.grapheme, .lineAllowed, .lineMandatory]
        guard n > 0, let text = utf16.baseAddress else { return 0 }
        out[0] = .grapheme
        let table = PropertyTable.shared
        let pairs = PairTables.shared
        var steps = 0

        // Grapheme state (layout in `PairTables.graphemeStep`).
        var gbState = GB.none

        // Line state; see `LineContext` for the meaning of each.
        var prev = LB.none
        var prev2 = LB.none
        var base = LB.none
        var row = Int(LB.none)
        var prevStart = 0
        var prevWasZWJ = false
        var prevWide = false
        var prevExtPictCn = false
        var lbRIOdd = false
        var numState: UInt8 = 0

        // CJK Unified Ideographs, most of a Chinese text, share one set of properties (checked when
        // the tables are built): their step is the general one with those values folded in.
        let han = withoutPairTable ? nil : pairs.hanProperties
        let hanClass = han?.resolvedLineBreak ?? 0
        let hanGrapheme = han?.graphemeBreak ?? 0
        let hanWide = han?.has(PackedProperties.wideOrHalfwidthBit) ?? false
        let hanExtPictCn = han?.has(PackedProperties.extPictUnassignedBit) ?? false

        var pos = 0
        while pos < n {
            let start = pos
            if han != nil && PairTables.hanRange.contains(text[pos]) {
                pos &+= 1
                steps &+= 1
                // Whether the state this step reads already holds the values it sets below (all
                // but the grapheme and number states, compared after the step; `prevStart` is not
                // read by an ideograph's step).
                let settled = prev == hanClass && prev2 == hanClass && base == hanClass && row == Int(hanClass)
                    && !prevWasZWJ && !lbRIOdd && prevWide == hanWide && prevExtPictCn == hanExtPictCn
                let gbBefore = gbState, numBefore = numState
                let gbStep = pairs.grapheme[Int(gbState) << 4 | Int(hanGrapheme)]
                gbState = gbStep & 0x7F
                var lineBits = pairs.line[row << 6 | Int(hanClass)]
                if lineBits == PairTables.slow || prevWasZWJ {
                    lineBits = PairTables.flags(ofDecision: LineContext(
                        cls: hanClass, raw: hanClass, absorbed: false, wide: hanWide, prev: prev, prev2: prev2, base: base,
                        prevWasZWJ: prevWasZWJ, prevWide: prevWide, prevExtPictCn: prevExtPictCn, riOdd: lbRIOdd,
                        numState: numState
                    ).decide())
                }
                prevWasZWJ = false
                numState = pairs.numberState[Int(numState) << 6 | Int(hanClass)]
                lbRIOdd = false
                prev2 = prev
                prev = hanClass
                prevStart = start
                base = hanClass
                row = Int(hanClass)
                prevWide = hanWide
                prevExtPictCn = hanExtPictCn
                let flags = BreakFlags(rawValue: lineBits | gbStep >> 7)
                if start > 0 {
                    out[start] = flags
                }
                // A step that left the state as it found it (an ideograph after two of them) is a
                // fixed point: every ideograph that follows takes the same step, so its flags are
                // these and the state stays. The rest of a run of ideographs is a store each.
                if settled && gbBefore == gbState && numBefore == numState {
                    let runStart = pos
                    while pos < n && PairTables.hanRange.contains(text[pos]) {
                        out[pos] = flags
                        pos &+= 1
                    }
                    if pos > runStart {
                        steps &+= pos &- runStart
                        prevStart = pos &- 1
                    }
                }
                continue
            }
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

            // Grapheme clusters: one step of the tabulated UAX #29 automaton.
            let gbClass = p.has(PackedProperties.extendedPictographicBit) ? GB.pict : p.graphemeBreak
            let gbStep = pairs.grapheme[Int(gbState) << 4 | Int(gbClass)]
            gbState = gbStep & 0x7F
            let graphemeBit = gbStep >> 7  // == BreakFlags.grapheme.rawValue

            // Line breaking.
            let raw = p.resolvedLineBreak  // after LB1
            var cls = raw
            var wide = p.has(PackedProperties.wideOrHalfwidthBit)
            var extPictCn = p.has(PackedProperties.extPictUnassignedBit)
            let isMark = raw == LB.CM || raw == LB.ZWJ
            var absorbed = false
            if isMark {
                absorbed = prev != LB.none && LB.bit(prev) & LB.noAbsorb == 0
                if !absorbed {
                    cls = LB.AL  // LB10
                    wide = false
                    extPictCn = false
                }
            } else if cls == LB.NU && LB.bit(prev) & LB.ophy != 0 && LB.bit(prev2) & LB.prpo != 0 {
                // LB25 `(PR | PO) × (OP | HY) NU`, decided now that NU is here. Only LB31 can have
                // broken between PR/PO and OP/HY, so clearing that opportunity is exact.
                out[prevStart].subtract([.lineAllowed, .lineMandatory])
                steps &+= 1
            }
            var lineBits = pairs.line[row << 6 | Int(cls)]
            if lineBits == PairTables.slow || isMark || prevWasZWJ || withoutPairTable {
                lineBits = PairTables.flags(ofDecision: LineContext(
                    cls: cls, raw: raw, absorbed: absorbed, wide: wide, prev: prev, prev2: prev2, base: base,
                    prevWasZWJ: prevWasZWJ, prevWide: prevWide, prevExtPictCn: prevExtPictCn, riOdd: lbRIOdd,
                    numState: numState
                ).decide())
            }
            prevWasZWJ = raw == LB.ZWJ
            if !absorbed {  // LB9: `X CM*` keeps X's state.
                numState = pairs.numberState[Int(numState) << 6 | Int(cls)]
                lbRIOdd = cls == LB.RI && !(prev == LB.RI && lbRIOdd)
                prev2 = prev
                prev = cls
                prevStart = start
                base = cls != LB.SP ? cls : base
                row = cls != LB.SP ? Int(cls) : 64 | Int(base)
                prevWide = wide
                prevExtPictCn = extPictCn
            }

            if start > 0 {
                out[start] = BreakFlags(rawValue: lineBits | graphemeBit)
            }
        }
        return steps
    }
}
