// Edits of a TableGeometry. Every edit touches O(log n) tree nodes per row or section changed and
// never rescans the feed; contiguous batches cost O(k + log n).

extension TableGeometry {
    // MARK: Table header and footer

    /// Sets the table header height. - Complexity: O(1).
    public mutating func setTableHeaderHeight(_ height: Double) throws(TableLayoutError) {
        tableHeader = try pixels(height, "table header")
    }

    /// Sets the table footer height. - Complexity: O(1).
    public mutating func setTableFooterHeight(_ height: Double) throws(TableLayoutError) {
        tableFooter = try pixels(height, "table footer")
    }

    /// Sets a section's header height. - Complexity: O(log S).
    public mutating func setHeaderHeight(_ height: Double, inSection section: Int) throws(TableLayoutError) {
        let p = try pixels(height, "section \(section) header")
        sections.update(at: section) { $0.header = p }
    }

    /// Sets a section's footer height. - Complexity: O(log S).
    public mutating func setFooterHeight(_ height: Double, inSection section: Int) throws(TableLayoutError) {
        let p = try pixels(height, "section \(section) footer")
        sections.update(at: section) { $0.footer = p }
    }

    // MARK: Rows

    /// Inserts a contiguous batch of rows so that the first one lands at `indexPath`
    /// (`0 ≤ row ≤ numberOfRows(inSection:)`). - Complexity: O(k + log S + log n).
    public mutating func insertRows(at indexPath: TableIndexPath, heights: [Double]) throws(TableLayoutError) {
        var p: [Int32] = []
        p.reserveCapacity(heights.count)
        for (k, h) in heights.enumerated() { p.append(try pixels(h, "row \(indexPath.row + k) of section \(indexPath.section)")) }
        insertRows(at: indexPath, pixels: p)
    }

    /// Inserts one row at `indexPath`. - Complexity: O(log S + log n).
    public mutating func insertRow(at indexPath: TableIndexPath, height: Double) throws(TableLayoutError) {
        try insertRows(at: indexPath, heights: [height])
    }

    /// Appends a page of rows to `section` (the last one by default); costs only the new rows.
    /// - Complexity: O(k + log S + log n).
    public mutating func appendRows(heights: [Double], toSection section: Int? = nil) throws(TableLayoutError) {
        precondition(section != nil || sections.count > 0, "append rows: the table has no section")
        let s = section ?? (sections.count - 1)
        try insertRows(at: TableIndexPath(section: s, row: numberOfRows(inSection: s)), heights: heights)
    }

    mutating func insertRows(at ip: TableIndexPath, pixels p: [Int32]) {
        let (e, before) = entry(ip.section)
        precondition(ip.row >= 0 && ip.row <= Int(e.rowCount), "insert row \(ip) out of 0...\(e.rowCount)")
        guard !p.isEmpty else { return }
        rows.tree.insert(contentsOf: p[...], at: Int(before.rows) + ip.row)
        let sum = p.reduce(Int64(0)) { $0 + Int64($1) }
        sections.update(at: ip.section) {
            $0.rowCount += Int32(p.count)
            $0.rowsHeight += sum
        }
    }

    /// Deletes the rows `rowRange` of `section`. The section stays, even when emptied.
    /// - Complexity: O((k / 64 + 1) · log n + log S).
    public mutating func deleteRows(inSection section: Int, rows rowRange: Range<Int>) {
        let (e, before) = entry(section)
        precondition(rowRange.lowerBound >= 0 && rowRange.upperBound <= Int(e.rowCount), "delete rows \(rowRange) out of 0..<\(e.rowCount)")
        guard !rowRange.isEmpty else { return }
        let g = Int(before.rows)
        let removed = rows.tree.removeSubrange((g + rowRange.lowerBound)..<(g + rowRange.upperBound))
        sections.update(at: section) {
            $0.rowCount -= Int32(rowRange.count)
            $0.rowsHeight -= removed
        }
    }

    /// Deletes one row. - Complexity: O(log S + log n).
    public mutating func deleteRow(at indexPath: TableIndexPath) {
        deleteRows(inSection: indexPath.section, rows: indexPath.row..<(indexPath.row + 1))
    }

    /// Changes a row's height (a reload). - Complexity: O(log S + log n).
    public mutating func reloadRow(at indexPath: TableIndexPath, height: Double) throws(TableLayoutError) {
        let p = try pixels(height, "row \(indexPath)")
        let old = rows.tree.replace(at: globalRow(indexPath), with: p)
        sections.update(at: indexPath.section) { $0.rowsHeight += Int64(p) - Int64(old) }
    }

