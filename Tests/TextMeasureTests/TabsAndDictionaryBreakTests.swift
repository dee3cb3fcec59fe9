@testable import TextMeasure
import UnicodeText
import XCTest
import _LayoutTestSupport

/// Tab stops, dictionary breaks inside Thai, and the itemization rules Pango applies to spaces
/// and marks: against whole-run HarfBuzz shaping (the reference mode of the measurer), and
/// against values Pango 1.50 gives on the same fonts (peers harness, `WRAP_WORD_CHAR`).
final class TabsAndDictionaryBreakTests: XCTestCase {
    private func measurers() throws -> (fast: TextMeasurer, reference: TextMeasurer) {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        return (
            TextMeasurer(fonts: fonts),
            TextMeasurer(fonts: fonts, retainGlyphs: false, cacheBudgetBytes: 1 << 20, shapesWholeRuns: true)
        )
    }

    // MARK: Tabs

    /// Pango's default stops: every 8 widths of the base font's space (in 1/1024 pt units), at
    /// least one space after the pen, measured from the line start.
    func testTabsAdvanceToPangosDefaultStops() throws {
        let m = try Shared.requireMeasurer()
        func width(_ s: String, _ size: Double) -> Double { m.prepare(AttributedText(s, size: size)).naturalWidth }
        // Positions Pango reports for the character after the tab, plus that character's advance.
        XCTAssertEqual(width("a\tb", 15), 26.8828125 + 9.26953125, accuracy: 0.005)
        XCTAssertEqual(width("中\tb", 15), 26.8828125 + 9.26953125, accuracy: 0.005)
        XCTAssertEqual(width(" \tb", 15), 26.8828125 + 9.26953125, accuracy: 0.005)
        XCTAssertEqual(width("\t\tb", 15), 53.765625 + 9.26953125, accuracy: 0.005)
        // "aab" ends 0.72 pt before the first stop: less than a space, so the tab goes on.
        XCTAssertEqual(width("aab\tb", 15), 53.765625 + 9.26953125, accuracy: 0.005)
        XCTAssertEqual(width("aa\u{A0}\tb", 15), 26.8828125 + 9.26953125, accuracy: 0.005)
        XCTAssertEqual(width(String(repeating: "a", count: 17) + "\tb", 15), 161.296875 + 9.26953125, accuracy: 0.005)
        XCTAssertEqual(width("a\tb", 16), 28.671875 + 9.8876953125, accuracy: 0.005)
    }

    /// A tab is placed where it lands: after a wrap it is measured from the new line's start,
    /// and at a line end it hangs like a space (Pango: `aaa\tbbbbbbbbb` at 40 pt).
    func testTabsArePlacedOnTheirLine() throws {
        let m = try Shared.requireMeasurer()
        let p = m.prepare(AttributedText("aaa\tbbbbbbbbb", size: 15))
        let l = p.layout(LayoutOptions(width: 40))
        XCTAssertEqual(l.lines.map(\.range.lowerBound), [0, 4, 8, 12])
        XCTAssertEqual(l.lines[0].width, 25.3359375, accuracy: 0.005)
        XCTAssertEqual(l.lines[1].width, 37.078125, accuracy: 0.005)
        // The same prepared text at another width, and a tab at the start of a wrapped line.
        let q = m.prepare(AttributedText("名字\t年龄\t中文", size: 15))
        XCTAssertEqual(q.layout(LayoutOptions(width: 60)).lines.map(\.range.lowerBound), [0, 3, 6])
        let wide = q.layout(LayoutOptions(width: 1000))
        XCTAssertEqual(wide.lines.count, 1)
        // 名字 ends 3.12 pt before the first stop, less than a space: the tab goes to the second.
        XCTAssertEqual(wide.lines[0].width, 4 * 26.8828125 + 30, accuracy: 0.005)
        let xs = wide.clusterPositions(onLine: 0, of: q)
        XCTAssertEqual(xs[3], 2 * 26.8828125, accuracy: 0.005)  // after the first tab
        XCTAssertEqual(xs[6], 4 * 26.8828125, accuracy: 0.005)  // after the second
        // A tab that does not fit hangs at the line end, and the line breaks after it.
        let r = m.prepare(AttributedText("名字名字名字\t中", size: 15))
        let lines = r.layout(LayoutOptions(width: 95)).lines
        XCTAssertEqual(lines.map(\.range.lowerBound), [0, 7])
        XCTAssertEqual(r.unwrappedWidth, 107.53125 + 15, accuracy: 0.005)
    }

