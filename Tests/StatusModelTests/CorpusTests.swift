import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

final class CorpusTests: XCTestCase {
    private func corpus() throws -> [URL] {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        return files
    }

    func testAllCorpusStatusesLoadWithRetweets() throws {
        var statuses: [Status] = []
        var millis: [Double] = []
        for url in try corpus() {
            let start = DispatchTime.now().uptimeNanoseconds
            let r = try FeedLoader.load(contentsOf: url)
            millis.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            XCTAssertEqual(r.feed.format, .weiboJSON, url.lastPathComponent)
            XCTAssertEqual(r.skipped, [])
            statuses += r.feed.statuses
        }
        XCTAssertEqual(statuses.count, 206)
        XCTAssertEqual(statuses.filter(\.isRetweet).count, 108)
        XCTAssertEqual(statuses.reduce(0) { $0 + $1.pictures.count + ($1.retweetedStatus?.pictures.count ?? 0) }, 623)
        // Information only (never asserted): decode time of the 206 statuses in this build.
        print("corpus load: \(String(format: "%.1f", millis.reduce(0, +))) ms for 206 statuses")
    }

    func testCorpusFieldsAreDecoded() throws {
        let files = try corpus()
        let all = try files.flatMap { try FeedLoader.load(contentsOf: $0).feed.statuses }
        for s in all {
            XCTAssertNotNil(s.createdAt, "\(s.id) has a date")
            XCTAssertFalse(s.source.contains("<"), "source is the anchor text: \(s.source)")
            if let r = s.retweetedStatus, !r.isDeleted {
                XCTAssertFalse(r.user.screenName.isEmpty)
            }
        }
        // The first status of weibo_0.json, checked against the file.
        let first = all[0]
        XCTAssertEqual(first.createdAt.map { WeiboDate.format($0) }, "Wed Sep 09 10:12:55 +0800 2015")
        XCTAssertEqual(first.source, "女王大人的iPhone 6 Plus")
        XCTAssertEqual(first.retweetedStatus?.pictures.first?.width, 640, "\"640\" (a string) becomes 640")
        XCTAssertEqual(first.retweetedStatus?.pictures.first?.height, 1136)
        XCTAssertEqual(first.urlEntities.count, 5)
        // The retweet has no url_struct: it inherits the outer status's.
        XCTAssertEqual(first.retweetedStatus?.urlEntities, first.urlEntities)

        let deleted = all.compactMap(\.retweetedStatus).filter(\.isDeleted)
        XCTAssertEqual(deleted.count, 1)
        XCTAssertEqual(deleted.first?.user, .unknown)
        XCTAssertEqual(all.filter { $0.tag != nil }.count, 3)
        XCTAssertTrue(all.contains { $0.tag?.isPlace == true })
        XCTAssertTrue(all.contains { $0.pageInfo?.isVideo == true })
        XCTAssertEqual(all.filter { $0.titleBar != nil }.count, 7)
        XCTAssertTrue(all.contains { s in s.pictures.contains(where: \.isGIF) || (s.retweetedStatus?.pictures.contains(where: \.isGIF) ?? false) })
    }

    func testCorpusRoundTripsThroughEveryWriteFormat() throws {
        let files = try corpus()
        let statuses = try files.flatMap { try FeedLoader.load(contentsOf: $0).feed.statuses }
        for format in [FeedFormat.weiboJSON, .jsonLines, .modelPlist] {
            let data = FeedWriter.data(statuses, format: format)
            let back = try FeedLoader.load(data: data, fileName: "corpus.\(format.rawValue)").feed
            XCTAssertEqual(back.format, format)
            XCTAssertEqual(back.statuses.count, statuses.count)
            XCTAssertTrue(back.statuses == statuses, "round trip through \(format)")
            XCTAssertEqual(back.statuses.map(\.contentFingerprint), statuses.map(\.contentFingerprint))
        }
    }
}
