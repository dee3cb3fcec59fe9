import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

/// The friend style (docs/cell-spec.md section 3): a fixed row height, one-line name and
/// signature cut with "…", a VIP's name in its own role, heights equal to the layout's.
final class FriendCellTests: XCTestCase {
    private static let measurer: TextMeasurer? = try? TextMeasurer(fonts: FontSet.load(directory: TestPaths.fonts))

    private func engine() throws -> CellLayoutEngine {
        guard let m = Self.measurer else { throw XCTSkip("pinned fonts are not installed (run scripts/setup.sh)") }
        return CellLayoutEngine(measurer: m)
    }

    private func friend(_ name: String, _ intro: String, vip: Bool = false) -> Status {
        Status(id: 1, text: intro, user: User(id: 1, name: name), memberBadge: vip ? "vip" : nil)
    }

    func testRowHeightIsFixedAndTextsAreOneLineCutWithAnEllipsis() throws {
        let engine = try engine()
        let long = String(repeating: "很长的个性签名，", count: 20)
        for width in [200.0, 320, 375, 414, 768] {
            for status in [friend("小明", "你好"), friend("小明", ""), friend(String(repeating: "名", count: 60), long, vip: true)] {
                for scale in [1.0, 2, 3] {
                    let cell = engine.layout(status, width: width, style: .friend, scale: scale)
                    XCTAssertEqual(cell.height, 60, "\(width)@\(scale)")
                    let prepared = engine.prepare(status, style: .friend)
                    XCTAssertEqual(prepared.heights(width: width, scale: scale).height, cell.height)
                    XCTAssertEqual(cell.avatar, Rect(x: 8, y: 8, width: 44, height: 44))
                    XCTAssertEqual(cell.name.frame.minX, 62)
                    XCTAssertLessThanOrEqual(cell.name.frame.maxX, width - 10 + 1e-9)
                    XCTAssertLessThanOrEqual(cell.name.layout.lines.count, 1)
                    if let text = cell.text {
                        XCTAssertEqual(text.layout.lines.count, 1)
                        XCTAssertLessThanOrEqual(text.frame.maxX, width - 10 + 1e-9)
                        XCTAssertGreaterThanOrEqual(text.frame.minY, cell.name.frame.maxY)
                        XCTAssertLessThanOrEqual(text.frame.maxY, 60)
                    } else {
                        // The name alone is centred.
                        XCTAssertEqual(cell.name.frame.midY, 30, accuracy: 1 / scale)
                    }
                }
            }
        }
        let cut = engine.layout(friend("小明", long), width: 320, style: .friend, scale: 2)
        XCTAssertTrue(cut.isTextTruncated)
        XCTAssertNotNil(cut.text?.token, "the signature ends with the ellipsis")
        XCTAssertFalse(engine.layout(friend("小明", "你好"), width: 320, style: .friend, scale: 2).isTextTruncated)
    }

    func testAVIPsNameHasTheVIPRole() throws {
        let engine = try engine()
        let vip = engine.layout(friend("会员", "签名", vip: true), width: 375, style: .friend, scale: 2)
        let plain = engine.layout(friend("普通", "签名"), width: 375, style: .friend, scale: 2)
        XCTAssertEqual(vip.name.prepared.text.baseAttributes.role, .cellVIPName)
        XCTAssertEqual(plain.name.prepared.text.baseAttributes.role, .cellName)
        XCTAssertEqual(CellStyle.friend.palette.color(.cellVIPName), 0xFF0000)
        XCTAssertNil(vip.memberBadge, "no badge image: the colour says it")
    }
}
