import StatusModel
import UnicodeText

/// Neutralising untrusted text before it reaches a terminal.
///
/// Status text is untrusted: a name or a text could hold ESC sequences (clear the screen, move
/// the cursor, set the window title, switch colours), C1 controls that some terminals read as
/// CSI (U+009B), or bidi overrides that reorder what is shown. Every such scalar is replaced by
/// U+FFFD before it is placed on the canvas, so the only escape sequences in the output are the
/// renderer's own.
package enum TerminalText {
    /// The visible placeholder of a neutralised scalar (one column).
    package static let placeholder: Unicode.Scalar = "\u{FFFD}"

    /// True for the scalars that MUST NOT reach a terminal: the terminal controls of
    /// `DisplaySafe.isTerminalControl` (C0 and C1 controls, DEL, the line and paragraph
    /// separators, the bidi controls). Zero-width joiners, variation selectors and tags stay:
    /// they belong to emoji sequences, which the preview draws whole.
    /// - Complexity: O(1).
    @inline(__always)
    package static func isUnsafe(_ v: UInt32) -> Bool { DisplaySafe.isTerminalControl(v) }

    /// True for the invisible format characters that belong to no emoji sequence: the soft
    /// hyphen, U+180E, the zero-width space and non-joiner, the word joiner and invisible
    /// operators U+2060–U+2064, and U+FEFF. Pango draws nothing for them; terminals differ (some
    /// show a box or a hyphen, or give them a column), so they are left out, which keeps every
    /// column where the preview counted it.
    /// - Complexity: O(1).
    @inline(__always)
    package static func isInvisible(_ v: UInt32) -> Bool {
        v == 0xAD || v == 0x180E || v == 0x200B || v == 0x200C || (v >= 0x2060 && v <= 0x2064) || v == 0xFEFF
    }

    /// `s` with every unsafe scalar replaced by the placeholder and every invisible one left out.
    /// - Complexity: O(n) in the scalars of `s`.
    ///
    /// A string that starts with a zero-width mark (a line that breaks between a space and the
    /// mark on it, as UAX #14 allows) gets a space to carry it, as a terminal has no way to
    /// show a mark on nothing.
    package static func sanitized(_ s: String, carryingOrphanMarks: Bool = true) -> String {
        let orphanMark = carryingOrphanMarks && s.first.map { UnicodeProperties.terminalColumns(ofCluster: $0.unicodeScalars.lazy.map(\.value)) == 0 } ?? false
        guard orphanMark || s.unicodeScalars.contains(where: { isUnsafe($0.value) || isInvisible($0.value) }) else { return s }
        var out = String.UnicodeScalarView()
        if orphanMark { out.append(" ") }
        for u in s.unicodeScalars where !isInvisible(u.value) { out.append(isUnsafe(u.value) ? placeholder : u) }
        return String(out)
    }

    /// Terminal columns of a (sanitised) string, cluster by cluster (wide characters take two).
    /// - Complexity: O(n).
    package static func columns(_ s: String) -> Int {
        s.reduce(0) { $0 + UnicodeProperties.terminalColumns(ofCluster: $1.unicodeScalars.lazy.map(\.value)) }
    }

    /// The longest prefix of `s` (whole clusters) that takes at most `columns` terminal columns.
    /// - Complexity: O(n).
    package static func prefix(_ s: String, columns limit: Int) -> String {
        var used = 0
        var end = s.startIndex
        for i in s.indices {
            let w = UnicodeProperties.terminalColumns(ofCluster: s[i].unicodeScalars.lazy.map(\.value))
            if used + w > limit { break }
            used += w
            end = s.index(after: i)
        }
        return String(s[..<end])
    }
}