    /// Pango places a tab whole, even past the width, clamps the width left at 0 and never breaks
    /// right before a tab: white space after an overflowing tab wraps the line to the last
    /// opportunity before the tab, text after it wraps after the tab (Pango 1.50's line starts at
    /// 15 px, peers harness).
    func testTabsArePlacedWholeAndClampTheWidthLeft() throws {
        let m = try Shared.requireMeasurer()
        let pango: [(String, Double, [Int])] = [
            ("好好好\t  \n好", 50, [0, 2, 7]),
            ("好好好\t \n好", 50, [0, 2, 6]),
            ("好好好\t好", 50, [0, 4]),
            ("好好 \t好", 40, [0, 4]),
            ("好好\u{2002}\t好", 40, [0, 4]),
            ("好好  \t好", 40, [0, 5]),
            ("好好好\t", 50, [0]),
            ("ab cd\tef", 40, [0, 6]),
            ("好\t好\t好\t好", 60, [0, 4]),
        ]
        for (text, width, starts) in pango {
            let prepared = m.prepare(AttributedText(text, size: 15))
            let l = prepared.layout(LayoutOptions(width: width))
            XCTAssertEqual(l.lines.map(\.range.lowerBound), starts, text.debugDescription)
            // Every width at or past the widest test breaks no line for width.
            let wide = prepared.layout(LayoutOptions(width: prepared.unwrappedWidth))
            XCTAssertEqual(wide.lines.count, text.filter { $0 == "\n" }.count + 1, text.debugDescription)
        }
    }

    /// The tab-stop option: other space counts and stops in points; the prepared text's layouts
    /// agree with `clusterPositions`, entity rects and the unwrapped width.
    func testTabStopOption() throws {
        let m = try Shared.requireMeasurer()
        var t = AttributedText("a\tb\tc", size: 15)
        XCTAssertEqual(t.tabStops, .pango)
        t.tabStops = .points(50)
        let p = m.prepare(t)
        XCTAssertEqual(p.naturalWidth, 100 + p.advance(ofCluster: 4), accuracy: 1e-9)
        t.tabStops = .spaces(4)
        let q = m.prepare(t)
        let space = 3.3603515625
        XCTAssertEqual(q.naturalWidth, 8 * space + q.advance(ofCluster: 4), accuracy: 1e-6)
        // A stop in points must be passed, not reached: a tab at a stop goes to the next one.
        var u = AttributedText("\t\t", size: 15)
        u.tabStops = .points(10)
        u.append("x", attributes: TextAttributes(size: 15))
        XCTAssertEqual(m.prepare(u).naturalWidth, 20 + m.prepare(AttributedText("x", size: 15)).naturalWidth, accuracy: 1e-9)
        // Invalid options fall back to the default.
        t.tabStops = .points(.nan)
        XCTAssertEqual(m.prepare(t).naturalWidth, m.prepare(AttributedText("a\tb\tc", size: 15)).naturalWidth)
        // Entity rects are placed with the same stops.
        var e = AttributedText("a\tlink", size: 15)
        e.addEntity(.link, range: 2..<6, value: "x")
        let pe = m.prepare(e)
        let layout = pe.layout(LayoutOptions(width: 300))
        XCTAssertEqual(layout.entityRects(of: pe)[0].rects[0].x, 26.8828125, accuracy: 0.005)
        XCTAssertEqual(layout.unwrappedWidthAgrees(pe), true)
    }

