// FeedDocument: an editable feed of statuses in sections, laid out at one or more widths.
//
// Design
// - The document keeps the statuses (one `StatusList` per section) and, per held width, one
//   `TableGeometry` whose rows are the statuses' cell heights. Cells themselves are not stored:
//   they live in the engine's content-keyed caches (key = status id, fingerprint, style, width,
//   scale, line limit), so inserting, deleting or moving rows never invalidates a cell, and a row
//   whose status changes (text, a count) misses for that row only.
// - Every edit is applied to each held geometry through TableGeometry's logarithmic edits; offsets
//   are never recomputed by a scan. Per held width an edit costs O(log S + log n) plus one cell
//   lookup per new or changed row (a cache hit for content seen before, at that width).
// - The statuses of a section sit in a counted B+tree (`StatusList`, the `_SummaryTree` under the
//   geometry, with small leaves because a `Status` is a few hundred bytes): inserting or removing a
//   row moves at most one leaf's tail, O(log n), where a flat array would move the whole tail
//   (hundreds of megabytes per edit at a million rows).
// - Section headers and footers are `.none`, a fixed height, or a title prepared once by the text
//   engine (width-independent) and laid out at each held width.
// - The first held width is the primary one: the query methods of the document answer for it;
//   `layout(forWidth:)` adds or returns another, re-laying out every row from the cached prepared
//   cells (no shaping: arithmetic over prepared text only).

import CellLayout
import Foundation
import StatusModel
import TextMeasure

/// A section header or footer of a feed.
public enum FeedSectionDecoration: Sendable, Equatable {
    /// No header (or footer): zero height.
    case none
    /// A fixed height in points (MUST be finite and ≥ 0).
    case fixed(Double)
    /// A title measured by the text engine, 14 pt bold with 8 pt above and below and 12 pt at
    /// each side; its height depends on the width (long titles wrap).
    case title(String)
    /// A one-line header of a fixed height (the cell style's `SectionMetrics.headerHeight`): a
    /// title at the left, a count at the right, a disclosure mark for a section that opens and
    /// closes. Drawn cut to the width, never wrapped.
    case header(FeedSectionHeader)
}

/// What a one-line section header shows (`FeedSectionDecoration.header`).
public struct FeedSectionHeader: Sendable, Equatable {
    public var title: String
    /// Online members of the section, the "3" of a friend group's "3/12"; nil: no count.
    public var onlineCount: Int?
    /// Whether a disclosure mark shows that the section opens and closes.
    public var showsDisclosure: Bool
    /// Height in points (MUST be finite and ≥ 0).
    public var height: Double

    public init(title: String, onlineCount: Int? = nil, showsDisclosure: Bool = false, height: Double) {
        self.title = title
        self.onlineCount = onlineCount
        self.showsDisclosure = showsDisclosure
        self.height = height
    }

    /// The count right of the title for a section of `rowCount` rows: "online/rows", so that it
    /// follows deletes and inserts; online is at most the rows (a deleted member may have been
    /// online). Nil without an online count.
    public func detail(rowCount: Int) -> String? { onlineCount.map { "\(min($0, rowCount))/\(rowCount)" } }
}

/// Font and padding of measured section titles.
package enum FeedTitleMetrics {
    /// Font size of a section title, in points.
    package static let fontSize: Double = 14
    /// Space above and below the title's lines, in points.
    package static let verticalPadding: Double = 8
    /// Space left and right of the title's lines, in points.
    package static let horizontalPadding: Double = 12
}

/// A section of an editable feed: its header, statuses and footer.
public struct FeedSection: Sendable, Equatable {
    public var header: FeedSectionDecoration
    public var statuses: [Status]
    public var footer: FeedSectionDecoration
    /// Whether the section starts closed (its header and footer shown, its rows hidden).
    public var isCollapsed: Bool
    /// The section's title in the side index; nil or empty: not in the index.
    public var indexTitle: String?

    public init(
        header: FeedSectionDecoration = .none, statuses: [Status] = [], footer: FeedSectionDecoration = .none,
        isCollapsed: Bool = false, indexTitle: String? = nil
    ) {
        self.header = header
        self.statuses = statuses
        self.footer = footer
        self.isCollapsed = isCollapsed
        self.indexTitle = indexTitle
    }

