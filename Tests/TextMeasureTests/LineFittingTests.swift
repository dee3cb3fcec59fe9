import TextMeasure
import XCTest
import _LayoutTestSupport

/// Line fitting checked by hand with the fixed-advance fake: a wide character is `size` wide, any
/// other `size / 2`; ascent 0.8·size, descent 0.2·size.
final class LineFittingTests: XCTestCase {
    let fake = FixedAdvanceMeasurer()

    private func lines(_ s: String, width: Double, size: Double = 10, _ options: (inout LayoutOptions) -> Void = { _ in })
        -> [String]
    {
        var o = LayoutOptions(width: width)
        options(&o)
        let t = AttributedText(s, size: size)
        let layout = fake.prepare(t).layout(o)
        let u = Array(s.utf16)
        return layout.lines.map { String(decoding: u[$0.range], as: UTF16.self) }
    }

    func testWordsWrapAtSpacesAndSpacesHang() {
        // "aaaa " is 25 wide but its space hangs, so "aaaa" (20) fits in 22; "bb" does not follow.
        let t = AttributedText("aaaa bb", size: 10)
        let layout = fake.prepare(t).layout(LayoutOptions(width: 22))
        XCTAssertEqual(layout.lines.map(\.range), [0..<5, 5..<7])
        XCTAssertEqual(layout.lines.map(\.width), [20, 10])
        XCTAssertEqual(layout.size, Size(width: 20, height: 20))
    }

    func testOnlyTheLastWhiteSpaceBeforeABreakHangs() {
        // "我们今" is 30 wide, a space 5. One space before the break hangs: the line fits in 32.
        XCTAssertEqual(lines("我们今 天", width: 32), ["我们今 ", "天"])
        // A second space counts (35 > 32): the line ends at the opportunity before.
        XCTAssertEqual(lines("我们今  天", width: 32), ["我们", "今  天"])
        XCTAssertEqual(lines("我们今  天", width: 35), ["我们今  ", "天"])
        // Before a hard break the separator is the last character: the space counts.
        XCTAssertEqual(lines("我们今 \n天", width: 32), ["我们", "今 \n", "天"])
        XCTAssertEqual(lines("我们今 \n天", width: 35), ["我们今 \n", "天"])
        XCTAssertEqual(lines("我们今 \u{2028}天", width: 32), ["我们", "今 \u{2028}", "天"])
        // At the end of the text the last space hangs, the ones before it count.
        XCTAssertEqual(lines("我们今 ", width: 30), ["我们今 "])
        XCTAssertEqual(lines("我们今  ", width: 32), ["我们", "今  "])
        // The reported widths leave all the trailing white space out, as before.
        let layout = fake.prepare(AttributedText("我们今  天", size: 10)).layout(LayoutOptions(width: 35))
        XCTAssertEqual(layout.lines.map(\.width), [30, 10])
    }

    func testUnwrappedWidthCountsTheWhiteSpaceALineEndTestsWith() {
        for (s, unwrapped) in [("我们今 ", 30.0), ("我们今  ", 35), ("我们今 \n天", 35), ("我们今  天", 50), ("我们 \u{2028}天", 25)] {
            let p = fake.prepare(AttributedText(s, size: 10))
            XCTAssertEqual(p.unwrappedWidth, unwrapped, s)
            // No line breaks for width at the unwrapped width; one does just below it.
            let hard = s.filter { $0 == "\n" || $0 == "\u{2028}" }.count
            XCTAssertEqual(p.layout(LayoutOptions(width: unwrapped)).lines.count, hard + 1, s)
            XCTAssertGreaterThan(p.layout(LayoutOptions(width: unwrapped - 0.5)).lines.count, hard + 1, s)
        }
    }

    func testCJKBreaksBetweenCharacters() {
        XCTAssertEqual(lines("我们今天去公园", width: 35), ["我们今", "天去公", "园"])
    }

