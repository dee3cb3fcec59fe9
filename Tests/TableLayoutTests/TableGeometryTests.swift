import XCTest
import _LayoutTestSupport
@testable import TableLayout

final class TableGeometryTests: XCTestCase {
    func ip(_ s: Int, _ r: Int) -> TableIndexPath { TableIndexPath(section: s, row: r) }

    /// Table header 10, section 0: header 20, rows 44 and 50.5, footer 5; section 1: header 20,
    /// row 30; table footer 8; scale 2, width 320.
    func makePlain(spacing: Double? = nil) throws -> TableGeometry {
        try TableGeometry(
            configuration: TableConfiguration(style: .plain, width: 320, scale: 2, sectionSpacing: spacing),
            tableHeaderHeight: 10, tableFooterHeight: 8,
            sections: [
                SectionSpec(headerHeight: 20, rowHeights: [44, 50.5], footerHeight: 5),
                SectionSpec(headerHeight: 20, rowHeights: [30]),
            ])
    }

    func testPlainStyleRects() throws {
        let g = try makePlain()
        XCTAssertEqual(g.rectForTableHeader, TableRect(x: 0, y: 0, width: 320, height: 10))
        XCTAssertEqual(g.rectForHeader(inSection: 0), TableRect(x: 0, y: 10, width: 320, height: 20))
        XCTAssertEqual(g.rectForRow(ip(0, 0)), TableRect(x: 0, y: 30, width: 320, height: 44))
        XCTAssertEqual(g.rectForRow(ip(0, 1)), TableRect(x: 0, y: 74, width: 320, height: 50.5))
        XCTAssertEqual(g.rectForFooter(inSection: 0), TableRect(x: 0, y: 124.5, width: 320, height: 5))
        XCTAssertEqual(g.rectForSection(0), TableRect(x: 0, y: 10, width: 320, height: 119.5))
        XCTAssertEqual(g.rectForHeader(inSection: 1).minY, 129.5)
        XCTAssertEqual(g.rectForRow(ip(1, 0)), TableRect(x: 0, y: 149.5, width: 320, height: 30))
        XCTAssertEqual(g.rectForTableFooter, TableRect(x: 0, y: 179.5, width: 320, height: 8))
        XCTAssertEqual(g.contentHeight, 187.5)
    }

    func testPlainSpacingIsAddedBeforeEachSection() throws {
        let g = try makePlain(spacing: 1)
        XCTAssertEqual(g.rectForHeader(inSection: 0).minY, 11)
        XCTAssertEqual(g.rectForHeader(inSection: 1).minY, 131.5)
        XCTAssertEqual(g.contentHeight, 189.5)
        XCTAssertNil(g.indexPathForRow(at: 130.9), "the spacing between sections holds no row")
    }

    func testGroupedStyleInsetsAndGaps() throws {
        let g = try TableGeometry(
            configuration: TableConfiguration(style: .grouped, width: 375, scale: 3),
            sections: [SectionSpec(headerHeight: 30, rowHeights: [44]), SectionSpec(rowHeights: [44, 44], footerHeight: 10)])
        XCTAssertEqual(g.configuration.sectionSpacing, 20)
        XCTAssertEqual(g.rectForHeader(inSection: 0), TableRect(x: 16, y: 20, width: 343, height: 30))
        XCTAssertEqual(g.rectForRow(ip(0, 0)), TableRect(x: 16, y: 50, width: 343, height: 44))
        XCTAssertEqual(g.rectForSection(1), TableRect(x: 16, y: 114, width: 343, height: 98))
        XCTAssertEqual(g.rectForTableFooter.width, 375, "table header and footer span the full width")
        XCTAssertEqual(g.contentHeight, 212)
        XCTAssertNil(g.indexPathForRow(at: 100), "inside the gap")
        XCTAssertEqual(g.indexPathForRow(at: 114), ip(1, 0))
        XCTAssertEqual(g.floatingHeaderFrame(inSection: 0, scrollOffset: 40), g.rectForHeader(inSection: 0), "grouped headers scroll")
    }

