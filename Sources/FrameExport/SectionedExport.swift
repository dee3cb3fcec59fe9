import CellLayout
import TableLayout

// The export of a sectioned feed (a `FeedDocument`: friend groups, a feed grouped by day): the
// same layout object as a plain feed's, with one entry per section carrying its header's title,
// count and disclosure mark, its collapsed state, its row count and the rows it shows (none when
// collapsed), its footer's text, and the side index at the root. A plain feed never goes through
// this path (`FrameStream` writes it, byte for byte as before).
//
// Rows are written with their index in their section and their y in the table; a collapsed
// section's rows are counted in `rowCount` but not written.

extension FrameExport {
    /// The export of a sectioned feed at its primary width, or at each of `widths` (layouts the
    /// document does not hold yet are added to a copy of it: every cell comes from the engine's
    /// caches or is laid out once).
    ///
    /// JSON: one layout object (several wrapped in `{"layouts": [...]}`, as for a plain feed).
    /// JSON Lines: per layout, each section as a line (`"header"`, no `"row"`) followed by the
    /// lines of the rows it shows.
    /// - Complexity: O(sections + size of the rows shown) per width.
    public static func data(
        _ document: FeedDocument, widths: [Double]? = nil, header: FrameExportHeader, format: FrameFormat = .json
    ) throws(FrameExportError) -> [UInt8] {
        var doc = document
        var layouts: [WidthLayout] = []
        for width in widths ?? [document.options.width] {
            var options = document.options
            options.width = width
            do {
                layouts.append(WidthLayout(options: options, geometry: try doc.layout(forWidth: width)))
            } catch {
                throw .invalidOptions(error.description)
            }
        }
        var out: [UInt8] = []
        let nested = format == .json && layouts.count > 1
        if nested { beginLayouts(header: header, into: &out) }
        for (i, layout) in layouts.enumerated() {
            if nested && i > 0 { separateLayouts(into: &out) }
            var w = JSONBytes(scale: layout.options.scale, capacity: 1 << 16)
            writeSections(doc, layout, header: header, jsonLines: format == .jsonl, into: &w)
            if format == .json && !nested { w.byte(0x0A) }
            w.append(to: &out)
        }
        if nested { endLayouts(into: &out) }
        return out
    }

    private static func writeSections(
        _ doc: FeedDocument, _ layout: WidthLayout, header: FrameExportHeader, jsonLines: Bool, into w: inout JSONBytes
    ) {
        let g = layout.geometry
        let width: Double? = jsonLines ? layout.options.width : nil
        // The first index title pointing at each section.
        var indexTitle: [Int: String] = [:]
        if let index = g.sectionIndex {
            for (t, s) in zip(index.titles, index.sections).reversed() { indexTitle[s] = t }
        }
        if !jsonLines {
            FrameStream.layoutHead(options: layout.options, header: header, into: &w)
            w.raw(",\"sectionIndex\":[")
            if let index = g.sectionIndex {
                for (k, (t, s)) in zip(index.titles, index.sections).enumerated() {
                    if k > 0 { w.byte(UInt8(ascii: ",")) }
                    w.raw("{\"title\":")
                    w.string(t)
                    w.raw(",\"section\":")
                    w.int(s)
                    w.byte(UInt8(ascii: "}"))
                }
            }
            w.raw("],\"sections\":[")
        }
        for s in 0..<g.numberOfSections {
            if !jsonLines && s > 0 { w.byte(UInt8(ascii: ",")) }
            if !jsonLines { w.byte(0x0A) }
            let collapsed = g.isCollapsed(s)
            w.byte(UInt8(ascii: "{"))
            if let width {
                w.raw("\"width\":")
                w.plainNumber(width)
                w.byte(UInt8(ascii: ","))
            }
            w.raw("\"section\":")
            w.int(s)
            var title = "", detail: String?, disclosure = false
            switch doc.header(ofSection: s) {
            case .header(let h): (title, detail, disclosure) = (h.title, h.detail(rowCount: doc.numberOfRows(inSection: s)), h.showsDisclosure)
            case .title(let t): title = t
            case .none, .fixed: break
            }
            w.raw(",\"title\":")
            w.string(title)
            if let detail {
                w.raw(",\"detail\":")
                w.string(detail)
            }
            if let t = indexTitle[s] {
                w.raw(",\"indexTitle\":")
                w.string(t)
            }
            w.raw(",\"disclosure\":")
            w.bool(disclosure)
            w.raw(",\"collapsed\":")
            w.bool(collapsed)
            w.raw(",\"header\":")
            tableRect(g.rectForHeader(inSection: s), into: &w)
            let rows = g.numberOfRows(inSection: s)
            w.raw(",\"rowCount\":")
            w.int(rows)
            if !jsonLines {
                w.raw(",\"rows\":[")
                if !collapsed {
                    for r in 0..<rows {
                        w.raw(r == 0 ? "\n" : ",\n")
                        row(doc, layout, s, r, width: nil, into: &w)
                    }
                    if rows > 0 { w.byte(0x0A) }
                }
                w.byte(UInt8(ascii: "]"))
            }
            w.raw(",\"footer\":")
            tableRect(g.rectForFooter(inSection: s), into: &w)
            if case .title(let t) = doc.footer(ofSection: s) {
                w.raw(",\"footerTitle\":")
                w.string(t)
            }
            w.byte(UInt8(ascii: "}"))
            if jsonLines {
                w.byte(0x0A)
                if !collapsed {
                    for r in 0..<rows {
                        row(doc, layout, s, r, width: width, into: &w)
                        w.byte(0x0A)
                    }
                }
            }
        }
        if !jsonLines {
            w.raw("\n],\"rowCount\":")
            w.int(g.numberOfRows)
            w.raw(",\"rowRange\":[0,")
            w.int(g.numberOfRows)
            w.raw("],\"contentHeight\":")
            w.pixelNumber(w.pixels(g.contentHeight))
            w.byte(UInt8(ascii: "}"))
        }
    }

    private static func row(
        _ doc: FeedDocument, _ layout: WidthLayout, _ s: Int, _ r: Int, width: Double?, into w: inout JSONBytes
    ) {
        let ip = TableIndexPath(section: s, row: r)
        let cell = doc.engine.cell(for: doc.status(at: ip), options: layout.options)
        w.row(cell, section: s, row: r, yPixels: w.pixels(layout.geometry.rectForRow(ip).y), width: width)
    }

    /// One exported width: the document's options at that width and its table.
    private struct WidthLayout {
        let options: FeedOptions
        let geometry: TableGeometry
    }

    private static func tableRect(_ r: TableRect, into w: inout JSONBytes) {
        w.rect(r.x, r.y, r.width, r.height)
    }
}