    /// A loaded section (a friend group, a day of a feed) as laid out in `style`: a one-line
    /// header of the style's height (`SectionMetrics`) with the title and the count, and a
    /// disclosure mark when the style draws one; the footer as a measured title.
    public init(_ section: StatusSection, style: CellStyle) {
        let m = style.sections
        self.init(
            header: .header(
                FeedSectionHeader(
                    title: section.title, onlineCount: section.onlineCount, showsDisclosure: m.disclosureSize > 0, height: m.headerHeight)),
            statuses: section.statuses, footer: section.footer.map { .title($0) } ?? .none, isCollapsed: section.isCollapsed,
            indexTitle: section.indexTitle)
    }
}

/// Edits of a `FeedDocument` (see `BatchUpdate` for the index semantics): rows are statuses,
/// inserted sections `FeedSection`s. Only inserted and reloaded rows are laid out.
public typealias FeedBatchUpdate = BatchUpdate<Status, FeedSection>

/// An editable feed: statuses in sections, laid out at one or more widths, with logarithmic
/// queries and edits and cell layouts cached by content.
///
/// Thread-safety: a value type (`Sendable`); the engine it shares is thread-safe, so copies MAY be
/// read and edited on different threads. One value MUST NOT be mutated while another thread reads it.
public struct FeedDocument: Sendable {
    struct SectionState: Sendable {
        var header: FeedSectionDecoration
        var footer: FeedSectionDecoration
        var headerTitle: PreparedText?
        var footerTitle: PreparedText?
        var statuses: StatusList
        /// The collapsed state the section was created with (the geometries hold the current one).
        var isCollapsed: Bool
        var indexTitle: String?
    }

    struct WidthState: Sendable {
        var options: FeedOptions
        var geometry: TableGeometry
    }

    /// The engine whose caches hold every cell.
    public let engine: FeedEngine
    /// Workers for bulk work (initial layout, a new width, a page append).
    public let threads: Int
    var sections: [SectionState]
    var widths: [WidthState]