    func testIndexPathForRowEdgesHeadersAndFooters() throws {
        let g = try makePlain()
        XCTAssertNil(g.indexPathForRow(at: -1))
        XCTAssertNil(g.indexPathForRow(at: 5), "table header")
        XCTAssertNil(g.indexPathForRow(at: 29.5), "section header")
        XCTAssertEqual(g.indexPathForRow(at: 30), ip(0, 0))
        XCTAssertEqual(g.indexPathForRow(at: 73.9), ip(0, 0))
        XCTAssertEqual(g.indexPathForRow(at: 74), ip(0, 1))
        XCTAssertNil(g.indexPathForRow(at: 124.5), "footer")
        XCTAssertEqual(g.indexPathForRow(at: 179.4), ip(1, 0))
        XCTAssertNil(g.indexPathForRow(at: 179.5), "table footer")
        XCTAssertNil(g.indexPathForRow(at: 1000))
        XCTAssertNil(g.indexPathForRow(at: .nan))
        XCTAssertEqual(g.indexPathsForRows(in: 0..<Double.infinity).count, 3)
        XCTAssertEqual(g.indexPathsForRows(in: 0..<1000), [ip(0, 0), ip(0, 1), ip(1, 0)])
        XCTAssertEqual(g.indexPathsForRows(in: 74..<150), [ip(0, 1), ip(1, 0)])
        XCTAssertEqual(g.indexPathsForRows(in: 124.5..<149.5), [], "footer and header only")
        XCTAssertEqual(g.indexPathsForRows(in: 50..<50), [], "an empty range on the pixel grid")
        XCTAssertEqual(g.indexPathsForRows(in: 50.25..<50.25), [ip(0, 0)], "an empty range between pixels probes the row containing it")
    }

    func testFloatingHeaderSticksAndIsPushedUp() throws {
        let g = try makePlain()
        // Section 0 header at 10, section ends at 129.5, header 20: pushed up from 109.5.
        XCTAssertEqual(g.floatingHeaderFrame(inSection: 0, scrollOffset: 0).minY, 10)
        XCTAssertEqual(g.floatingHeaderFrame(inSection: 0, scrollOffset: 60).minY, 60)
        XCTAssertEqual(g.floatingHeaderFrame(inSection: 0, scrollOffset: 109.5).minY, 109.5)
        XCTAssertEqual(g.floatingHeaderFrame(inSection: 0, scrollOffset: 120).minY, 109.5)
        XCTAssertEqual(g.floatingHeaderFrame(inSection: 1, scrollOffset: 120).minY, 129.5)
        XCTAssertEqual(g.floatingHeaderFrame(inSection: 1, scrollOffset: 150).minY, 150)
        // A NaN offset is no offset: the header where it lies (it was at y = NaN).
        XCTAssertEqual(g.floatingHeaderFrame(inSection: 0, scrollOffset: .nan).minY, 10)
    }

    func testSectionIndex() throws {
        var g = try TableGeometry(
            configuration: TableConfiguration(style: .plain, width: 320),
            sections: Array(repeating: SectionSpec(headerHeight: 20, rowHeights: [44]), count: 4))
        g.sectionIndex = SectionIndex(titles: ["A", "B", "C", "D", "#"], sectionTitles: ["A", "C", "D", "Z"])
        XCTAssertEqual(g.sectionIndex?.sections, [0, 1, 1, 2, 0])
        XCTAssertEqual(g.section(forIndexTitle: "B"), 1, "a letter without a section jumps to the next one")
        XCTAssertEqual(g.section(forIndexTitle: "D"), 2)
        XCTAssertNil(g.section(forIndexTitle: "Q"))
        try g.insertSection(SectionSpec(rowHeights: [1]), at: 0)
        XCTAssertEqual(g.section(forIndexTitle: "D"), 3, "targets follow section inserts")
        g.deleteSections(0..<2)
        XCTAssertEqual(g.sectionIndex?.sections, [0, 0, 0, 1, 0])
    }

    func testExpandCollapseKeepsHeightsAndHeader() throws {
        var g = try makePlain()
        let full = g.contentHeight
        g.setExpanded(false, section: 0)
        XCTAssertTrue(g.isCollapsed(0))
        XCTAssertEqual(g.contentHeight, full - 94.5)
        XCTAssertEqual(g.rectForHeader(inSection: 0).height, 20)
        XCTAssertEqual(g.rectForRow(ip(0, 1)).height, 0)
        XCTAssertEqual(g.height(ofRow: ip(0, 1)), 50.5, "heights stay stored")
        XCTAssertEqual(g.indexPathsForRows(in: 0..<1000), [ip(1, 0)])
        g.toggleSection(0)
        XCTAssertEqual(g.contentHeight, full)
        XCTAssertEqual(g.rectForRow(ip(0, 1)), TableRect(x: 0, y: 74, width: 320, height: 50.5))
    }

