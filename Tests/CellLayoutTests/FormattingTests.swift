import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

final class FormattingTests: XCTestCase {
    func testCountLabels() {
        XCTAssertEqual(CountFormat.label(0, word: "转发"), "转发")
        XCTAssertEqual(CountFormat.label(-3, word: "赞"), "赞")
        XCTAssertEqual(CountFormat.label(1, word: "赞"), "1")
        XCTAssertEqual(CountFormat.label(9_999, word: "赞"), "9999")
        XCTAssertEqual(CountFormat.label(10_000, word: "赞"), "1万")
        XCTAssertEqual(CountFormat.label(123_456, word: "赞"), "12万")
        XCTAssertEqual(CountFormat.label(9_999_999, word: "赞"), "999万")
        XCTAssertEqual(CountFormat.label(10_000_000, word: "赞"), "1千万")
        XCTAssertEqual(CountFormat.label(250_000_000, word: "赞"), "25千万")
    }

    /// A count label's shape (its first count) and digits: labels of one shape differ in their
    /// digits only, and the digits are the label's own, in order.
    func testCountLabelShapesAndDigits() {
        for count in [0, -3, 1, 7, 10, 99, 100, 1234, 9_999, 10_000, 19_999, 123_456, 9_999_999, 10_000_000, 250_000_000, Int.max] {
            let shown = CountFormat.shown(count)
            let first = CountFormat.firstOfShape(shown)
            let label = CountFormat.label(shown, word: "赞")
            let digits = CountFormat.withLabelDigits(shown) { String(decoding: $0, as: UTF8.self) }
            XCTAssertEqual(digits, String(label.filter(\.isASCII)), "count \(count)")
            XCTAssertLessThanOrEqual(first, shown)
            XCTAssertEqual(CountFormat.firstOfShape(first), first)
            let template = CountFormat.label(first, word: "赞")
            XCTAssertEqual(template.count, label.count, "count \(count)")
            XCTAssertEqual(template.filter { !$0.isASCII }, label.filter { !$0.isASCII }, "count \(count)")
        }
        XCTAssertEqual(CountFormat.firstOfShape(1234), 1000)
        XCTAssertEqual(CountFormat.firstOfShape(560_000), 100_000)  // "56万" is "10万" with other digits
        XCTAssertEqual(CountFormat.firstOfShape(0), 0)
    }

    /// 2015-09-09 10:11:34 +0800, the corpus's date format.
    private let posted = WeiboDate.parse("Wed Sep 09 10:11:34 +0800 2015")!
    private let beijing = 8 * 3600

    private func relative(after seconds: Double) -> String {
        RelativeTime.format(posted, now: posted.addingTimeInterval(seconds), utcOffset: beijing)
    }

    func testRelativeTimeWithinTheDay() {
        XCTAssertEqual(relative(after: -100), "刚刚")
        XCTAssertEqual(relative(after: 0), "刚刚")
        XCTAssertEqual(relative(after: 599), "刚刚")
        XCTAssertEqual(relative(after: 600), "10分钟前")
        XCTAssertEqual(relative(after: 3599), "59分钟前")
        XCTAssertEqual(relative(after: 3600), "1小时前")
        // 10:11:34 + 13 h 48 min = 23:59:34 the same day.
        XCTAssertEqual(relative(after: 13 * 3600 + 48 * 60), "13小时前")
    }

    func testRelativeTimeYesterdayThisYearAndBefore() {
        // 14 h later is 00:11:34 on Sep 10: yesterday.
        XCTAssertEqual(relative(after: 14 * 3600), "昨天 10:11")
        XCTAssertEqual(relative(after: 86_400 + 13 * 3600), "昨天 10:11")
        XCTAssertEqual(relative(after: 2 * 86_400), "9-9")
        let nextYear = WeiboDate.parse("Sat Jan 02 09:00:00 +0800 2016")!
        XCTAssertEqual(RelativeTime.format(posted, now: nextYear, utcOffset: beijing), "15-9-09")
        let early = WeiboDate.parse("Sun Mar 01 08:05:00 +0800 2009")!
        XCTAssertEqual(RelativeTime.format(early, now: posted, utcOffset: beijing), "09-3-01")
    }

    func testRelativeTimeUsesTheGivenOffsetNotTheMachineZone() {
        // 13 h 50 min later: 16:01:34 the same day in UTC, but 00:01:34 the next day in Beijing.
        let now = posted.addingTimeInterval(13 * 3600 + 50 * 60)
        XCTAssertEqual(RelativeTime.format(posted, now: now, utcOffset: 0), "13小时前")
        XCTAssertEqual(RelativeTime.format(posted, now: now, utcOffset: beijing), "昨天 10:11")
        XCTAssertEqual(RelativeTime.absolute(posted, utcOffset: beijing), "15-9-09 10:11")
        XCTAssertEqual(RelativeTime.absolute(posted, utcOffset: 0), "15-9-09 02:11")
    }