    func testUnbreakableRunMovesThenBreaksAtClusters() {
        // "xx" fits on line 1; the 10-letter word does not fit after it, nor on a line of its own
        // (50 > 30), so it starts a new line and is then broken at clusters.
        XCTAssertEqual(lines("xx abcdefghij", width: 30), ["xx ", "abcdef", "ghij"])
    }

    func testCharacterWrapBreaksAnywhere() {
        XCTAssertEqual(lines("ab cdef", width: 20) { $0.wrap = .character }, ["ab c", "def"])
    }

    func testHardBreaksAndTrailingNewline() {
        XCTAssertEqual(
            lines("a\nb\r\nc\rd\u{2028}e\u{2029}f", width: 100),
            ["a\n", "b\r\n", "c\r", "d\u{2028}", "e\u{2029}", "f"])
        XCTAssertEqual(lines("ab\ncd\n", width: 100), ["ab\n", "cd\n", ""])
        XCTAssertEqual(lines("ab\n\ncd", width: 100), ["ab\n", "\n", "cd"])
    }

    func testZeroAndNonFiniteWidthsStillTerminate() {
        for w in [0, -5, Double.nan, -Double.infinity] {
            // The space hangs only after what fits: nothing does, so it takes a line (as in Pango).
            XCTAssertEqual(lines("abc 我们", width: w), ["a", "b", "c", " ", "我", "们"], "width \(w)")
        }
        XCTAssertEqual(lines("abc 我们", width: .infinity), ["abc 我们"])
    }

    func testNaturalAndGridLineHeights() {
        let t = AttributedText("我们今天去公园", size: 10)
        let natural = fake.prepare(t).layout(LayoutOptions(width: 35))
        XCTAssertEqual(natural.lines.map(\.baseline), [8, 18, 28])
        XCTAssertEqual(natural.size.height, 30)
        let grid = fake.prepare(t).layout(LayoutOptions(width: 35, lineHeight: .grid(size: 17, multiple: 1.34, ascentFraction: 0.86)))
        XCTAssertEqual(grid.lines.map(\.baseline), [0.86 * 17, 0.86 * 17 + 1.34 * 17, 0.86 * 17 + 2 * 1.34 * 17])
        XCTAssertEqual(grid.size.height, 17 + 2 * 1.34 * 17, accuracy: 1e-9)
    }

    func testBoundingSizeRoundsUpToThePixelGrid() {
        let t = AttributedText("aaa", size: 10.1)  // 15.15 wide, 10.1 tall
        let l = fake.prepare(t).layout(LayoutOptions(width: 100, grid: PixelGrid(scale: 2)))
        XCTAssertEqual(l.size, Size(width: 15.5, height: 10.5))
        let l3 = fake.prepare(t).layout(LayoutOptions(width: 100, grid: PixelGrid(scale: 3)))
        XCTAssertEqual(l3.size.width, 46.0 / 3, accuracy: 1e-12)
    }

    func testTruncationPlacesTheTokenAndKeepsTheFullHeight() {
        let t = AttributedText("我们今天去公园玩了一整天", size: 10)  // 12 wide chars: 4 lines at 30
        let token = fake.prepare(AttributedText("...", size: 10))  // 15
        let p = fake.prepare(t)
        let full = p.layout(LayoutOptions(width: 30))
        let cut = p.layout(LayoutOptions(width: 30, maxLines: 2), truncationToken: token)
        XCTAssertEqual(full.lines.count, 4)
        XCTAssertTrue(cut.isTruncated)
        XCTAssertEqual(cut.lines.count, 2)
        XCTAssertEqual(cut.fullLineCount, 4)
        XCTAssertEqual(cut.fullHeight, full.size.height)
        // Line 2 ("天去公") keeps "天": 10 + 15 ≤ 30, 20 + 15 > 30.
        XCTAssertEqual(cut.token, TokenPlacement(line: 1, x: 10, width: 15))
        XCTAssertEqual(cut.lines[1].range, 3..<4)
        // Exactly as many lines as allowed: nothing is cut, no token.
        let exact = p.layout(LayoutOptions(width: 30, maxLines: 4), truncationToken: token)
        XCTAssertFalse(exact.isTruncated)
        XCTAssertNil(exact.token)
        XCTAssertEqual(exact, full)
        // The token is stored as plain fields: layouts compare and hash by its value.
        let again = p.layout(LayoutOptions(width: 30, maxLines: 2), truncationToken: token)
        XCTAssertEqual(again, cut)
        XCTAssertEqual(again.hashValue, cut.hashValue)
        var moved = cut
        moved.token = TokenPlacement(line: 1, x: 11, width: 15)
        XCTAssertNotEqual(moved, cut)
        XCTAssertEqual(cut.token, TokenPlacement(line: 1, x: 10, width: 15), "a copy keeps its own token")
        moved.token = nil
        XCTAssertNil(moved.token)
        var untruncated = exact
        untruncated.token = nil
        XCTAssertEqual(untruncated, exact, "no token is one value, however it was set")
    }

