import CellLayout
import Foundation
import StatusModel
import TableLayout
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import FrameExport

private let measurer: TextMeasurer? = try? TextMeasurer(fonts: FontSet.load(directory: TestPaths.fonts))

/// The export of sectioned feeds: the friend list (goldens at three widths), closed sections,
/// the side index, JSON Lines section lines, and plain feeds left as they were.
final class SectionedExportTests: XCTestCase {
    private func engine() throws -> FeedEngine {
        guard let m = measurer else { throw XCTSkip("pinned fonts are not installed: run scripts/setup.sh") }
        return FeedEngine(cellEngine: CellLayoutEngine(measurer: m))
    }

    private func header() throws -> FrameExportHeader {
        guard let m = measurer else { throw XCTSkip("pinned fonts are not installed: run scripts/setup.sh") }
        return FrameExportHeader(generatorVersion: "test", manifest: m.fonts.manifest)
    }

    private func friends() throws -> Feed {
        try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("friends.plist")).feed
    }

    private func validator() throws -> SchemaValidator {
        let url = TestPaths.packageRoot.appendingPathComponent("docs/frames.schema.json")
        return try SchemaValidator(schema: JSONParser.parse(Array(try Data(contentsOf: url))))
    }

    /// The friend list with groups 1 (家人), 4 (an empty group) and 10 (a long name) open.
    private func friendDocument(width: Double) throws -> FeedDocument {
        let feed = try friends()
        var doc = try FeedDocument(
            engine: try engine(), options: FeedOptions(width: width, style: .friend), statusSections: try XCTUnwrap(feed.sections),
            threads: 1)
        for s in [1, 4, 10] { doc.setExpanded(true, section: s) }
        return doc
    }

    func testFriendListGoldensAtThreeWidths() throws {
        let v = try validator()
        for width in [320.0, 375, 414] {
            let bytes = try FrameExport.data(try friendDocument(width: width), header: try header())
            let doc = try JSONParser.parse(bytes)
            XCTAssertEqual(v.errors(doc, ref: nil), [], "\(width)")
            assertGolden(String(decoding: bytes, as: UTF8.self), named: "friend-friends-\(Int(width))-open-1-4-10.json")
        }
    }

    func testClosedSectionExportsItsHeaderOnly() throws {
        let doc = try friendDocument(width: 375)
        let root = try JSONParser.parse(try FrameExport.data(doc, header: try header()))
        let sections = try XCTUnwrap(root["sections"]?.array)
        XCTAssertEqual(sections.count, 12)
        // Group 2 (同学, 138 friends) is closed: header only, its rows counted but not written.
        let closed = sections[2]
        XCTAssertEqual(closed["title"]?.stringValue, "同学")
        XCTAssertEqual(closed["detail"]?.stringValue, "46/138")
        XCTAssertEqual(closed["collapsed"], .bool(true))
        XCTAssertEqual(closed["disclosure"], .bool(true))
        XCTAssertEqual(closed["rowCount"]?.double, 138)
        XCTAssertEqual(closed["rows"]?.array?.count, 0)
        let h = try XCTUnwrap(closed["header"]?.array?.compactMap(\.double))
        let f = try XCTUnwrap(closed["footer"]?.array?.compactMap(\.double))
        XCTAssertEqual(h[3], 44, "the friend style's header height")
        XCTAssertEqual(f[1], h[1] + h[3], "a closed section's footer follows its header")
        // The open group shows its 6 rows right under its header, 60 pt apart.
        let open = sections[1]
        XCTAssertEqual(open["collapsed"], .bool(false))
        let rows = try XCTUnwrap(open["rows"]?.array)
        XCTAssertEqual(rows.count, 6)
        let top = try XCTUnwrap(open["header"]?.array?.compactMap(\.double))
        XCTAssertEqual(rows.map { $0["y"]?.double }, (0..<6).map { top[1] + top[3] + 60 * Double($0) })
        XCTAssertEqual(rows.map { $0["row"]?.double }, (0..<6).map { Double($0) })
        // Totals: every row counted, the content height is 12 headers and 15 open rows.
        XCTAssertEqual(root["rowCount"]?.double, 393)
        XCTAssertEqual(root["contentHeight"]?.double, 12 * 44 + 15 * 60)
        // The side index: one entry per distinct first character, pointing at its section.
        let index = try XCTUnwrap(root["sectionIndex"]?.array)
        XCTAssertEqual(index.first?["title"]?.stringValue, "我")
        XCTAssertEqual(index.map { $0["section"]?.double }.count, 11, "同学 and 同事 share 同")
    }

    func testJSONLinesHaveASectionLineBeforeItsRows() throws {
        let doc = try friendDocument(width: 375)
        let bytes = try FrameExport.data(doc, widths: [375, 320], header: try header(), format: .jsonl)
        let v = try validator()
        var sectionLines = 0
        var rowLines = 0
        for line in bytes.split(separator: 0x0A) {
            let value = try JSONParser.parse(Array(line))
            let isSection = value["row"] == nil
            XCTAssertEqual(v.errors(value, ref: isSection ? "#/$defs/jsonLinesSection" : "#/$defs/jsonLinesRow"), [])
            if isSection { sectionLines += 1 } else { rowLines += 1 }
        }
        XCTAssertEqual(sectionLines, 24, "12 sections at two widths")
        XCTAssertEqual(rowLines, 30, "15 open rows at two widths")
        // The same document at 320 is the same as a document made at 320.
        let at320 = try FrameExport.data(try friendDocument(width: 320), header: try header(), format: .jsonl)
        let second = bytes.split(separator: 0x0A).dropFirst(27).map { Array($0) + [0x0A] }.joined()
        XCTAssertEqual(Array(second), at320)
    }

    func testAGroupedFeedHasDayHeadersAndEveryRow() throws {
        let statuses = try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("feed.plist")).feed.statuses
        let now = try XCTUnwrap(statuses.compactMap(\.createdAt).max())
        let sections = StatusSection.group(statuses, by: .day, now: now, timeZone: TimeZone(secondsFromGMT: 8 * 3600)!)
        let doc = try FeedDocument(engine: try engine(), options: FeedOptions(width: 375), statusSections: sections, threads: 1)
        let root = try JSONParser.parse(try FrameExport.data(doc, header: try header()))
        XCTAssertEqual(try validator().errors(root, ref: nil), [])
        let out = try XCTUnwrap(root["sections"]?.array)
        XCTAssertEqual(out.first?["title"]?.stringValue, "今天")
        XCTAssertEqual(out.map { $0["rows"]?.array?.count ?? -1 }, sections.map(\.statuses.count))
        XCTAssertTrue(out.allSatisfy { $0["disclosure"] == .bool(false) && $0["detail"] == nil })
        let h = try XCTUnwrap(out.first?["header"]?.array?.compactMap(\.double))
        XCTAssertEqual(h[3], CellStyle.weibo.sections.headerHeight)
    }
}
