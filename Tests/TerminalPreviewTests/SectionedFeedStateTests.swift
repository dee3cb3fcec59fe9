import CellLayout
import Foundation
import StatusModel
import TableLayout
import TerminalPreview
import XCTest

/// The interactive viewer's state over a feed in sections, without a terminal: index jumps,
/// opening and closing, search, delete and undo (with the engine's cache counters), the anchor.
final class SectionedFeedStateTests: XCTestCase {
    /// The demo feed's 13 statuses in four titled sections of 3, 4, 3 and 3 rows.
    private static let titles = ["Alpha", "beta", "今天", "Delta"]

    private func state(
        _ expansion: SectionExpansionMode = .independent, style: TableStyle = .plain, titled: Bool = true,
        footer: String? = nil
    ) throws -> SectionedFeedState {
        let engine = try Shared.requireEngine()
        let statuses = try Shared.statuses("feed.plist")
        XCTAssertEqual(statuses.count, 13)
        let bounds = [0, 3, 7, 10, 13]
        let sections = titled
            ? (0..<4).map {
                FeedSection(
                    header: .title(Self.titles[$0]), statuses: Array(statuses[bounds[$0]..<bounds[$0 + 1]]),
                    footer: $0 == 1 ? footer.map { .title($0) } ?? .none : .none)
            }
            : [FeedSection(statuses: statuses)]
        var options = FeedOptions(width: 375, style: .weibo)
        options.tableStyle = style
        let document = try FeedDocument(engine: engine, options: options, sections: sections, threads: 1)
        return try SectionedFeedState(document: document, title: "demo feed · 13 rows · weibo 375 pt", expansion: expansion)
    }

    private func screen(_ s: SectionedFeedState, top: Int, page: Int = 23) -> [String] {
        s.canvas(top: top, page: page, screenColumns: 80).lines(color: false)
    }

    private func headerLine(_ s: SectionedFeedState, _ section: Int) -> Int {
        Int(s.lines.rectForHeader(inSection: section).y)
    }

    func testIndexTitlesAndJumps() throws {
        var s = try state()
        XCTAssertEqual(s.sectionIndex?.titles, ["A", "b", "今", "D"])
        XCTAssertEqual(s.top, 0)
        // From the title line, ] goes to the first section, then to each next one.
        XCTAssertTrue(s.jumpToSection(next: true, top: s.top))
        XCTAssertEqual(s.anchor.item, .header(0))
        XCTAssertTrue(s.jumpToSection(next: true, top: s.top))
        XCTAssertEqual(s.anchor.item, .header(1))
        XCTAssertEqual(s.top, headerLine(s, 1))
        // A character jumps to the next section whose title starts with it; letters without case.
        XCTAssertTrue(s.jump(toTitleStartingWith: "今", top: s.top))
        XCTAssertEqual(s.anchor.item, .header(2))
        XCTAssertTrue(s.jump(toTitleStartingWith: "d", top: s.top))
        XCTAssertEqual(s.anchor.item, .header(3))
        XCTAssertTrue(s.jump(toTitleStartingWith: "B", top: s.top), "wraps around")
        XCTAssertEqual(s.anchor.item, .header(1))
        XCTAssertFalse(s.jump(toTitleStartingWith: "z", top: s.top))
        XCTAssertEqual(s.anchor.item, .header(1), "a character no title starts with moves nothing")
        XCTAssertTrue(s.jumpToSection(next: false, top: s.top))
        XCTAssertEqual(s.anchor.item, .header(0))
        XCTAssertFalse(s.jumpToSection(next: false, top: s.top), "no title above the first")
        // Scrolled into a section, [ goes back to its own header.
        s.setTop(headerLine(s, 2) + 5)
        XCTAssertTrue(s.jumpToSection(next: false, top: s.top))
        XCTAssertEqual(s.anchor.item, .header(2))
        // The index is drawn at the right edge, the current section's title marked.
        let first = screen(s, top: s.top)
        XCTAssertTrue(first[0].hasSuffix("A"), first[0])
        XCTAssertTrue(first[2].hasSuffix("›今"), first[2])
    }

