import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

final class FixtureTests: XCTestCase {
    func testClassicStatusInfo() throws {
        let url = TestPaths.fixtures.appendingPathComponent("StatusInfo.plist")
        let r = try FeedLoader.load(contentsOf: url)
        let s = r.feed.statuses
        XCTAssertEqual(r.feed.format, .classicPlist)
        XCTAssertEqual(r.feed.sourceName, url.path)
        XCTAssertEqual(s.count, 33)
        XCTAssertEqual(Set(s.map(\.id)).count, 33)
        XCTAssertEqual(s.filter(\.text.isEmpty).count, 1, "one empty text")
        XCTAssertTrue(s.contains { $0.text.count >= 600 }, "one very long text")
        XCTAssertTrue(s.contains { $0.text.contains("\n") })
        XCTAssertTrue(s.contains { $0.text.contains("👨‍👩‍👧‍👦") }, "ZWJ family")
        XCTAssertTrue(s.contains { $0.text.contains("🏻") }, "skin tone")
        XCTAssertTrue(s.contains { $0.text.contains("🇯🇵") }, "flag")
        XCTAssertTrue(s.contains { $0.text.contains("1️⃣") }, "keycap")
        XCTAssertTrue(s.contains { $0.text.contains("[微笑]") })
        XCTAssertTrue(s.contains { $0.text.contains("[哈哈]") })
        XCTAssertTrue(s.contains { $0.text.contains("http://t.cn/") })
        XCTAssertTrue(s.contains { $0.text.contains("@") })
        XCTAssertEqual(s[0].createdAtText, "刚刚")
        XCTAssertNil(s[0].createdAt, "a relative text has no date")
        XCTAssertEqual(s[0].memberBadge, "vip")
        XCTAssertNil(s[1].memberBadge)
        XCTAssertEqual(s[0].user.name, "小鹿乱撞的晴天")
        XCTAssertEqual(s[0].source, "iPhone 15 Pro")
        let absolute = s.first { $0.createdAtText == "2023-11-15 20:18" }
        XCTAssertEqual(absolute?.createdAt.map { WeiboDate.format($0) }, "Wed Nov 15 20:18:00 +0800 2023")
        XCTAssertEqual(s.filter { $0.createdAt != nil }.count, 13)
    }

    func testFullModelFeed() throws {
        let r = try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("feed.plist"))
        let s = r.feed.statuses
        XCTAssertEqual(r.feed.format, .modelPlist)
        XCTAssertEqual(s.count, 13)
        XCTAssertEqual(r.feed.retweetCount, 4)
        XCTAssertEqual(r.feed.pictureCount, 22)
        let counts = Set(s.map(\.pictures.count) + s.compactMap { $0.retweetedStatus?.pictures.count })
        XCTAssertTrue(counts.isSuperset(of: [1, 2, 3, 4, 9]))
        let pictures = s.flatMap { $0.pictures + ($0.retweetedStatus?.pictures ?? []) }
        XCTAssertTrue(pictures.contains(where: \.keepSize))
        XCTAssertTrue(pictures.contains(where: \.isLong))
        XCTAssertTrue(pictures.contains(where: \.isGIF))
        XCTAssertTrue(pictures.contains { $0.kind == .webp })
        XCTAssertEqual(s[2].pictures.first?.width, 750, "sizes given as strings are read as numbers")
        XCTAssertEqual(s[2].pictures.first?.height, 6000)
        XCTAssertEqual(s[5].pageInfo?.isVideo, true)
        XCTAssertEqual(s[6].pageInfo?.type, 2, "\"2\" (a string) becomes 2")
        XCTAssertEqual(s[6].pageInfo?.hasButton, true)
        XCTAssertEqual(s[7].tag?.isPlace, true)
        XCTAssertEqual(s[8].tag?.isPlace, false)
        XCTAssertEqual(s[1].titleBar?.text, "热门")
        XCTAssertTrue(s.contains { $0.attitudesCount > 10_000_000 })
        XCTAssertTrue(s.contains { $0.repostsCount > 10_000 && $0.repostsCount < 10_000_000 })
        XCTAssertFalse(s[0].topics.isEmpty)
        XCTAssertEqual(s[10].urlEntities.count, 2)
        XCTAssertEqual(s[10].urlEntities[1].pictures.count, 1, "URL entity pictures")
        XCTAssertEqual(s[10].retweetedStatus?.urlEntities, s[10].urlEntities, "inherited url_struct")
        XCTAssertEqual(s[11].liked, true)
        XCTAssertEqual(s[12].retweetedStatus?.isDeleted, true)
        XCTAssertEqual(s[12].retweetedStatus?.user, .unknown)
        XCTAssertEqual(s[0].user.verifiedType, 0)
        XCTAssertEqual(s[0].user.mbrank, 5)
    }

    func testFixturesRoundTrip() throws {
        for name in ["StatusInfo.plist", "feed.plist"] {
            let feed = try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent(name)).feed
            for format in [FeedFormat.weiboJSON, .jsonLines, .modelPlist] {
                let back = try FeedLoader.load(data: FeedWriter.data(feed.statuses, format: format), fileName: "x").feed
                XCTAssertTrue(back.statuses == feed.statuses, "\(name) through \(format)")
            }
        }
    }
}
