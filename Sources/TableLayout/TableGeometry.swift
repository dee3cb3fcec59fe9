// TableGeometry: UITableView's geometry without UIKit.
//
// Design
// - Two counted B+trees (SummaryTree.swift). `rows` holds every row's height in pixels, all
//   sections concatenated in order (a section's rows are a contiguous run of "global" indices);
//   `sections` holds one `_SectionEntry` per section whose summary carries the section's visible
//   height (spacing + header + visible rows + footer), its row count and its stored row pixels.
// - Vertical order: table header, then per section [spacing][header][rows][footer], then the
//   table footer. A section's top is the table header plus the prefix summary of the sections
//   before it; the same summary gives its first global row and the stored pixels of all rows
//   before it, so a row rect is one descent of `sections` and one of `rows`, and a point lookup
//   searches `sections` by visible height, then `rows` by height inside the section:
//   O(log S + log n), never linear in sections or rows.
// - Alternative considered: one tree of rows, headers and footers as items. It needs a kind tag
//   per item and makes collapsing a section O(rows); two trees keep rows at 4 bytes each and make
//   collapse O(log S).
// - Collapsing a section only flips a flag in its entry: its rows keep their stored heights in
//   `rows` (so they still count in the row-pixel summary) but no longer in the visible height.
// - Heights are integer pixels of `configuration.scale` (Int32 per row, Int64 sums), so every
//   offset is exact; points are `pixels / scale`. A y coordinate given in points is snapped to the
//   pixel grid with a tolerance of 1e-6 px before comparison (see `pixelFloor`).

struct _SectionSummary: _TreeSummary {
    /// Visible height in pixels, spacing included.
    var height: Int64
    /// Rows stored (collapsed sections included).
    var rows: Int64
    /// Pixels of the rows stored (collapsed sections included).
    var rowPixels: Int64

    static var zero: Self { Self(height: 0, rows: 0, rowPixels: 0) }
    static func + (a: Self, b: Self) -> Self {
        Self(height: a.height + b.height, rows: a.rows + b.rows, rowPixels: a.rowPixels + b.rowPixels)
    }
    static func - (a: Self, b: Self) -> Self {
        Self(height: a.height - b.height, rows: a.rows - b.rows, rowPixels: a.rowPixels - b.rowPixels)
    }
    var extent: Int64 { height }
}

struct _SectionEntry: _TreeElement {
    var rowsHeight: Int64
    var rowCount: Int32
    var header: Int32
    var footer: Int32
    var spacing: Int32
    var isCollapsed: Bool

    var visibleRowsHeight: Int64 { isCollapsed ? 0 : rowsHeight }
    var summary: _SectionSummary {
        _SectionSummary(
            height: Int64(spacing) + Int64(header) + Int64(footer) + visibleRowsHeight,
            rows: Int64(rowCount), rowPixels: rowsHeight)
    }
}

/// The geometry of a table: sections of rows with headers and footers, plain or grouped, with
/// logarithmic queries and edits for feeds of millions of rows.
///
/// All heights are given in points and stored as integer pixels of `configuration.scale`
/// (rounded to the nearest pixel); rects are returned in points.
///
/// Thread safety: a value type with copy-on-write storage. Copies MAY be used on different threads
/// concurrently (readers never mutate shared nodes); one value MUST NOT be mutated while another
/// thread reads that same value.
public struct TableGeometry: Sendable, Equatable {
    public let configuration: TableConfiguration
    var rows: RowHeightSequence
    var sections: _SummaryTree<_SectionEntry>
    var tableHeader: Int32 = 0
    var tableFooter: Int32 = 0
    let spacingPixels: Int32
    /// How expanding a section affects the others.
    public var expansionMode: SectionExpansionMode = .independent
    /// The section most recently opened by `setExpanded(true, …)` (tracked across section edits).
    public internal(set) var lastExpandedSection: Int?
    /// The section index bar; targets are kept in range across section edits.
    public var sectionIndex: SectionIndex?