    func testOpenAndCloseIndependently() throws {
        var s = try state()
        let all = s.lineCount
        let rowsOf1 = (0..<4).reduce(0) { $0 + Int(s.lines.height(ofRow: TableIndexPath(section: 1, row: $1))) }
        s.setTop(headerLine(s, 1))
        XCTAssertTrue(s.toggleSection(atTop: s.top))
        XCTAssertTrue(s.isCollapsed(1))
        XCTAssertTrue(s.document.geometry.isCollapsed(1), "the document follows")
        XCTAssertEqual(s.lineCount, all - rowsOf1)
        XCTAssertEqual(s.top, headerLine(s, 1), "the header stays at the top")
        XCTAssertTrue(screen(s, top: s.top)[0].contains("▸ beta · 4"))
        // Another section opens and closes on its own.
        XCTAssertTrue(s.jumpToSection(next: true, top: s.top))
        XCTAssertTrue(s.toggleSection(atTop: s.top))
        XCTAssertTrue(s.isCollapsed(1) && s.isCollapsed(2))
        XCTAssertTrue(s.jumpToSection(next: false, top: s.top))
        XCTAssertTrue(s.toggleSection(atTop: s.top))
        XCTAssertFalse(s.isCollapsed(1))
        XCTAssertTrue(s.isCollapsed(2))
        XCTAssertTrue(screen(s, top: s.top)[0].contains("▾ beta · 4"))
    }

    func testAccordionOpensOneSectionAtATime() throws {
        var s = try state(.accordion)
        XCTAssertEqual((0..<4).filter { s.isCollapsed($0) }, [0, 1, 2, 3], "every section starts closed")
        XCTAssertEqual(s.lineCount, 1 + 4 + 1, "the title, four headers, the closing line")
        XCTAssertTrue(s.jump(toTitleStartingWith: "b", top: s.top))
        XCTAssertTrue(s.toggleSection(atTop: s.top))
        XCTAssertEqual((0..<4).filter { !s.isCollapsed($0) }, [1])
        XCTAssertTrue(s.jump(toTitleStartingWith: "今", top: s.top))
        XCTAssertTrue(s.toggleSection(atTop: s.top))
        XCTAssertEqual((0..<4).filter { !s.isCollapsed($0) }, [2], "opening a section closes the open one")
        XCTAssertEqual((0..<4).filter { !s.document.geometry.isCollapsed($0) }, [2], "the document follows")
        XCTAssertEqual(s.anchor.item, .header(2))
        XCTAssertTrue(s.toggleSection(atTop: s.top))
        XCTAssertEqual((0..<4).filter { !s.isCollapsed($0) }, [])
    }

    /// A row scrolled to the top stays there when a section above it closes and while a search
    /// that keeps it is shown and cleared.
    func testTheRowAtTheTopStaysThere() throws {
        var s = try state()
        let row = TableIndexPath(section: 2, row: 1)
        s.setTop(Int(s.lines.rectForRow(row).y) + 3)
        let offset = s.anchor
        XCTAssertEqual(offset.item, .row(row))
        XCTAssertEqual(offset.offset, 3)
        let status = s.document.status(at: row)
        let name = status.user.screenName.isEmpty ? status.user.name : status.user.screenName
        try s.setFilter(name)
        XCTAssertNotNil(s.filter)
        let shown = try XCTUnwrap(s.rowAtTop(s.top, page: 1))
        XCTAssertEqual(s.documentPath(shown), row, "the row is the one at the top of the search")
        try s.setFilter(nil)
        XCTAssertEqual(s.anchor, offset)
        XCTAssertEqual(s.top, Int(s.lines.rectForRow(row).y) + 3)
    }

    func testSearchReusesEveryCachedLayout() throws {
        var s = try state()
        let engine = s.document.engine
        _ = screen(s, top: 0)
        let before = engine.layoutCacheStatistics
        try s.setFilter("的")
        let matches = s.document.feedSections.flatMap(\.statuses).filter {
            [$0.user.name, $0.user.screenName, $0.text, $0.retweetedStatus?.text ?? "", $0.retweetedStatus?.user.name ?? ""]
                .contains { $0.contains("的") }
        }
        XCTAssertEqual(s.filter?.count, matches.count)
        XCTAssertGreaterThan(matches.count, 1)
        XCTAssertLessThan(matches.count, 13)
        XCTAssertEqual(s.rowCount, matches.count)
        let lines = screen(s, top: 0, page: 200)
        XCTAssertTrue(lines[0].contains("/的: \(matches.count) of 13 rows"), lines[0])
        let after = engine.layoutCacheStatistics
        XCTAssertEqual(after.misses, before.misses, "nothing laid out again")
        XCTAssertGreaterThan(after.hits, before.hits, "the cells drawn came from the cache")
        XCTAssertNil(s.sectionIndex.flatMap { _ in s.sectionAtTop(0) }, "no sections while searching")
    }

