import CellLayout
import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport
@testable import TableLayout

/// FeedDocument made from loaded sections: headers of the style's height, initial collapsed
/// states, the accordion, the side index, and a second width that keeps them.
final class StatusSectionDocumentTests: XCTestCase {
    private func sections() -> [StatusSection] {
        let s = FeedFixtures.generated(9)
        return [
            StatusSection(title: "同学", statuses: Array(s[0..<4]), onlineCount: 2, isCollapsed: true),
            StatusSection(title: "同事", statuses: Array(s[4..<6]), onlineCount: 1, isCollapsed: true),
            StatusSection(title: "Family", footer: "家人", statuses: Array(s[6..<9]), onlineCount: 3, isCollapsed: true),
            StatusSection(title: "", statuses: [], isCollapsed: true),
        ]
    }

    func testHeaderCountsFollowDeletesAndInserts() throws {
        let (engine, _) = FeedFixtures.fakeEngine()
        var doc = try FeedDocument(
            engine: engine, options: FeedOptions(width: 320, style: .friend), statusSections: sections(), expansionMode: .independent,
            threads: 1)
        func detail(_ s: Int) -> String? {
            guard case .header(let h) = doc.header(ofSection: s) else { return nil }
            return h.detail(rowCount: doc.numberOfRows(inSection: s))
        }
        XCTAssertEqual((0..<4).map(detail), ["2/4", "1/2", "3/3", nil])
        // A deleted friend leaves the total one smaller; online never exceeds the total.
        let removed = doc.status(at: TableIndexPath(section: 2, row: 0))
        doc.deleteRow(at: TableIndexPath(section: 2, row: 0))
        XCTAssertEqual(detail(2), "2/2")
        doc.deleteRows(inSection: 0, rows: 0..<3)
        XCTAssertEqual(detail(0), "1/1")
        doc.insertRow(removed, at: TableIndexPath(section: 2, row: 0))
        XCTAssertEqual(detail(2), "3/3")
    }

    func testHeadersIndexAndCollapsedStatesComeFromTheSectionsAndTheStyle() throws {
        let (engine, _) = FeedFixtures.fakeEngine()
        var doc = try FeedDocument(
            engine: engine, options: FeedOptions(width: 320, style: .friend), statusSections: sections(), expansionMode: .accordion,
            threads: 1)
        XCTAssertEqual(doc.numberOfSections, 4)
        XCTAssertEqual(doc.geometry.numberOfRows, 9)
        XCTAssertEqual(
            doc.header(ofSection: 0),
            .header(FeedSectionHeader(title: "同学", onlineCount: 2, showsDisclosure: true, height: 44)))
        XCTAssertEqual(doc.footer(ofSection: 2), .title("家人"))
        XCTAssertEqual((0..<4).map(doc.geometry.isCollapsed), [true, true, true, true])
        // Closed: headers (and the one footer) only.
        let footer = doc.geometry.rectForFooter(inSection: 2).height
        XCTAssertGreaterThan(footer, 0)
        XCTAssertEqual(doc.geometry.contentHeight, 4 * 44 + footer)
        // The side index: "同" once (its first section), "F"; the untitled section has none.
        XCTAssertEqual(doc.geometry.sectionIndex?.titles, ["同", "F"])
        XCTAssertEqual(doc.geometry.sectionIndex?.sections, [0, 2])
        // The accordion: opening a group closes the one opened before.
        doc.setExpanded(true, section: 0)
        doc.setExpanded(true, section: 2)
        XCTAssertEqual((0..<4).map(doc.geometry.isCollapsed), [true, true, false, true])
        XCTAssertEqual(doc.geometry.contentHeight, 4 * 44 + footer + 3 * 60, "three friend rows of 60 pt")
        // A width added later keeps the open and closed sections, the mode and the index.
        let other = try doc.layout(forWidth: 414)
        XCTAssertEqual((0..<4).map(other.isCollapsed), [true, true, false, true])
        XCTAssertEqual(other.expansionMode, .accordion)
        XCTAssertEqual(other.sectionIndex, doc.geometry.sectionIndex)
        XCTAssertEqual(doc.feedSections.map(\.isCollapsed), [true, true, false, true])
    }

    func testAStyleWithoutDisclosureHasNoMarkAndItsOwnHeaderHeight() throws {
        let (engine, _) = FeedFixtures.fakeEngine()
        let doc = try FeedDocument(engine: engine, options: FeedOptions(width: 375), statusSections: sections(), threads: 1)
        guard case .header(let h) = doc.header(ofSection: 1) else { return XCTFail("a one-line header") }
        XCTAssertFalse(h.showsDisclosure)
        XCTAssertEqual(h.height, CellStyle.weibo.sections.headerHeight)
        XCTAssertEqual(doc.expansionMode, .independent)
        XCTAssertEqual(doc.geometry.rectForHeader(inSection: 3).height, 28)
    }

    func testAnInvalidHeaderHeightIsAnError() throws {
        let (engine, _) = FeedFixtures.fakeEngine()
        let bad = FeedSection(header: .header(FeedSectionHeader(title: "x", height: -1)), statuses: [])
        XCTAssertThrowsError(try FeedDocument(engine: engine, options: FeedOptions(width: 375), sections: [bad], threads: 1))
    }
}
