import CellLayout
import TableLayout
import TerminalPreview
import TextMeasure
import XCTest
import _LayoutTestSupport

enum FeedOptionsFactory {
    static func make(width: Double, style: CellStyle = .weibo) -> FeedOptions { FeedOptions(width: width, style: style) }
}

/// Texts appear as the engine broke them: one terminal line per laid-out line, in order.
final class TextPlacementTests: XCTestCase {
    func testMainTextLinesAreConsecutiveTerminalLines() throws {
        let engine = try Shared.requireEngine()
        let statuses = try Shared.statuses("feed.plist") + (try Shared.statuses("StatusInfo.plist"))
        var checkedLines = 0
        for style in [CellStyle.weibo, .classic] {
            for width in [320.0, 414] {
                let options = FeedOptionsFactory.make(width: width, style: style)
                let layout = try engine.layout(statuses, options: options, threads: 1, retainCells: false)
                let preview = try FeedPreview(layout: layout, title: "t")
                for row in 0..<statuses.count {
                    let cell = engine.cell(for: statuses[row], options: options)
                    guard let box = cell.text else { continue }
                    let range = preview.lines(ofRows: row..<(row + 1))
                    let lines = preview.canvas(lines: range, cell: { engine.cell(for: statuses[$0], options: options) })
                        .lines(color: false)
                    let units = Array(box.string.utf16)
                    var previous = -1
                    for line in box.layout.lines {
                        var s = String(decoding: units[line.range], as: UTF16.self)
                        while let last = s.unicodeScalars.last, last == "\n" || last == " " { s.unicodeScalars.removeLast() }
                        guard !s.isEmpty, !s.contains("\u{FFFC}") else { continue }
                        // The line's text is on exactly one terminal line, after the previous one.
                        let found = lines.indices.filter { lines[$0].contains(s) }
                        XCTAssertFalse(found.isEmpty, "\(style.name) \(width) row \(row): line \(s.debugDescription) not shown")
                        guard let at = found.first(where: { $0 > previous }) else {
                            XCTFail("\(style.name) \(width) row \(row): \(s.debugDescription) out of order")
                            continue
                        }
                        if previous >= 0 { XCTAssertEqual(at, previous + 1, "\(style.name) \(width) row \(row): consecutive lines") }
                        previous = at
                        checkedLines += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checkedLines, 100)
    }
}