    /// Creates a table.
    /// - Throws: `TableLayoutError` for an unusable configuration or an invalid height.
    /// - Complexity: O(n + S) for n rows and S sections.
    public init(
        configuration: TableConfiguration, tableHeaderHeight: Double = 0, tableFooterHeight: Double = 0,
        sections specs: [SectionSpec] = []
    ) throws(TableLayoutError) {
        try self.init(configuration: configuration, tableHeaderHeight: tableHeaderHeight,
                      tableFooterHeight: tableFooterHeight, sections: specs, shape: .standard)
    }

    package init(
        configuration: TableConfiguration, tableHeaderHeight: Double = 0, tableFooterHeight: Double = 0,
        sections specs: [SectionSpec] = [], shape: TreeShape
    ) throws(TableLayoutError) {
        guard configuration.scale > 0, configuration.scale.isFinite else {
            throw .invalidConfiguration("scale \(configuration.scale) MUST be finite and > 0")
        }
        guard configuration.width >= 0, configuration.width.isFinite else {
            throw .invalidConfiguration("width \(configuration.width) MUST be finite and ≥ 0")
        }
        guard configuration.horizontalInset >= 0, 2 * configuration.horizontalInset <= configuration.width else {
            throw .invalidConfiguration("inset \(configuration.horizontalInset) MUST be in 0...width/2")
        }
        self.configuration = configuration
        spacingPixels = try Self.pixels(configuration.sectionSpacing, scale: configuration.scale, context: "section spacing")
        rows = RowHeightSequence(pixelHeights: [], shape: shape)
        sections = _SummaryTree(shape: shape == .standard ? .sections : shape)
        tableHeader = try pixels(tableHeaderHeight, "table header")
        tableFooter = try pixels(tableFooterHeight, "table footer")
        var allRows: [Int32] = []
        var entries: [_SectionEntry] = []
        entries.reserveCapacity(specs.count)
        for (s, spec) in specs.enumerated() {
            let (entry, heights) = try makeEntry(spec, context: "section \(s)")
            entries.append(entry)
            allRows.append(contentsOf: heights)
        }
        rows.tree.insert(contentsOf: allRows[...], at: 0)
        sections.insert(contentsOf: entries[...], at: 0)
    }

    // MARK: Pixel conversion

    static func pixels(_ points: Double, scale: Double, context: @autoclosure () -> String) throws(TableLayoutError) -> Int32 {
        guard points.isFinite, points >= 0 else { throw .invalidHeight(points, context: context()) }
        let p = (points * scale).rounded()
        guard p <= Double(Int32.max) else { throw .heightTooLarge(points, scale: scale, context: context()) }
        return Int32(p)
    }

    func pixels(_ points: Double, _ context: @autoclosure () -> String) throws(TableLayoutError) -> Int32 {
        try Self.pixels(points, scale: configuration.scale, context: context())
    }

    func makeEntry(_ spec: SectionSpec, context: String) throws(TableLayoutError) -> (_SectionEntry, [Int32]) {
        var heights: [Int32] = []
        heights.reserveCapacity(spec.rowHeights.count)
        var sum: Int64 = 0
        for (r, h) in spec.rowHeights.enumerated() {
            let p = try pixels(h, "\(context) row \(r)")
            heights.append(p)
            sum += Int64(p)
        }
        let entry = _SectionEntry(
            rowsHeight: sum, rowCount: Int32(heights.count),
            header: try pixels(spec.headerHeight, "\(context) header"),
            footer: try pixels(spec.footerHeight, "\(context) footer"),
            spacing: spacingPixels, isCollapsed: spec.isCollapsed)
        return (entry, heights)
    }

    @inline(__always) func points(_ pixels: Int64) -> Double { Double(pixels) / configuration.scale }

    /// The pixel containing the point coordinate `y`: ⌊y·scale + 1e-6⌋ (clamped to ±2^62).
    @inline(__always) func pixelFloor(_ y: Double) -> Int64 {
        let p = (y * configuration.scale + 1e-6).rounded(.down)
        return p.isNaN ? 0 : Int64(max(-4.6e18, min(4.6e18, p)))
    }

