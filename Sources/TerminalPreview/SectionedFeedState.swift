// SectionedFeedState: what the interactive viewer shows of a feed in sections, and how keys
// change it (open and close sections, jump by title, search, delete and undo).
//
// Design
// - The statuses, their sections and their heights in points live in a `FeedDocument`; cells live
//   in the engine's content-keyed caches. What the terminal shows is a second `TableGeometry`,
//   the line table, whose heights are terminal lines: the feed's title line, per section one
//   header line (when it has a title), each row's line count (`PreviewScale.lineCount` of its
//   height), and in grouped style a line of spacing before and a closing rule after each section.
//   Every edit is applied to both with TableGeometry's logarithmic edits: nothing is measured or
//   laid out again, and a deleted row's cell stays cached for the undo.
// - Opening and closing use the line table's own expansion (`.accordion` or `.independent`,
//   `lastExpandedSection`); the document's sections follow it through `setExpanded`.
// - A search shows `FeedDocument.filtered(matching:)`: one section of the matching rows, heights
//   reused, cells from the cache.
// - The position is an anchor in the document's terms (the title line, a section header or a
//   row, and the line within it), so opening, closing, searching, deleting and undoing keep the
//   row at the top of the screen where it was.

import CellLayout
import StatusModel
import TableLayout