    /// A feed of one section without header or footer.
    /// - Complexity: O(n) cell layouts (cache hits for content laid out before), over `threads` workers.
    public init(
        engine: FeedEngine, options: FeedOptions, statuses: [Status],
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(FeedError) {
        try self.init(engine: engine, options: options, sections: [FeedSection(statuses: statuses)], threads: threads)
    }

    /// A feed of sections.
    /// - Throws: `.invalidOptions` for unusable options or a fixed header or footer height that is
    ///   negative or not finite.
    /// - Complexity: O(n) cell layouts (cache hits for content laid out before), over `threads` workers.
    public init(
        engine: FeedEngine, options: FeedOptions, sections: [FeedSection],
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(FeedError) {
        try options.validate()
        self.engine = engine
        self.threads = max(1, threads)
        self.sections = []
        self.widths = []
        for s in sections { self.sections.append(try makeState(s)) }
        widths = [WidthState(options: options, geometry: try makeGeometry(options))]
        widths[0].geometry.sectionIndex = Self.sectionIndex(sections)
    }

    /// Loaded sections (`Feed.sections`: friend groups, days of a grouped feed) laid out in
    /// `options.style` (`FeedSection.init(_:style:)`), with a side index of their index titles.
    /// - Parameters:
    ///   - engine: lays out the cells (its caches are shared with other documents).
    ///   - options: width, style (the sections' header heights come from it), scale, line limit.
    ///   - statusSections: the loaded sections, in order.
    ///   - expansionMode: `.accordion` for a friend list (its groups start collapsed).
    ///   - threads: workers laying out the cells.
    /// - Complexity: O(n) cell layouts (cache hits for content laid out before), over `threads` workers.
    public init(
        engine: FeedEngine, options: FeedOptions, statusSections: [StatusSection],
        expansionMode: SectionExpansionMode = .independent, threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(FeedError) {
        try self.init(
            engine: engine, options: options, sections: statusSections.map { FeedSection($0, style: options.style) },
            threads: threads)
        self.expansionMode = expansionMode
    }

    /// The side index of sections' index titles: each distinct non-empty title once, pointing at
    /// its first section; nil when no section has one.
    static func sectionIndex(_ sections: [FeedSection]) -> SectionIndex? {
        var titles: [String] = []
        var targets: [Int] = []
        var seen = Set<String>()
        for (i, s) in sections.enumerated() {
            guard let t = s.indexTitle, !t.isEmpty, seen.insert(t).inserted else { continue }
            titles.append(t)
            targets.append(i)
        }
        return titles.isEmpty ? nil : SectionIndex(titles: titles, sections: targets)
    }

    /// How opening a section affects the others, at every held width.
    public var expansionMode: SectionExpansionMode {
        get { widths[0].geometry.expansionMode }
        set { for w in widths.indices { widths[w].geometry.expansionMode = newValue } }
    }

    /// The header of `section` as given. - Complexity: O(1).
    public func header(ofSection section: Int) -> FeedSectionDecoration { sections[section].header }

    /// The footer of `section` as given. - Complexity: O(1).
    public func footer(ofSection section: Int) -> FeedSectionDecoration { sections[section].footer }

    // MARK: Building

    func makeState(_ s: FeedSection) throws(FeedError) -> SectionState {
        for d in [s.header, s.footer] {
            var height: Double?
            if case .fixed(let h) = d { height = h }
            if case .header(let h) = d { height = h.height }
            if let h = height, !(h.isFinite && h >= 0) {
                throw .invalidOptions("section header or footer height \(h) must be finite and ≥ 0")
            }
        }
        return SectionState(
            header: s.header, footer: s.footer, headerTitle: prepareTitle(s.header), footerTitle: prepareTitle(s.footer),
            statuses: StatusList(s.statuses), isCollapsed: s.isCollapsed, indexTitle: s.indexTitle)
    }

    func prepareTitle(_ d: FeedSectionDecoration) -> PreparedText? {
        guard case .title(let t) = d else { return nil }
        return engine.cellEngine.measurer.prepare(AttributedText(t, size: FeedTitleMetrics.fontSize, weight: .bold))
    }

    /// Height of a header or footer at a width: a fixed height, or the title laid out from its
    /// prepared text (no shaping) plus padding, rounded up to the pixel grid.
    static func decorationHeight(_ d: FeedSectionDecoration, _ title: PreparedText?, _ options: FeedOptions) -> Double {
        switch d {
        case .none: return 0
        case .fixed(let h): return h
        case .header(let h): return h.height
        case .title:
            guard let title else { return 0 }
            let lineWidth = max(0, options.width - 2 * FeedTitleMetrics.horizontalPadding)
            let text = title.layout(LayoutOptions(width: lineWidth, grid: PixelGrid(scale: options.scale))).size.height
            let h = text + 2 * FeedTitleMetrics.verticalPadding
            return (h * options.scale).rounded(.up) / options.scale
        }
    }

    func rowHeights(_ statuses: [Status], _ options: FeedOptions) -> [Double] {
        if statuses.count < 64 || threads == 1 {
            return statuses.map { engine.cell(for: $0, options: options).height }
        }
        do {
            return try engine.computeRows(statuses, options: options, threads: threads, retainCells: false).heights
        } catch {
            preconditionFailure("FeedDocument: options were validated when the width was added: \(error)")
        }
    }

    func spec(_ s: SectionState, _ options: FeedOptions, rows: [Double]) -> SectionSpec {
        SectionSpec(
            headerHeight: Self.decorationHeight(s.header, s.headerTitle, options), rowHeights: rows,
            footerHeight: Self.decorationHeight(s.footer, s.footerTitle, options), isCollapsed: s.isCollapsed)
    }

    func makeGeometry(_ options: FeedOptions) throws(FeedError) -> TableGeometry {
        let all = rowHeights(sections.flatMap(\.statuses.array), options)
        var specs: [SectionSpec] = []
        specs.reserveCapacity(sections.count)
        var start = 0
        for (i, s) in sections.enumerated() {
            var spec = spec(s, options, rows: Array(all[start..<(start + s.statuses.count)]))
            // A width added later opens and closes like the primary one.
            if let primary = widths.first { spec.isCollapsed = primary.geometry.isCollapsed(i) }
            specs.append(spec)
            start += s.statuses.count
        }
        do {
            var g = try TableGeometry(
                configuration: TableConfiguration(style: options.tableStyle, width: options.width, scale: options.scale),
                sections: specs)
            if let primary = widths.first {
                g.expansionMode = primary.geometry.expansionMode
                g.sectionIndex = primary.geometry.sectionIndex
                g.lastExpandedSection = primary.geometry.lastExpandedSection
            }
            return g
        } catch {
            throw .invalidOptions("\(error)")
        }
    }

    /// Runs a geometry edit whose heights come from cells or validated decorations: a throw would
    /// mean a height beyond 2^31 pixels, a broken invariant rather than an input error.
    static func edit(_ body: () throws(TableLayoutError) -> Void) {
        do { try body() } catch { preconditionFailure("FeedDocument: \(error)") }
    }

    // MARK: Widths

    /// The options of the primary width (the first one held).
    public var options: FeedOptions { widths[0].options }

    /// The widths held, primary first.
    public var heldWidths: [Double] { widths.map(\.options.width) }

    /// The table at `width` if it is held.
    /// - Complexity: O(w) for w held widths.
    public func geometry(forWidth width: Double) -> TableGeometry? {
        widths.first { $0.options.width == width }?.geometry
    }

    /// The table at `width` (same style, scale and line limit as the primary width), added and
    /// kept up to date by every later edit when it is not held yet. A new width re-lays out every
    /// row from its cached prepared cell: arithmetic only, no text is shaped again (unless the
    /// prepared-cell cache evicted it).
    /// - Complexity: O(w) when held; else O(n) cell layouts over `threads` workers.
    public mutating func layout(forWidth width: Double) throws(FeedError) -> TableGeometry {
        if let held = geometry(forWidth: width) { return held }
        var o = options
        o.width = width
        try o.validate()
        let state = WidthState(options: o, geometry: try makeGeometry(o))
        widths.append(state)
        return state.geometry
    }

    /// Stops keeping `width` up to date. The primary width cannot be removed.
    /// - Complexity: O(w).
    public mutating func removeWidth(_ width: Double) {
        guard let i = widths.firstIndex(where: { $0.options.width == width }), i > 0 else { return }
        widths.remove(at: i)
    }

    // MARK: Queries (primary width)

    /// The table of the primary width: row and section frames, the rows at a y, the collapsed
    /// states, the side index (`TableGeometry`).
    public var geometry: TableGeometry { widths[0].geometry }

    /// Number of sections. - Complexity: O(1).
    public var numberOfSections: Int { sections.count }

    /// Number of rows in `section`. - Complexity: O(1).
    public func numberOfRows(inSection section: Int) -> Int { sections[section].statuses.count }

    /// The status of a row. - Complexity: O(log n).
    public func status(at indexPath: TableIndexPath) -> Status { sections[indexPath.section].statuses[indexPath.row] }

    /// The statuses of a section. - Complexity: O(r).
    public func statuses(inSection section: Int) -> [Status] { sections[section].statuses.array }

    /// The sections as given (headers, statuses, footers). - Complexity: O(S + n).
    public var feedSections: [FeedSection] {
        sections.enumerated().map { i, s in
            FeedSection(
                header: s.header, statuses: s.statuses.array, footer: s.footer, isCollapsed: widths[0].geometry.isCollapsed(i), indexTitle: s.indexTitle)
        }
    }

    /// The cell of a row at the primary width, or at `width` (any width the options allow; a
    /// held one is not required). Served by the engine's caches.
    /// - Precondition: `width` passes `FeedOptions.validate()` with the document's other options
    ///   (finite, in [1, 100 000]); `FeedEngine.cell(for:options:)` traps otherwise.
    /// - Complexity: O(log n) on a cache hit; one cell layout on a miss.
    public func cell(at indexPath: TableIndexPath, width: Double? = nil) -> CellGeometry {
        var o = options
        if let width { o.width = width }
        return engine.cell(for: status(at: indexPath), options: o)
    }

    // MARK: Row edits

    /// Inserts statuses so that the first lands at `indexPath`. Statuses laid out before (a row
    /// deleted and inserted again, a status moved in from another document on the same engine)
    /// are cache hits.
    /// - Complexity: O(k + log S + log n) per held width for k rows, plus k cell lookups.
    public mutating func insertRows(_ statuses: [Status], at indexPath: TableIndexPath) {
        guard !statuses.isEmpty else { return }
        precondition(indexPath.row >= 0 && indexPath.row <= sections[indexPath.section].statuses.count,
                     "insert row \(indexPath) out of range")
        for w in widths.indices {
            let heights = rowHeights(statuses, widths[w].options)
            Self.edit { () throws(TableLayoutError) in try widths[w].geometry.insertRows(at: indexPath, heights: heights) }
        }
        sections[indexPath.section].statuses.insert(contentsOf: statuses, at: indexPath.row)
    }

    /// Inserts one status at `indexPath`. - Complexity: O(log S + log n) per held width.
    public mutating func insertRow(_ status: Status, at indexPath: TableIndexPath) {
        insertRows([status], at: indexPath)
    }

    /// Appends a page (infinite scroll) to `section` (the last one by default): only the new rows
    /// are laid out, in parallel for large pages.
    /// - Complexity: O(k + log S + log n) per held width, plus k cell layouts.
    public mutating func appendPage(_ statuses: [Status], toSection section: Int? = nil) {
        precondition(section != nil || !sections.isEmpty, "append page: the document has no section")
        let s = section ?? (sections.count - 1)
        insertRows(statuses, at: TableIndexPath(section: s, row: sections[s].statuses.count))
    }

    /// Deletes the rows `rows` of `section` (the section stays). Their cells stay cached.
    /// - Complexity: O((k / 8 + 1) · log n + log S) per held width.
    public mutating func deleteRows(inSection section: Int, rows: Range<Int>) {
        for w in widths.indices { widths[w].geometry.deleteRows(inSection: section, rows: rows) }
        sections[section].statuses.removeSubrange(rows)
    }

    /// Deletes one row. - Complexity: O(log S + log n) per held width.
    public mutating func deleteRow(at indexPath: TableIndexPath) {
        deleteRows(inSection: indexPath.section, rows: indexPath.row..<(indexPath.row + 1))
    }

    /// Moves a row: removed from `from`, inserted so that it ends at `to`. Nothing is laid out.
    /// - Complexity: O(log S + log n) per held width.
    public mutating func moveRow(from: TableIndexPath, to: TableIndexPath) {
        for w in widths.indices { widths[w].geometry.moveRow(from: from, to: to) }
        let status = sections[from.section].statuses.remove(at: from.row)
        sections[to.section].statuses.insert(status, at: to.row)
    }

    /// Replaces a row's status (a reload): only this row is laid out again, and only when its
    /// content fingerprint changed (otherwise its cell is a cache hit).
    /// - Complexity: O(log S + log n) per held width, plus one cell lookup.
    public mutating func reloadRow(at indexPath: TableIndexPath, with status: Status) {
        for w in widths.indices {
            let h = engine.cell(for: status, options: widths[w].options).height
            Self.edit { () throws(TableLayoutError) in try widths[w].geometry.reloadRow(at: indexPath, height: h) }
        }
        sections[indexPath.section].statuses[indexPath.row] = status
    }

    // MARK: Section edits

    /// Inserts a section at index `section`.
    /// - Throws: `.invalidOptions` for an invalid fixed header or footer height (nothing changes).
    /// - Complexity: O(r + log S + log n) per held width for its r rows, plus r cell lookups.
    public mutating func insertSection(_ feedSection: FeedSection, at section: Int) throws(FeedError) {
        let state = try makeState(feedSection)
        for w in widths.indices {
            let o = widths[w].options
            let spec = spec(state, o, rows: rowHeights(state.statuses.array, o))
            Self.edit { () throws(TableLayoutError) in try widths[w].geometry.insertSection(spec, at: section) }
        }
        sections.insert(state, at: section)
    }

    /// Deletes a section with its rows. - Complexity: O((r / 64 + 1) · log n + log S) per held width.
    public mutating func deleteSection(_ section: Int) {
        for w in widths.indices { widths[w].geometry.deleteSection(section) }
        sections.remove(at: section)
    }

    /// Moves a section with its rows so that it ends at index `to`. Nothing is laid out.
    /// - Complexity: O(r + log S + log n) per held width for its r rows.
    public mutating func moveSection(from: Int, to: Int) {
        for w in widths.indices { widths[w].geometry.moveSection(from: from, to: to) }
        let s = sections.remove(at: from)
        sections.insert(s, at: to)
    }

    /// Replaces a section's header, statuses and footer (a section reload): statuses laid out
    /// before are cache hits. Keeps the section's collapsed state.
    /// - Throws: `.invalidOptions` for an invalid fixed header or footer height (nothing changes).
    /// - Complexity: O(r_old / 64 · log n + r_new + log S + log n) per held width, plus r_new cell lookups.
    public mutating func reloadSection(_ section: Int, with feedSection: FeedSection) throws(FeedError) {
        let state = try makeState(feedSection)
        for w in widths.indices {
            let o = widths[w].options
            let spec = spec(state, o, rows: rowHeights(state.statuses.array, o))
            Self.edit { () throws(TableLayoutError) in try widths[w].geometry.reloadSection(section, with: spec) }
        }
        sections[section] = state
    }

    /// Opens or closes a section at every held width (a closed section keeps its header and
    /// footer and hides its rows; in `.accordion` mode opening one closes the one opened before).
    /// - Complexity: O(log S) per held width.
    public mutating func setExpanded(_ expanded: Bool, section: Int) {
        for w in widths.indices { widths[w].geometry.setExpanded(expanded, section: section) }
    }

    // MARK: Batch updates

    /// Applies a batch with UITableView's index semantics (see `FeedBatchUpdate`). Only inserted
    /// and reloaded rows are looked up in the cell cache; moved rows and sections keep their heights.
    /// - Throws: `.invalidOptions` for an inserted section with an invalid fixed header or footer
    ///   height (nothing changes).
    /// - Complexity: O(m log m + m · (log S + log n) + r) per held width for m edits and r rows of
    ///   deleted, inserted or moved sections, plus one cell lookup per inserted or reloaded row.
    public mutating func performBatchUpdates(_ batch: FeedBatchUpdate) throws(FeedError) {
        var newStates: [(Int, SectionState)] = []
        for s in batch.insertedSections { newStates.append((s.index, try makeState(s.section))) }

        for w in widths.indices {
            let o = widths[w].options
            var t = TableBatchUpdate()
            t.deletedSections = batch.deletedSections
            t.deletedRows = batch.deletedRows
            t.movedRows = batch.movedRows
            t.movedSections = batch.movedSections
            t.removesEmptiedSections = batch.removesEmptiedSections
            t.reloadedRows = batch.reloadedRows.map { .init($0.indexPath, engine.cell(for: $0.content, options: o).height) }
            t.insertedRows = batch.insertedRows.map { .init($0.indexPath, engine.cell(for: $0.content, options: o).height) }
            t.insertedSections = newStates.map { .init($0.0, spec($0.1, o, rows: rowHeights($0.1.statuses.array, o))) }
            Self.edit { () throws(TableLayoutError) in try widths[w].geometry.performBatchUpdates(t) }
        }

        // The same steps on the status arrays, in TableGeometry's order.
        for r in batch.reloadedRows { sections[r.indexPath.section].statuses[r.indexPath.row] = r.content }
        var inserts = batch.insertedRows.map { ($0.indexPath, $0.content) }
        for m in batch.movedRows { inserts.append((m.to, sections[m.from.section].statuses[m.from.row])) }
        let deletedSections = Set(batch.deletedSections)
        let removals = batch.deletedRows + batch.movedRows.map(\.from)
        var touched = Set<Int>()
        for ip in removals.sorted(by: >) where !deletedSections.contains(ip.section) {
            sections[ip.section].statuses.remove(at: ip.row)
            touched.insert(ip.section)
        }
        let movedSections = Set(batch.movedSections.map(\.from))
        var sectionDeletes = deletedSections.union(movedSections)
        if batch.removesEmptiedSections {
            for s in touched where sections[s].statuses.isEmpty && !movedSections.contains(s) { sectionDeletes.insert(s) }
        }
        for m in batch.movedSections { newStates.append((m.to, sections[m.from])) }
        for s in sectionDeletes.sorted(by: >) { sections.remove(at: s) }
        for (index, state) in newStates.sorted(by: { $0.0 < $1.0 }) { sections.insert(state, at: index) }
        for (ip, status) in inserts.sorted(by: { $0.0 < $1.0 }) { sections[ip.section].statuses.insert(status, at: ip.row) }
    }

    // MARK: Filtering

    /// The rows whose user name, screen name or text (or those of the status they repost) contain
    /// `keyword`, as a single-section feed at a held width (the primary one by default).
    ///
    /// Matching is a plain substring match after `lowercased()` on both sides: case-insensitive for
    /// scripts with case, exact for CJK (which has none), deterministic (no locale). An empty
    /// keyword matches every row. Heights are the stored ones, and cells come from the cache:
    /// nothing is measured or laid out again.
    /// - Precondition: `width` is held.
    /// - Complexity: O(total text length) to match, plus O(m · (log S + log n)) for m rows kept.
    public func filtered(matching keyword: String, width: Double? = nil) -> FilteredFeed {
        let w = width.flatMap { x in widths.first { $0.options.width == x } } ?? widths[0]
        precondition(width == nil || w.options.width == width, "FeedDocument.filtered: width \(width!) is not held")
        let folded = keyword.lowercased()
        var paths: [TableIndexPath] = []
        var matched: [Status] = []
        for (s, section) in sections.enumerated() {
            var r = 0
            section.statuses.forEach { status in
                if FilteredFeed.matches(status, folded: folded) {
                    paths.append(TableIndexPath(section: s, row: r))
                    matched.append(status)
                }
                r += 1
            }
        }
        return FilteredFeed(
            keyword: keyword, options: w.options, engine: engine, sourceIndexPaths: paths, statuses: matched,
            geometry: w.geometry.filtered(rows: paths))
    }

    // MARK: Memory

    /// Bytes of the geometries of every held width (offsets and heights of all rows).
    /// - Complexity: O(w · n / 256).
    public var geometryResidentBytes: Int { widths.reduce(0) { $0 + $1.geometry.residentBytes } }
}

/// A keyword-filtered view of a feed: a single section whose row i is `sourceIndexPaths[i]` of the
/// document it came from. Thread-safety: an immutable value.
public struct FilteredFeed: Sendable {
    public let keyword: String
    public let options: FeedOptions
    public let engine: FeedEngine
    /// Where each row came from in the document.
    public let sourceIndexPaths: [TableIndexPath]
    public let statuses: [Status]
    /// One section, no headers or footers; heights reused from the document.
    public let geometry: TableGeometry

    /// Number of rows. - Complexity: O(1).
    public var count: Int { statuses.count }

    /// The cell of filtered row `row`, from the engine's cache.
    /// - Complexity: O(1) on a cache hit.
    public func cell(atRow row: Int) -> CellGeometry { engine.cell(for: statuses[row], options: options) }

    /// Whether a status matches an already folded (`lowercased()`) keyword.
    /// - Complexity: O(length of the texts searched).
    static func matches(_ status: Status, folded keyword: String) -> Bool {
        if keyword.isEmpty { return true }
        func has(_ s: String) -> Bool { !s.isEmpty && s.lowercased().contains(keyword) }
        if has(status.user.name) || has(status.user.screenName) || has(status.text) { return true }
        if let r = status.retweetedStatus {
            return has(r.user.name) || has(r.user.screenName) || has(r.text)
        }
        return false
    }
}