    /// ⌈y·scale − 1e-6⌉ (clamped to ±2^62).
    @inline(__always) func pixelCeil(_ y: Double) -> Int64 {
        let p = (y * configuration.scale - 1e-6).rounded(.up)
        return p.isNaN ? 0 : Int64(max(-4.6e18, min(4.6e18, p)))
    }

    var contentX: Double { configuration.style == .grouped ? configuration.horizontalInset : 0 }
    var contentWidth: Double { configuration.width - 2 * contentX }

    func rect(_ top: Int64, _ height: Int64, full: Bool = false) -> TableRect {
        TableRect(x: full ? 0 : contentX, y: points(top), width: full ? configuration.width : contentWidth, height: points(height))
    }

    // MARK: Counts

    /// Number of sections. - Complexity: O(1).
    public var numberOfSections: Int { sections.count }

    /// Total number of rows stored (collapsed sections included). - Complexity: O(1).
    public var numberOfRows: Int { rows.count }

    /// Number of rows in `section` (its stored rows, also when collapsed). - Complexity: O(log S).
    public func numberOfRows(inSection section: Int) -> Int { Int(sections[section].rowCount) }

    /// Whether `section` is collapsed. - Complexity: O(log S).
    public func isCollapsed(_ section: Int) -> Bool { sections[section].isCollapsed }

    /// The stored height of a row in points (also when its section is collapsed).
    /// - Complexity: O(log S + log n).
    public func height(ofRow indexPath: TableIndexPath) -> Double {
        points(Int64(rows[globalRow(indexPath)]))
    }

    /// Stored heights in points of the rows `rowRange` of `section` (also when collapsed).
    /// - Complexity: O(log S + log n + k).
    public func heights(ofRowsInSection section: Int, rows rowRange: Range<Int>) -> [Double] {
        let (e, before) = entry(section)
        precondition(rowRange.lowerBound >= 0 && rowRange.upperBound <= Int(e.rowCount), "rows \(rowRange) out of 0..<\(e.rowCount)")
        let g = Int(before.rows)
        return rows.tree.elements(in: (g + rowRange.lowerBound)..<(g + rowRange.upperBound)).map { points(Int64($0)) }
    }

    /// Heights of the table header and footer in points. - Complexity: O(1).
    public var tableHeaderHeight: Double { points(Int64(tableHeader)) }
    public var tableFooterHeight: Double { points(Int64(tableFooter)) }

    /// Height of the whole content (table header, sections, table footer) in points.
    /// - Complexity: O(1).
    public var contentHeight: Double { points(contentPixels) }

    var contentPixels: Int64 { Int64(tableHeader) + sections.summary.height + Int64(tableFooter) }

    func entry(_ section: Int) -> (entry: _SectionEntry, before: _SectionSummary) {
        precondition(section >= 0 && section < sections.count, "section \(section) out of 0..<\(sections.count)")
        let (e, before) = sections.elementAndPrefix(at: section)
        return (e, before)
    }

    func globalRow(_ ip: TableIndexPath) -> Int {
        let (e, before) = entry(ip.section)
        precondition(ip.row >= 0 && ip.row < Int(e.rowCount), "row \(ip) out of 0..<\(e.rowCount)")
        return Int(before.rows) + ip.row
    }

    // MARK: Rects

    /// Top of the section's rect (after its spacing), in pixels.
    func sectionTop(_ e: _SectionEntry, _ before: _SectionSummary) -> Int64 {
        Int64(tableHeader) + before.height + Int64(e.spacing)
    }

    /// Frame of a row. A row of a collapsed section gets a zero-height rect where its section's
    /// rows would start (below the header).
    /// - Complexity: O(log S + log n).
    public func rectForRow(_ indexPath: TableIndexPath) -> TableRect {
        let (e, before) = entry(indexPath.section)
        precondition(indexPath.row >= 0 && indexPath.row < Int(e.rowCount), "row \(indexPath) out of 0..<\(e.rowCount)")
        let rowsTop = sectionTop(e, before) + Int64(e.header)
        if e.isCollapsed { return rect(rowsTop, 0) }
        let g = Int(before.rows) + indexPath.row
        let (h, prefix) = rows.tree.elementAndPrefix(at: g)
        return rect(rowsTop + prefix - before.rowPixels, Int64(h))
    }

