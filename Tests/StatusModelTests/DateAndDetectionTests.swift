import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

final class WeiboDateTests: XCTestCase {
    func testParsesTheAPIFormat() {
        XCTAssertEqual(WeiboDate.parse("Wed Sep 09 10:11:34 +0800 2015")?.timeIntervalSince1970, 1_441_764_694)
        XCTAssertEqual(WeiboDate.parse("Thu Jan 01 00:00:00 +0000 1970")?.timeIntervalSince1970, 0)
        XCTAssertEqual(WeiboDate.parse("Thu Feb 29 23:59:59 -0130 2024")?.timeIntervalSince1970, 1_709_256_599)
    }

    func testRejectsInvalidDates() {
        for s in ["", "2015-09-09", "Wed Sep 31 10:11:34 +0800 2015", "Wed Foo 09 10:11:34 +0800 2015",
                  "Wed Sep 09 25:11:34 +0800 2015", "Wed Sep 09 10:11:34 0800 2015", "Wed Sep 09 10:11:34 +0800 15",
                  "Xyz Sep 09 10:11:34 +0800 2015", "Mon Feb 29 10:00:00 +0800 2023"] {
            XCTAssertNil(WeiboDate.parse(s), s)
        }
    }

    func testFormatRoundTripsOverManyDates() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<2000 {
            let t = Int64(rng.below(4_000_000_000)) - 200_000_000
            let d = Date(timeIntervalSince1970: TimeInterval(t))
            let s = WeiboDate.format(d)
            XCTAssertEqual(WeiboDate.parse(s), d, s)
        }
        XCTAssertEqual(WeiboDate.format(Date(timeIntervalSince1970: 1_441_764_694)), "Wed Sep 09 10:11:34 +0800 2015")
    }

    func testClassicForms() {
        XCTAssertEqual(WeiboDate.parseClassic("2015-09-09 10:11")?.timeIntervalSince1970, 1_441_764_660)
        XCTAssertEqual(WeiboDate.parseClassic("2015-09-09 10:11:34")?.timeIntervalSince1970, 1_441_764_694)
        XCTAssertNil(WeiboDate.parseClassic("2小时前"))
        XCTAssertNil(WeiboDate.parseClassic("昨天 18:20"))
    }
}

final class DetectionAndLeniencyTests: XCTestCase {
    func testDetectsFormatsByContentNotName() throws {
        let statuses = generated(5, 3)
        let cases: [(FeedFormat, String)] = [(.weiboJSON, "a.txt"), (.jsonLines, "b.json"), (.modelPlist, "c.json")]
        for (format, name) in cases {
            let r = try FeedLoader.load(data: FeedWriter.data(statuses, format: format), fileName: name)
            XCTAssertEqual(r.feed.format, format, name)
            XCTAssertEqual(r.feed.statuses, statuses)
        }
        // A bare array of statuses, after a BOM and whitespace.
        var data = Data([0xEF, 0xBB, 0xBF, 0x0A, 0x20])
        data.append(jsonData([weiboStatus(1)]))
        XCTAssertEqual(try FeedLoader.load(data: data, fileName: "x").feed.statuses.map(\.id), [1])
        // A single-line JSON Lines file without the extension is JSON (one object, nothing after it).
        XCTAssertEqual(loadError(jsonData(weiboStatus(1)), name: "one.txt")?.caseName, "wrongRoot")
        XCTAssertEqual(try FeedLoader.load(data: jsonData(weiboStatus(1)), fileName: "one.jsonl").feed.statuses.count, 1)
    }

    func testDetectFormatOfFiles() throws {
        XCTAssertEqual(try FeedLoader.detectFormat(of: TestPaths.fixtures.appendingPathComponent("feed.plist")), .modelPlist)
        XCTAssertEqual(try FeedLoader.detectFormat(of: TestPaths.fixtures.appendingPathComponent("invalid/bad-line3.jsonl")), .jsonLines)
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("feed.data")
        try FeedWriter.writeAtomically(FeedWriter.data(generated(1, 4), format: .jsonLines), to: url)
        XCTAssertEqual(try FeedLoader.detectFormat(of: url), .jsonLines)
    }

