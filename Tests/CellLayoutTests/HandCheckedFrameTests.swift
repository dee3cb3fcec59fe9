import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

/// Frames checked by hand with `FixedAdvanceMeasurer`: a wide character is `size` wide, any other
/// `size / 2`; every font has ascent 0.8·size and descent 0.2·size; `singleLineSize` is `size` tall.
final class HandCheckedFrameTests: XCTestCase {
    private let now = WeiboDate.parse("Wed Sep 09 12:00:00 +0800 2015")!

    private func engine() -> CellLayoutEngine {
        CellLayoutEngine(measurer: FixedAdvanceMeasurer(), emoticonCodes: ["[微笑]"], now: now)
    }

    private func classicStatus(text: String) -> Status {
        var s = Status(id: 1, createdAtText: "5分钟前", source: "iPhone", text: text, user: User(id: 9, name: "张三"))
        s.memberBadge = "vip"
        return s
    }

    func testClassicSectionOneFrames() {
        let c = engine().layout(classicStatus(text: "Hello world"), width: 320, style: .classic, scale: 2)
        XCTAssertEqual(c.avatar, Rect(x: 10, y: 10, width: 40, height: 40))
        // "张三" at 14 pt: 28 × 14.
        XCTAssertEqual(c.name.frame, Rect(x: 60, y: 10, width: 28, height: 14))
        XCTAssertEqual(c.memberBadge, ImageFrame(name: "vip", frame: Rect(x: 98, y: 10, width: 13, height: 13)))
        // "5分钟前" at 12 pt: 6 + 3 × 12 = 42 wide, 12 tall, bottom at the avatar's bottom (50).
        XCTAssertEqual(c.time.frame, Rect(x: 60, y: 38, width: 42, height: 12))
        // "来自 iPhone": 2 × 12 + 6 + 6 × 6 = 66 wide, ten points right of the date.
        XCTAssertEqual(c.source?.frame, Rect(x: 112, y: 38, width: 66, height: 12))
        XCTAssertEqual(c.source?.string, "来自 iPhone")
        // "Hello world" at 14 pt: 11 × 7 = 77 wide, one natural line of 14.
        XCTAssertEqual(c.text?.frame, Rect(x: 10, y: 60, width: 77, height: 14))
        XCTAssertEqual(c.height, 84)
        XCTAssertEqual(c.expandedHeight, 84)
        XCTAssertFalse(c.isTextTruncated)
    }

    func testClassicTextWrapsAtWidthMinusTwenty() {
        // 30 CJK characters at 14 pt in 300 pt: 21 per line (294 wide), two lines of 14.
        let c = engine().layout(classicStatus(text: String(repeating: "字", count: 30)), width: 320, style: .classic, scale: 3)
        XCTAssertEqual(c.text?.frame, Rect(x: 10, y: 60, width: 294, height: 28))
        XCTAssertEqual(c.text?.layout.lines.count, 2)
        XCTAssertEqual(c.height, 98)
    }

    private func weiboStatus() -> Status {
        Status(
            id: 2, createdAt: now.addingTimeInterval(-300), source: "微博", text: "你好",
            user: User(id: 7, name: "测试"), repostsCount: 0, commentsCount: 12_345, attitudesCount: 3)
    }

    func testWeiboProfileTextAndToolbar() {
        let c = engine().layout(weiboStatus(), width: 375, style: .weibo, scale: 2)
        XCTAssertEqual(c.blocks.map(\.kind), [.topGap, .profile, .text, .toolbar, .bottomGap])
        XCTAssertEqual(c.avatar, Rect(x: 12, y: 23, width: 40, height: 40))
        XCTAssertNil(c.avatarBadge)
        // "测试" at 16 pt, 16 tall, centred on 8 + 27 = 35.
        XCTAssertEqual(c.name.frame, Rect(x: 66, y: 27, width: 32, height: 16))
        // "刚刚  来自 微博" at 12 pt: 24 + 12 + 24 + 6 + 24 = 90 wide, centred on 8 + 47 = 55.
        XCTAssertEqual(c.time.string, "刚刚  来自 微博")
        XCTAssertEqual(c.time.frame, Rect(x: 66, y: 49, width: 90, height: 12))
        // Text block 64 ..< 101: 10 + 17 (one line on the 17 pt grid) + 10.
        XCTAssertEqual(c.block(.text)?.frame, Rect(x: 0, y: 64, width: 375, height: 37))
        XCTAssertEqual(c.text?.frame, Rect(x: 12, y: 74, width: 351, height: 17))
        XCTAssertEqual(c.text?.layout.lines.first?.baseline ?? 0, 0.86 * 17, accuracy: 1e-9)
        // Toolbar 101 ..< 136, three buttons of 125.
        let bar = try! XCTUnwrap(c.toolbar)
        XCTAssertEqual(bar.frame, Rect(x: 0, y: 101, width: 375, height: 35))
        XCTAssertEqual(bar.buttons.map(\.string), ["转发", "1万", "3"])
        XCTAssertEqual(bar.buttons.map(\.frame.minX), [0, 125, 250])
        // "转发": icon 18 + 5 + label 28 = 51, centred in 125 → icon x 37; vertically centred on 118.5.
        XCTAssertEqual(bar.buttons[0].icon, Rect(x: 37, y: 109.5, width: 18, height: 18))
        XCTAssertEqual(bar.buttons[0].label.frame, Rect(x: 60, y: 111.5, width: 28, height: 14))
        // "3" is 7 wide: 18 + 5 + 7 = 30 → icon at 250 + 47.5.
        XCTAssertEqual(bar.buttons[2].icon.minX, 297.5)
        XCTAssertEqual(c.height, 138)
    }