    /// Frame of a section: header, visible rows and footer (the spacing before it excluded).
    /// - Complexity: O(log S).
    public func rectForSection(_ section: Int) -> TableRect {
        let (e, before) = entry(section)
        return rect(sectionTop(e, before), e.summary.height - Int64(e.spacing))
    }

    /// Frame of a section's header (in its scrolled position). - Complexity: O(log S).
    public func rectForHeader(inSection section: Int) -> TableRect {
        let (e, before) = entry(section)
        return rect(sectionTop(e, before), Int64(e.header))
    }

    /// Frame of a section's footer. - Complexity: O(log S).
    public func rectForFooter(inSection section: Int) -> TableRect {
        let (e, before) = entry(section)
        return rect(sectionTop(e, before) + Int64(e.header) + e.visibleRowsHeight, Int64(e.footer))
    }

    /// Frames of the table header (top) and footer (bottom), full width. - Complexity: O(1).
    public var rectForTableHeader: TableRect { rect(0, Int64(tableHeader), full: true) }
    public var rectForTableFooter: TableRect {
        rect(Int64(tableHeader) + sections.summary.height, Int64(tableFooter), full: true)
    }

    /// Frame of a section's header for the scroll offset `scrollOffset` (the content y at the top
    /// of the visible area). Plain style: the header sticks to the top while its section is
    /// visible and is pushed up by the end of its section, where the next section (and its
    /// header) begins. Grouped style: the scrolled position, as `rectForHeader`.
    /// - Complexity: O(log S).
    public func floatingHeaderFrame(inSection section: Int, scrollOffset: Double) -> TableRect {
        let (e, before) = entry(section)
        let top = sectionTop(e, before)
        var r = rect(top, Int64(e.header))
        guard configuration.style == .plain else { return r }
        let limit = points(top + e.summary.height - Int64(e.spacing) - Int64(e.header))
        // A NaN offset is no offset (`max` would pass it through: a header at y = NaN).
        r.y = min(max(scrollOffset.isNaN ? r.y : scrollOffset, r.y), limit)
        return r
    }

    // MARK: Point and range lookups

    /// The visible row whose frame contains `y` (`minY ≤ y < maxY`); nil in the table header or
    /// footer, in spacing, headers and footers, or outside the content.
    /// - Complexity: O(log S + log n).
    public func indexPathForRow(at y: Double) -> TableIndexPath? {
        guard !y.isNaN else { return nil }
        let p = pixelFloor(y) - Int64(tableHeader)
        guard p >= 0 else { return nil }
        let (s, before, found) = sections.findElement(extent: p)
        guard let e = found else { return nil }
        let q = p - before.height - Int64(e.spacing) - Int64(e.header)
        guard q >= 0, q < e.visibleRowsHeight else { return nil }
        let (g, _) = rows.tree.find(extent: before.rowPixels + q)
        return TableIndexPath(section: s, row: g - Int(before.rows))
    }

