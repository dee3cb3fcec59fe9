// LazyFeedLayout: a feed too large to lay out up front.
//
// Every row starts with an estimated height (`estimatedHeight(of:options:)`, a few arithmetic
// operations over the status's text length and picture counts) and is corrected when its real cell
// is laid out: on demand for the rows a viewport needs (`measureRows(intersecting:)`), or as a
// background `FeedEngine.layout` delivers chunks in order (`correct(rows:heights:)`). A correction
// is one `TableGeometry.reloadRow`, O(log n): offsets below it move, nothing is rescanned, and
// every query answers for the current mix of estimated and real heights.

import CellLayout
import Foundation
import StatusModel

/// A single-section feed whose rows carry estimated heights until they are laid out.
///
/// Thread-safety: a value type (`Sendable`); one value MUST NOT be mutated while another thread
/// reads it.
public struct LazyFeedLayout: Sendable {
    public let engine: FeedEngine
    public let options: FeedOptions
    public private(set) var statuses: [Status]
    /// The table: real heights for measured rows, estimates for the others.
    public private(set) var geometry: TableGeometry
    /// One bit per row: laid out (real height) or estimated.
    private var measured: [UInt64]
    /// Number of rows whose height is real.
    public private(set) var measuredCount = 0

    /// A layout of estimated heights only; no cell is laid out.
    /// - Complexity: O(n + total text length) for the estimates.
    public init(engine: FeedEngine, statuses: [Status], options: FeedOptions) throws(FeedError) {
        try options.validate()
        self.engine = engine
        self.options = options
        self.statuses = statuses
        measured = [UInt64](repeating: 0, count: (statuses.count + 63) / 64)
        do {
            geometry = try TableGeometry(
                configuration: TableConfiguration(style: options.tableStyle, width: options.width, scale: options.scale),
                sections: [SectionSpec(rowHeights: statuses.map { Self.estimatedHeight(of: $0, options: options) })])
        } catch {
            throw .invalidOptions("\(error)")
        }
    }

    /// The documented estimate of a status's cell height before it is laid out.
    ///
    /// Text lines: the width (minus 24 pt of padding) holds `width / size` CJK characters of the
    /// style's text size (17 pt stacked, 14 pt classic), a character below U+1100 counting half;
    /// each line is 1.4 × size tall. Pictures: one picture is a 0.6 × width square; more form a
    /// grid of up to three columns of squares (width − 32) / 3 with 4 pt gaps. A retweet adds 16 pt
    /// plus its own text (as above) and pictures; a card adds 70 pt. The header (profile) is
    /// 64 pt stacked or 60 pt classic, the toolbar 35 pt. A list row (the friend style) has its fixed
    /// height, exact. It is an estimate only: real heights replace it.
    /// - Complexity: O(text length).
    public static func estimatedHeight(of status: Status, options: FeedOptions) -> Double {
        let stacked: Bool
        switch options.style.arrangement {
        case .stacked: stacked = true
        case .classic: stacked = false
        case .list(let m): return (m.rowHeight * options.scale).rounded(.up) / options.scale
        }
        let size = stacked ? 17.0 : 14.0
        let lineWidth = max(options.width - 24, size)
        func textHeight(_ text: String) -> Double {
            guard !text.isEmpty else { return 0 }
            var units = 0.0
            for u in text.unicodeScalars { units += u.value < 0x1100 ? 0.5 : 1 }
            let perLine = max(1, (lineWidth / size).rounded(.down))
            return (units / perLine).rounded(.up) * 1.4 * size + 8
        }
        func picturesHeight(_ count: Int) -> Double {
            if count == 0 { return 0 }
            if count == 1 { return 0.6 * lineWidth + 8 }
            let side = (lineWidth - 8) / 3
            return Double((count + 2) / 3) * (side + 4) + 4
        }
        var h = (stacked ? 64.0 : 60.0) + 35
        h += textHeight(status.text) + picturesHeight(status.pictures.count)
        if let r = status.retweetedStatus {
            h += 16 + textHeight(r.text) + picturesHeight(r.pictures.count)
            if r.pageInfo != nil { h += 70 }
        } else if status.pageInfo != nil {
            h += 70
        }
        return (h * options.scale).rounded() / options.scale
    }