/// The viewer's state over a feed in sections: the document, which sections are open, the search
/// filter, the undo stack of deleted rows and the position.
///
/// Thread-safety: a value type used by one thread.
package struct SectionedFeedState: Sendable {
    /// What the top of the screen is attached to.
    package enum Item: Hashable, Sendable {
        /// The feed's title line (offset: the absolute line).
        case title
        /// A section's header line.
        case header(Int)
        /// A row of the document.
        case row(TableIndexPath)
    }

    /// The top of the screen: an item and the line within it (below or above it).
    package struct Anchor: Hashable, Sendable {
        package var item: Item
        package var offset: Int
    }

    package private(set) var document: FeedDocument
    package let scale: PreviewScale
    package let expansion: SectionExpansionMode
    /// The feed's title line (the search adds its own text).
    package var title: String
    /// Makes the title line for a row count, so that it follows deletes and undos (else the
    /// title stays as given).
    package var titleForRows: (@Sendable (Int) -> String)?
    /// Section header titles (nil: no header line).
    package private(set) var titles: [String?]
    /// Section footer texts (nil: none; in plain style a footer takes a line of its own).
    package private(set) var footers: [String?]
    /// Each section's header, whose online count gives the text after the title ("3/12",
    /// following deletes); the row count where there is none.
    let headers: [FeedSectionHeader?]
    /// The line table of the document.
    private var documentLines: TableGeometry
    /// The global index of each section's first row (the labels #N).
    private var rowStarts: [Int]
    /// A search shown: its text and the document rows that match it, in order.
    package struct Search: Sendable {
        package let keyword: String
        package internal(set) var sourceIndexPaths: [TableIndexPath]
        package var count: Int { sourceIndexPaths.count }
    }

    /// The search shown, if any, and its line table.
    package private(set) var filter: Search?
    private var filteredLines: TableGeometry?
    /// Deleted rows, the last one on top, with the search shown when each was deleted.
    package private(set) var undoStack: [(indexPath: TableIndexPath, status: Status, search: String?)] = []
    package var anchor = Anchor(item: .title, offset: 0)

    /// Columns of one cell.
    package var cellColumns: Int { scale.columnCount(ofWidth: document.options.width) }
    /// Columns left and right of the cells in grouped style.
    package var insetColumns: Int { document.options.tableStyle == .grouped ? Self.groupedInsetColumns : 0 }
    /// Columns of the table (cells and insets).
    package var tableColumns: Int { cellColumns + 2 * insetColumns }
    /// Columns the side index takes right of the table (a gap and two columns for a wide title).
    package static let indexColumns = 3
    /// The inset of grouped style in columns (UITableView's 16 pt, about two columns).
    package static let groupedInsetColumns = 2

    /// Columns left for a cell on a terminal `columns` wide: less the insets of grouped style and
    /// the side index (when the feed has section titles).
    package static func cellColumns(fittingTerminalColumns columns: Int, style: TableStyle, index: Bool) -> Int {
        max(1, columns - (style == .grouped ? 2 * groupedInsetColumns : 0) - (index ? indexColumns : 0))
    }

    /// - Parameters:
    ///   - document: the feed. A section whose header is a title (`.title`, `.header`) gets a
    ///     header line with it and its detail (else its row count); other sections have none. A
    ///     footer that is a title gets a line. Its table style (`options.tableStyle`), its closed
    ///     sections and its side index (else the titles' first characters) are the ones shown.
    ///   - expansion: `.accordion` starts with every titled section closed and opens one at a
    ///     time; `.independent` opens and closes each on its own. Nil: the document's mode.
    package init(document: FeedDocument, title: String, expansion: SectionExpansionMode? = nil) throws(TerminalPreviewError) {
        self.document = document
        self.title = title
        let expansion = expansion ?? document.expansionMode
        self.expansion = expansion
        self.document.expansionMode = expansion
        scale = PreviewScale(style: document.options.style)
        let sections = document.feedSections
        titles = sections.map {
            switch $0.header {
            case .title(let t): t
            case .header(let h): h.title
            default: nil
            }
        }
        headers = sections.map { if case .header(let h) = $0.header { h } else { nil } }
        footers = sections.map { if case .title(let t) = $0.footer { t } else { nil } }
        rowStarts = []
        var start = 0
        for s in 0..<document.numberOfSections {
            rowStarts.append(start)
            start += document.numberOfRows(inSection: s)
        }
        documentLines = try Self.lineTable(
            document.geometry, titles: titles, footers: footers, scale: scale, style: document.options.tableStyle,
            columns: scale.columnCount(ofWidth: document.options.width))
        documentLines.expansionMode = expansion
        if expansion == .accordion {
            for s in titles.indices where titles[s] != nil && !documentLines.isCollapsed(s) {
                documentLines.setExpanded(false, section: s)
                self.document.setExpanded(false, section: s)
            }
        }
        if let index = document.geometry.sectionIndex {
            documentLines.sectionIndex = index
        } else {
            var initials: [String] = []
            var targets: [Int] = []
            for (s, t) in titles.enumerated() {
                guard let first = t?.first.map(String.init), !initials.contains(first) else { continue }
                initials.append(first)
                targets.append(s)
            }
            documentLines.sectionIndex = initials.isEmpty ? nil : SectionIndex(titles: initials, sections: targets)
        }
    }

    /// The line table of `geometry`: heights in terminal lines.
    private static func lineTable(
        _ geometry: TableGeometry, titles: [String?], footers: [String?], scale: PreviewScale, style: TableStyle, columns: Int
    ) throws(TerminalPreviewError) -> TableGeometry {
        let grouped = style == .grouped
        var specs: [SectionSpec] = []
        for s in 0..<geometry.numberOfSections {
            let heights = geometry.heights(ofRowsInSection: s, rows: 0..<geometry.numberOfRows(inSection: s))
            specs.append(SectionSpec(
                headerHeight: grouped || s < titles.count && titles[s] != nil ? 1 : 0,
                rowHeights: heights.map { Double(max(2, scale.lineCount(ofHeight: $0))) },
                footerHeight: grouped || s < footers.count && footers[s] != nil ? 1 : 0, isCollapsed: geometry.isCollapsed(s)))
        }
        let inset = grouped ? groupedInsetColumns : 0
        do {
            return try TableGeometry(
                configuration: TableConfiguration(
                    style: style, width: Double(columns + 2 * inset), scale: 1, sectionSpacing: grouped ? 1 : 0,
                    horizontalInset: Double(inset)),
                tableHeaderHeight: 1, tableFooterHeight: grouped ? 0 : 1, sections: specs)
        } catch {
            throw .invalidLayout("\(error)")
        }
    }

    // MARK: Queries

    /// The line table shown: the document's, or the search's.
    package var lines: TableGeometry { filteredLines ?? documentLines }

    /// Terminal lines of the table shown.
    package var lineCount: Int { Int(lines.contentHeight) }

    /// Rows of the table shown.
    package var rowCount: Int { lines.numberOfRows }

    /// Whether a section is closed.
    package func isCollapsed(_ section: Int) -> Bool { documentLines.isCollapsed(section) }

    /// The section index (first characters of the titles, each to the first section with it).
    package var sectionIndex: SectionIndex? { documentLines.sectionIndex }

    /// The document row of a row of the table shown.
    package func documentPath(_ shown: TableIndexPath) -> TableIndexPath {
        filter.map { $0.sourceIndexPaths[shown.row] } ?? shown
    }

    /// The row of the table shown for a document row, or the first one after it (nil: none).
    package func shownPath(_ path: TableIndexPath) -> (path: TableIndexPath, exact: Bool)? {
        guard let filter else { return (path, true) }
        let paths = filter.sourceIndexPaths
        var lo = 0, hi = paths.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if paths[mid] < path { lo = mid + 1 } else { hi = mid }
        }
        return lo < paths.count ? (TableIndexPath(section: 0, row: lo), paths[lo] == path) : nil
    }

    /// The label of a row of the table shown: its document row counted from 0 over all sections.
    package func label(_ shown: TableIndexPath) -> Int {
        label(documentRow: documentPath(shown))
    }

    /// The label of a document row (or the one a deleted row had).
    package func label(documentRow path: TableIndexPath) -> Int { rowStarts[path.section] + path.row }

    /// The first line on screen for the anchor (not clamped).
    package var top: Int {
        switch anchor.item {
        case .title:
            return anchor.offset
        case .header(let s):
            if filter != nil {
                guard let p = shownPath(TableIndexPath(section: s, row: 0)) else { return lineCount }
                return Int(lines.rectForRow(p.path).y)
            }
            return Int(lines.rectForHeader(inSection: s).y) + anchor.offset
        case .row(let path):
            guard let p = shownPath(path) else { return lineCount }
            let r = lines.rectForRow(p.path)
            if r.height == 0 { return Int(lines.rectForHeader(inSection: path.section).y) }  // a closed section
            return Int(r.y) + (p.exact ? min(anchor.offset, Int(r.height) - 1) : 0)
        }
    }

    /// Attaches the anchor to what is on line `line` of the table shown.
    package mutating func setTop(_ line: Int) {
        let line = max(0, line)
        if let p = lines.indexPathForRow(at: Double(line)) {
            anchor = Anchor(item: .row(documentPath(p)), offset: line - Int(lines.rectForRow(p).y))
        } else if filter == nil, line > 0, lines.numberOfSections > 0 {
            let s = section(atLine: line)
            anchor = Anchor(item: .header(s), offset: line - Int(lines.rectForHeader(inSection: s).y))
        } else {
            anchor = Anchor(item: .title, offset: line)
        }
    }

    /// The section of the table shown holding line `line` (the spacing before a section counts as
    /// its own; lines past the last one, as the last section's).
    /// - Complexity: O(log² S).
    package func section(atLine line: Int) -> Int {
        var lo = 0, hi = lines.numberOfSections
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(lines.rectForSection(mid).maxY) <= line { lo = mid + 1 } else { hi = mid }
        }
        return min(lo, max(0, lines.numberOfSections - 1))
    }

    /// The document section at the top of the screen `top` (nil while searching).
    package func sectionAtTop(_ top: Int) -> Int? {
        filter == nil && documentLines.numberOfSections > 0 ? section(atLine: top) : nil
    }

    /// The section keys act on: the one whose header the anchor is on (a jump's target, even
    /// when the end of the feed keeps it below the top), else the section at the top.
    package func currentSection(top: Int) -> Int? {
        guard let s = sectionAtTop(top) else { return nil }
        if case .header(let h) = anchor.item, anchor.offset == 0 { return h }
        return s
    }

    /// The first row with a line on screen (rows of the table shown).
    package func rowAtTop(_ top: Int, page: Int) -> TableIndexPath? {
        lines.indexPathsForRows(in: Double(top)..<Double(top + max(1, page))).first
    }

    // MARK: Sections

    /// Opens or closes the current section (`currentSection`) when it has a header; the header
    /// goes to the top.
    /// - Returns: false when there is no such section (a search, or a section without a title).
    /// - Complexity: O(log S).
    @discardableResult
    package mutating func toggleSection(atTop top: Int) -> Bool {
        guard let s = currentSection(top: top), titles[s] != nil else { return false }
        let before = lastOpen
        documentLines.toggleSection(s)
        // The document follows the line table: the section toggled, and the one an accordion closed.
        for t in Set([s] + (before.map { [$0] } ?? [])) where document.geometry.isCollapsed(t) != documentLines.isCollapsed(t) {
            document.setExpanded(!documentLines.isCollapsed(t), section: t)
        }
        anchor = Anchor(item: .header(s), offset: 0)
        return true
    }

    private var lastOpen: Int? { documentLines.lastExpandedSection }

    /// Moves to the next (or previous) section with a title: the previous one is the section at
    /// the top itself when its header has scrolled above it.
    /// - Returns: false when there is none.
    @discardableResult
    package mutating func jumpToSection(next: Bool, top: Int) -> Bool {
        guard let s = sectionAtTop(top) else { return false }
        let candidates: [Int]
        if case .header(let h) = anchor.item, anchor.offset == 0 {
            candidates = next ? Array((h + 1)..<titles.count) : Array((0..<h).reversed())
        } else {
            let y = Int(documentLines.rectForHeader(inSection: s).y)
            candidates = next ? Array((y > top ? s : s + 1)..<titles.count) : Array((0..<(y < top ? s + 1 : s)).reversed())
        }
        guard let t = candidates.first(where: { titles[$0] != nil }) else { return false }
        anchor = Anchor(item: .header(t), offset: 0)
        return true
    }

    /// Moves to the next section after the one at the top (wrapping around) whose title starts
    /// with `character` (letters compared without case).
    /// - Returns: false when no title starts with it.
    @discardableResult
    package mutating func jump(toTitleStartingWith character: Character, top: Int) -> Bool {
        guard let s = currentSection(top: top) else { return false }
        let wanted = String(character).lowercased()
        let order = Array((s + 1)..<titles.count) + Array(0...s)
        for t in order {
            guard let first = titles[t]?.first, String(first).lowercased() == wanted else { continue }
            anchor = Anchor(item: .header(t), offset: 0)
            return true
        }
        return false
    }

    // MARK: Search

    /// Shows the rows matching `keyword` (user names, texts; see `FeedDocument.filtered`), or
    /// every row for nil or "". The row at the top stays there (or the first match after it).
    package mutating func setFilter(_ keyword: String?) throws(TerminalPreviewError) {
        guard let keyword, !keyword.isEmpty else {
            filter = nil
            filteredLines = nil
            return
        }
        let found = document.filtered(matching: keyword)
        filteredLines = try Self.lineTable(
            found.geometry, titles: [nil], footers: [nil], scale: scale, style: document.options.tableStyle, columns: cellColumns)
        filter = Search(keyword: keyword, sourceIndexPaths: found.sourceIndexPaths)
    }

    // MARK: Edits

    /// Deletes the row at the top of the screen (the first one with a line on it): the line tables
    /// and the document lose it, nothing is laid out or matched again; the undo stack keeps it.
    /// - Returns: the document row deleted, nil when no row is on screen.
    /// - Complexity: O(S + log n), plus O(m) for the m matches of a search shown.
    @discardableResult
    package mutating func deleteRow(atTop top: Int, page: Int) throws(TerminalPreviewError) -> TableIndexPath? {
        guard let shown = rowAtTop(top, page: page) else { return nil }
        let path = documentPath(shown)
        let status = document.status(at: path)
        let rowTop = Int(lines.rectForRow(shown).y)
        document.deleteRow(at: path)
        documentLines.deleteRow(at: path)
        for s in (path.section + 1)..<rowStarts.count { rowStarts[s] -= 1 }
        undoStack.append((path, status, filter?.keyword))
        if var f = filter {
            // The search loses the row; the rows after it in its section move up one.
            f.sourceIndexPaths.remove(at: shown.row)
            var i = shown.row
            while i < f.count, f.sourceIndexPaths[i].section == path.section {
                f.sourceIndexPaths[i].row -= 1
                i += 1
            }
            filteredLines?.deleteRow(at: shown)
            filter = f
        }
        // What followed the row takes its first line (the top, when the row began above it).
        setTop(min(top, rowTop))
        if let titleForRows { title = titleForRows(document.geometry.numberOfRows) }
        return path
    }

    /// Inserts the last deleted row back where it was (its cell is a cache hit) and puts it at the
    /// top of the screen. - Returns: its document row, nil when nothing was deleted.
    /// - Complexity: O(S + log n) and one cell lookup, plus O(m) for the m matches of a search
    ///   shown (the search again when the row was deleted under another one).
    @discardableResult
    package mutating func undoDelete() throws(TerminalPreviewError) -> TableIndexPath? {
        guard let (path, status, search) = undoStack.popLast() else { return nil }
        document.insertRow(status, at: path)
        let lines = Double(max(2, scale.lineCount(ofHeight: document.geometry.height(ofRow: path))))
        do {
            try documentLines.insertRow(at: path, height: lines)
            for s in (path.section + 1)..<rowStarts.count { rowStarts[s] += 1 }
            if var f = filter, f.keyword == search {
                // Deleted from this search, so it matches: back in its place, the rows after it
                // in its section down one.
                var i = shownPath(path)?.path.row ?? f.count
                let at = i
                while i < f.count, f.sourceIndexPaths[i].section == path.section {
                    f.sourceIndexPaths[i].row += 1
                    i += 1
                }
                f.sourceIndexPaths.insert(path, at: at)
                try filteredLines?.insertRow(at: TableIndexPath(section: 0, row: at), height: lines)
                filter = f
            } else {
                try setFilter(filter?.keyword)
            }
        } catch let e as TerminalPreviewError {
            throw e
        } catch {
            throw .invalidLayout("\(error)")
        }
        anchor = Anchor(item: .row(path), offset: 0)
        if let titleForRows { title = titleForRows(document.geometry.numberOfRows) }
        return path
    }

    // MARK: Width

    /// The same state at another width: the document laid out again from its cached prepared
    /// cells, sections opened and closed as they were, the search, the undo stack and the anchor
    /// kept.
    package func resized(toWidth width: Double) throws -> SectionedFeedState {
        guard width != document.options.width else { return self }
        var options = document.options
        options.width = width
        var next = try FeedDocument(engine: document.engine, options: options, sections: document.feedSections, threads: document.threads)
        next.expansionMode = .independent
        var state = try SectionedFeedState(document: next, title: title, expansion: .independent)
        state.documentLines.expansionMode = expansion
        state.document.expansionMode = expansion
        if let open = lastOpen { state.documentLines.setExpanded(true, section: open) }
        state.undoStack = undoStack
        state.anchor = anchor
        state.titleForRows = titleForRows
        try state.setFilter(filter?.keyword)
        return state
    }

    // MARK: Drawing

    /// Draws lines `top..<top + page` of the table shown, at most `screenColumns` wide: headers
    /// (the one of the section at the top floats on the first line in plain style), rows, the side
    /// index of titles at the right edge. Cells come from the engine's cache (laid out on a miss).
    package func canvas(top: Int, page: Int, screenColumns: Int) -> Canvas {
        let range = top..<max(top, min(lineCount, top + page))
        let plain = document.options.tableStyle == .plain
        let inset = insetColumns
        var content = Canvas(width: cellColumns, height: range.count)
        var drawer = CellDrawer(scale: scale, readMoreToken: document.options.style.readMoreToken)
        let shownTitles = filter == nil ? titles : [nil]
        let shownFooters = filter == nil ? footers : [nil]
        let table = lines
        if table.numberOfSections > 0, !range.isEmpty {
            var s = section(atLine: range.lowerBound)
            while s < table.numberOfSections, Int(table.rectForSection(s).minY) < range.upperBound {
                let h = table.rectForHeader(inSection: s)
                if h.height >= 1 { header(s, titles: shownTitles, y: Int(h.y) - top, plain: plain, into: &content) }
                let f = table.rectForFooter(inSection: s)
                if f.height >= 1 { footer(shownFooters[s], y: Int(f.y) - top, plain: plain, into: &content) }
                s += 1
            }
        }
        for p in table.indexPathsForRows(in: Double(range.lowerBound)..<Double(max(range.lowerBound + 1, range.upperBound))) {
            drawer.draw(document.cell(at: documentPath(p)), row: label(p), top: Int(table.rectForRow(p).y) - top, into: &content)
        }
        if plain, let s = sectionAtTop(top), titles[s] != nil, Int(table.rectForHeader(inSection: s).y) < top {
            let y = Int(table.floatingHeaderFrame(inSection: s, scrollOffset: Double(top)).y) - top
            if y >= 0 { header(s, titles: titles, y: y, plain: true, into: &content) }
        }
        if plain, range.contains(lineCount - 1) {
            content.rule(y: lineCount - 1 - top, x: 0..<content.width, left: "└", fill: "─", right: "┘", style: PreviewColors.frame)
        }

        let index = filter == nil ? sectionIndex : nil
        let indexX = index == nil ? tableColumns : max(0, min(tableColumns + 1, screenColumns - 2))
        var canvas = Canvas(width: max(tableColumns, index == nil ? 0 : indexX + 2), height: range.count)
        canvas.place(content, x: inset, y: 0)
        if range.contains(0) {
            var text = title
            if let filter { text += " · /\(filter.keyword): \(filter.count) of \(document.geometry.numberOfRows) rows" }
            if plain { canvas.rule(y: -top, x: 0..<tableColumns, left: "┌", fill: "─", right: "┐", style: PreviewColors.frame) }
            canvas.text(" \(text) ", x: plain ? 2 : inset, y: -top, style: PreviewColors.name, maxX: tableColumns - 1)
        }
        if let index {
            drawIndex(index, at: indexX, current: sectionAtTop(top), height: range.count, into: &canvas)
        }
        return canvas
    }

    /// A header line: the disclosure mark, the title and the detail (or the row count).
    private func header(_ s: Int, titles: [String?], y: Int, plain: Bool, into c: inout Canvas) {
        guard y >= 0, y < c.height else { return }
        let (left, fill, right) = plain ? ("╞", "═", "╡") : ("┌", "─", "┐")
        c.rule(y: y, x: 0..<c.width, left: left, fill: fill, right: right, style: PreviewColors.frame)
        guard let title = titles[s] else { return }
        let mark = documentLines.isCollapsed(s) ? "▸" : "▾"
        let rows = document.numberOfRows(inSection: s)
        let detail = headers[s]?.detail(rowCount: rows) ?? "\(rows)"
        c.text(" \(mark) \(title) · \(detail) ", x: 2, y: y, style: PreviewColors.name, maxX: c.width - 1)
    }

    /// A footer line: in plain style its text between the cell frame's sides, in grouped style the
    /// section's closing rule with the text on it.
    private func footer(_ text: String?, y: Int, plain: Bool, into c: inout Canvas) {
        guard y >= 0, y < c.height else { return }
        if plain {
            c.put("│", columns: 1, x: 0, y: y, style: PreviewColors.frame)
            c.put("│", columns: 1, x: c.width - 1, y: y, style: PreviewColors.frame)
        } else {
            c.rule(y: y, x: 0..<c.width, left: "└", fill: "─", right: "┘", style: PreviewColors.frame)
        }
        if let text { c.text(" \(text) ", x: 2, y: y, style: PreviewColors.gray, maxX: c.width - 1) }
    }

    /// The side index: one title a line from the top (every k-th when they do not fit), the one of
    /// the section at the top marked.
    private func drawIndex(_ index: SectionIndex, at x: Int, current: Int?, height: Int, into c: inout Canvas) {
        let count = index.titles.count
        guard count > 0, height > 0 else { return }
        let step = (count + height - 1) / height
        let mine = current.flatMap { s in index.sections.lastIndex { $0 <= s } }
        var y = 0
        for i in stride(from: 0, to: count, by: step) {
            let marked = mine.map { $0 >= i && $0 < i + step } ?? false
            c.text(index.titles[i], x: x, y: y, style: marked ? PreviewColors.badge : PreviewColors.link, maxX: x + 2)
            if marked && x > 0 { c.text("›", x: x - 1, y: y, style: PreviewColors.badge) }
            y += 1
        }
    }

    /// A summary for the status line: the current section and the search.
    package func summary(top: Int) -> String {
        var parts: [String] = []
        if let s = currentSection(top: top), let t = titles[s] {
            parts.append("§\(t)\(documentLines.isCollapsed(s) ? " (closed)" : "")")
        }
        if let filter { parts.append("/\(filter.keyword): \(filter.count) found") }
        return parts.joined(separator: " · ")
    }
}
