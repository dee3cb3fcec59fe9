import CellLayout
import TerminalPreview
import XCTest
import _LayoutTestSupport

/// Static output of the demo feed, colour off, compared byte for byte with Goldens/*.txt (the same
/// text `feedlayout preview --rows : --width W --style S` prints; PreviewCommandTests checks that).
final class GoldenTests: XCTestCase {
    func check(width: Double, style: CellStyle) throws {
        let doc = try Shared.document(try Shared.statuses("feed.plist"), width: width, style: style, title: "demo feed")
        let text = Shared.render(doc, color: false)
        XCTAssertFalse(text.utf8.contains(0x1B), "colour off MUST NOT write any escape byte")
        XCTAssertEqual(text.split(separator: "\n").count, doc.preview.lineCount)
        assertGolden(text, named: "demo-\(style.name)-\(Int(width)).txt")
    }

    func testWeibo320() throws { try check(width: 320, style: .weibo) }
    func testWeibo414() throws { try check(width: 414, style: .weibo) }
    func testClassic320() throws { try check(width: 320, style: .classic) }
    func testClassic414() throws { try check(width: 414, style: .classic) }
}