    func testDeleteAndUndoLayOutNoOtherRow() throws {
        var s = try state()
        s.titleForRows = { "feed · \($0) rows" }
        let engine = s.document.engine
        let row = TableIndexPath(section: 1, row: 2)
        s.setTop(Int(s.lines.rectForRow(row).y))
        let deletedStatus = s.document.status(at: row)
        let next = s.document.status(at: TableIndexPath(section: 1, row: 3))
        let lineCount = s.lineCount
        let before = engine.layoutCacheStatistics
        XCTAssertEqual(try s.deleteRow(atTop: s.top, page: 23), row)
        let afterDelete = engine.layoutCacheStatistics
        XCTAssertEqual(afterDelete.misses - before.misses, 0)
        XCTAssertEqual(afterDelete.hits - before.hits, 0, "a delete looks no cell up")
        XCTAssertEqual(s.document.geometry.numberOfRows, 12)
        XCTAssertEqual(s.title, "feed · 12 rows", "the title counts the rows left")
        XCTAssertEqual(s.document.status(at: try XCTUnwrap(s.rowAtTop(s.top, page: 1))).id, next.id, "the next row takes the top")
        XCTAssertEqual(s.label(TableIndexPath(section: 2, row: 0)), 6, "labels after it count one less")

        // A second delete, then two undos in reverse order.
        try s.deleteRow(atTop: s.top, page: 23)
        XCTAssertEqual(s.undoStack.count, 2)
        let beforeUndo = engine.layoutCacheStatistics
        XCTAssertNotNil(try s.undoDelete())
        XCTAssertEqual(s.document.status(at: row).id, next.id)
        XCTAssertNotNil(try s.undoDelete())
        let afterUndo = engine.layoutCacheStatistics
        XCTAssertEqual(afterUndo.misses - beforeUndo.misses, 0, "an undo lays nothing out")
        XCTAssertEqual(afterUndo.hits - beforeUndo.hits, 2, "one cache lookup per row put back")
        XCTAssertEqual(s.document.status(at: row).id, deletedStatus.id)
        XCTAssertEqual(s.title, "feed · 13 rows")
        XCTAssertEqual(s.lineCount, lineCount)
        XCTAssertEqual(s.top, Int(s.lines.rectForRow(row).y), "the row put back is at the top")
        XCTAssertNil(try s.undoDelete(), "nothing left to undo")
    }

    /// A delete and an undo under a search update it in place: the same rows and lines as the
    /// search made again on the edited document.
    func testDeleteWhileSearchingDeletesTheDocumentRow() throws {
        var s = try state()
        try s.setFilter("的")
        let count = try XCTUnwrap(s.filter?.count)
        func checkAgainstFreshSearch(_ what: String) throws {
            var fresh = try SectionedFeedState(document: s.document, title: s.title)
            try fresh.setFilter("的")
            XCTAssertEqual(s.filter?.sourceIndexPaths, fresh.filter?.sourceIndexPaths, what)
            XCTAssertEqual(s.lineCount, fresh.lineCount, what)
            XCTAssertEqual(screen(s, top: 0, page: s.lineCount), screen(fresh, top: 0, page: fresh.lineCount), what)
        }
        // The second match, in the middle of a section: the matches after it in its section move.
        let second = s.documentPath(TableIndexPath(section: 0, row: 1))
        s.setTop(Int(s.lines.rectForRow(TableIndexPath(section: 0, row: 1)).y))
        XCTAssertEqual(try s.deleteRow(atTop: s.top, page: 23), second)
        XCTAssertEqual(s.filter?.count, count - 1)
        XCTAssertEqual(s.document.geometry.numberOfRows, 12)
        try checkAgainstFreshSearch("after the delete")
        try s.deleteRow(atTop: 0, page: 23)
        try checkAgainstFreshSearch("after a second delete")
        try s.undoDelete()
        try s.undoDelete()
        XCTAssertEqual(s.filter?.count, count)
        try checkAgainstFreshSearch("after the undos")
        XCTAssertEqual(s.documentPath(try XCTUnwrap(s.rowAtTop(s.top, page: 1))), second)
        // A row deleted without the search comes back under it only if it matches.
        try s.setFilter(nil)
        try s.deleteRow(atTop: 0, page: 23)
        try s.setFilter("的")
        try s.undoDelete()
        try checkAgainstFreshSearch("an undo under another search")
    }

