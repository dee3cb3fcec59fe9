import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

/// An arranged cell keeps its blocks, toolbar buttons and picture frames in one object, with
/// exactly the room its arranger counted, whatever content the cell shows.
final class CellFramesTests: XCTestCase {
    /// Statuses with every combination of title, text, retweet (with pictures, a card, or
    /// neither), own pictures, own card and tag (plain or place).
    private func statuses() -> [Status] {
        var out: [Status] = []
        let card = PageInfo(title: "标题", pictureURL: "u")
        let pictures = (0..<4).map { Picture(id: "p\($0)", url: "", width: 100, height: $0 == 1 ? 400 : 100, kind: .jpeg) }
        var id: Int64 = 0
        for title in [false, true] {
            for text in ["", "正文 with words"] {
                for below in 0..<6 {
                    for tag in 0..<3 {
                        id += 1
                        var s = Status(id: id, createdAtText: "5分钟前", source: "iPhone", text: text, user: User(id: 9, name: "张三"))
                        if title { s.titleBar = TitleBar(text: "热门", iconURL: "i") }
                        switch below {
                        case 1: s.pictures = pictures
                        case 2: s.pageInfo = card
                        case 3, 4, 5:
                            var rt = Status(id: 1000 + id, text: "原文", user: User(id: 8, name: "原作者"))
                            if below == 4 { rt.pictures = pictures }
                            if below == 5 { rt.pageInfo = card }
                            s.retweetedStatus = rt
                        default: break
                        }
                        if tag > 0 { s.tag = Tag(name: "北京", type: tag == 2 ? 1 : 0) }
                        out.append(s)
                    }
                }
            }
        }
        return out
    }

    func testEveryCellFillsOneStorageExactly() throws {
        let engine = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        var withPictures = 0
        for style in [CellStyle.weibo, .classic] {
            for s in statuses() {
                let c = engine.layout(s, width: 375, style: style, scale: 2)
                XCTAssertTrue(c.blocks.fillsItsStorage, "\(style.name) status \(s.id): \(c.blocks.map(\.kind))")
                let grid = c.pictures ?? c.retweet?.pictures
                let ids = [c.blocks.storageIdentity, c.toolbar?.buttons.storageIdentity, grid?.pictures.storageIdentity]
                XCTAssertEqual(Set(ids.compactMap { $0 }).count, 1, "\(style.name) status \(s.id)")
                if let grid {
                    withPictures += 1
                    XCTAssertEqual(grid.pictures.count, 4)
                }
            }
        }
        XCTAssertEqual(withPictures, 2 * 2 * 2 * 3)
    }

    /// The lists compare by their elements, and a list is equal to itself laid out again.
    func testListsCompareByElements() {
        let engine = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        let s = statuses()[7]
        let a = engine.layout(s, width: 375, style: .weibo, scale: 2)
        let b = CellLayoutEngine(measurer: FixedAdvanceMeasurer()).layout(s, width: 375, style: .weibo, scale: 2)
        XCTAssertNotEqual(a.blocks.storageIdentity, b.blocks.storageIdentity)
        XCTAssertEqual(a.blocks, b.blocks)
        XCTAssertEqual(a, b)
        XCTAssertEqual(Array(a.blocks).map(\.kind), a.blocks.map(\.kind))
        XCTAssertEqual(CellFrames<CellBlock>().count, 0)
        XCTAssertNotEqual(a.blocks, CellFrames())
    }
}
