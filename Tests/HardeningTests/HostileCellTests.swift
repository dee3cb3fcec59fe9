// Hostile statuses through the cell layout and the feed engine, and the regression tests of what
// the fuzzers found (docs/hardening.md lists each finding with its fix).
import CellLayout
import Foundation
import StatusModel
import TableLayout
import TextMeasure
import XCTest
import _LayoutTestSupport

final class HostileCellTests: XCTestCase {
    private func engine() throws -> CellLayoutEngine {
        CellLayoutEngine(measurer: try Hardening.requireMeasurer(), now: Date(timeIntervalSince1970: 1_700_000_000))
    }

    private func status(_ text: String, name: String = "name", memberBadge: String? = nil) -> Status {
        Status(id: 1, createdAt: Date(timeIntervalSince1970: 1_699_999_000), source: "src", text: text,
            user: User(id: 2, name: name), memberBadge: memberBadge)
    }

    /// Every frame of `c` (blocks, header, texts and their parts) lies inside the cell and is finite.
    private func assertInside(_ c: CellGeometry, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let cell = Rect(x: 0, y: 0, width: c.width, height: c.height)
        XCTAssertTrue(c.height.isFinite && c.height >= 0, "\(what): height \(c.height)", file: file, line: line)
        var frames: [(String, Rect)] = c.blocks.map { ("block", $0.frame) } + [("avatar", c.avatar)]
        if let b = c.memberBadge { frames.append(("member badge", b.frame)) }
        var boxes = [("name", c.name), ("time", c.time)]
        if let s = c.source { boxes.append(("source", s)) }
        if let t = c.text { boxes.append(("text", t)) }
        for (name, box) in boxes {
            frames.append((name, box.frame))
            for e in box.entities { for r in e.rects { frames.append(("\(name) entity", r)) } }
            for a in box.attachments { frames.append(("\(name) object", a.frame)) }
            if let t = box.token { frames.append(("\(name) token", t)) }
        }
        for (name, r) in frames {
            XCTAssertTrue([r.minX, r.minY, r.maxX, r.maxY].allSatisfy(\.isFinite), "\(what): \(name) \(r)", file: file, line: line)
            XCTAssertTrue(cell.contains(r), "\(what): \(name) \(r) outside \(cell)", file: file, line: line)
        }
    }

    /// Hostile texts in both styles at 320 pt: a correct cell (frames inside, finite height).
    func testHostileTextsInCells() throws {
        let e = try engine()
        let texts: [(String, String)] = [
            ("combining marks", "a" + String(repeating: "\u{0301}", count: 100_000)),
            ("ZWJ chain", Array(repeating: "👩", count: 10_000).joined(separator: "\u{200D}")),
            ("newlines", String(repeating: "\n", count: 2_000)),
            ("spaces", String(repeating: " ", count: 50_000)),
            ("bidi", String(repeating: "\u{202E}abc \u{2067}שלום\u{202C} ", count: 500)),
            ("controls", (0..<32).map { "@u\(String(UnicodeScalar(UInt8($0)))) #t# http://t.cn/x [微笑]" }.joined()),
        ]
        for (what, text) in texts {
            for style in [CellStyle.weibo, .classic] {
                let prepared = e.prepare(status(text), style: style)
                for maxLines in [0, 3] {
                    assertInside(prepared.layout(width: 320, scale: 2, maxTextLines: maxLines), "\(what) \(style.name)")
                }
            }
        }
    }

    /// Cell widths of 0 and 1e300 (the API's range is finite and ≥ 0; the CLI accepts (0, 100 000]):
    /// every frame is finite, the cell as tall as its content.
    func testExtremeCellWidths() throws {
        let e = try engine()
        for style in [CellStyle.weibo, .classic] {
            let prepared = e.prepare(status("宽度测试 width test @someone #topic#"), style: style)
            for width in [0, 1e300] {
                let c = prepared.layout(width: width, scale: 2)
                XCTAssertTrue(c.height.isFinite && c.height > 0, "\(style.name) at \(width)")
                let all = [c.avatar, c.name.frame, c.time.frame] + (c.text.map { [$0.frame] } ?? [])
                XCTAssertTrue(all.allSatisfy { $0.minX.isFinite && $0.maxX.isFinite && $0.maxY.isFinite }, "\(style.name) at \(width)")
            }
        }
    }

    /// The feed engine refuses widths of 0, negative, NaN, ±∞ and 1e300, and hostile scales, with a
    /// typed error before laying anything out.
    func testFeedEngineRejectsHostileWidthsAndScales() throws {
        let feed = FeedEngine(cellEngine: try engine())
        let statuses = [status("text")]
        for (width, scale) in [(0, 2), (0.5, 2), (-1, 2), (.nan, 2), (.infinity, 2), (-.infinity, 2), (1e300, 2), (375, .nan), (375, 0), (375, 1e300)] as [(Double, Double)] {
            XCTAssertThrowsError(try feed.layout(statuses, options: FeedOptions(width: width, scale: scale))) { error in
                guard case .invalidOptions(let message) = error as? FeedError else { return XCTFail("\(error)") }
                XCTAssertFalse(message.isEmpty)
            }
        }
    }

    /// Regression (fuzzer, FuzzCell): a grapheme cluster wider than the line (it never splits) made
    /// the classic text frame and its parts reach past the cell; they are now clipped to the frame.
    func testClusterWiderThanTheCellStaysInside() throws {
        let e = try engine()
        // A base with 60 spacing marks is one cluster, far wider than 240 − 20 at 14 pt.
        let wide = "क" + String(repeating: "\u{0903}", count: 60)
        let m = try Hardening.requireMeasurer()
        let p = m.prepare(AttributedText(wide, size: 14))
        XCTAssertEqual(p.clusterCount, 1)
        XCTAssertGreaterThan(p.advance(ofCluster: 0), 240)
        for style in [CellStyle.classic, .weibo] {
            let c = e.prepare(status("@x " + wide + " #t#"), style: style).layout(width: 240, scale: 2)
            assertInside(c, "wide cluster \(style.name)")
        }
    }

    /// Regression (fuzzer, FuzzCell): in the classic cell a long name pushed the member badge past
    /// the right edge; the name is now clipped so that the badge fits.
    func testMemberBadgeStaysInsideTheClassicCell() throws {
        let e = try engine()
        let c = e.prepare(status("text", name: String(repeating: "很长的名字", count: 20), memberBadge: "vip"), style: .classic)
            .layout(width: 240, scale: 3)
        let badge = try XCTUnwrap(c.memberBadge)
        XCTAssertLessThanOrEqual(badge.frame.maxX, 230 + 1e-9)
        XCTAssertLessThanOrEqual(c.name.frame.maxX + 10, badge.frame.minX + 1e-9)
        assertInside(c, "long name with badge")
    }

    /// The feed engine over hostile statuses: one height per status, all finite, in order.
    func testFeedEngineOverHostileStatuses() throws {
        let feed = FeedEngine(cellEngine: try engine())
        let statuses = (0..<60).map { i in
            Status(id: Int64(i), text: i % 2 == 0 ? String(repeating: "\n", count: i) : String(repeating: "e\u{301}", count: i * 20),
                user: User(id: 1, name: String(repeating: "\u{202E}", count: i % 7)))
        }
        let layout = try feed.layout(statuses, options: FeedOptions(width: 320, style: .weibo, scale: 2), threads: 2)
        XCTAssertEqual(layout.heights.count, statuses.count)
        XCTAssertTrue(layout.heights.allSatisfy { $0.isFinite && $0 > 0 })
    }
}
