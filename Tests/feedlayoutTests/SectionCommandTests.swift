import Foundation
import XCTest
import _LayoutTestSupport

/// End-to-end runs of `layout`, `render` and static `preview` on sectioned feeds: the friend
/// list (sectioned by nature) and a feed given --group-by.
final class SectionCommandTests: XCTestCase {
    private func json(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testLayoutExportsAFriendListWithClosedGroupsInTheFriendStyle() throws {
        let r = try FeedlayoutBinary.run(["layout", "Fixtures/friends.plist", "--width", "320"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let root = try json(r.stdout)
        XCTAssertEqual(root["style"] as? String, "friend", "a friend list's default style")
        let sections = try XCTUnwrap(root["sections"] as? [[String: Any]])
        XCTAssertEqual(sections.count, 12)
        XCTAssertTrue(sections.allSatisfy { $0["collapsed"] as? Bool == true && ($0["rows"] as? [Any])?.isEmpty == true })
        XCTAssertEqual(root["rowCount"] as? Int, 393)
        XCTAssertEqual(root["contentHeight"] as? Double, 12 * 44)
        // --expand-all opens every group; --style overrides the default.
        let open = try FeedlayoutBinary.run(["layout", "Fixtures/friends.plist", "--expand-all", "--style", "classic"])
        XCTAssertEqual(open.status, 0, open.stderr)
        let o = try json(open.stdout)
        XCTAssertEqual(o["style"] as? String, "classic")
        XCTAssertEqual((o["sections"] as? [[String: Any]])?.reduce(0) { $0 + (($1["rows"] as? [Any])?.count ?? 0) }, 393)
        // --expand opens the groups it names.
        let two = try FeedlayoutBinary.run(["layout", "Fixtures/friends.plist", "--expand", "1", "--expand", "9"])
        XCTAssertEqual(two.status, 0, two.stderr)
        let shown = try XCTUnwrap(try json(two.stdout)["sections"] as? [[String: Any]]).map { ($0["rows"] as? [Any])?.count ?? -1 }
        XCTAssertEqual(shown, [0, 6, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0])
        let past = try FeedlayoutBinary.run(["layout", "Fixtures/friends.plist", "--expand", "12"])
        XCTAssertEqual(past.status, 1)
        XCTAssertTrue(past.stderr.contains("--expand 12"), past.stderr)
        // A plain feed is one open section: --expand 0 changes nothing, a larger index is an
        // error as it is for a friend list (it was accepted and ignored).
        let plain = try FeedlayoutBinary.run(["layout", "Fixtures/feed.plist"])
        XCTAssertEqual(try FeedlayoutBinary.run(["layout", "Fixtures/feed.plist", "--expand", "0"]).stdout, plain.stdout)
        for command in [["layout"], ["preview"], ["render", "-o", "/dev/null"]] {
            let r = try FeedlayoutBinary.run(command + ["Fixtures/feed.plist", "--expand", "5"])
            XCTAssertEqual(r.status, 1, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--expand 5: the feed has 1 sections"), r.stderr)
        }
    }

    func testLayoutGroupByDayIsDeterministicAndPlainExportIsUnchanged() throws {
        let args = ["layout", "Fixtures/feed.plist", "--group-by", "day", "--now", "1700000000", "--format", "jsonl"]
        let a = try FeedlayoutBinary.run(args)
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(try FeedlayoutBinary.run(args).stdout, a.stdout, "same input, same bytes")
        let lines = a.stdout.split(separator: 0x0A).map { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        let titles = lines.compactMap { $0 }.filter { $0["row"] == nil }.compactMap { $0["title"] as? String }
        XCTAssertEqual(titles.first, "11月20日")
        XCTAssertTrue(titles.contains("今天") && titles.contains("昨天"), "\(titles)")
        // Without --group-by the model plist is a plain feed: one section, no titles.
        let plain = try json(try FeedlayoutBinary.run(["layout", "Fixtures/feed.plist"]).stdout)
        XCTAssertNil(plain["sectionIndex"])
        XCTAssertEqual((plain["sections"] as? [[String: Any]])?.count, 1)
        // Sections and partitions do not mix.
        let bad = try FeedlayoutBinary.run(["layout", "Fixtures/friends.plist", "--rows", "0:3"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("--rows"), bad.stderr)
    }

    /// `query` lays a friend list out as `layout` exports it (friend style, its groups, closed
    /// until opened); `heights` refuses it (a partitioned export is of plain feeds); `bench`
    /// times it in the friend style.
    func testQueryHeightsAndBenchTakeAFriendListAsLayoutDoes() throws {
        let closed = try FeedlayoutBinary.run(["query", "Fixtures/friends.plist", "--y", "0:100000"])
        XCTAssertEqual(closed.status, 0, closed.stderr)
        XCTAssertEqual(String(decoding: closed.stdout, as: UTF8.self), "section\trow\tid\ty\theight\n", "closed groups show no row")
        let exported = try FeedlayoutBinary.run(["layout", "Fixtures/friends.plist", "--expand-all", "--format", "jsonl"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let rows = exported.stdout.split(separator: 0x0A).compactMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
            .filter { $0["row"] != nil }
        let fromLayout = rows.map { "\($0["section"] as? Int ?? -1)\t\($0["row"] as? Int ?? -1)\t\(($0["y"] as? Double) ?? -1)" }
        let queried = try FeedlayoutBinary.run(["query", "Fixtures/friends.plist", "--expand-all", "--y", "0:1000000"])
        XCTAssertEqual(queried.status, 0, queried.stderr)
        let lines = String(decoding: queried.stdout, as: UTF8.self).split(separator: "\n").dropFirst().map { $0.split(separator: "\t") }
        let fromQuery = lines.map { "\($0[0])\t\($0[1])\t\(Double($0[3]) ?? -2)" }
        XCTAssertEqual(fromQuery.count, 393)
        XCTAssertEqual(fromQuery, fromLayout, "the rows and y of layout's export")

        let heights = try FeedlayoutBinary.run(["heights", "Fixtures/friends.plist"])
        XCTAssertEqual(heights.status, 1)
        XCTAssertTrue(heights.stderr.contains("friends.plist: a sectioned feed"), heights.stderr)
        XCTAssertTrue(heights.stdout.isEmpty)

        let bench = try FeedlayoutBinary.run(["bench", "Fixtures/friends.plist", "--min-rows", "10", "--reps", "1"])
        XCTAssertEqual(bench.status, 0, bench.stderr)
        XCTAssertTrue(String(decoding: bench.stdout, as: UTF8.self).contains("style friend"), String(decoding: bench.stdout, as: UTF8.self))
    }

    func testRenderAndPreviewDrawTheGroups() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fl-sections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("friends.png").path
        let r = try FeedlayoutBinary.run(["render", "Fixtures/friends.plist", "-o", png])
        XCTAssertEqual(r.status, 0, r.stderr)
        let d = try Data(contentsOf: URL(fileURLWithPath: png))
        func be32(_ i: Int) -> Int { d[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        XCTAssertEqual([be32(16), be32(20)], [750, 12 * 44 * 2], "12 closed group headers at 2x")
        // An open list is too tall for one image: a clear error, no file; --rows picks a part.
        let tall = dir.appendingPathComponent("tall.png").path
        let t = try FeedlayoutBinary.run(["render", "Fixtures/friends.plist", "--expand-all", "-o", tall])
        XCTAssertEqual(t.status, 1)
        XCTAssertTrue(t.stderr.contains("--rows"), t.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tall))
        let part = try FeedlayoutBinary.run(["render", "Fixtures/friends.plist", "--expand-all", "--rows", "24:30", "-o", tall])
        XCTAssertEqual(part.status, 0, part.stderr)

        let p = try FeedlayoutBinary.run(["preview", "Fixtures/friends.plist", "--color", "never"])
        XCTAssertEqual(p.status, 0, p.stderr)
        let text = String(decoding: p.stdout, as: UTF8.self)
        XCTAssertTrue(text.contains("▸ 同学  46/138"), text)
        XCTAssertEqual(text.split(separator: "\n").count, 24, "a box of two lines per closed group")
        let g = try FeedlayoutBinary.run(["preview", "--group-by", "user", "--color", "never"])
        XCTAssertEqual(g.status, 0, g.stderr)
        XCTAssertTrue(String(decoding: g.stdout, as: UTF8.self).contains("┌─ 小鹿乱撞的晴天 "))
    }
}
