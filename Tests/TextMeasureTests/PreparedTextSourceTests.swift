import TextMeasure
import UnicodeText
import XCTest
import _LayoutTestSupport

/// A prepared text keeps a copy of its source text in its own object, and a text can be prepared
/// straight from its builder's buffers: both must give back exactly the text, and preparing from
/// the builder must equal preparing the finished text.
final class PreparedTextSourceTests: XCTestCase {
    private let pieces = [
        "", "a", "abc ", "中文", "，。", "😀", "👨‍👩‍👧", "🇨🇳", "e\u{301}", "@名字", "[微笑]", "\n", "https://t.cn/x", "a\tb",
        "กรุงเทพมหานคร", "한국어 텍스트", String(repeating: "长", count: 40),
    ]
    private let attributes = [
        TextAttributes(size: 15), TextAttributes(size: 15, role: TextRole(rawValue: 3)),
        TextAttributes(size: 17, weight: .bold), TextAttributes(size: 12, role: TextRole(rawValue: 9)),
    ]

    /// One random sequence of appends, objects and entities, applied to `builder` and to `text`
    /// alike (their equality is `AttributedTextBuilderTests`' subject).
    private func build(_ rng: inout SplitMix64, round: Int, into builder: inout AttributedTextBuilder, _ text: inout AttributedText) {
        for _ in 0..<Int(rng.next() % 14) {
            let a = attributes[Int(rng.next() % UInt64(attributes.count))]
            switch rng.next() % 4 {
            case 0, 1:
                let s = pieces[Int(rng.next() % UInt64(pieces.count))]
                builder.append(s, attributes: a)
                text.append(s, attributes: a)
            case 2:
                let name = "icon-\(round)-\(text.utf16Count)-with-a-name-longer-than-a-small-string"
                builder.appendAttachment(width: 15, ascent: 12, descent: 3, name: name, attributes: a)
                text.appendAttachment(width: 15, ascent: 12, descent: 3, name: name, attributes: a)
            default:
                let n = text.utf16Count
                let lo = n == 0 ? 0 : Int(rng.next() % UInt64(n + 1))
                let hi = lo + Int(rng.next() % UInt64(n - lo + 1))
                let kind = EntityKind.allCases[Int(rng.next() % UInt64(EntityKind.allCases.count))]
                builder.addEntity(kind, range: lo..<hi, value: "value \(round) \(lo) of an entity")
                text.addEntity(kind, range: lo..<hi, value: "value \(round) \(lo) of an entity")
            }
        }
    }

    /// Every part of the prepared text's copy equals the text's, read in place and rebuilt.
    private func assertHolds(_ p: PreparedText, _ text: AttributedText, _ message: String, line: UInt = #line) {
        XCTAssertEqual(p.text, text, message, line: line)
        XCTAssertEqual(p.string, text.string, message, line: line)
        XCTAssertEqual(p.utf16Count, text.utf16Count, message, line: line)
        XCTAssertEqual(Array(p.runs), Array(text.runs), message, line: line)
        XCTAssertEqual(Array(p.attachments), Array(text.attachments), message, line: line)
        XCTAssertEqual(Array(p.entities), Array(text.entities), message, line: line)
        XCTAssertEqual(p.attachmentCount, text.attachments.count, message, line: line)
        XCTAssertEqual(p.entityCount, text.entities.count, message, line: line)
        XCTAssertEqual(p.baseAttributes, text.baseAttributes, message, line: line)
        XCTAssertEqual(p.text.tabStops, text.tabStops, message, line: line)
    }

    /// Both values measure alike: the same clusters, and the same lines at three widths.
    private func assertSameMeasure(_ a: PreparedText, _ b: PreparedText, _ message: String, line: UInt = #line) {
        XCTAssertEqual(a.clusterCount, b.clusterCount, message, line: line)
        for i in 0..<min(a.clusterCount, b.clusterCount) {
            let x = a.cluster(i), y = b.cluster(i)
            XCTAssertTrue(
                x.advance == y.advance && x.end == y.end && x.fontRef == y.fontRef && x.flags == y.flags, "\(message) cluster \(i)",
                line: line)
        }
        XCTAssertEqual(a.runFonts, b.runFonts, message, line: line)
        XCTAssertEqual(a.missingGlyphCount, b.missingGlyphCount, message, line: line)
        for width in [0.0, 80, 375] {
            XCTAssertEqual(a.layout(LayoutOptions(width: width)), b.layout(LayoutOptions(width: width)), "\(message) at \(width)", line: line)
        }
    }

    private func check(_ measurer: any TextMeasuring, rounds: Int) {
        var rng = SplitMix64(seed: 29)
        // One set of buffers lent to every builder, as the cell layout's thread does: a prepared
        // text must not see the next text written into them.
        var buffers = AttributedTextBuilder.Buffers()
        var kept: [(PreparedText, AttributedText)] = []
        for round in 0..<rounds {
            let base = attributes[Int(rng.next() % UInt64(attributes.count))]
            var builder = AttributedTextBuilder(
                attributes: base, capacity: Int(rng.next() % 64), buffers: buffers, runs: Int(rng.next() % 4),
                attachments: Int(rng.next() % 3), entities: Int(rng.next() % 3))
            buffers = AttributedTextBuilder.Buffers()
            var expected = AttributedText("", attributes: base)
            build(&rng, round: round, into: &builder, &expected)
            let fromBuilder = measurer.prepareUncached(built: builder)
            let finished = builder.finish(returning: &buffers)
            XCTAssertEqual(finished, expected, "round \(round)")
            let fromText = measurer.prepareUncached(expected)
            assertHolds(fromBuilder, expected, "round \(round), from the builder")
            assertHolds(fromText, expected, "round \(round), from the text")
            assertSameMeasure(fromBuilder, fromText, "round \(round)")
            kept.append((fromBuilder, expected))
        }
        for (round, (p, text)) in kept.enumerated() { assertHolds(p, text, "round \(round), after all texts") }
    }

    func testTheRealMeasurerPreparesABuilderAsItsText() throws {
        check(try Shared.requireMeasurer(), rounds: 600)
    }

    /// Another measurer is given the finished text (`prepareUncached(built:)`'s fallback).
    func testAnotherMeasurerPreparesABuilderAsItsText() {
        check(FixedAdvanceMeasurer(), rounds: 600)
    }

    /// A text with tab stops of its own keeps them.
    func testTabStopsAreKept() throws {
        let measurer = try Shared.requireMeasurer()
        for stops in [TabStops.pango, .spaces(4), .points(30)] {
            var text = AttributedText("a\tb\tc", attributes: TextAttributes(size: 15))
            text.tabStops = stops
            let p = measurer.prepareUncached(text)
            XCTAssertEqual(p.text.tabStops, stops)
            XCTAssertEqual(p.text, text)
        }
    }

    /// The empty text and texts of one run, read back.
    func testEmptyAndPlainTexts() throws {
        let measurer = try Shared.requireMeasurer()
        for s in ["", "a", "中", String(repeating: "中文 abc ", count: 100)] {
            let text = AttributedText(s, size: 15)
            assertHolds(measurer.prepareUncached(text), text, s)
            assertHolds(FixedAdvanceMeasurer().prepare(text), text, s)
        }
    }
}
