import CellLayout
import StatusModel
import TableLayout
import TerminalPreview
import TextMeasure
import XCTest
import _LayoutTestSupport

enum FeedOptionsFactory {
    static func make(width: Double, style: CellStyle = .weibo) -> FeedOptions { FeedOptions(width: width, style: style) }
}

/// Texts appear as the engine broke them: one terminal line per laid-out line, consecutive, each
/// holding that line's characters in order, none cut.
final class TextPlacementTests: XCTestCase {
    /// Checks every text of every row; returns the number of lines checked.
    private func check(_ statuses: [Status], widths: [Double]) throws -> Int {
        let engine = try Shared.requireEngine()
        var checked = 0
        for style in [CellStyle.weibo, .classic] {
            for width in widths {
                let options = FeedOptionsFactory.make(width: width, style: style)
                let layout = try engine.layout(statuses, options: options, threads: 1)
                let preview = try FeedPreview(layout: layout, title: "t")
                for row in 0..<statuses.count {
                    let cell = engine.cell(for: statuses[row], options: options)
                    let lines = preview.canvas(lines: preview.lines(ofRows: row..<(row + 1)), cell: { _ in cell }).lines(color: false)
                    let boxes = [cell.name, cell.time] + [cell.text, cell.retweet?.text].compactMap { $0 }
                    for box in boxes {
                        checked += checkBox(box, in: lines, context: "\(style.name) \(width) row \(row) (id \(statuses[row].id))")
                    }
                }
            }
        }
        return checked
    }

    private func checkBox(_ box: TextBox, in lines: [String], context: String) -> Int {
        let units = Array(box.string.utf16)
        var previous: Int?
        var checked = 0
        for (i, line) in box.layout.lines.enumerated() {
            let text = String(decoding: units[line.range], as: UTF16.self)
            // Compare the part before any inline object (drawn as a block) or hard break.
            var s = String(text.prefix { $0 != "\u{FFFC}" && !$0.isNewline })
            while s.last == " " { s.removeLast() }
            s = TerminalText.sanitized(s)
            guard s.count >= 2 else {
                if let p = previous { previous = p + 1 }
                continue
            }
            let start = previous.map { $0 + 1 } ?? 0
            guard let at = lines.indices.first(where: { $0 >= start && lines[$0].contains(s) }) else {
                XCTFail("\(context): line \(i) \(s.debugDescription) is not shown whole after line \(start)")
                return checked
            }
            if let p = previous { XCTAssertEqual(at, p + 1, "\(context): line \(i) is not on the next terminal line") }
            previous = at
            checked += 1
        }
        return checked
    }

    func testFixtures() throws {
        let statuses = try Shared.statuses("feed.plist") + (try Shared.statuses("StatusInfo.plist"))
        XCTAssertGreaterThan(try check(statuses, widths: [320, 414]), 300)
    }

    func testSharedCorpus() throws {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        var statuses: [Status] = []
        for url in files { statuses += try FeedLoader.load(contentsOf: url).feed.statuses }
        XCTAssertGreaterThan(try check(statuses, widths: [320, 375]), 1000)
    }
}