    /// Changes the heights of the consecutive rows of `section` starting at `row` (a batch reload,
    /// e.g. a chunk of precomputed layouts replacing estimates).
    /// - Complexity: O(k + log S + log n).
    public mutating func reloadRows(inSection section: Int, startingAt row: Int, heights: [Double]) throws(TableLayoutError) {
        var p: [Int32] = []
        p.reserveCapacity(heights.count)
        for (k, h) in heights.enumerated() { p.append(try pixels(h, "row \(row + k) of section \(section)")) }
        let (e, before) = entry(section)
        precondition(row >= 0 && row + p.count <= Int(e.rowCount), "reload rows \(row)..<\(row + p.count) out of 0..<\(e.rowCount)")
        guard !p.isEmpty else { return }
        let delta = rows.tree.overwrite(from: Int(before.rows) + row, with: p[...])
        sections.update(at: section) { $0.rowsHeight += delta.new - delta.old }
    }

    /// Moves a row, keeping its height: it is removed from `from`, then inserted so that it ends
    /// at `to` (UITableView's `moveRow(at:to:)`). - Complexity: O(log S + log n).
    public mutating func moveRow(from: TableIndexPath, to: TableIndexPath) {
        let h = rows[globalRow(from)]
        deleteRow(at: from)
        insertRows(at: to, pixels: [h])
    }

    // MARK: Sections

    /// Inserts sections so that the first lands at index `section`.
    /// - Complexity: O(k + r + log S + log n) for k sections with r rows.
    public mutating func insertSections(_ specs: [SectionSpec], at section: Int) throws(TableLayoutError) {
        precondition(section >= 0 && section <= sections.count, "insert section \(section) out of 0...\(sections.count)")
        var entries: [_SectionEntry] = []
        var heights: [Int32] = []
        for (k, spec) in specs.enumerated() {
            let (e, h) = try makeEntry(spec, context: "section \(section + k)")
            entries.append(e)
            heights.append(contentsOf: h)
        }
        insertSections(entries, heights: heights, at: section)
    }

    /// Inserts one section at `section`. - Complexity: O(r + log S + log n).
    public mutating func insertSection(_ spec: SectionSpec, at section: Int) throws(TableLayoutError) {
        try insertSections([spec], at: section)
    }

    mutating func insertSections(_ entries: [_SectionEntry], heights: [Int32], at section: Int) {
        guard !entries.isEmpty else { return }
        let g = Int(sections.prefixSummary(upTo: section).rows)
        rows.tree.insert(contentsOf: heights[...], at: g)
        sections.insert(contentsOf: entries[...], at: section)
        let k = entries.count
        if let open = lastExpandedSection, open >= section { lastExpandedSection = open + k }
        if sectionIndex != nil {
            sectionIndex!.sections = sectionIndex!.sections.map { $0 >= section ? $0 + k : $0 }
        }
    }