    func testTokenKeepsWhatFitsBeforeIt() {
        let t = AttributedText("我们今天去公园玩", size: 10)
        let token = fake.prepare(AttributedText("...", size: 10))  // 15 wide
        let cut = fake.prepare(t).layout(LayoutOptions(width: 40, maxLines: 1), truncationToken: token)
        XCTAssertEqual(cut.lines[0].range, 0..<2)  // 20 + 15 ≤ 40; 30 + 15 > 40
        XCTAssertEqual(cut.token?.x, 20)
        XCTAssertEqual(cut.size.width, 35)
    }

    func testInlineObjectsAreNeverSplitAndGetRects() {
        var t = AttributedText("ab", size: 10)
        t.appendAttachment(width: 14, ascent: 9, descent: 3, name: "[微笑]", attributes: TextAttributes(size: 10))
        t.append("cd", attributes: TextAttributes(size: 10))
        let p = fake.prepare(t)
        let l = p.layout(LayoutOptions(width: 16))
        XCTAssertEqual(l.lines.map(\.range), [0..<2, 2..<3, 3..<5])
        let rects = l.attachmentRects(of: p)
        XCTAssertEqual(rects.count, 1)
        XCTAssertEqual(rects[0].rect, Rect(x: 0, y: l.lines[1].baseline - 9, width: 14, height: 12))
        // The object's ascent raises its line.
        XCTAssertEqual(l.lines[1].ascent, 9)
    }

    func testEntityRectsFollowLineFragments() {
        var t = AttributedText("我们今天去公园", size: 10)
        t.addEntity(.topic, range: 2..<5, value: "今天去")
        let p = fake.prepare(t)
        let l = p.layout(LayoutOptions(width: 40))  // 我们今天 | 去公园
        let e = l.entityRects(of: p)
        XCTAssertEqual(e.count, 1)
        XCTAssertEqual(e[0].rects, [Rect(x: 20, y: 0, width: 20, height: 10), Rect(x: 0, y: 10, width: 10, height: 10)])
    }

    func testRelayoutOfPreparedTextEqualsFreshLayoutAtManyWidths() {
        let text = AttributedText("Hello 世界, this is 一个 test of 换行 at many widths: 1234567890 😀 end.", size: 13)
        let prepared = fake.prepare(text)
        for w in stride(from: 0.0, through: 400, by: 3.5) {
            XCTAssertEqual(prepared.layout(LayoutOptions(width: w)), fake.prepare(text).layout(LayoutOptions(width: w)))
        }
    }