    func testLenientNumbersBooleansAndNulls() throws {
        let s = weiboStatus("12" == "12" ? 1 : 0, [
            "id": "4100", "reposts_count": "12", "comments_count": 3.0, "attitudes_count": NSNull(),
            "attitudes_status": "1", "user": ["id": "77", "screen_name": "某人", "name": NSNull(), "mbrank": "6"],
            "pic_ids": ["p"], "pic_infos": ["p": ["keep_size": "1", "bmiddle": ["url": "u", "width": "30", "height": 100, "type": "gif"]]],
            "page_info": ["page_title": "卡片", "type": "11", "page_pic": NSNull(), "type_icon": NSNull(), "buttons": []],
        ])
        let st = try XCTUnwrap(FeedLoader.load(data: jsonData([s]), fileName: "l.json").feed.statuses.first)
        XCTAssertEqual(st.id, 4100)
        XCTAssertEqual([st.repostsCount, st.commentsCount, st.attitudesCount], [12, 3, 0])
        XCTAssertTrue(st.liked)
        XCTAssertEqual(st.user.id, 77)
        XCTAssertEqual(st.user.name, "某人", "a null name falls back to screen_name")
        XCTAssertEqual(st.user.mbrank, 6)
        XCTAssertEqual(st.user.verifiedType, -1)
        XCTAssertEqual(st.pictures, [Picture(id: "p", url: "u", width: 30, height: 100, kind: .gif, keepSize: true)])
        XCTAssertEqual(st.pageInfo?.type, 11)
        XCTAssertEqual(st.pageInfo?.pictureURL, "")
        XCTAssertEqual(st.pageInfo?.hasButton, false)
        XCTAssertEqual(loadError(jsonData([weiboStatus(1, ["reposts_count": 1.5])]))?.caseName, "typeMismatch")
        XCTAssertEqual(loadError(jsonData([weiboStatus(1, ["id": true])]))?.caseName, "typeMismatch")
    }

    func testAnchorTextAndEntities() {
        XCTAssertEqual(StatusDecoder.anchorText("<a href=\"x\" rel=\"nofollow\">微博 &amp; 朋友</a>"), "微博 & 朋友")
        XCTAssertEqual(StatusDecoder.anchorText("iPhone客户端"), "iPhone客户端")
        XCTAssertEqual(StatusDecoder.anchorText(""), "")
        XCTAssertEqual(StatusDecoder.anchorText(WireEncoder.escapeHTML("<a> & \"b\" 'c'")), "<a> & \"b\" 'c'")
    }

    func testRetweetInheritsURLStructAndPageInfoOnlyWhenItHasNone() throws {
        let url: [String: Any] = ["short_url": "http://t.cn/x", "url_title": "网页链接"]
        let own: [String: Any] = ["short_url": "http://t.cn/own", "url_title": "自己的"]
        let card: [String: Any] = ["page_title": "卡片"]
        let inherits = weiboStatus(1, ["url_struct": [url], "page_info": card, "retweeted_status": weiboStatus(2)])
        let keeps = weiboStatus(3, ["url_struct": [url], "retweeted_status": weiboStatus(4, ["url_struct": [own]])])
        let feed = try FeedLoader.load(data: jsonData([inherits, keeps]), fileName: "r.json").feed.statuses
        XCTAssertEqual(feed[0].retweetedStatus?.urlEntities.map(\.shortURL), ["http://t.cn/x"])
        XCTAssertEqual(feed[0].retweetedStatus?.pageInfo?.title, "卡片")
        XCTAssertEqual(feed[1].retweetedStatus?.urlEntities.map(\.shortURL), ["http://t.cn/own"])
        XCTAssertNil(feed[1].retweetedStatus?.pageInfo)
    }

    func testPictureDerivedFlags() {
        XCTAssertTrue(Picture(id: "a", url: "", width: 100, height: 301).isLong)
        XCTAssertFalse(Picture(id: "a", url: "", width: 100, height: 300).isLong)
        XCTAssertFalse(Picture(id: "a", url: "", width: 0, height: 300).isLong)
        XCTAssertTrue(Picture(id: "a", url: "", width: 1, height: 1, kind: .gif).isGIF)
        XCTAssertEqual(Picture.Kind(apiName: "webp"), .webp)
        XCTAssertEqual(Picture.Kind(apiName: "BMP"), .other)
    }
}
