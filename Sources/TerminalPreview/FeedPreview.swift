import CellLayout
import TableLayout

/// Errors of the terminal preview.
package enum TerminalPreviewError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The feed's line table could not be built (a row's height is not usable).
    case invalidLayout(String)
    /// A terminal call failed: the function and `errno`.
    case terminal(function: String, errno: Int32)
    /// Standard input or output is not a terminal (interactive mode needs both).
    case notATerminal
    /// The feed could not be read while it was shown (bad input found on the way).
    case feed(String)

    package var description: String {
        switch self {
        case .invalidLayout(let m): return "cannot preview the layout: \(m)"
        case .terminal(let f, let e): return "terminal call \(f) failed (errno \(e))"
        case .notATerminal: return "interactive preview needs a terminal on standard output, and keys from standard input or /dev/tty"
        case .feed(let m): return m
        }
    }
}

/// A laid-out feed as terminal lines: a header line, each row's lines, a closing line.
///
/// The terminal lines of the rows come from the feed's heights alone (`PreviewScale.lineCount`),
/// kept in a line table: a `TableGeometry` whose row heights are line counts, so the rows on any
/// range of lines are found with the same O(log n) range query as `FeedGeometry.rows(intersecting:)`,
/// and only those rows' cells are asked for. That is what lets a viewer draw any position of a
/// feed of millions of rows from a heights-only layout.
///
/// A preview can also be built row by row (`init(scale:columns:title:readMoreToken:)`, then
/// `appendRows`, `setLineCount` and `markComplete`): rows whose heights are not known yet carry
/// estimated line counts that are corrected later, each correction one O(log n) row reload.
///
/// Thread-safety: a value type; one value MUST NOT be mutated while another thread reads it.
package struct FeedPreview: Sendable {
    package let scale: PreviewScale
    /// Columns of every line (the cell frame included).
    package let columns: Int
    /// Rows of the feed (known so far, for a preview built row by row).
    package var rowCount: Int { table.numberOfRows }
    /// The section header's text (the feed's name and size).
    package var title: String
    package let readMoreToken: String
    /// Whether every row is in the table: only then is the closing line part of the feed.
    package private(set) var isComplete: Bool
    private(set) var table: TableGeometry

    /// - Parameters:
    ///   - layout: the feed (cells need not be retained).
    ///   - title: shown in the section header line (sanitised when drawn).
    /// - Complexity: O(n) for n rows.
    package init(layout: FeedGeometry, title: String) throws(TerminalPreviewError) {
        let scale = PreviewScale(style: layout.options.style)
        try self.init(
            scale: scale, columns: scale.columnCount(ofWidth: layout.options.width), title: title,
            readMoreToken: layout.options.style.readMoreToken, heights: layout.heights, complete: true)
    }

    /// A preview of rows of the given heights (in points): the whole feed when `complete`, else
    /// its first rows (no closing line; more rows may be appended).
    /// - Complexity: O(n) for n rows.
    package init(
        scale: PreviewScale, columns: Int, title: String, readMoreToken: String, heights: [Double] = [], complete: Bool
    ) throws(TerminalPreviewError) {
        self.scale = scale
        self.columns = columns
        self.title = title
        self.readMoreToken = readMoreToken
        isComplete = complete
        let counts = heights.map { Double(scale.lineCount(ofHeight: $0)) }
        do {
            table = try TableGeometry(
                configuration: TableConfiguration(style: .plain, width: 1, scale: 1),
                sections: [SectionSpec(headerHeight: 1, rowHeights: counts, footerHeight: complete ? 1 : 0)])
        } catch {
            throw .invalidLayout("\(error)")
        }
    }

    /// Appends rows of `lineCounts` terminal lines each (estimates, or real line counts).
    /// - Complexity: O(k + log n).
    package mutating func appendRows(lineCounts: [Int]) {
        guard !lineCounts.isEmpty else { return }
        do { try table.appendRows(heights: lineCounts.map { Double(max(2, $0)) }) } catch {
            preconditionFailure("FeedPreview: \(error)")
        }
    }

    /// Sets row `row` to `lineCount` terminal lines (a corrected estimate).
    /// - Complexity: O(log n).
    package mutating func setLineCount(_ lineCount: Int, ofRow row: Int) {
        do { try table.reloadRow(at: TableIndexPath(section: 0, row: row), height: Double(max(2, lineCount))) } catch {
            preconditionFailure("FeedPreview: \(error)")
        }
    }

    /// Declares that every row is in the table: the closing line follows the last row.
    package mutating func markComplete() {
        guard !isComplete else { return }
        isComplete = true
        do { try table.setFooterHeight(1, inSection: 0) } catch { preconditionFailure("FeedPreview: \(error)") }
    }

    /// Terminal lines of the whole feed.
    package var lineCount: Int { Int(table.contentHeight) }

    /// The first terminal line of row `row` (its separator).
    /// - Complexity: O(log n).
    package func firstLine(ofRow row: Int) -> Int {
        Int(table.rectForRow(TableIndexPath(section: 0, row: row)).y)
    }

    /// Terminal lines of row `row`.
    package func lineCount(ofRow row: Int) -> Int {
        Int(table.height(ofRow: TableIndexPath(section: 0, row: row)))
    }

    /// The rows with a line in `lines`, in order.
    /// - Complexity: O(log n + k) for k rows returned.
    package func rows(inLines lines: Range<Int>) -> [Int] {
        guard !lines.isEmpty else { return [] }
        return table.indexPathsForRows(in: Double(lines.lowerBound)..<Double(lines.upperBound)).map(\.row)
    }

    /// The terminal lines of rows `rows` (separator of the first through the last line of the
    /// last; the closing line too when the range ends the feed).
    package func lines(ofRows rows: Range<Int>) -> Range<Int> {
        let r = rows.clamped(to: 0..<rowCount)
        guard !r.isEmpty else { return 0..<0 }
        let start = r.lowerBound == 0 ? 0 : firstLine(ofRow: r.lowerBound)
        let end = r.upperBound == rowCount ? lineCount : firstLine(ofRow: r.upperBound)
        return start..<end
    }

    /// Draws terminal lines `lines` of the feed onto a canvas as tall as the range.
    ///
    /// Only the rows on those lines are drawn; `cell` is asked for exactly those rows' layouts.
    /// - Complexity: O(log n + k) table lookups plus the drawing of the k rows shown.
    package func canvas(lines: Range<Int>, cell: (Int) -> CellGeometry) -> Canvas {
        var canvas = Canvas(width: columns, height: lines.count)
        var drawer = CellDrawer(scale: scale, readMoreToken: readMoreToken)
        if lines.contains(0) {
            canvas.rule(y: -lines.lowerBound, x: 0..<columns, left: "┌", fill: "─", right: "┐", style: PreviewColors.frame)
            canvas.text(" \(title) ", x: 2, y: -lines.lowerBound, style: PreviewColors.name, maxX: columns - 1)
        }
        for row in rows(inLines: lines) {
            drawer.draw(cell(row), row: row, top: firstLine(ofRow: row) - lines.lowerBound, into: &canvas)
        }
        if isComplete && lines.contains(lineCount - 1) {
            canvas.rule(y: lineCount - 1 - lines.lowerBound, x: 0..<columns, left: "└", fill: "─", right: "┘", style: PreviewColors.frame)
        }
        return canvas
    }
}
