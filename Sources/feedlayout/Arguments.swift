import ArgumentParser
import CellLayout
import Foundation
import StatusModel
import TableLayout

/// `--rows A:B`: feed rows A..<B (0-based, half-open); either bound may be left out ("A:", ":B",
/// ":"). Parsed and checked once, the same way in every command: bounds are integers ≥ 0 and
/// the range is not empty (A < B, and B > 0 without A; anything else is a usage error, exit 2).
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
        // An empty range is a usage error, with or without its lower bound (":0" is 0..<0).
        if (a ?? 0) >= (b ?? Int.max) { return nil }
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
    case weibo, classic, friend

    var style: CellStyle {
        switch self {
        case .weibo: .weibo
        case .classic: .classic
        case .friend: .friend
        }
    }
}

/// `--group-by day|user|source`.
extension FeedGrouping: ExpressibleByArgument {}

/// Sections of the static outputs (`layout`, `render`, `preview`, `query`): grouping a plain feed, and
/// which sections are open. Friend lists and model plists with `sections` are sectioned by nature.
struct SectionOptions: ParsableArguments {
    @Option(name: .customLong("group-by"), help: "Put the feed's statuses in sections by day (UTC+8; 今天, 昨天, 11月20日 relative to --now, absolute dates such as 2026年11月20日 without it), user or source. (default: one plain section; a friend list keeps its groups)")
    var groupBy: FeedGrouping?

    @Flag(name: .customLong("expand-all"), help: "Open every section (a friend list's groups start closed: headers only).")
    var expandAll = false

    @Option(name: .customLong("expand"), help: "Open section N (0-based; repeatable), e.g. one friend group (default: none; friend groups start closed, other sections open).")
    var expand: [Int] = []

    func validate() throws {
        for n in expand where n < 0 { throw ValidationError("--expand \(n) must be a section index ≥ 0") }
        if expandAll && !expand.isEmpty { throw ValidationError("--expand-all opens every section; leave out --expand") }
    }

    /// The sections of `inputs` (none: the demo feed) and their format, or nil for a plain feed,
    /// which the caller then reads its own way (streamed): the inputs are loaded whole only when
    /// --group-by asks for sections or one of them may be sectioned.
    func loadSections(_ inputs: [String], skipInvalid: Bool, now: Double?) throws -> (list: [StatusSection], format: FeedFormat)? {
        guard groupBy != nil || inputs.contains(where: CLIEnvironment.mayBeSectioned) else { return try plain() }
        let feed = try CLIEnvironment.loadFeed(inputs, skipInvalid: skipInvalid)
        guard let list = sections(of: feed, now: now) else { return try plain() }
        return (list, feed.format)
    }

    /// The sections of `feed`, already loaded whole, or nil for a plain feed (whose one section
    /// --expand may name only as 0).
    func sections(ofLoaded feed: Feed, now: Double?) throws -> [StatusSection]? {
        guard let list = sections(of: feed, now: now) else {
            _ = try plain()
            return nil
        }
        return list
    }

    /// The sources of `inputs` opened once, for a plain export, when none of them is sectioned
    /// and --group-by asks for no sections; nil otherwise (then `loadSections` decides). Opening
    /// a property list holds it whole, and its sections are known then: a plain one goes to the
    /// export as it is (it was parsed twice: 6 s a parse for a 32 MB XML plist), and its invalid
    /// statuses are reported once.
    func openPlain(_ inputs: [String], options: LoadOptions, rereadable: Bool) throws -> [FeedSource]? {
        guard groupBy == nil, inputs.contains(where: CLIEnvironment.mayBeSectioned) else { return nil }
        let (opened, sectioned) = try CLIEnvironment.openMaybeSectioned(inputs, options: options)
        guard sectioned == nil else { return nil }
        _ = try plain()
        return try CLIEnvironment.sources(inputs, opened: opened, options: options, rereadable: rereadable)
    }

    /// Nil, for a plain feed: one section, always open, so --expand may name section 0 only (a
    /// larger index was accepted and ignored).
    private func plain() throws -> (list: [StatusSection], format: FeedFormat)? {
        for n in expand where n >= 1 {
            throw CLIError.input("feedlayout: --expand \(n): the feed has 1 sections (0..<1)")
        }
        return nil
    }

    /// The feed's sections, or nil for a plain feed: those of a sectioned input, or the feed
    /// grouped by --group-by (days in UTC+8, the engine's dates' zone, relative to `now`; without
    /// --now the titles are absolute dates, so the output does not depend on the clock).
    func sections(of feed: Feed, now: Double?) -> [StatusSection]? {
        if let groupBy {
            let reference = now.map { Date(timeIntervalSince1970: $0) }
            return StatusSection.group(feed.statuses, by: groupBy, now: reference, timeZone: TimeZone(secondsFromGMT: 8 * 3600)!)
        }
        return feed.sections
    }

    /// The document of sectioned statuses in `options` (accordion for a friend list, whose groups
    /// start closed; every section open with --expand-all, the sections --expand names open).
    /// - Throws: `CLIError.input` for an --expand index past the last section.
    func document(_ sections: [StatusSection], format: FeedFormat, engine: FeedEngine, options: FeedOptions) throws -> FeedDocument {
        let accordion = format == .friendList && !expandAll && expand.count <= 1
        var doc = try FeedDocument(
            engine: engine, options: options, statusSections: sections, expansionMode: accordion ? .accordion : .independent)
        for n in expand where n >= doc.numberOfSections {
            throw CLIError.input("feedlayout: --expand \(n): the feed has \(doc.numberOfSections) sections (0..<\(doc.numberOfSections))")
        }
        for s in expandAll ? Array(0..<doc.numberOfSections) : expand { doc.setExpanded(true, section: s) }
        return doc
    }
}