    func testAccordionOpensOneSectionAtATime() throws {
        var g = try TableGeometry(
            configuration: TableConfiguration(style: .plain, width: 320),
            sections: Array(repeating: SectionSpec(headerHeight: 40, rowHeights: [60, 60], isCollapsed: true), count: 3))
        g.expansionMode = .accordion
        XCTAssertEqual(g.contentHeight, 120)
        g.setExpanded(true, section: 0)
        XCTAssertEqual((0..<3).map(g.isCollapsed), [false, true, true])
        g.toggleSection(2)
        XCTAssertEqual((0..<3).map(g.isCollapsed), [true, true, false])
        XCTAssertEqual(g.contentHeight, 240)
        g.toggleSection(2)
        XCTAssertEqual((0..<3).map(g.isCollapsed), [true, true, true])
        XCTAssertNil(g.lastExpandedSection)
        g.setExpanded(true, section: 1)
        try g.insertSection(SectionSpec(rowHeights: [], isCollapsed: true), at: 0)
        XCTAssertEqual(g.lastExpandedSection, 2, "the open section is tracked across inserts")
        g.setExpanded(true, section: 3)
        XCTAssertEqual((0..<4).map(g.isCollapsed), [true, true, true, false])
    }

    func testBatchUpdateUsesOldIndicesForDeletesAndNewForInserts() throws {
        var g = try TableGeometry(
            configuration: TableConfiguration(style: .plain, width: 100, scale: 1),
            sections: [SectionSpec(rowHeights: [1, 2, 3, 4]), SectionSpec(rowHeights: [5, 6])])
        var batch = TableBatchUpdate()
        batch.deletedRows = [ip(0, 0), ip(0, 2)]          // removes 1 and 3 (old indices)
        batch.reloadedRows = [.init(ip(1, 1), 60)]   // old index
        batch.movedRows = [.init(from: ip(0, 3), to: ip(1, 0))]  // 4 goes to the top of section 1
        batch.insertedRows = [.init(ip(0, 0), 10), .init(ip(0, 2), 20)]  // new indices
        try g.performBatchUpdates(batch)
        g._checkInvariants()
        XCTAssertEqual((0..<g.numberOfRows(inSection: 0)).map { g.height(ofRow: ip(0, $0)) }, [10, 2, 20])
        XCTAssertEqual((0..<g.numberOfRows(inSection: 1)).map { g.height(ofRow: ip(1, $0)) }, [4, 5, 60])
    }

    func testBatchMovesSectionsWithTheirRows() throws {
        var g = try TableGeometry(
            configuration: TableConfiguration(style: .plain, width: 100, scale: 1),
            sections: [SectionSpec(headerHeight: 1, rowHeights: [10, 11]), SectionSpec(headerHeight: 2, rowHeights: [20]),
                       SectionSpec(headerHeight: 3, rowHeights: [30])])
        var batch = TableBatchUpdate()
        batch.deletedRows = [ip(0, 0)]                     // old index, inside the moved section
        batch.movedSections = [.init(from: 0, to: 2)]
        batch.insertedRows = [.init(ip(2, 0), 5)]  // new index, inside the moved section
        try g.performBatchUpdates(batch)
        g._checkInvariants()
        XCTAssertEqual((0..<3).map { g.rectForHeader(inSection: $0).height }, [2, 3, 1])
        XCTAssertEqual(g.heights(ofRowsInSection: 2, rows: 0..<2), [5, 11])
    }

    func testBatchRemovesEmptiedSectionsOnlyWhenAsked() throws {
        let base = try TableGeometry(
            configuration: TableConfiguration(style: .plain, width: 100, scale: 1),
            sections: [SectionSpec(headerHeight: 10, rowHeights: [1]), SectionSpec(headerHeight: 10, rowHeights: [2]), SectionSpec(rowHeights: [])])
        var batch = TableBatchUpdate()
        batch.deletedRows = [ip(0, 0)]
        var kept = base
        try kept.performBatchUpdates(batch)
        XCTAssertEqual(kept.numberOfSections, 3)
        batch.removesEmptiedSections = true
        batch.insertedRows = [.init(ip(0, 1), 7)]  // index after section 0 is gone
        var removed = base
        try removed.performBatchUpdates(batch)
        XCTAssertEqual(removed.numberOfSections, 2, "the emptied section goes, the already-empty one stays")
        XCTAssertEqual(removed.numberOfRows(inSection: 0), 2)
        XCTAssertEqual(removed.height(ofRow: ip(0, 1)), 7)
    }

    func testSingleEditsAndMoves() throws {
        var g = try makePlain()
        try g.insertRow(at: ip(1, 0), height: 12)
        g.moveRow(from: ip(0, 0), to: ip(1, 2))
        XCTAssertEqual((0..<3).map { g.height(ofRow: ip(1, $0)) }, [12, 30, 44])
        g.moveSection(from: 1, to: 0)
        XCTAssertEqual(g.numberOfRows(inSection: 0), 3)
        XCTAssertEqual(g.rectForRow(ip(0, 0)).minY, 30)
        try g.reloadSection(1, with: SectionSpec(headerHeight: 0, rowHeights: [1, 1, 1]))
        XCTAssertEqual(g.numberOfRows(inSection: 1), 3)
        g.deleteSection(0)
        XCTAssertEqual(g.contentHeight, 10 + 3 + 8)
        g._checkInvariants()
    }

