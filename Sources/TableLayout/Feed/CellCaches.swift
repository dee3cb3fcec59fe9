import TextMeasure
import CellLayout
import StatusModel

/// Key of a cached cell layout: content, not position.
///
/// Inserting, deleting or moving rows keeps every cached layout; changing a status (its text, a
/// count) changes its fingerprint, so only that row misses.
public struct CellKey: Hashable, Sendable {
    public var statusID: Int64
    public var fingerprint: UInt64
    public var style: String
    public var width: Double
    public var scale: Double
    public var maxTextLines: Int

    public init(statusID: Int64, fingerprint: UInt64, style: String, width: Double, scale: Double, maxTextLines: Int) {
        self.statusID = statusID
        self.fingerprint = fingerprint
        self.style = style
        self.width = width
        self.scale = scale
        self.maxTextLines = maxTextLines
    }
}