    /// Number of rows. - Complexity: O(1).
    public var count: Int { statuses.count }

    /// Whether row `row` has its real height. - Complexity: O(1).
    public func isMeasured(_ row: Int) -> Bool { measured[row >> 6] & (1 << UInt64(row & 63)) != 0 }

    private mutating func setMeasured(_ row: Int) {
        if !isMeasured(row) {
            measured[row >> 6] |= 1 << UInt64(row & 63)
            measuredCount += 1
        }
    }

    /// Lays out the rows of `rows` that are still estimated and corrects their heights.
    /// - Complexity: O(k log n) plus k cell layouts for k rows still estimated.
    public mutating func measureRows(_ rows: Range<Int>) {
        for r in rows where !isMeasured(r) {
            let h = engine.cell(for: statuses[r], options: options).height
            do { try geometry.reloadRow(at: TableIndexPath(section: 0, row: r), height: h) } catch {
                preconditionFailure("LazyFeedLayout: \(error)")
            }
            setMeasured(r)
        }
    }

    /// Lays out the rows a viewport shows: the rows intersecting `yRange`, repeatedly until every
    /// row intersecting it (after corrections moved the rows) has its real height. Returns them.
    /// - Complexity: O(rounds · (log n + k)) plus one cell layout per row corrected; each round
    ///   corrects at least one row, so it ends.
    public mutating func measureRows(intersecting yRange: Range<Double>) -> [Int] {
        while true {
            let rows = geometry.indexPathsForRows(in: yRange).map(\.row)
            let pending = rows.filter { !isMeasured($0) }
            if pending.isEmpty { return rows }
            for r in pending { measureRows(r..<(r + 1)) }
        }
    }

    /// Replaces estimates with heights computed elsewhere, such as the rows a background
    /// `FeedEngine.layout` delivers through `onRows` (its `FeedLayout.heights`).
    /// - Precondition: `heights.count == rows.count`.
    /// - Complexity: O(k log n) for k rows.
    public mutating func correct(rows: Range<Int>, heights: ArraySlice<Double>) {
        precondition(heights.count == rows.count, "LazyFeedLayout.correct: \(heights.count) heights for \(rows.count) rows")
        for (r, h) in zip(rows, heights) {
            do { try geometry.reloadRow(at: TableIndexPath(section: 0, row: r), height: h) } catch {
                preconditionFailure("LazyFeedLayout: \(error)")
            }
            setMeasured(r)
        }
    }

    /// Appends a page with estimated heights. - Complexity: O(k + log n) plus the estimates.
    public mutating func appendPage(_ page: [Status]) {
        do { try geometry.appendRows(heights: page.map { Self.estimatedHeight(of: $0, options: options) }) } catch {
            preconditionFailure("LazyFeedLayout: \(error)")
        }
        statuses += page
        measured += [UInt64](repeating: 0, count: (statuses.count + 63) / 64 - measured.count)
    }

    /// The rows intersecting `yRange` under the current heights. - Complexity: O(log n + k).
    public func rows(intersecting yRange: Range<Double>) -> [Int] { geometry.indexPathsForRows(in: yRange).map(\.row) }

    /// The row at `y`. - Complexity: O(log n).
    public func row(at y: Double) -> Int? { geometry.indexPathForRow(at: y)?.row }

    /// Frame of row `row`. - Complexity: O(log n).
    public func rect(ofRow row: Int) -> TableRect { geometry.rectForRow(TableIndexPath(section: 0, row: row)) }

    /// Height of the feed under the current heights. - Complexity: O(1).
    public var contentHeight: Double { geometry.contentHeight }
}