    /// Deletes the sections in `range` with their rows.
    /// - Complexity: O((r / 64 + 1) · log n + (k / 16 + 1) · log S) for k sections with r rows.
    public mutating func deleteSections(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= sections.count, "delete sections \(range) out of 0..<\(sections.count)")
        guard !range.isEmpty else { return }
        let first = Int(sections.prefixSummary(upTo: range.lowerBound).rows)
        let end = Int(sections.prefixSummary(upTo: range.upperBound).rows)
        rows.tree.removeSubrange(first..<end)
        sections.removeSubrange(range)
        let k = range.count
        if let open = lastExpandedSection {
            lastExpandedSection = range.contains(open) ? nil : (open >= range.upperBound ? open - k : open)
        }
        if sectionIndex != nil {
            let last = max(0, sections.count - 1)
            sectionIndex!.sections = sectionIndex!.sections.map { t in
                min(last, t >= range.upperBound ? t - k : (t >= range.lowerBound ? range.lowerBound : t))
            }
        }
    }

    /// Deletes one section with its rows. - Complexity: O((r / 64 + 1) · log n + log S).
    public mutating func deleteSection(_ section: Int) { deleteSections(section..<(section + 1)) }

    /// Moves a section with its rows so that it ends at index `to`.
    /// - Complexity: O(r + log S + log n) for its r rows.
    public mutating func moveSection(from: Int, to: Int) {
        let (e, before) = entry(from)
        let g = Int(before.rows)
        let heights = rows.tree.elements(in: g..<(g + Int(e.rowCount)))
        let wasOpen = lastExpandedSection == from
        deleteSection(from)
        precondition(to >= 0 && to <= sections.count, "move section to \(to) out of 0...\(sections.count)")
        insertSections([e], heights: heights, at: to)
        if wasOpen { lastExpandedSection = to }
    }

    /// Replaces a section's header, rows and footer (a section reload); keeps its collapsed state
    /// unless `spec` collapses it. - Complexity: O(r_old / 64 · log n + r_new + log S + log n).
    public mutating func reloadSection(_ section: Int, with spec: SectionSpec) throws(TableLayoutError) {
        var (e, heights) = try makeEntry(spec, context: "section \(section)")
        let (old, before) = entry(section)
        e.isCollapsed = old.isCollapsed || spec.isCollapsed
        let g = Int(before.rows)
        rows.tree.removeSubrange(g..<(g + Int(old.rowCount)))
        rows.tree.insert(contentsOf: heights[...], at: g)
        sections.replace(at: section, with: e)
    }

    // MARK: Expandable sections

    /// Opens or closes a section. A closed section keeps its header and footer and hides its rows,
    /// whose heights stay stored. In `.accordion` mode, opening a section closes the section opened
    /// before it through this method (`lastExpandedSection`); sections created expanded are not
    /// tracked, so an accordion table SHOULD start with every section collapsed.
    /// - Complexity: O(log S).
    public mutating func setExpanded(_ expanded: Bool, section: Int) {
        precondition(section >= 0 && section < sections.count, "section \(section) out of 0..<\(sections.count)")
        if expanded {
            if expansionMode == .accordion, let open = lastExpandedSection, open != section {
                sections.update(at: open) { $0.isCollapsed = true }
            }
            sections.update(at: section) { $0.isCollapsed = false }
            lastExpandedSection = section
        } else {
            sections.update(at: section) { $0.isCollapsed = true }
            if lastExpandedSection == section { lastExpandedSection = nil }
        }
    }

    /// Opens a closed section or closes an open one (a header tap). - Complexity: O(log S).
    public mutating func toggleSection(_ section: Int) {
        setExpanded(isCollapsed(section), section: section)
    }

    // MARK: Batch updates

    /// Applies a batch with UITableView's index semantics (see `TableBatchUpdate`).
    /// - Complexity: O(m log m + m · (log S + log n) + r) for m edits and r rows of deleted or
    ///   inserted or moved sections.
    public mutating func performBatchUpdates(_ batch: TableBatchUpdate) throws(TableLayoutError) {
        // Validate and convert every height first, so a throw leaves the table unchanged.
        var reloads: [(TableIndexPath, Int32)] = []
        for r in batch.reloadedRows { reloads.append((r.indexPath, try pixels(r.content, "reloaded row \(r.indexPath)"))) }
        var inserts: [(TableIndexPath, Int32)] = []
        for r in batch.insertedRows { inserts.append((r.indexPath, try pixels(r.content, "inserted row \(r.indexPath)"))) }
        var newSections: [(Int, _SectionEntry, [Int32])] = []
        for s in batch.insertedSections {
            let (e, h) = try makeEntry(s.section, context: "inserted section \(s.index)")
            newSections.append((s.index, e, h))
        }

        let deletedSections = Set(batch.deletedSections)
        for s in deletedSections { precondition(s >= 0 && s < sections.count, "deleted section \(s) out of range") }
        let movedSections = Set(batch.movedSections.map(\.from))
        precondition(movedSections.count == batch.movedSections.count, "a section is moved twice")
        for s in movedSections {
            precondition(s >= 0 && s < sections.count && !deletedSections.contains(s), "moved section \(s) out of range or deleted")
        }
        var removals = Set(batch.deletedRows)
        precondition(removals.count == batch.deletedRows.count, "a row is deleted twice")
        for m in batch.movedRows {
            precondition(!deletedSections.contains(m.from.section), "row \(m.from) moved out of a deleted section")
            precondition(removals.insert(m.from).inserted, "row \(m.from) deleted or moved twice")
        }
        for (ip, p) in reloads {
            precondition(!removals.contains(ip) && !deletedSections.contains(ip.section), "row \(ip) reloaded and deleted")
            let old = rows.tree.replace(at: globalRow(ip), with: p)
            sections.update(at: ip.section) { $0.rowsHeight += Int64(p) - Int64(old) }
        }
        for m in batch.movedRows { inserts.append((m.to, rows[globalRow(m.from)])) }

        // Delete phase (old indices), descending.
        var touched = Set<Int>()
        for ip in removals.sorted(by: >) where !deletedSections.contains(ip.section) {
            deleteRow(at: ip)
            touched.insert(ip.section)
        }
        var sectionDeletes = deletedSections.union(movedSections)
        if batch.removesEmptiedSections {
            for s in touched where sections[s].rowCount == 0 && !movedSections.contains(s) { sectionDeletes.insert(s) }
        }
        var openMovedTo: Int?
        for m in batch.movedSections {
            let (e, before) = entry(m.from)
            let g = Int(before.rows)
            newSections.append((m.to, e, rows.tree.elements(in: g..<(g + Int(e.rowCount)))))
            if lastExpandedSection == m.from { openMovedTo = m.to }
        }
        for s in sectionDeletes.sorted(by: >) { deleteSection(s) }

        // Insert phase (new indices), ascending.
        newSections.sort { $0.0 < $1.0 }
        precondition(Set(newSections.map(\.0)).count == newSections.count, "two sections inserted at one index")
        for (index, e, h) in newSections {
            insertSections([e], heights: h, at: index)
            if index == openMovedTo { lastExpandedSection = index }
        }
        inserts.sort { $0.0 < $1.0 }
        for k in inserts.indices.dropFirst() { precondition(inserts[k - 1].0 != inserts[k].0, "two rows inserted at \(inserts[k].0)") }
        for (ip, p) in inserts { insertRows(at: ip, pixels: [p]) }
    }
}