    func testWeiboGridLinesAndEntities() {
        var s = weiboStatus()
        // 25 wide characters at 17 pt in 351 pt: 20 per line → 2 lines; then @甲 [微笑].
        s.text = String(repeating: "字", count: 25) + "@甲 [微笑]"
        let c = engine().layout(s, width: 375, style: .weibo, scale: 2)
        let text = try! XCTUnwrap(c.text)
        XCTAssertEqual(text.layout.lines.count, 2)
        // 17 + 22.78 = 39.78 → 40 on the 2x grid; block 10 + 40 + 10.
        XCTAssertEqual(text.frame.height, 40)
        XCTAssertEqual(c.block(.text)?.frame.height, 60)
        // Second line: 5 字 (85) then "@甲" at x 85: "@" 8.5 + "甲" 17 = 25.5 wide, line top 22.78.
        let mention = try! XCTUnwrap(text.entities.first { $0.kind == .mention })
        XCTAssertEqual(mention.value, "甲")
        XCTAssertEqual(mention.rects, [Rect(x: 12 + 85, y: 74 + 23, width: 25.5, height: 17)])
        // The emoticon after "@甲 " (8.5 for the space): x 85 + 25.5 + 8.5 = 119, 17 wide, top at
        // baseline 14.62 + 22.78 − 14.62 = 22.78.
        XCTAssertEqual(text.attachments, [ImageFrame(name: "[微笑]", frame: Rect(x: 131, y: 97, width: 17, height: 17))])
    }

    func testWeiboRetweetWithNinePictures() {
        var rt = Status(id: 3, text: "原文", user: User(id: 8, name: "原作者"))
        rt.pictures = (0..<9).map { Picture(id: "p\($0)", url: "", width: 100, height: 100, kind: $0 == 0 ? .gif : .jpeg) }
        var s = weiboStatus()
        s.retweetedStatus = rt
        let c = engine().layout(s, width: 375, style: .weibo, scale: 2)
        let r = try! XCTUnwrap(c.retweet)
        XCTAssertEqual(r.text.string, "@原作者:原文")
        // Retweet text block 101 ..< 137 (10 + 16 + 10), grid 351.5 tall, then 12.
        XCTAssertEqual(r.text.frame, Rect(x: 12, y: 111, width: 351, height: 16))
        let g = try! XCTUnwrap(r.pictures)
        XCTAssertEqual(g.pictures.count, 9)
        XCTAssertEqual(g.pictures[0].frame, Rect(x: 12, y: 137, width: 114.5, height: 114.5))
        XCTAssertEqual(g.pictures[8].frame, Rect(x: 12 + 237, y: 137 + 237, width: 114.5, height: 114.5))
        XCTAssertEqual(g.pictures[0].badge, ImageFrame(name: "gif", frame: Rect(x: 98.5, y: 233.5, width: 28, height: 18)))
        XCTAssertNil(g.pictures[1].badge)
        XCTAssertEqual(r.frame, Rect(x: 0, y: 101, width: 375, height: 36 + 351.5 + 12))
        // No tag and no own pictures or card: no extra 12; toolbar then 2.
        XCTAssertEqual(c.height, 101 + 399.5 + 35 + 2)
        XCTAssertEqual(c.contentKinds, [.text, .retweet, .retweetPictures])
    }

