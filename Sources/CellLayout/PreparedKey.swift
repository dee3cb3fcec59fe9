/// Key of a cached prepared cell: width-independent.
package struct PreparedKey: Hashable, Sendable {
    package var statusID: Int64
    package var fingerprint: UInt64
    package var style: String

    package init(statusID: Int64, fingerprint: UInt64, style: String) {
        self.statusID = statusID
        self.fingerprint = fingerprint
        self.style = style
    }

    /// One word: the fingerprint already mixes the content well, the id separates equal contents;
    /// the style name is left to `==` (a feed uses one or two styles).
    package func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint ^ UInt64(bitPattern: statusID) &* 0x9e37_79b9_7f4a_7c15)
    }
}