    func testFloatingHeaderAndGroupedInsets() throws {
        let plain = try state()
        let inside = Int(plain.lines.rectForRow(TableIndexPath(section: 1, row: 1)).y) + 2
        XCTAssertTrue(screen(plain, top: inside)[0].hasPrefix("╞═ ▾ beta · 4"), "the header floats: \(screen(plain, top: inside)[0])")
        // On the last line of a section, its header is still on top; one line further, the next
        // section's header is (pushed up, then floating).
        let end = Int(plain.lines.rectForSection(1).maxY)
        XCTAssertTrue(screen(plain, top: end - 1)[0].contains("beta"))
        XCTAssertTrue(screen(plain, top: end)[0].contains("今天"))

        let grouped = try state(style: .grouped)
        let g = Int(grouped.lines.rectForRow(TableIndexPath(section: 1, row: 1)).y) + 2
        XCTAssertFalse(screen(grouped, top: g)[0].contains("beta"), "grouped headers scroll")
        let header = headerLine(grouped, 1)
        let lines = screen(grouped, top: header - 1)
        XCTAssertEqual(lines[0].prefix(grouped.tableColumns).trimmingCharacters(in: .whitespaces), "", "a blank line between sections")
        XCTAssertTrue(lines[1].hasPrefix("  ┌─ ▾ beta · 4"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("  ├─ #3 "), "rows are inset: \(lines[2])")
        let footer = Int(grouped.lines.rectForFooter(inSection: 1).y)
        XCTAssertTrue(screen(grouped, top: footer)[0].hasPrefix("  └─"))
        XCTAssertEqual(grouped.tableColumns, plain.tableColumns + 4)
    }

    func testFooters() throws {
        let plain = try state(footer: "4 条微博")
        let end = Int(plain.lines.rectForFooter(inSection: 1).y)
        XCTAssertEqual(plain.lines.rectForFooter(inSection: 1).height, 1)
        XCTAssertEqual(plain.lines.rectForFooter(inSection: 0).height, 0, "no footer, no line")
        let lines = screen(plain, top: end - 2)
        XCTAssertTrue(lines[2].hasPrefix("│  4 条微博"), lines[2])
        XCTAssertTrue(lines[3].hasPrefix("╞═ ▾ 今天"), lines[3])
        let grouped = try state(style: .grouped, footer: "4 条微博")
        let g = Int(grouped.lines.rectForFooter(inSection: 1).y)
        XCTAssertTrue(screen(grouped, top: g)[0].hasPrefix("  └─ 4 条微博 ─"), screen(grouped, top: g)[0])
    }

    /// A feed of one section without a title draws exactly the static preview's lines, and the
    /// section keys do nothing on it.
    func testUnsectionedFeedDrawsTheStaticPreview() throws {
        var s = try state(titled: false)
        let doc = try Shared.document(try Shared.statuses("feed.plist"), width: 375, style: .weibo, title: "demo feed")
        let expected = Shared.render(doc, color: false).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertEqual(s.lineCount, expected.count)
        XCTAssertEqual(screen(s, top: 0, page: s.lineCount), expected)
        XCTAssertNil(s.sectionIndex)
        XCTAssertFalse(s.toggleSection(atTop: 0))
        XCTAssertFalse(s.jumpToSection(next: true, top: 0))
        XCTAssertFalse(s.jump(toTitleStartingWith: "A", top: 0))
        try s.deleteRow(atTop: 30, page: 23)
        XCTAssertEqual(s.document.geometry.numberOfRows, 12)
    }

    func testResizedKeepsSectionsSearchUndoAndAnchor() throws {
        var s = try state(.accordion)
        XCTAssertTrue(s.jump(toTitleStartingWith: "b", top: s.top))
        XCTAssertTrue(s.toggleSection(atTop: s.top))
        s.setTop(headerLine(s, 1) + 4)
        try s.deleteRow(atTop: s.top, page: 23)
        let anchor = s.anchor
        let wide = try s.resized(toWidth: 414)
        XCTAssertEqual(wide.document.options.width, 414)
        XCTAssertEqual((0..<4).filter { !wide.isCollapsed($0) }, [1])
        XCTAssertEqual(wide.undoStack.count, 1)
        XCTAssertEqual(wide.anchor, anchor)
        XCTAssertEqual(wide.document.geometry.numberOfRows, 12)
    }

    func testKeysOfSectionsSearchAndEdits() {
        XCTAssertEqual(
            ViewerKey.decode(Array("][/du?\r".utf8) + [0x7F, 0x1B]),
            [.nextSection, .previousSection, .search, .delete, .undo, .help, .enter, .backspace, .escape])
        XCTAssertEqual(ViewerKey.decode(Array("Az'j今".utf8)), [.character("A"), .character("z"), .character("j"), .character("今")])
        let typed = Array("dj/".utf8)
        var keys: [ViewerKey] = []
        var i = 0
        while i < typed.count {
            let (key, next) = ViewerKey.decodeOne(typed, from: i, typingText: true)
            keys.append(key!)
            i = next
        }
        XCTAssertEqual(keys, [.character("d"), .character("j"), .character("/")], "while typing a search, letters are text")
    }
}