    /// Lines with tabs against whole-run shaping: each line's width is the segments between its
    /// tabs shaped whole, with every tab advanced to the stop Pango's rule gives.
    func testTabLinesMatchWholeRunShaping() throws {
        let (fast, reference) = try measurers()
        let texts = [
            "名字\t年龄\t城市\n小明\t12\t北京\n王小红\t9\t上海",
            "Price:\t¥12.50\tqty\t3 件\tPaweł\tok",
            "第一列\t第二列\t第三列\t第四列\t第五列\t第六列\t第七列\t第八列\t第九列",
            "\tindented line with words that wrap over several lines\t\tand more\ttext",
        ]
        var lines = 0
        for t in texts {
            for size in [14.0, 15, 16, 17] {
                let p = fast.prepare(AttributedText(t, size: size))
                let spaceUnits = (Double(fast.fonts.file(.primary).spaceAdvance) * size / Double(fast.fonts.file(.primary).upem) * 1024).rounded()
                let space = spaceUnits / 1024, interval = 8 * space
                for w in [120.0, 320, 355, 414] {
                    for l in p.layout(LayoutOptions(width: w)).lines {
                        let units = Array(t.utf16)[l.range]
                        // Pen position through each segment and tab, the width up to the last
                        // character that does not hang.
                        var x = 0.0, content = 0.0
                        var segment: [UInt16] = []
                        func flush() {
                            guard !segment.isEmpty else { return }
                            let s = String(decoding: segment, as: UTF16.self)
                            let r = reference.prepare(AttributedText(s, size: size))
                            // (The reference shapes spaces into runs: which clusters hang is
                            // read from the production measurer.)
                            let f = fast.prepare(AttributedText(s, size: size))
                            XCTAssertEqual(f.clusterCount, r.clusterCount)
                            var a = 0.0
                            for c in 0..<r.clusterCount {
                                a += r.advance(ofCluster: c)
                                if !f.isHanging(c) { content = x + a }
                            }
                            x += a
                            segment = []
                        }
                        for u in units {
                            if u == 0x09 {
                                flush()
                                var stop = ((x + space) / interval).rounded(.down) * interval
                                if stop < x + space - 1e-9 { stop += interval }
                                x = stop
                            } else if u != 0x0A {
                                segment.append(u)
                            }
                        }
                        flush()
                        XCTAssertEqual(l.width, content, accuracy: 0.01, "\(t.prefix(20)) at \(size) pt, width \(w)")
                        lines += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(lines, 100)
    }

    // MARK: Thai and other SA scripts

    /// Breaks Pango 1.50 finds with libthai (line starts in UTF-16 units at the given widths);
    /// Lao has no dictionary in Pango and breaks between its letters only by UAX #14.
    func testThaiBreaksAtDictionaryWordsAsPango() throws {
        let m = try Shared.requireMeasurer()
        func starts(_ s: String, _ w: Double) -> [Int] {
            m.prepare(AttributedText(s, size: 15)).layout(LayoutOptions(width: w)).lines.map(\.range.lowerBound)
        }
        XCTAssertEqual(starts("ประเทศไทยกรุงเทพอาหารอร่อยมาก", 60), [0, 4, 6, 9, 13, 16, 20, 21, 25])
        XCTAssertEqual(starts("中文สวัสดีครับขอบคุณ中文", 70), [0, 2, 6, 8, 12, 17])
        XCTAssertEqual(starts("วันนี้อากาศดีมาก ไปเที่ยวทะเล", 80), [0, 6, 11, 17, 19, 25])
        XCTAssertEqual(starts("ສະບາຍດີຂອບໃຈລາວພາສາລາວ", 60), [0, 7, 13, 19])
        // Pango itemizes each paragraph apart: digits that start one take the script of the Thai
        // after them, and are in its item (libthai breaks after them).
        XCTAssertEqual(starts("中文\n12ภาษาไทยภาษาไทย", 60), [0, 3, 5, 9, 12, 16])
        // Myanmar: Pango keeps U+102C (a spacing mark UAX #29 lets a cluster end before) in the
        // cluster before it, so a word too long for its line breaks one unit earlier.
        let my = m.prepare(AttributedText("မာ", size: 15))
        XCTAssertEqual(my.clusterCount, 1)
        XCTAssertEqual(TextBreaks.graphemeBoundaries("မာ"), [0, 1, 2])  // UAX #29 itself: two clusters
        // Opportunities, independent of widths: after each word of "สวัสดีครับ".
        let p = m.prepare(AttributedText("สวัสดีครับ", size: 15))
        var opportunities: [Int] = []
        for c in 0..<p.clusterCount where p.clusters[c].flags & ClusterFlags.breakAfter != 0 {
            opportunities.append(p.utf16Range(ofCluster: c).upperBound)
        }
        XCTAssertEqual(opportunities, [6])
        // A Thai item ends at an attribute run: no break is added across it.
        var split = AttributedText("สวัสดี", size: 15)
        split.append("ครับ", attributes: TextAttributes(size: 15, weight: .bold))
        let q = m.prepare(split)
        XCTAssertEqual((0..<q.clusterCount).filter { q.clusters[$0].flags & ClusterFlags.breakAfter != 0 }, [])
    }

    func testThaiAndSpaceMarkTextsMatchWholeRunShaping() throws {
        let (fast, reference) = try measurers()
        let texts = [
            "วันนี้อากาศดีมาก ไปเที่ยวทะเล กับเพื่อน ๑๒๓ ค่ะ，中文ภาษาไทย",
            "中中中中中ʖ ̀°中中 • ̀ω•́ ( ͡° ͜ʖ ͡°) x̶y̶ 解 a ̈b",
            "ευχαριστώ 加 Paweł 然 Zürich مرحبا 中 שלום עולם",
        ]
        for t in texts {
            for size in [15.0, 16] {
                let p = fast.prepare(AttributedText(t, size: size))
                let r = reference.prepare(AttributedText(t, size: size))
                XCTAssertEqual(p.clusterCount, r.clusterCount)
                guard p.clusterCount == r.clusterCount else { continue }
                for w in [60.0, 120, 320] {
                    for l in p.layout(LayoutOptions(width: w)).lines {
                        var b = 0.0, content = 0.0
                        for c in l.clusters {
                            b += r.advance(ofCluster: c)
                            if !p.isHanging(c) { content = b }
                        }
                        XCTAssertEqual(l.width, content, accuracy: 0.01, "\(t.prefix(20)) at \(size), width \(w)")
                    }
                }
            }
        }
    }

    // MARK: Spaces and marks between faces

    /// Pango's itemizer: a space after a fallback-face character stays in that face when the
    /// next character starts another script run; a line may break between a space and a mark
    /// (UAX #14 LB10), but not before a double diacritic (class GL) inside a cluster.
    func testSpacesAndMarksBetweenFacesAsPango() throws {
        let m = try Shared.requireMeasurer()
        func width(_ s: String) -> Double { m.prepare(AttributedText(s, size: 15)).naturalWidth }
        XCTAssertEqual(width("ευχαριστώ 加"), 95.5547, accuracy: 0.01)
        XCTAssertEqual(width("Paweł 然"), 61.5322, accuracy: 0.01)
        XCTAssertEqual(width("( ͡° ͜ʖ ͡°)"), 40.3838, accuracy: 0.01)
        func starts(_ s: String, _ w: Double) -> [Int] {
            m.prepare(AttributedText(s, size: 15)).layout(LayoutOptions(width: w)).lines.map(\.range.lowerBound)
        }
        XCTAssertEqual(starts("中中中中中ʖ ̀°中中", 86), [0, 7])
        XCTAssertEqual(starts("中中中中中a ͡°中中", 86), [0, 5])
        XCTAssertEqual(starts("中中中中中a ̈°中中", 86), [0, 7])
    }
}

extension TextLayout {
    /// Whether a layout at the prepared text's unwrapped width keeps every line this layout has.
    fileprivate func unwrappedWidthAgrees(_ p: PreparedText) -> Bool {
        p.layout(LayoutOptions(width: p.unwrappedWidth)).lines.count == lines.count
    }
}
