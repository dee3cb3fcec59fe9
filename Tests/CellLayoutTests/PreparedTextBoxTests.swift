import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

/// A box keeps the layout of a text that fits on one line and answers later requests with it:
/// every answer must equal a layout of the prepared text with the same options.
final class PreparedTextBoxTests: XCTestCase {
    private static let measurer: TextMeasurer? = (try? FontSet.load(directory: TestPaths.fonts)).map { TextMeasurer(fonts: $0) }

    private func measurer() throws -> TextMeasurer {
        guard let m = Self.measurer else { throw XCTSkip("pinned fonts are not installed (run scripts/setup.sh)") }
        return m
    }

    private func texts() -> [AttributedText] {
        var texts = ["微博用户", "Alice 😀", "1.2万", "来自 iPhone 6s Plus", "a b ", "x", "ab\ncd", "ends with a break\n", "   "]
            .map { AttributedText($0, size: 15) }
        var named = AttributedText("名字", size: 15)
        named.appendAttachment(width: 14, ascent: 12, descent: 2, name: "vip", attributes: TextAttributes(size: 15))
        texts.append(named)
        var linked = AttributedText("看 ", size: 15)
        let r = linked.append("#话题#", attributes: TextAttributes(size: 15))
        linked.addEntity(.topic, range: r, value: "话题")
        texts.append(linked)
        texts.append(AttributedText(String(repeating: "一段会换行的长文本 with words ", count: 4), size: 15))
        return texts
    }

    /// Random sequences of widths (fitting or not, 0, infinite, NaN), line limits, wrap modes,
    /// line heights, grids and tokens: each answer equals `PreparedText.layout` with its options,
    /// whichever request made the box keep its one-line layout.
    func testEveryAnswerEqualsALayoutOfThePreparedText() throws {
        let m = try measurer()
        let token = m.prepare(AttributedText("...全文", size: 15))
        let widths: [Double] = [0, -3, 8, 20, 45, 90, 160, 375, .infinity, .nan]
        let heights: [LineHeightPolicy] = [.natural, .grid(size: 15, multiple: 1.34, ascentFraction: 0.86)]
        let grids: [PixelGrid?] = [nil, PixelGrid(scale: 2), PixelGrid(scale: 3)]
        var rng = SplitMix64(seed: 11)
        var answeredFromKept = 0
        for text in texts() {
            for _ in 0..<8 {
                let box = PreparedTextBox(m.prepareUncached(text))
                for _ in 0..<40 {
                    let options = LayoutOptions(
                        width: widths.randomElement(using: &rng)!, maxLines: Int.random(in: 0...2, using: &rng),
                        lineHeight: heights.randomElement(using: &rng)!, wrap: Bool.random(using: &rng) ? .word : .character,
                        grid: grids.randomElement(using: &rng)!)
                    let withToken = Bool.random(using: &rng)
                    let expected = withToken ? box.prepared.layout(options, truncationToken: token) : box.prepared.layout(options)
                    let first = box.layout(options, truncationToken: withToken ? PreparedTextBox(token) : nil)
                    let second = box.layout(options, truncationToken: withToken ? PreparedTextBox(token) : nil)
                    XCTAssertEqual(first, expected, "\(text.string.debugDescription) \(options)")
                    XCTAssertEqual(second, expected, "\(text.string.debugDescription) \(options)")
                    if sharesLines(first, second) { answeredFromKept += 1 }
                }
            }
        }
        XCTAssertGreaterThan(answeredFromKept, 100, "the kept one-line layouts were not used")
    }

    /// The first one-line answer is not kept (a cell laid out once makes no object for it); the
    /// second is. Then the label laid out again at another width it fits, or on another box's
    /// request, shares the kept lines (no new array); a width it does not fit is laid out anew.
    func testAOneLineLabelIsLaidOutAtMostTwice() throws {
        let m = try measurer()
        let box = PreparedTextBox(m.prepareUncached(AttributedText("微博用户", size: 15)))
        let grid = PixelGrid(scale: 2)
        let first = box.layout(LayoutOptions(width: 300, maxLines: 1, grid: grid))
        let wide = box.layout(LayoutOptions(width: 300, maxLines: 1, grid: grid))
        XCTAssertEqual(wide, first)
        XCTAssertFalse(sharesLines(first, wide))
        XCTAssertEqual(wide.lines.count, 1)
        XCTAssertTrue(sharesLines(wide, box.layout(LayoutOptions(width: 300, maxLines: 1, grid: grid))))
        let narrower = box.layout(LayoutOptions(width: box.prepared.unwrappedWidth, maxLines: 1, grid: grid))
        XCTAssertTrue(sharesLines(wide, narrower))
        let tooNarrow = box.layout(LayoutOptions(width: 30, maxLines: 1, grid: grid))
        XCTAssertTrue(tooNarrow.isTruncated)
        XCTAssertFalse(sharesLines(wide, tooNarrow))
        let otherGrid = box.layout(LayoutOptions(width: 300, maxLines: 1, grid: PixelGrid(scale: 3)))
        XCTAssertFalse(sharesLines(wide, otherGrid))
        XCTAssertEqual(otherGrid, box.prepared.layout(LayoutOptions(width: 300, maxLines: 1, grid: PixelGrid(scale: 3))))
    }