    /// The formatter (bytes written in place) against the formats written as string
    /// interpolation, on seeded random dates and gaps from seconds to decades, in three offsets.
    func testTimeFormatsMatchAnInterpolatedReference() {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        func floorDiv(_ a: Int, _ b: Int) -> Int { Int((Double(a) / Double(b)).rounded(.down)) }
        func reference(_ date: Date, now: Date?, offset: Int) -> String {
            let local = Int((date.timeIntervalSince1970 + Double(offset)).rounded(.down))
            let day = floorDiv(local, 86_400), secs = local - floorDiv(local, 86_400) * 86_400
            let (y, m, d) = RelativeTime.civil(day)
            guard let now else { return "\(two((y % 100 + 100) % 100))-\(m)-\(two(d)) \(two(secs / 3600)):\(two(secs % 3600 / 60))" }
            let delta = now.timeIntervalSince(date)
            if delta < 600 { return "刚刚" }
            if delta < 3600 { return "\(Int(delta / 60))分钟前" }
            let today = floorDiv(Int((now.timeIntervalSince1970 + Double(offset)).rounded(.down)), 86_400)
            if day == today { return "\(Int(delta / 3600))小时前" }
            if day == today - 1 { return "昨天 \(two(secs / 3600)):\(two(secs % 3600 / 60))" }
            if y == RelativeTime.civil(today).year { return "\(m)-\(d)" }
            return "\(two((y % 100 + 100) % 100))-\(m)-\(two(d))"
        }
        var rng = SplitMix64(seed: 0x7157)
        for _ in 0..<20_000 {
            // 1950 ... 2050, gaps up to 10 years (a tenth of them within the last two days).
            let date = Date(timeIntervalSince1970: Double(rng.next() % 3_155_760_000) - 631_152_000)
            let gap = rng.next() % 10 == 0 ? Double(rng.next() % 172_800) : Double(rng.next() % 315_576_000)
            let now = date.addingTimeInterval(gap - (rng.next() % 50 == 0 ? 1_000 : 0))
            for offset in [0, 8 * 3600, -5 * 3600] {
                XCTAssertEqual(RelativeTime.format(date, now: now, utcOffset: offset), reference(date, now: now, offset: offset))
                XCTAssertEqual(RelativeTime.absolute(date, utcOffset: offset), reference(date, now: nil, offset: offset))
            }
        }
    }

    func testCivilDates() {
        XCTAssertTrue(RelativeTime.civil(0) == (1970, 1, 1))
        XCTAssertTrue(RelativeTime.civil(-1) == (1969, 12, 31))
        XCTAssertTrue(RelativeTime.civil(11_016) == (2000, 2, 29))
        XCTAssertTrue(RelativeTime.civil(16_687) == (2015, 9, 9))
    }
}

final class PictureGridTests: XCTestCase {
    private let grid2 = PixelGrid(scale: 2)

    func testItemLengthAndHeights() {
        // cW = 351 (W = 375): (355 / 3 − 4) = 114.333 → 114.5 at 2x, 114.333 at 3x.
        XCTAssertEqual(PictureGrid.itemLength(contentWidth: 351, gap: 4, grid: grid2), 114.5)
        XCTAssertEqual(PictureGrid.itemLength(contentWidth: 351, gap: 4, grid: PixelGrid(scale: 3)), 343.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(PictureGrid.rows(1), 1)
        XCTAssertEqual(PictureGrid.rows(3), 1)
        XCTAssertEqual(PictureGrid.rows(4), 2)
        XCTAssertEqual(PictureGrid.rows(6), 2)
        XCTAssertEqual(PictureGrid.rows(7), 3)
        XCTAssertEqual(PictureGrid.rows(9), 3)
        XCTAssertEqual(PictureGrid.height(count: 2, len: 100, gap: 4), 100)
        XCTAssertEqual(PictureGrid.height(count: 5, len: 100, gap: 4), 204)
        XCTAssertEqual(PictureGrid.height(count: 9, len: 100, gap: 4), 308)
    }

    private func pics(_ n: Int, w: Int = 100, h: Int = 100) -> ArraySlice<Picture> {
        (0..<n).map { Picture(id: "p\($0)", url: "", width: w, height: h) }[...]
    }

    func testFourPicturesMakeTwoByTwo() {
        let f = PictureGrid.frames(pics(4), contentWidth: 351, gap: 4, grid: grid2)
        XCTAssertEqual(f.map(\.origin), [
            Point(x: 0, y: 0), Point(x: 118.5, y: 0), Point(x: 0, y: 118.5), Point(x: 118.5, y: 118.5),
        ])
        XCTAssertTrue(f.allSatisfy { $0.size == Size(width: 114.5, height: 114.5) })
    }

    func testSevenPicturesMakeThreeRows() {
        let f = PictureGrid.frames(pics(7), contentWidth: 351, gap: 4, grid: grid2)
        XCTAssertEqual(f[2].origin, Point(x: 237, y: 0))
        XCTAssertEqual(f[6].origin, Point(x: 0, y: 237))
    }

    func testSinglePictureAspectFit() {
        // Square side 2·114.5 + 4 = 233.
        let tall = PictureGrid.frames(pics(1, w: 100, h: 200), contentWidth: 351, gap: 4, grid: grid2)
        XCTAssertEqual(tall, [Rect(x: 0, y: 0, width: 116.5, height: 233)])
        let wide = PictureGrid.frames(pics(1, w: 400, h: 100), contentWidth: 351, gap: 4, grid: grid2)
        XCTAssertEqual(wide, [Rect(x: 0, y: 0, width: 233, height: 58.5)])
        let unknown = PictureGrid.frames(pics(1, w: 0, h: 100), contentWidth: 351, gap: 4, grid: grid2)
        XCTAssertEqual(unknown, [Rect(x: 0, y: 0, width: 175.5, height: 175.5)])
        var keep = Picture(id: "k", url: "", width: 400, height: 100)
        keep.keepSize = true
        XCTAssertEqual(PictureGrid.frames([keep][...], contentWidth: 351, gap: 4, grid: grid2), [Rect(x: 0, y: 0, width: 175.5, height: 175.5)])
    }
}

