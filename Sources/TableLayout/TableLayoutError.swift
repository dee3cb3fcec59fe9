/// Errors raised by TableLayout when the caller's values cannot be represented.
public enum TableLayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A height was negative, NaN or infinite.
    case invalidHeight(Double, context: String)
    /// A height does not fit in 32-bit pixel units at this scale.
    case heightTooLarge(Double, scale: Double, context: String)
    /// The configuration is unusable (non-positive scale, negative width or spacing).
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case let .invalidHeight(h, context):
            "TableLayout: invalid height \(h) for \(context) (MUST be finite and ≥ 0)"
        case let .heightTooLarge(h, scale, context):
            "TableLayout: height \(h) for \(context) exceeds Int32 pixels at scale \(scale)"
        case let .invalidConfiguration(reason):
            "TableLayout: invalid configuration: \(reason)"
        }
    }
}
