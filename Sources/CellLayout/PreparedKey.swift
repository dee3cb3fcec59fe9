/// Key of a cached prepared cell: width-independent.
public struct PreparedKey: Hashable, Sendable {
    public var statusID: Int64
    public var fingerprint: UInt64
    public var style: String

    public init(statusID: Int64, fingerprint: UInt64, style: String) {
        self.statusID = statusID
        self.fingerprint = fingerprint
        self.style = style
    }

    /// One word: the fingerprint already mixes the content well, the id separates equal contents;
    /// the style name is left to `==` (a feed uses one or two styles).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint ^ UInt64(bitPattern: statusID) &* 0x9e37_79b9_7f4a_7c15)
    }
}
