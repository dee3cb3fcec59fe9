import TableLayout

/// A deliberately simple model of a table for randomized comparison: plain arrays of integer pixel
/// heights and linear scans, written independently of the trees.
struct NaiveSection: Equatable {
    var id: Int
    var header: Int64
    var footer: Int64
    var rows: [Int64]
    var collapsed: Bool
}

struct NaiveTable {
    var configuration: TableConfiguration
    var tableHeader: Int64 = 0
    var tableFooter: Int64 = 0
    var sections: [NaiveSection] = []
    var accordion = false
    var lastExpandedID: Int?
    var nextID = 0

    var scale: Double { configuration.scale }
    var spacing: Int64 { Int64((configuration.sectionSpacing * scale).rounded()) }

    mutating func makeSection(header: Int64, rows: [Int64], footer: Int64, collapsed: Bool) -> NaiveSection {
        nextID += 1
        return NaiveSection(id: nextID, header: header, footer: footer, rows: rows, collapsed: collapsed)
    }

    var lastExpandedSection: Int? {
        guard let id = lastExpandedID else { return nil }
        return sections.firstIndex { $0.id == id }
    }

    mutating func setExpanded(_ expanded: Bool, section: Int) {
        if expanded {
            if accordion, let open = lastExpandedSection, open != section { sections[open].collapsed = true }
            sections[section].collapsed = false
            lastExpandedID = sections[section].id
        } else {
            sections[section].collapsed = true
            if lastExpandedID == sections[section].id { lastExpandedID = nil }
        }
    }

    /// Pixel layout of everything, computed by one linear pass.
    struct Layout {
        var sectionTop: [Int64] = []      // after spacing
        var sectionBottom: [Int64] = []
        var rowTop: [[Int64]] = []
        var footerTop: [Int64] = []
        var content: Int64 = 0
        var visibleRows: [(TableIndexPath, Int64, Int64)] = []  // path, top, height
    }

    func layout() -> Layout {
        var l = Layout()
        var y = tableHeader
        for (s, sec) in sections.enumerated() {
            y += spacing
            l.sectionTop.append(y)
            y += sec.header
            var tops: [Int64] = []
            for (r, h) in sec.rows.enumerated() {
                tops.append(y)
                if !sec.collapsed {
                    l.visibleRows.append((TableIndexPath(section: s, row: r), y, h))
                    y += h
                }
            }
            l.rowTop.append(tops)
            l.footerTop.append(y)
            y += sec.footer
            l.sectionBottom.append(y)
        }
        l.content = y + tableFooter
        return l
    }

    func pt(_ p: Int64) -> Double { Double(p) / scale }

    var x: Double { configuration.style == .grouped ? configuration.horizontalInset : 0 }
    var w: Double { configuration.width - 2 * x }

    func rect(_ top: Int64, _ h: Int64) -> TableRect { TableRect(x: x, y: pt(top), width: w, height: pt(h)) }

    static func floorPixel(_ y: Double, _ scale: Double) -> Int64 { Int64((y * scale + 1e-6).rounded(.down)) }
    static func ceilPixel(_ y: Double, _ scale: Double) -> Int64 { Int64((y * scale - 1e-6).rounded(.up)) }

    func indexPathForRow(at y: Double, _ l: Layout) -> TableIndexPath? {
        let p = Self.floorPixel(y, scale)
        return l.visibleRows.first { $0.1 <= p && p < $0.1 + $0.2 }?.0
    }

    func indexPaths(in range: Range<Double>, _ l: Layout) -> [TableIndexPath] {
        let lo = Self.floorPixel(range.lowerBound, scale)
        let hi = Self.ceilPixel(range.upperBound, scale)
        guard lo < hi else { return [] }
        return l.visibleRows.filter { $0.1 < hi && $0.1 + $0.2 > lo }.map(\.0)
    }

    /// Mirrors the batch on plain arrays: reloads, then removals by old index, then the given
    /// final arrangement is already encoded by the caller's simulation (see the randomized test).
    var geometrySpecs: [SectionSpec] {
        sections.map { s in
            SectionSpec(headerHeight: pt(s.header), rowHeights: s.rows.map(pt), footerHeight: pt(s.footer), isCollapsed: s.collapsed)
        }
    }
}
