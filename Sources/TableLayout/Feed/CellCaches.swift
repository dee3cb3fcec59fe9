import TextMeasure
import CellLayout
import StatusModel

/// Key of a cached cell layout: content, not position.
///
/// Inserting, deleting or moving rows keeps every cached layout; changing a status (its text, a
/// count) changes its fingerprint, so only that row misses.
package struct CellKey: Hashable, Sendable {
    package var statusID: Int64
    package var fingerprint: UInt64
    package var style: String
    package var width: Double
    package var scale: Double
    package var maxTextLines: Int

    package init(statusID: Int64, fingerprint: UInt64, style: String, width: Double, scale: Double, maxTextLines: Int) {
        self.statusID = statusID
        self.fingerprint = fingerprint
        self.style = style
        self.width = width
        self.scale = scale
        self.maxTextLines = maxTextLines
    }

    /// Two words: content and id as in `PreparedKey`, then the width, scale (+ 0: −0 hashes as 0)
    /// and line limit; the
    /// style name is left to `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint ^ UInt64(bitPattern: statusID) &* 0x9e37_79b9_7f4a_7c15)
        hasher.combine((width + 0).bitPattern ^ (scale + 0).bitPattern &* 0xff51_afd7_ed55_8ccd ^ UInt64(truncatingIfNeeded: maxTextLines))
    }
}
