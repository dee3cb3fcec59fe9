/// UAX #14 Line_Break property values, as listed in LineBreak.txt (before LB1 resolution).
///
/// The raw values are stable within a build only; do not persist them.
public enum LineBreakClass: UInt8, Sendable, CaseIterable {
    case BK, CR, LF, CM, NL, SG, WJ, ZW, GL, SP, ZWJ, B2, BA, BB, HY, CB, CL, CP, EX, IN, NS, OP, QU, IS, NU, PO,
        PR, SY, AI, AL, CJ, EB, EM, H2, H3, HL, ID, JL, JV, JT, RI, SA, XX
}

/// UAX #29 Grapheme_Cluster_Break property values.
public enum GraphemeBreakProperty: UInt8, Sendable, CaseIterable {
    case other, cr, lf, control, extend, zwj, regionalIndicator, prepend, spacingMark, l, v, t, lv, lvt
}

/// UAX #11 East_Asian_Width property values.
public enum EastAsianWidth: UInt8, Sendable, CaseIterable {
    case neutral, ambiguous, halfwidth, fullwidth, narrow, wide
}