    func testWeiboCardPlaceTagAndTitle() {
        var s = weiboStatus()
        s.text = "看 http://t.cn/c"
        s.urlEntities = [URLEntity(shortURL: "http://t.cn/c", title: "卡片", pageID: "p1")]
        s.pageInfo = PageInfo(title: "标题", desc: "描述", pageID: "p1")
        s.tag = Tag(name: "北京", type: 1)
        s.titleBar = TitleBar(text: "热门")
        let c = engine().layout(s, width: 320, style: .weibo, scale: 3)
        XCTAssertEqual(c.blocks.map(\.kind), [.topGap, .title, .profile, .text, .card, .tag, .toolbar, .bottomGap])
        // The card's short URL at the end is removed from the text.
        XCTAssertEqual(c.text?.string, "看")
        // Card below text: 8 + 36 + 56 + 37 = 137, 296 wide (cW), 70 tall, image 70 × 70.
        let card = try! XCTUnwrap(c.card)
        XCTAssertEqual(card.frame, Rect(x: 12, y: 137, width: 296, height: 70))
        XCTAssertEqual(card.image, Rect(x: 12, y: 137, width: 70, height: 70))
        // Title + description: 2 lines of 20, centred: y 137 + 15.
        XCTAssertEqual(card.text?.frame, Rect(x: 92, y: 152, width: 206, height: 40))
        // Place tag 40 tall with its 24 × 24 icon, then the toolbar.
        let tag = try! XCTUnwrap(c.tag)
        XCTAssertEqual(tag.frame, Rect(x: 0, y: 207, width: 320, height: 40))
        XCTAssertEqual(tag.icon, Rect(x: 12, y: 215, width: 24, height: 24))
        XCTAssertEqual(tag.label.frame, Rect(x: 40, y: 221, width: 24, height: 12))
        XCTAssertEqual(c.titleBar?.label.frame, Rect(x: 12, y: 19, width: 28, height: 14))
        XCTAssertEqual(c.height, 207 + 40 + 35 + 2)
    }