    /// Entity and object rects equal a direct scan of every cluster of every line (the definition)
    /// on texts with many entities and objects, at many widths, with and without truncation.
    func testEntityAndObjectRectsEqualAScanOfEveryCluster() {
        var state: UInt64 = 99
        func below(_ n: Int) -> Int {  // a 64-bit LCG: fixed, reproducible cases
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let pieces = ["我们", "今天", " ", "去公园", "hello ", "world", "，", "\n", "😀", "长长长长长长长长长长"]
        var entityRects = 0, objectRects = 0, multiLine = 0, ordered = 0
        for _ in 0..<120 {
            var t = AttributedText("", attributes: TextAttributes(size: 10))
            for _ in 0..<(5 + below(25)) {
                if below(5) == 0 {
                    t.appendAttachment(width: 12, ascent: 9, descent: 3, name: "o", attributes: TextAttributes(size: 10))
                } else {
                    t.append(pieces[below(pieces.count)], attributes: TextAttributes(size: 10))
                }
            }
            let n = t.utf16Count
            if below(2) == 0 {
                // Anywhere, in any order, overlapping.
                for _ in 0..<below(6) {
                    let a = below(n + 1), b = below(n + 1)
                    t.addEntity(.mention, range: min(a, b)..<max(a, b), value: "e")
                }
            } else {
                // In text order and not overlapping, as status texts hold them (the one-walk form);
                // empty ones and boundaries inside clusters included.
                ordered += 1
                var cuts = (0..<(2 * below(8))).map { _ in below(n + 1) }
                cuts.sort()
                for k in stride(from: 0, to: cuts.count, by: 2) {
                    t.addEntity(.topic, range: cuts[k]..<cuts[k + 1], value: "o")
                }
            }
            let p = fake.prepare(t)
            let token = fake.prepare(AttributedText("…", size: 10))
            for w in stride(from: 5.0, through: 300, by: 17) {
                for limit in [0, 2] {
                    let l = p.layout(LayoutOptions(width: w, maxLines: limit), truncationToken: limit > 0 ? token : nil)
                    let entities = l.entityRects(of: p)
                    XCTAssertEqual(entities.map(\.entity), Array(p.text.entities.indices))
                    XCTAssertEqual(entities.map(\.rects), referenceEntityRects(l, p), "width \(w)")
                    var visited: [Int] = []
                    l.forEachEntityRect(of: p) { e, _ in visited.append(e) }
                    XCTAssertEqual(visited, visited.sorted(), "the visitor goes in entity order")
                    let objects = l.attachmentRects(of: p)
                    let expected = referenceObjectRects(l, p)
                    XCTAssertEqual(objects.map(\.rect), expected.map(\.rect), "width \(w)")
                    XCTAssertEqual(objects.map(\.object.offset), expected.map(\.object.offset))
                    entityRects += entities.reduce(0) { $0 + $1.rects.count }
                    objectRects += objects.count
                    multiLine += entities.filter { $0.rects.count > 1 }.count
                }
            }
        }
        // The cases exercise what they check: fragments on several lines, objects.
        XCTAssertGreaterThan(entityRects, 1000)
        XCTAssertGreaterThan(objectRects, 500)
        XCTAssertGreaterThan(multiLine, 100)
        XCTAssertGreaterThan(ordered, 40)
    }

    private func referenceEntityRects(_ l: TextLayout, _ p: PreparedText) -> [[Rect]] {
        p.text.entities.map { entity in
            var rects: [Rect] = []
            for line in l.lines where line.range.overlaps(entity.range) {
                var x = 0.0, x0 = -1.0, x1 = 0.0
                for c in line.clusters {
                    let a = p.advance(ofCluster: c)
                    if p.utf16Range(ofCluster: c).overlaps(entity.range) {
                        if x0 < 0 { x0 = x }
                        if !p.isHanging(c) { x1 = x + a }
                    }
                    x += a
                }
                if x0 >= 0 && x1 > x0 { rects.append(Rect(x: x0, y: line.top, width: x1 - x0, height: line.ascent + line.descent)) }
            }
            return rects
        }
    }

    private func referenceObjectRects(_ l: TextLayout, _ p: PreparedText) -> [(object: InlineObject, rect: Rect)] {
        var out: [(object: InlineObject, rect: Rect)] = []
        for line in l.lines {
            var x = 0.0
            for c in line.clusters {
                if p.isAttachment(c), let o = p.text.attachments.first(where: { $0.offset == p.utf16Range(ofCluster: c).lowerBound }) {
                    out.append((o, Rect(x: x, y: line.baseline - o.ascent, width: p.advance(ofCluster: c), height: o.ascent + o.descent)))
                }
                x += p.advance(ofCluster: c)
            }
        }
        return out
    }
}
