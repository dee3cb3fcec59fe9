import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

/// The friend list, the model plist with sections, and grouping a plain feed into sections.
final class SectionedInputTests: XCTestCase {
    private func friends() throws -> Feed {
        try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("friends.plist")).feed
    }

    func testFriendListLoadsIntoCollapsedSections() throws {
        let feed = try friends()
        XCTAssertEqual(feed.format, .friendList)
        let sections = try XCTUnwrap(feed.sections)
        XCTAssertEqual(sections.count, 12)
        XCTAssertEqual(sections.map(\.statuses.count), [24, 6, 138, 57, 0, 18, 4, 0, 103, 3, 9, 31])
        XCTAssertEqual(feed.statuses.count, sections.reduce(0) { $0 + $1.statuses.count })
        XCTAssertEqual(feed.statuses.map(\.id), sections.flatMap { $0.statuses.map(\.id) })
        XCTAssertTrue(sections.allSatisfy(\.isCollapsed))
        XCTAssertEqual(Set(feed.statuses.map(\.id)).count, feed.statuses.count, "friend ids are unique")
        // `Online` when the group has it, else a third of the group rounded up.
        XCTAssertEqual(sections[1].detail, "4/6")
        XCTAssertEqual(sections[7].detail, "0/0")
        XCTAssertEqual(sections[0].detail, "8/24")
        XCTAssertEqual(sections[4].detail, "0/0")
        XCTAssertEqual(sections[2].title, "同学")
        XCTAssertEqual(sections[2].indexTitle, "同")
        // Name, Intro, Avatars and VIP map onto the status.
        let plist = try XCTUnwrap(
            PropertyListSerialization.propertyList(
                from: Data(contentsOf: TestPaths.fixtures.appendingPathComponent("friends.plist")), format: nil) as? [[String: Any]])
        let raw = try XCTUnwrap((plist[2]["Friends"] as? [[String: Any]])?[5])
        let s = sections[2].statuses[5]
        XCTAssertEqual(s.user.name, raw["Name"] as? String)
        XCTAssertEqual(s.text, raw["Intro"] as? String)
        XCTAssertEqual(s.user.avatarURL, raw["Avatars"] as? String)
        XCTAssertEqual(s.memberBadge != nil, raw["VIP"] as? Bool)
        XCTAssertEqual(s.id, FeedLoader.friendID(group: 2, friend: 5))
        XCTAssertTrue(feed.statuses.contains { $0.memberBadge == "vip" } && feed.statuses.contains { $0.memberBadge == nil })
    }

    func testFriendListIsDetectedByContentNotName() throws {
        let data = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("friends.plist"))
        let feed = try FeedLoader.load(data: data, fileName: "groups.dat").feed
        XCTAssertEqual(feed.format, .friendList)
        XCTAssertEqual(feed.sections?.count, 12)
        // A binary plist of the same content loads the same sections.
        let root = try PropertyListSerialization.propertyList(from: data, format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
        XCTAssertEqual(try FeedLoader.load(data: binary, fileName: "groups.bin").feed.sections, feed.sections)
    }

    private func plist(_ root: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
    }

    func testFriendErrorsNameFileGroupFriendAndKey() throws {
        let groups: [[String: Any]] = [
            ["GroupName": "同学", "Friends": [["Name": "甲"]]],
            ["GroupName": "同事", "Friends": [["Name": "乙"], ["Name": 12]]],
        ]
        let error = try XCTUnwrap(loadError(try plist(groups), name: "f.plist"))
        XCTAssertEqual(error.caseName, "typeMismatch")
        XCTAssertEqual(error.location?.keyPath, "[1].Friends[1].Name")
        XCTAssertEqual(error.location?.section, SectionLocation(kind: .group, index: 1, title: "同事"))
        XCTAssertEqual(error.location?.index, 1)
        XCTAssertEqual(
            error.description, "f.plist: group 1 \"同事\": friend 1: [1].Friends[1].Name: expected string, found number 12")

        // A missing GroupName: the group is named by its index only.
        let unnamed: [[String: Any]] = [["GroupName": "好友", "Friends": []], ["Friends": []]]
        let e2 = try XCTUnwrap(loadError(try plist(unnamed), name: "f.plist"))
        XCTAssertEqual(e2.caseName, "missingKey")
        XCTAssertEqual(e2.location?.keyPath, "[1].GroupName")
        XCTAssertEqual(e2.location?.section, SectionLocation(kind: .group, index: 1, title: nil))
        XCTAssertEqual(e2.description, "f.plist: group 1: [1].GroupName: required key is missing")

        // A signature longer than the limit.
        let long: [[String: Any]] = [["GroupName": "好友", "Friends": [["Name": "丙", "Intro": String(repeating: "长", count: 100)]]]]
        let e3 = try XCTUnwrap(loadError(try plist(long), name: "f.plist", options: LoadOptions(maxStringBytes: 64)))
        XCTAssertEqual(e3, .valueTooLarge(
            StatusLocation(file: "f.plist", section: SectionLocation(kind: .group, index: 0, title: "好友"), index: 0,
                           keyPath: "[0].Friends[0].Intro"), limit: 64, found: 300))
    }

    func testSkipInvalidSkipsFriendsButNotGroups() throws {
        let groups: [[String: Any]] = [
            ["GroupName": "同学", "Friends": [["Name": "甲"], ["Intro": "无名"], ["Name": "乙", "VIP": true]]]
        ]
        let r = try FeedLoader.load(data: try plist(groups), fileName: "f.plist", options: LoadOptions(skipInvalid: true))
        XCTAssertEqual(r.feed.sections?.first?.statuses.map(\.user.name), ["甲", "乙"])
        XCTAssertEqual(r.skipped.map(\.index), [1])
        XCTAssertEqual(r.skipped.first?.error.location?.keyPath, "[0].Friends[1].Name")
        // The online count counts the friends kept.
        XCTAssertEqual(r.feed.sections?.first?.detail, "1/2")
        let bad: [Any] = [["GroupName": "同学", "Friends": []], ["GroupName": 3, "Friends": []]]
        let e = try XCTUnwrap(loadError(try plist(bad), name: "f.plist", options: LoadOptions(skipInvalid: true)))
        XCTAssertEqual(e.location?.keyPath, "[1].GroupName")
    }

    func testModelPlistWithSections() throws {
        let root: [String: Any] = [
            "sections": [
                ["title": "置顶", "footer": "以上为置顶微博", "index_title": "顶", "statuses": [weiboStatus(1), weiboStatus(2)]],
                ["title": "更早", "collapsed": true, "statuses": [weiboStatus(3)]],
                ["statuses": []],
            ]
        ]
        let feed = try FeedLoader.load(data: try plist(root), fileName: "s.plist").feed
        XCTAssertEqual(feed.format, .modelPlist)
        let s = try XCTUnwrap(feed.sections)
        XCTAssertEqual(s.map(\.title), ["置顶", "更早", ""])
        XCTAssertEqual(s.map(\.footer), ["以上为置顶微博", nil, nil])
        XCTAssertEqual(s.map(\.indexTitle), ["顶", "更", ""])
        XCTAssertEqual(s.map(\.isCollapsed), [false, true, false])
        XCTAssertEqual(s.map(\.detail), [nil, nil, nil])
        XCTAssertEqual(feed.statuses.map(\.id), [1, 2, 3])
        // A plain model plist has no sections.
        let plain = try FeedLoader.load(data: try plist(["statuses": [weiboStatus(1)]]), fileName: "p.plist").feed
        XCTAssertNil(plain.sections)
    }

    // MARK: Grouping

    /// A status posted at `iso` (UTC, "2026-11-25T15:30:00Z").
    private func posted(_ id: Int64, _ iso: String, user: String = "甲", source: String = "") -> Status {
        let f = ISO8601DateFormatter()
        return Status(id: id, createdAt: f.date(from: iso)!, source: source, text: "t\(id)", user: User(id: id, name: user))
    }

    private let beijing = TimeZone(secondsFromGMT: 8 * 3600)!
    private let utc = TimeZone(secondsFromGMT: 0)!

    func testDayTitlesAcrossMidnight() {
        let now = ISO8601DateFormatter().date(from: "2026-11-25T14:00:00Z")!  // 22:00 in Beijing
        let statuses = [
            posted(1, "2026-11-25T13:59:00Z"),  // 21:59 Beijing: today
            posted(2, "2026-11-24T16:00:00Z"),  // 00:00 Beijing on the 25th: today
            posted(3, "2026-11-24T15:59:59Z"),  // 23:59:59 Beijing on the 24th: yesterday
            posted(4, "2026-11-23T15:59:59Z"),  // 23:59:59 on the 23rd
            posted(5, "2026-11-20T02:00:00Z"),
            Status(id: 6, text: "无日期", user: User(id: 6, name: "乙")),
            posted(7, "2026-11-25T01:00:00Z"),  // today again: joins the first section
        ]
        let sections = StatusSection.group(statuses, by: .day, now: now, timeZone: beijing)
        XCTAssertEqual(sections.map(\.title), ["今天", "昨天", "11月23日", "11月20日", StatusSection.unknownDayTitle])
        XCTAssertEqual(sections.map { $0.statuses.map(\.id) }, [[1, 2, 7], [3], [4], [5], [6]])
        XCTAssertEqual(sections.map(\.indexTitle), ["今", "昨", "11.23", "11.20", "时"])
        XCTAssertTrue(sections.allSatisfy { !$0.isCollapsed && $0.detail == nil })
    }

    func testDayTitlesAcrossAYearAndInAnotherTimeZone() {
        let now = ISO8601DateFormatter().date(from: "2025-12-31T16:30:00Z")!  // 00:30 on 2026-01-01 in Beijing
        let statuses = [
            posted(1, "2025-12-31T16:10:00Z"),  // 00:10 on Jan 1 in Beijing
            posted(2, "2025-12-31T15:00:00Z"),  // 23:00 on Dec 31 in Beijing
            posted(3, "2025-12-29T04:00:00Z"),
            posted(4, "2024-02-29T04:00:00Z"),
        ]
        XCTAssertEqual(
            StatusSection.group(statuses, by: .day, now: now, timeZone: beijing).map(\.title),
            ["今天", "昨天", "2025年12月29日", "2024年2月29日"])
        // In UTC the same instants fall on Dec 31 (today) and Dec 29, and the year is now's.
        XCTAssertEqual(
            StatusSection.group(statuses, by: .day, now: now, timeZone: utc).map(\.title), ["今天", "12月29日", "2024年2月29日"])
    }

    func testUserAndSourceGroupingKeepFirstAppearanceOrder() {
        let statuses = [
            posted(1, "2026-11-25T01:00:00Z", user: "Luna", source: "iPhone"),
            posted(2, "2026-11-25T01:00:00Z", user: "小王", source: ""),
            posted(3, "2026-11-25T01:00:00Z", user: "Luna", source: "Android"),
            posted(4, "2026-11-25T01:00:00Z", user: "", source: "iPhone"),
        ]
        let now = Date(timeIntervalSince1970: 0)
        let byUser = StatusSection.group(statuses, by: .user, now: now, timeZone: utc)
        XCTAssertEqual(byUser.map(\.title), ["Luna", "小王", StatusSection.unknownUserTitle])
        XCTAssertEqual(byUser.map { $0.statuses.map(\.id) }, [[1, 3], [2], [4]])
        let bySource = StatusSection.group(statuses, by: .source, now: now, timeZone: utc)
        XCTAssertEqual(bySource.map(\.title), ["iPhone", StatusSection.unknownSourceTitle, "Android"])
        XCTAssertEqual(bySource.map { $0.statuses.map(\.id) }, [[1, 4], [2], [3]])
        let feed = Feed(statuses: statuses, sourceName: "x.json").grouped(by: .user, now: now, timeZone: utc)
        XCTAssertEqual(feed.statuses.map(\.id), [1, 3, 2, 4])
        XCTAssertEqual(feed.sections, byUser)
        XCTAssertEqual(StatusSection.group([], by: .day, now: now, timeZone: utc), [])
    }
}

extension SectionedInputTests {
    func testSeveralFilesWithAFriendListAreSectioned() throws {
        let urls = ["friends.plist", "StatusInfo.plist"].map { TestPaths.fixtures.appendingPathComponent($0) }
        let feed = try FeedLoader.load(contentsOf: urls).feed
        let sections = try XCTUnwrap(feed.sections)
        XCTAssertEqual(sections.count, 13)
        XCTAssertEqual(sections.last?.title, "StatusInfo.plist")
        XCTAssertEqual(feed.statuses.count, sections.reduce(0) { $0 + $1.statuses.count })
        // Plain files only: no sections.
        XCTAssertNil(try FeedLoader.load(contentsOf: [urls[1], urls[1]]).feed.sections)
    }
}