    func testInvalidHeightsThrowAndLeaveTheTableUnchanged() throws {
        var g = try makePlain()
        let before = g
        XCTAssertThrowsError(try g.insertRow(at: ip(0, 0), height: -1)) { error in
            XCTAssertEqual(error as? TableLayoutError, .invalidHeight(-1, context: "row 0 of section 0"))
        }
        XCTAssertThrowsError(try g.reloadRow(at: ip(0, 0), height: .nan))
        XCTAssertThrowsError(try g.insertRow(at: ip(0, 0), height: 2e9))
        var batch = TableBatchUpdate()
        batch.deletedRows = [ip(0, 0)]
        batch.insertedRows = [.init(ip(0, 0), .infinity)]
        XCTAssertThrowsError(try g.performBatchUpdates(batch))
        XCTAssertEqual(g, before)
        XCTAssertThrowsError(try TableGeometry(configuration: TableConfiguration(style: .plain, width: 100, scale: 0)))
        XCTAssertThrowsError(try TableGeometry(configuration: TableConfiguration(style: .grouped, width: 20)))
    }

    func testHeightsAreRoundedToThePixelGrid() throws {
        let g = try TableGeometry(configuration: TableConfiguration(style: .plain, width: 100, scale: 3),
                                  sections: [SectionSpec(rowHeights: [10.0 / 3, 1.0 / 3, 0.4])])
        XCTAssertEqual(g.rectForRow(ip(0, 2)).minY, 11.0 / 3)
        XCTAssertEqual(g.contentHeight, 12.0 / 3, "0.4 pt rounds to 1 px at 3x")
    }

    func testFilteredGeometryReusesHeights() throws {
        let g = try makePlain()
        let f = g.filtered(rows: [ip(1, 0), ip(0, 1)])
        XCTAssertEqual(f.numberOfSections, 1)
        XCTAssertEqual(f.rectForRow(ip(0, 0)), TableRect(x: 0, y: 0, width: 320, height: 30))
        XCTAssertEqual(f.rectForRow(ip(0, 1)), TableRect(x: 0, y: 30, width: 320, height: 50.5))
        XCTAssertEqual(f.contentHeight, 80.5)
        XCTAssertEqual(g.numberOfRows, 3, "the source is untouched")
    }

    func testCopiesAreIndependent() throws {
        let a = try makePlain()
        var b = a
        try b.reloadRow(at: ip(0, 0), height: 1)
        XCTAssertEqual(a.height(ofRow: ip(0, 0)), 44)
        XCTAssertEqual(b.height(ofRow: ip(0, 0)), 1)
        XCTAssertNotEqual(a, b)
    }

    func testMillionRowsBulkBuildAndBytesPerRow() throws {
        var rng = SplitMix64(seed: 7)
        let n = 1_000_000
        var heights = [Double](repeating: 0, count: n)
        var total: Int64 = 0
        for i in 0..<n {
            let px = Int64.random(in: 60...900, using: &rng)
            heights[i] = Double(px) / 3
            total += px
        }
        var g = try TableGeometry(configuration: TableConfiguration(style: .plain, width: 375, scale: 3),
                                  sections: [SectionSpec(rowHeights: heights)])
        XCTAssertEqual(g.numberOfRows, n)
        XCTAssertEqual(g.contentHeight, Double(total) / 3)
        let bytesPerRow = Double(g.residentBytes) / Double(n)
        print("TableGeometry: \(g.residentBytes) bytes for \(n) rows = \(bytesPerRow) B/row")
        XCTAssertLessThanOrEqual(bytesPerRow, 64)
        let middle = ip(0, n / 2)
        let r = g.rectForRow(middle)
        XCTAssertEqual(g.indexPathForRow(at: r.minY), middle)
        XCTAssertEqual(g.indexPathForRow(at: r.maxY - 1.0 / 3), middle)
        try g.insertRow(at: middle, height: 10)
        XCTAssertEqual(g.rectForRow(ip(0, n / 2 + 1)).minY, r.minY + 10)
        g.deleteRows(inSection: 0, rows: 1000..<400_000)
        XCTAssertEqual(g.numberOfRows, n + 1 - 399_000)
        g._checkInvariants()
    }
}