    func testVideoCardHeightAndGapWithoutTag() {
        var s = weiboStatus()
        s.pageInfo = PageInfo(title: "视频", objectType: "video")
        let c = engine().layout(s, width: 375, style: .weibo, scale: 3)
        // (2 · 351 − 4) / 3 = 232.667 on the 3x grid.
        XCTAssertEqual(c.card?.frame.height ?? 0, 698.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(c.block(.padding)?.frame.height, 12)
        let expected: Double = 8 + 56 + 37 + 12 + 35 + 2
        XCTAssertEqual(c.height, expected + 698.0 / 3, accuracy: 1e-9)
    }

    func testReadMoreTruncation() {
        var s = weiboStatus()
        s.text = String(repeating: "字", count: 200)  // 10 lines of 20
        let e = engine()
        let full = e.layout(s, width: 375, style: .weibo, scale: 2)
        let cut = e.layout(s, width: 375, style: .weibo, scale: 2, maxTextLines: 6)
        XCTAssertFalse(full.isTextTruncated)
        XCTAssertEqual(full.text?.layout.lines.count, 10)
        XCTAssertTrue(cut.isTextTruncated)
        XCTAssertEqual(cut.text?.layout.lines.count, 6)
        XCTAssertEqual(cut.expandedHeight, full.height)
        XCTAssertEqual(full.expandedHeight, full.height)
        // 6 lines: 17 + 5 · 22.78 = 130.9 → 131; 10 lines: 222.02 → 222.5.
        XCTAssertEqual(cut.text?.frame.height, 131)
        XCTAssertEqual(full.text?.frame.height, 222.5)
        XCTAssertEqual(full.height - cut.height, 91.5)
        // The token "...全文" (3 × 8.5 + 2 × 17 = 59.5) ends the sixth line.
        let token = try! XCTUnwrap(cut.text?.token)
        XCTAssertEqual(token.width, 59.5)
        XCTAssertLessThanOrEqual(token.maxX, 12 + 351)
        XCTAssertEqual(token.minY, 74 + 5 * 22.78, accuracy: 0.5)
        // A limit the text does not reach changes nothing.
        XCTAssertEqual(e.layout(s, width: 375, style: .weibo, scale: 2, maxTextLines: 10), full)
    }

    func testPreparedCellRelayoutEqualsFreshLayout() {
        var s = weiboStatus()
        s.text = "一段 @某人 文字 [微笑] " + String(repeating: "很长", count: 40)
        let e = engine()
        let prepared = e.prepare(s, style: .weibo)
        for w in [320.0, 375, 414, 768] {
            for scale in [1.0, 2, 3] {
                XCTAssertEqual(prepared.layout(width: w, scale: scale), e.layout(s, width: w, style: .weibo, scale: scale))
            }
        }
    }

    func testClassicReadMore() {
        // 100 CJK characters at 14 pt in 300 pt: 21 per line → 5 lines of 14; cut at 2.
        let s = classicStatus(text: String(repeating: "字", count: 100))
        let e = engine()
        let full = e.layout(s, width: 320, style: .classic, scale: 2)
        let cut = e.layout(s, width: 320, style: .classic, scale: 2, maxTextLines: 2)
        XCTAssertEqual(full.height, 60 + 70 + 10)
        XCTAssertTrue(cut.isTextTruncated)
        XCTAssertEqual(cut.height, 60 + 28 + 10)
        XCTAssertEqual(cut.expandedHeight, full.height)
        XCTAssertNotNil(cut.text?.token)
    }

    func testEntityHitTesting() throws {
        var s = weiboStatus()
        s.text = "@甲 你好"
        let c = engine().layout(s, width: 375, style: .weibo, scale: 2)
        // "@甲" spans x 12 ..< 37.5 on the first line (y 74 ..< 91).
        XCTAssertEqual(c.entity(at: Point(x: 20, y: 80))?.value, "甲")
        XCTAssertNil(c.entity(at: Point(x: 60, y: 80)))
        XCTAssertNil(c.entity(at: Point(x: 20, y: 95)))
        var long = weiboStatus()
        long.text = String(repeating: "字", count: 200)
        let cut = engine().layout(long, width: 375, style: .weibo, scale: 2, maxTextLines: 2)
        let token = try XCTUnwrap(cut.text?.token)
        XCTAssertEqual(cut.entity(at: Point(x: token.minX + token.width / 2, y: token.midY))?.kind, .token)
    }

    func testRetweetWithoutTextOrAuthorTakesNoTextBlock() {
        var s = weiboStatus()
        s.retweetedStatus = Status(id: 4, text: "", user: .unknown, isDeleted: true)
        let c = engine().layout(s, width: 375, style: .weibo, scale: 2)
        XCTAssertEqual(c.retweet?.frame.height, 0)
        XCTAssertEqual(c.height, 8 + 56 + 37 + 35 + 2)
    }

    func testStylesAreValuesThatShareTheirFields() {
        XCTAssertEqual(MemoryLayout<CellStyle>.size, 8, "a style is one reference to its fields")
        var roomy = CellStyle.weibo
        roomy.readMoreToken = "…更多"
        roomy.name = "roomy"
        XCTAssertEqual(CellStyle.weibo.readMoreToken, "...全文", "a changed copy leaves the original alone")
        XCTAssertEqual(CellStyle.weibo.name, "weibo")
        XCTAssertNotEqual(roomy, .weibo)
        var again = roomy
        again.readMoreToken = CellStyle.weibo.readMoreToken
        again.name = "weibo"
        XCTAssertEqual(again, .weibo, "equal fields make equal styles, in whichever object they are")
        XCTAssertEqual(again.hashValue, CellStyle.weibo.hashValue)
        let rebuilt = CellStyle(name: "weibo", arrangement: .stacked(.weibo), palette: .weibo)
        XCTAssertEqual(
            engine().layout(weiboStatus(), width: 375, style: rebuilt, scale: 2),
            engine().layout(weiboStatus(), width: 375, style: .weibo, scale: 2))
    }

    func testAThirdStyleIsOnlyData() {
        var metrics = StackedMetrics.weibo
        metrics.padding = 16
        metrics.profileHeight = 60
        metrics.textFontSize = 15
        metrics.toolbarHeight = 40
        var palette = Palette.weibo
        palette.text[.cellText] = 0x000000
        let compact = CellStyle(name: "roomy", arrangement: .stacked(metrics), palette: palette, readMoreToken: "…更多")
        var s = weiboStatus()
        s.text = String(repeating: "字", count: 30)  // 15 pt in 375 − 32 = 343: 22 per line → 2 lines
        let c = engine().layout(s, width: 375, style: compact, scale: 2)
        XCTAssertEqual(c.styleName, "roomy")
        XCTAssertEqual(c.avatar.minX, 16)
        XCTAssertEqual(c.text?.frame, Rect(x: 16, y: 8 + 60 + 10, width: 343, height: 35.5))  // 15 + 20.1 → 35.5
        XCTAssertEqual(c.block(.toolbar)?.frame.height, 40)
        XCTAssertEqual(c.height, 8 + 60 + 55.5 + 40 + 2)
        let cut = engine().layout(s, width: 375, style: compact, scale: 2, maxTextLines: 1)
        XCTAssertEqual(cut.text?.token?.width, 45)  // "…更多": three wide characters (U+2026 ≥ U+1100) at 15 pt
        XCTAssertEqual(compact.palette.color(.cellText), 0x000000)
    }
}
