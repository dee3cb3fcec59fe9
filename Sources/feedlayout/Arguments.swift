import ArgumentParser
import CellLayout

/// `--rows A:B`: feed rows A..<B (0-based, half-open); either bound may be left out ("A:", ":B",
/// ":"). Parsed and checked once, the same way in every command: bounds are integers ≥ 0 and
/// A < B when both are given (anything else is a usage error, exit 2).
struct RowRange: ExpressibleByArgument, Equatable, Sendable {
    var lower: Int?
    var upper: Int?

    init(lower: Int?, upper: Int?) {
        self.lower = lower
        self.upper = upper
    }

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        func bound(_ p: Substring) -> Int?? {
            if p.isEmpty { return .some(nil) }
            guard let v = Int(p), v >= 0 else { return nil }
            return .some(v)
        }
        guard let a = bound(parts[0]), let b = bound(parts[1]) else { return nil }
        if let a, let b, a >= b { return nil }
        lower = a
        upper = b
    }

    /// The rows as a range (to `Int.max` without an upper bound).
    var range: Range<Int> { (lower ?? 0)..<(upper ?? Int.max) }

    var defaultValueDescription: String { "\(lower.map(String.init) ?? ""):\(upper.map(String.init) ?? "")" }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// `--style`: the cell styles the engine ships.
enum StyleName: String, ExpressibleByArgument, CaseIterable, Sendable {
    case weibo, classic

    var style: CellStyle {
        switch self {
        case .weibo: .weibo
        case .classic: .classic
        }
    }
}