    /// The visible rows whose frames intersect `yRange` (`minY < upperBound` and
    /// `maxY > lowerBound`; zero-height rows strictly inside count), in order. Bounds are snapped
    /// outwards to the pixel grid, so an empty range between two pixels returns the row containing it.
    /// - Complexity: O(log S + log n + k + m) for k rows returned and m sections crossed: only the
    ///   (at most two) sections cut by a bound search their rows; the others are inside entirely.
    public func indexPathsForRows(in yRange: Range<Double>) -> [TableIndexPath] {
        var result: [TableIndexPath] = []
        guard !yRange.lowerBound.isNaN, !yRange.upperBound.isNaN else { return result }
        let lo = pixelFloor(yRange.lowerBound)
        let hi = pixelCeil(yRange.upperBound)
        guard lo < hi, sections.count > 0 else { return result }
        // Below the table header, start at section 0: `find` skips zero-height sections, which may
        // hold zero-height rows strictly inside the range.
        var (s, before) = lo < Int64(tableHeader) ? (0, .zero) : sections.find(extent: lo - Int64(tableHeader))
        guard s < sections.count else { return result }
        var top = Int64(tableHeader) + before.height
        var firstGlobal = Int(before.rows)
        var rowPixelsBefore = before.rowPixels
        sections.forEach(from: s) { e in
            if top >= hi { return false }
            let rowsTop = top + Int64(e.spacing) + Int64(e.header)
            if !e.isCollapsed, e.rowCount > 0, rowsTop > lo, rowsTop + e.rowsHeight < hi {
                // Every row lies strictly inside the range: no need to read their heights.
                for r in 0..<Int(e.rowCount) { result.append(TableIndexPath(section: s, row: r)) }
            } else if !e.isCollapsed, e.rowCount > 0, rowsTop < hi, rowsTop + e.rowsHeight > lo {
                var g = firstGlobal
                var rowTop = rowsTop
                if lo > rowsTop {
                    let (found, prefix) = rows.tree.find(extent: rowPixelsBefore + (lo - rowsTop))
                    g = found
                    rowTop = rowsTop + prefix - rowPixelsBefore
                }
                let end = firstGlobal + Int(e.rowCount)
                let section = s
                rows.tree.forEach(from: g) { h in
                    if g >= end || rowTop >= hi { return false }
                    if rowTop + Int64(h) > lo { result.append(TableIndexPath(section: section, row: g - firstGlobal)) }
                    rowTop += Int64(h)
                    g += 1
                    return true
                }
            }
            top += e.summary.height
            firstGlobal += Int(e.rowCount)
            rowPixelsBefore += e.rowsHeight
            s += 1
            return true
        }
        return result
    }

    /// The section an index title jumps to, nil when the index has no such title.
    /// - Complexity: O(t) for t index titles.
    public func section(forIndexTitle title: String) -> Int? {
        sectionIndex?.section(forTitle: title)
    }

    // MARK: Filtering

    /// A single-section table with the rows `indexPaths` of this one, in the given order, reusing
    /// their stored heights (nothing is measured again); same configuration, no headers or footers.
    /// Row i of the result is `indexPaths[i]` of this table.
    /// - Complexity: O(m · (log S + log n)) for m rows.
    public func filtered(rows indexPaths: [TableIndexPath]) -> TableGeometry {
        var heights: [Int32] = []
        heights.reserveCapacity(indexPaths.count)
        for ip in indexPaths { heights.append(rows[globalRow(ip)]) }
        var result = self
        result.rows = RowHeightSequence(pixelHeights: heights, shape: rows.tree.shape)
        result.sections = _SummaryTree(shape: sections.shape)
        let total = heights.reduce(Int64(0)) { $0 + Int64($1) }
        result.sections.insert(_SectionEntry(rowsHeight: total, rowCount: Int32(heights.count), header: 0, footer: 0,
                                             spacing: spacingPixels, isCollapsed: false), at: 0)
        result.tableHeader = 0
        result.tableFooter = 0
        result.lastExpandedSection = nil
        result.sectionIndex = nil
        return result
    }

    // MARK: Memory and checks

    /// Bytes held by the row and section trees. - Complexity: O((n + S) / 256).
    public var residentBytes: Int { rows.residentBytes + sections.residentBytes }

    /// Traps when the trees or their cross-summaries disagree. - Complexity: O(n + S).
    package func _checkInvariants() {
        rows._checkInvariants()
        sections._checkInvariants()
        precondition(sections.summary.rows == Int64(rows.count), "section row counts disagree with rows")
        precondition(sections.summary.rowPixels == rows.totalPixels, "section row pixels disagree with rows")
        var g = 0
        for e in sections.elements {
            precondition(e.rowCount >= 0 && e.rowsHeight == rows.pixelSum(of: g..<(g + Int(e.rowCount))), "section rows height stale")
            g += Int(e.rowCount)
        }
        if let open = lastExpandedSection { precondition(open >= 0 && open < sections.count, "lastExpandedSection out of range") }
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.configuration == b.configuration && a.tableHeader == b.tableHeader && a.tableFooter == b.tableFooter
            && a.expansionMode == b.expansionMode && a.lastExpandedSection == b.lastExpandedSection
            && a.sectionIndex == b.sectionIndex && a.sections == b.sections && a.rows == b.rows
    }
}