    /// A text that wraps is kept at the options and token of its second layout: asked again with
    /// them it shares the kept lines; another width, limit or token is laid out anew.
    func testAWrappedTextIsKeptAtItsOptionsAndToken() throws {
        let m = try measurer()
        let box = PreparedTextBox(m.prepareUncached(AttributedText(String(repeating: "一段会换行的长文本 with words ", count: 4), size: 15)))
        let token = PreparedTextBox(m.prepareUncached(AttributedText("...全文", size: 15)))
        let options = LayoutOptions(width: 160, maxLines: 3, grid: PixelGrid(scale: 2))
        let first = box.layout(options, truncationToken: token)
        let second = box.layout(options, truncationToken: token)
        XCTAssertGreaterThan(first.lines.count, 1)
        XCTAssertEqual(second, first)
        XCTAssertFalse(sharesLines(first, second))
        XCTAssertTrue(sharesLines(second, box.layout(options, truncationToken: token)))
        var wider = options
        wider.width = 200
        XCTAssertFalse(sharesLines(second, box.layout(wider, truncationToken: token)))
        XCTAssertEqual(box.layout(wider, truncationToken: token), box.prepared.layout(wider, truncationToken: token.prepared))
        let otherToken = PreparedTextBox(m.prepareUncached(AttributedText("…", size: 15)))
        XCTAssertFalse(sharesLines(second, box.layout(options, truncationToken: otherToken)))
        XCTAssertEqual(box.layout(options, truncationToken: otherToken), box.prepared.layout(options, truncationToken: otherToken.prepared))
        XCTAssertFalse(sharesLines(second, box.layout(options)))
    }

    /// A box placed again at the same frame shares its entity and object frames; every placement
    /// equals a fresh one.
    func testAPlacementIsSharedAtTheSameFrame() throws {
        let m = try measurer()
        var named = AttributedText("名字", size: 15)
        named.appendAttachment(width: 14, ascent: 12, descent: 2, name: "vip", attributes: TextAttributes(size: 15))
        let r = named.append(" #话题#", attributes: TextAttributes(size: 15))
        named.addEntity(.topic, range: r, value: "话题")
        let box = PreparedTextBox(m.prepareUncached(named))
        let grid = PixelGrid(scale: 2)
        let options = LayoutOptions(width: 300, maxLines: 1, grid: grid)
        let frame = Rect(x: 10.5, y: 20, width: 120, height: 21)
        let boxes = (0..<4).map { _ in makeTextBox(box, box.layout(options), frame: frame, grid: grid) }
        let fresh = makeTextBox(PreparedTextBox(box.prepared), box.prepared.layout(options), frame: frame, grid: grid)
        for b in boxes {
            XCTAssertEqual(b.entities, fresh.entities)
            XCTAssertEqual(b.attachments, fresh.attachments)
        }
        XCTAssertFalse(fresh.attachments.isEmpty)
        boxes[2].attachments.withUnsafeBufferPointer { x in
            boxes[3].attachments.withUnsafeBufferPointer { y in XCTAssertEqual(x.baseAddress, y.baseAddress) }
        }
        let moved = makeTextBox(box, box.layout(options), frame: frame.offsetBy(dx: 0.5, dy: 0), grid: grid)
        let movedFresh = makeTextBox(PreparedTextBox(box.prepared), box.prepared.layout(options), frame: frame.offsetBy(dx: 0.5, dy: 0), grid: grid)
        XCTAssertEqual(moved.entities, movedFresh.entities)
        XCTAssertEqual(moved.attachments, movedFresh.attachments)
    }

    /// Many threads asking one box at once get equal answers (one of them keeps its layout).
    func testConcurrentRequestsGetEqualLayouts() throws {
        let m = try measurer()
        for text in texts() {
            let box = PreparedTextBox(m.prepareUncached(text))
            let options = LayoutOptions(width: 375, maxLines: 1, grid: PixelGrid(scale: 2))
            let expected = box.prepared.layout(options)
            // Each thread writes only its own object.
            let results = (0..<8).map { _ in Results() }
            DispatchQueue.concurrentPerform(iterations: 8) { k in
                for _ in 0..<50 { results[k].layouts.append(box.layout(options)) }
            }
            for r in results { XCTAssertEqual(r.layouts, Array(repeating: expected, count: 50)) }
        }
    }

    private final class Results: @unchecked Sendable {
        var layouts: [TextLayout] = []
    }

    private func sharesLines(_ a: TextLayout, _ b: TextLayout) -> Bool {
        guard !a.lines.isEmpty else { return false }
        return a.lines.isSameStorage(as: b.lines)
    }
}
