// Grapheme cluster boundaries (UAX #29) and line-break opportunities (UAX #14) in one forward pass.
//
// Design: one loop over the UTF-16 code units decodes a scalar, looks up its input and runs two
// small state machines side by side.
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
// Speed: both rule sets are tabulated once as automata (`BreakTables`), from the rules themselves:
// the line-break state is made canonical (fields no later rule can read are reset) so that about
// 120 states cover every text, and each packed property value maps to one input (a column of the
// line automaton and a grapheme class). A step is an input lookup (one load for ASCII, none for a
// CJK Unified Ideograph, whose block shares one input, checked scalar by scalar when the tables
// are built), one load per automaton and one store. A step into states that the same input leaves
// unchanged starts a run: the scalars that follow with that input take the same step, so they cost
// their input and a store each. On the Weibo corpus that is about 25 instructions per UTF-16 unit
// (a rule cascade evaluated at each position costs several times that). Building the tables (one
// `decide` per state and input key, about 6 500) costs about 3 M instructions once per process.
// Tests compare the tables with the rule cascade on random strings.
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
    /// property and break tables.
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
        _ = Analyzer.run(utf16, into: flags)
    }

    /// `analyze` that also returns how many state-machine steps it took (one per scalar plus one per
    /// backwards LB25 fix-up), so tests can check linearity without timing anything.
    ///
    /// `byRules` evaluates the UAX #29 and UAX #14 rules at every position instead of using the
    /// precomputed automata; the results must be identical.
    package static func _analyzeCountingSteps(
        _ utf16: [UInt16], byRules: Bool = false
    ) -> (flags: [BreakFlags], steps: Int) {
        var flags = [BreakFlags](repeating: [], count: utf16.count + 1)
        let steps = utf16.withUnsafeBufferPointer { text in
            flags.withUnsafeMutableBufferPointer { out in
                byRules ? Analyzer.runByRules(text, into: out.baseAddress!) : Analyzer.run(text, into: out.baseAddress!)
            }
        }
        return (flags, steps)
    }

    /// Whether CJK Unified Ideographs skip the property lookup (their inputs were found uniform
    /// when the tables were built); for tests, since a data change would only turn it off.
    package static var _ideographPathIsOn: Bool { BreakTables.shared.hanCount != 0 }

    /// The number of states and input columns of the line-break automaton, for tests.
    package static var _lineAutomatonSize: (states: Int, columns: Int) {
        (BreakTables.shared.stateCount, BreakTables.shared.columnCount)
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
    /// "No previous character" (start of text); `bit(none)` is bit 63, in no mask.
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

/// The UAX #14 state between two scalars: everything `LineContext.decide` and the next step read
/// about the text so far.
private struct LineState {
    /// Effective previous class after LB9/LB10 (`LB.none` at the start of the text).
    var prev: UInt8 = LB.none
    /// Effective class before `prev`.
    var prev2: UInt8 = LB.none
    /// Last effective class that is not SP.
    var base: UInt8 = LB.none
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

    /// What one step decided about the position before its scalar.
    struct Step {
        /// `LineContext.decide`'s answer: 0 no break, 1 break allowed, 2 mandatory break.
        var decision: UInt8
        /// LB25 `(PR | PO) × (OP | HY) NU`: the opportunity before the previous base (the OP or
        /// HY) must be cleared now that NU is here.
        var fixup: Bool
        /// The scalar is a new base (not a mark absorbed by LB9): the LB25 fix-up position moves.
        var newBase: Bool
    }

    /// Advances over one scalar of class `raw` (after LB1; CM and ZWJ stay themselves) and says
    /// what the rules decide before it.
    mutating func step(raw: UInt8, wide: Bool, extPictCn: Bool) -> Step {
        var cls = raw
        var wide = wide
        var extPictCn = extPictCn
        var absorbed = false
        var fixup = false
        if raw == LB.CM || raw == LB.ZWJ {
            absorbed = prev != LB.none && LB.bit(prev) & LB.noAbsorb == 0
            if !absorbed {
                cls = LB.AL  // LB10
                wide = false
                extPictCn = false
            }
        } else if cls == LB.NU && LB.bit(prev) & LB.ophy != 0 && LB.bit(prev2) & LB.prpo != 0 {
            // LB25 `(PR | PO) × (OP | HY) NU`, decided now that NU is here. Only LB31 can have
            // broken between PR/PO and OP/HY, so clearing that opportunity is exact.
            fixup = true
        }
        let decision = LineContext(cls: cls, raw: raw, absorbed: absorbed, wide: wide, state: self).decide()
        prevWasZWJ = raw == LB.ZWJ
        if !absorbed {  // LB9: `X CM*` keeps X's state.
            switch cls {
            case LB.NU: numState = 1
            case LB.SY, LB.IS: numState = numState == 1 ? 1 : 0
            case LB.CL, LB.CP: numState = numState == 1 ? 2 : 0
            default: numState = 0
            }
            riOdd = cls == LB.RI && !(prev == LB.RI && riOdd)
            prev2 = prev
            prev = cls
            base = cls != LB.SP ? cls : base
            prevWide = wide
            prevExtPictCn = extPictCn
        }
        return Step(decision: decision, fixup: fixup, newBase: !absorbed)
    }

    /// The state with the values no later step can read set to fixed ones, so that states that
    /// behave alike are equal: `prev2` is only read after HY or BA (LB21a, HL) and after OP or HY
    /// (the LB25 fix-up, PR or PO); `prevWide` only after CP (LB30); `riOdd` is false unless
    /// `prev` is RI anyway. Every other field is read as it is.
    var canonical: LineState {
        var c = self
        let prevBit = LB.bit(prev)
        if prevBit & LB.habahy != 0 && prev2 == LB.HL {
            c.prev2 = LB.HL
        } else if prevBit & LB.ophy != 0 && LB.bit(prev2) & LB.prpo != 0 {
            c.prev2 = LB.PR
        } else {
            c.prev2 = LB.none
        }
        if prev != LB.CP { c.prevWide = false }
        if prev != LB.RI { c.riOdd = false }
        return c
    }

    /// The state in 24 bits, for finding states while the tables are built.
    var packed: UInt32 {
        UInt32(prev) | UInt32(prev2) << 6 | UInt32(base) << 12 | UInt32(numState) << 18
            | (prevWasZWJ ? 1 << 20 : 0) | (prevWide ? 1 << 21 : 0) | (prevExtPictCn ? 1 << 22 : 0)
            | (riOdd ? 1 << 23 : 0)
    }
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
    /// The text before the current character.
    var state: LineState

    /// The UAX #14 rules in order: 0 no break, 1 break allowed, 2 mandatory break.
    func decide() -> UInt8 {
        let prev = state.prev, prev2 = state.prev2, base = state.base, numState = state.numState
        if prev == LB.none { return 0 }  // LB2
        let prevBit = LB.bit(prev)
        let curBit = LB.bit(cls)
        if prevBit & LB.hardBreaks != 0 {
            return prev == LB.CR && cls == LB.LF ? 0 : 2  // LB4, LB5
        }
        if LB.bit(raw) & LB.lb6and7 != 0 { return 0 }  // LB6, LB7
        let afterSpaces = prev == LB.SP
        if prev == LB.ZW || (afterSpaces && base == LB.ZW) { return 1 }  // LB8
        if state.prevWasZWJ { return 0 }  // LB8a
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
        if prev == LB.CP && !state.prevWide && curBit & LB.alhlnu != 0 { return 0 }  // LB30
        if prev == LB.RI && cls == LB.RI && state.riOdd { return 0 }  // LB30a
        if cls == LB.EM && (prev == LB.EB || state.prevExtPictCn) { return 0 }  // LB30b
        return 1  // LB31
    }
}

/// The break rules as two automata, tabulated from the rules themselves, and each scalar's input
/// to them, so that one step is a few loads.
///
/// - The UAX #14 automaton, `line` entries at `lineState | column`: its states are the reachable
///   canonical `LineState`s (found breadth-first from the start of text, about 120), its input
///   columns the distinct ways a scalar can act on them (line-break class after LB1, width and
///   unassigned pictographic bits, with columns that act alike merged). A 32-bit entry holds the
///   next state times 64 (bits 6-13, so that the next index is one OR), the line `BreakFlags` bits
///   `decide` gives (bits 1-2), the LB25 fix-up (`fixupBit`) and "a new base" (`newBaseBit`).
///   Every position is one load, the start of the text and combining marks included, and building
///   it costs one `decide` call per state and input key.
/// - The UAX #29 automaton, `grapheme` entries at `graphemeState | class`: `graphemeStep`
///   tabulated, with the next state times 16 (bits 4-10) and the boundary before the scalar
///   (bit 0, the `.grapheme` flag).
/// - In both, `loopBit` says that the next state, given the same input again, stays: a run of
///   that input starts after this scalar. The flags of those looping steps are in bits 16-18
///   (line bits 17-18, grapheme bit 16), so one OR and shift gives them.
/// - `inputs[value]`: for each packed property value (`PropertyTable.valueIndex`), the scalar's
///   input: bits 0-5 the line column, bits 8-11 the grapheme class (`GB.pict` for
///   Extended_Pictographic). The `ascii` entries hold the inputs of U+0000...U+007F directly,
///   skipping the three-level lookup for Latin letters, digits, spaces and punctuation.
///
/// The ASCII inputs and both automata share one allocation at fixed offsets (`asciiOffset`,
/// `graphemeOffset`, `lineOffset`), so the analysis loop keeps one pointer for them in a register
/// instead of spilling three (about 3 instructions a scalar).
///
/// Built once on first use; immutable afterwards.
private struct BreakTables: @unchecked Sendable {
    /// The ASCII inputs, then the grapheme automaton, then the line automaton.
    let base: UnsafeRawPointer
    let inputs: UnsafePointer<UInt16>
    /// `PropertyTable.shared`, kept here so the analysis loop reads one lazily initialized global.
    let properties: PropertyTable
    /// The input every scalar of `hanRange` shares (CJK Unified Ideographs), when `hanCount` is
    /// not 0; `hanCount` is 0 when the data gives them different inputs (checked here, scalar by
    /// scalar).
    let hanInput: UInt16
    let hanCount: UInt16
    /// Number of line states and input columns, for tests.
    let stateCount: Int
    let columnCount: Int
    static let hanRange: ClosedRange<UInt16> = 0x4E00...0x9FFF

    static let shared = BreakTables()

    static let asciiOffset = 0
    static let graphemeOffset = 128 * 2
    static let lineOffset = graphemeOffset + 128 * 16 * 4
    /// The start-of-text states: line state 0, grapheme state `GB.none` (times 16).
    static let lineStart: UInt32 = 0
    static let graphemeStart = UInt32(GB.none) << 4
    static let lineFlagsMask: UInt32 = 0x6
    static let fixupBit: UInt32 = 1 << 3
    static let newBaseBit: UInt32 = 1 << 4
    static let lineStateMask: UInt32 = 0x3FC0
    static let graphemeStateMask: UInt32 = 0x7F0
    static let loopBit: UInt32 = 1 << 15
    /// A value no `inputs` entry has (grapheme classes are below 16).
    static let noInput: UInt16 = 0xFFFF

    /// `decide` results as flag bits.
    @inline(__always) static func flags(ofDecision d: UInt8) -> UInt8 {
        d == 0 ? 0 : d == 1 ? BreakFlags.lineAllowed.rawValue : BreakFlags([.lineAllowed, .lineMandatory]).rawValue
    }

    /// The line automaton's input key of a scalar: class after LB1, bit 6 wide, bit 7 unassigned
    /// Extended_Pictographic.
    static func lineKey(_ p: PackedProperties) -> Int {
        Int(p.resolvedLineBreak) | (p.has(PackedProperties.wideOrHalfwidthBit) ? 64 : 0)
            | (p.has(PackedProperties.extPictUnassignedBit) ? 128 : 0)
    }

    static func graphemeClass(_ p: PackedProperties) -> UInt8 {
        p.has(PackedProperties.extendedPictographicBit) ? GB.pict : p.graphemeBreak
    }

    private init() {
        let properties = PropertyTable.shared
        self.properties = properties
        let valueCount = GeneratedTables.valueCount
        let keys = Array(Set((0..<valueCount).map { Self.lineKey(properties.value(at: $0)) })).sorted()

        // Breadth-first over the reachable canonical states; `entries[state][key index]`. States are
        // found by their packed form in a small open-addressing table (a Dictionary keyed by
        // `LineState` costs 2.8 M instructions of hashing here, more than the rest of the build).
        let start = LineState()
        var states = [start]
        var slots = [UInt32](repeating: .max, count: 1024)  // packed state, or .max when empty
        var slotIDs = [UInt8](repeating: 0, count: 1024)
        func slot(of packed: UInt32) -> Int {
            var h = Int(truncatingIfNeeded: (packed &* 0x9E37_79B1) >> 22)
            while slots[h] != .max && slots[h] != packed { h = (h + 1) & 1023 }
            return h
        }
        let startSlot = slot(of: start.packed)
        slots[startSlot] = start.packed
        var entries: [[UInt32]] = []
        var i = 0
        while i < states.count {
            var row: [UInt32] = []
            row.reserveCapacity(keys.count)
            for key in keys {
                var s = states[i]
                let step = s.step(raw: UInt8(key & 63), wide: key & 64 != 0, extPictCn: key & 128 != 0)
                let next = s.canonical
                let packed = next.packed
                let h = slot(of: packed)
                if slots[h] == .max {
                    precondition(states.count < 256, "the line-break automaton has more than 256 states")
                    slots[h] = packed
                    slotIDs[h] = UInt8(states.count)
                    states.append(next)
                }
                row.append(UInt32(slotIDs[h]) << 6 | UInt32(Self.flags(ofDecision: step.decision))
                    | (step.fixup ? Self.fixupBit : 0) | (step.newBase ? Self.newBaseBit : 0))
            }
            entries.append(row)
            i += 1
        }

        // Keys whose columns are equal act alike in every state: they share a column.
        var columnOfKey = [Int](repeating: 0, count: 256)
        var columns: [[UInt32]] = []
        for (k, key) in keys.enumerated() {
            let column = entries.map { $0[k] }
            if let known = columns.firstIndex(of: column) {
                columnOfKey[key] = known
            } else {
                columnOfKey[key] = columns.count
                columns.append(column)
            }
        }
        precondition(columns.count <= 64, "the line-break automaton has more than 64 input columns")
        let storage = UnsafeMutableRawPointer.allocate(
            byteCount: Self.lineOffset + states.count << 8, alignment: MemoryLayout<UInt32>.alignment)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: Self.lineOffset + states.count << 8)
        let lineTable = (storage + Self.lineOffset).assumingMemoryBound(to: UInt32.self)
        for (c, column) in columns.enumerated() {
            for (s, entry) in column.enumerated() { lineTable[s << 6 | c] = entry }
        }
        for (c, column) in columns.enumerated() {
            for (s, entry) in column.enumerated() {
                let next = Int(entry & Self.lineStateMask)
                let again = column[next >> 6]
                // A fix-up step never loops (it moves from OP or HY to NU); checked all the same.
                if Int(again & Self.lineStateMask) == next && again & Self.fixupBit == 0 {
                    lineTable[s << 6 | c] = entry | Self.loopBit | (again & Self.lineFlagsMask) << 16
                }
            }
        }
        stateCount = states.count
        columnCount = columns.count

        let gbTable = (storage + Self.graphemeOffset).assumingMemoryBound(to: UInt32.self)
        for state in UInt8(0)..<128 {
            for cls in UInt8(0)..<16 {
                let (next, boundary) = Self.graphemeStep(state, cls)
                let (again, boundaryAgain) = Self.graphemeStep(next, cls)
                gbTable[Int(state) << 4 | Int(cls)] = UInt32(next) << 4 | (boundary ? 1 : 0)
                    | (again == next ? Self.loopBit | (boundaryAgain ? 1 << 16 : 0) : 0)
            }
        }

        func input(_ p: PackedProperties) -> UInt16 {
            UInt16(columnOfKey[Self.lineKey(p)]) | UInt16(Self.graphemeClass(p)) << 8
        }
        let inputTable = UnsafeMutablePointer<UInt16>.allocate(capacity: valueCount)
        for v in 0..<valueCount { inputTable[v] = input(properties.value(at: v)) }
        inputs = UnsafePointer(inputTable)
        let asciiTable = (storage + Self.asciiOffset).assumingMemoryBound(to: UInt16.self)
        for u in 0..<128 { asciiTable[u] = input(properties.lookup(UInt32(u))) }
        base = UnsafeRawPointer(storage)

        let first = inputTable[properties.valueIndex(UInt32(Self.hanRange.lowerBound))]
        let uniform = Self.hanRange.allSatisfy { inputTable[properties.valueIndex(UInt32($0))] == first }
        hanInput = first
        hanCount = uniform ? UInt16(Self.hanRange.count) : 0
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
    /// Each scalar is one input (`BreakTables.inputs`), one load from each automaton and one store.
    /// When the states a step leads to are fixed points for its input (`BreakTables.loopBit`), every
    /// following scalar with the same input takes the same step, so until the input changes each
    /// scalar is its input and one store. This covers runs of ideographs, of Latin letters, of
    /// digits, of spaces and of combining marks alike, from the second scalar of a run on.
    ///
    /// The LB25 fix-up position (`prevStart`) is not moved inside a run: it is only read from a
    /// state after OP or HY that follows PR or PO, which a step with a new base enters from
    /// another state (so not in a run) and which only absorbed marks keep.
    static func run(_ utf16: UnsafeBufferPointer<UInt16>, into out: UnsafeMutablePointer<BreakFlags>) -> Int {
        let n = utf16.count
        out[n] = [.grapheme, .lineAllowed, .lineMandatory]
        guard n > 0, let text = utf16.baseAddress else { return 0 }
        let tables = BreakTables.shared
        let properties = tables.properties
        let base = tables.base, inputs = tables.inputs
        let hanLow = BreakTables.hanRange.lowerBound
        let hanInput = tables.hanInput, hanCount = tables.hanCount
        // Steps are counted as scalars plus fix-ups: code units, less surrogate pairs.
        var pairs = 0
        var fixups = 0
        var gbState = BreakTables.graphemeStart
        var lineState = BreakTables.lineStart
        var prevStart = 0
        var runInput = BreakTables.noInput
        var runFlags = BreakFlags()
        var pos = 0
        while pos < n {
            let start = pos
            let unit = text[pos]
            pos &+= 1
            let input: UInt16
            if unit < 0x80 {
                input = base.load(fromByteOffset: BreakTables.asciiOffset &+ Int(unit) &<< 1, as: UInt16.self)
            } else if unit &- hanLow < hanCount {
                input = hanInput
            } else {
                var cp = UInt32(unit)
                if cp & 0xF800 == 0xD800 {
                    if cp < 0xDC00, pos < n, text[pos] & 0xFC00 == 0xDC00 {
                        cp = 0x10000 &+ ((cp &- 0xD800) &<< 10) &+ (UInt32(text[pos]) &- 0xDC00)
                        out[pos] = []  // inside the pair
                        pos &+= 1
                        pairs &+= 1
                    } else {
                        cp = 0xFFFD
                    }
                }
                input = inputs[properties.valueIndex(cp)]
            }
            if input == runInput {
                out[start] = runFlags
                continue
            }
            let g = base.load(
                fromByteOffset: BreakTables.graphemeOffset &+ Int(gbState | UInt32(input &>> 8)) &<< 2, as: UInt32.self)
            let e = base.load(
                fromByteOffset: BreakTables.lineOffset &+ Int(lineState | UInt32(input & 0x3F)) &<< 2, as: UInt32.self)
            if e & BreakTables.fixupBit != 0 {
                out[prevStart].subtract([.lineAllowed, .lineMandatory])
                fixups &+= 1
            }
            if e & BreakTables.newBaseBit != 0 { prevStart = start }
            // The line flags are bits 1-2 of `e`, the grapheme boundary bit 0 of `g`, and the
            // other entry has zeros there; likewise for the looping step's flags in bits 16-18.
            let both = e | g
            out[start] = BreakFlags(rawValue: UInt8(truncatingIfNeeded: both) & 7)
            runInput = e & g & BreakTables.loopBit != 0 ? input : BreakTables.noInput
            runFlags = BreakFlags(rawValue: UInt8(truncatingIfNeeded: both &>> 16) & 7)
            lineState = e & BreakTables.lineStateMask
            gbState = g & BreakTables.graphemeStateMask
        }
        out[0] = .grapheme  // LB2, GB1
        return n &- pairs &+ fixups
    }

    /// `run` evaluating the rules at every position: `LineContext.decide` on the full state,
    /// `graphemeStep` untabulated, every scalar looked up. The reference the tables are tested
    /// against.
    static func runByRules(_ utf16: UnsafeBufferPointer<UInt16>, into out: UnsafeMutablePointer<BreakFlags>) -> Int {
        let n = utf16.count
        out[n] = [.grapheme, .lineAllowed, .lineMandatory]
        guard n > 0, let text = utf16.baseAddress else { return 0 }
        out[0] = .grapheme
        let properties = PropertyTable.shared
        var steps = 0
        var gbState = GB.none
        var state = LineState()
        var prevStart = 0
        var pos = 0
        while pos < n {
            let start = pos
            var cp = UInt32(text[pos])
            pos &+= 1
            if cp & 0xF800 == 0xD800 {
                if cp < 0xDC00, pos < n, text[pos] & 0xFC00 == 0xDC00 {
                    cp = 0x10000 &+ ((cp &- 0xD800) &<< 10) &+ (UInt32(text[pos]) &- 0xDC00)
                    out[pos] = []  // inside the pair
                    pos &+= 1
                } else {
                    cp = 0xFFFD
                }
            }
            let p = properties.lookup(cp)
            steps &+= 1
            let (nextGrapheme, boundary) = BreakTables.graphemeStep(gbState, BreakTables.graphemeClass(p))
            gbState = nextGrapheme
            let step = state.step(
                raw: p.resolvedLineBreak, wide: p.has(PackedProperties.wideOrHalfwidthBit),
                extPictCn: p.has(PackedProperties.extPictUnassignedBit))
            if step.fixup {
                out[prevStart].subtract([.lineAllowed, .lineMandatory])
                steps &+= 1
            }
            if step.newBase { prevStart = start }
            if start > 0 {
                out[start] = BreakFlags(rawValue: BreakTables.flags(ofDecision: step.decision) | (boundary ? 1 : 0))
            }
        }
        return steps
    }
}
