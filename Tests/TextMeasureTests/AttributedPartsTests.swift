import TextMeasure
import XCTest
import _LayoutTestSupport

/// `AttributedText`'s runs, inline objects and entities live in one copy-on-write object: the
/// views must read as plain arrays would, copies must never see each other's changes, and
/// regions must grow without losing or reordering anything.
final class AttributedPartsTests: XCTestCase {
    /// What the text should hold, kept as plain arrays.
    private struct Model {
        var runs: [AttributeRun]
        var objects: [InlineObject] = []
        var entities: [TextEntity] = []
    }

    private func assertMatches(_ t: AttributedText, _ m: Model, _ message: String, line: UInt = #line) {
        XCTAssertEqual(Array(t.runs), m.runs, message, line: line)
        XCTAssertEqual(Array(t.attachments), m.objects, message, line: line)
        XCTAssertEqual(Array(t.entities), m.entities, message, line: line)
        XCTAssertEqual(t.runs.count, m.runs.count, message, line: line)
        XCTAssertEqual(t.baseAttributes, m.runs[0].attributes, message, line: line)
    }

    func testRandomEditsMatchArraysAndCopiesStayUnchanged() {
        let attributes = [TextAttributes(size: 15), TextAttributes(size: 15, role: TextRole(rawValue: 2)), TextAttributes(size: 12)]
        var rng = SplitMix64(seed: 41)
        for round in 0..<300 {
            var text = AttributedText("", attributes: attributes[0])
            var model = Model(runs: [AttributeRun(range: 0..<0, attributes: attributes[0])])
            var snapshots: [(AttributedText, Model)] = []
            for step in 0..<Int(rng.next() % 60) {
                let a = attributes[Int(rng.next() % UInt64(attributes.count))]
                switch rng.next() % 3 {
                case 0:
                    let s = ["a", "中文", "😀", "", "xyz "][Int(rng.next() % 5)]
                    let start = text.utf16Count
                    text.append(s, attributes: a)
                    let end = start + s.utf16.count
                    if end > start {
                        if model.runs.count == 1 && model.runs[0].range.isEmpty {
                            model.runs[0] = AttributeRun(range: 0..<end, attributes: a)
                        } else if model.runs[model.runs.count - 1].attributes == a {
                            model.runs[model.runs.count - 1].range = model.runs[model.runs.count - 1].range.lowerBound..<end
                        } else {
                            model.runs.append(AttributeRun(range: start..<end, attributes: a))
                        }
                    }
                case 1:
                    let r = text.appendAttachment(width: 10, ascent: 8, descent: 2, name: "object \(round).\(step)", attributes: a)
                    if model.runs.count == 1 && model.runs[0].range.isEmpty {
                        model.runs[0] = AttributeRun(range: 0..<r.upperBound, attributes: a)
                    } else if model.runs[model.runs.count - 1].attributes == a {
                        model.runs[model.runs.count - 1].range = model.runs[model.runs.count - 1].range.lowerBound..<r.upperBound
                    } else {
                        model.runs.append(AttributeRun(range: r, attributes: a))
                    }
                    model.objects.append(InlineObject(offset: r.lowerBound, width: 10, ascent: 8, descent: 2, name: "object \(round).\(step)"))
                default:
                    let n = text.utf16Count
                    let lo = Int(rng.next() % UInt64(n + 1))
                    let value = "a value long enough to live on the heap \(round).\(step)"
                    text.addEntity(.topic, range: lo..<n, value: value)
                    model.entities.append(TextEntity(range: lo..<n, kind: .topic, value: value))
                }
                assertMatches(text, model, "round \(round) step \(step)")
                if rng.next() % 4 == 0 { snapshots.append((text, model)) }
            }
            for (i, (copy, expected)) in snapshots.enumerated() {
                assertMatches(copy, expected, "round \(round) snapshot \(i)")
            }
        }
    }

    func testManyEntitiesAndObjectsGrowInOrder() {
        var text = AttributedText("", attributes: TextAttributes(size: 15))
        for i in 0..<5_000 {
            let r = text.appendAttachment(width: Double(i), ascent: 1, descent: 1, name: "o\(i)", attributes: TextAttributes(size: 15))
            text.addEntity(.emoticon, range: r, value: "e\(i)")
            text.append("字", attributes: TextAttributes(size: 15, role: TextRole(rawValue: UInt16(i % 2))))
        }
        XCTAssertEqual(text.attachments.count, 5_000)
        XCTAssertEqual(text.entities.count, 5_000)
        XCTAssertEqual(text.runs.count, 5_000)  // the role alternates after every object
        for i in stride(from: 0, to: 5_000, by: 97) {
            XCTAssertEqual(text.attachments[i].name, "o\(i)")
            XCTAssertEqual(text.attachments[i].offset, 2 * i)
            XCTAssertEqual(text.entities[i].value, "e\(i)")
            XCTAssertEqual(text.entities[i].range, 2 * i..<2 * i + 1)
        }
        XCTAssertEqual(text.runs.last?.range.upperBound, text.utf16Count)
    }

    func testEqualContentIsEqualAndHashesEqually() {
        var a = AttributedText("ab", attributes: TextAttributes(size: 15))
        a.addEntity(.link, range: 0..<1, value: "x")
        var b = AttributedText("a", attributes: TextAttributes(size: 15))
        b.append("b", attributes: TextAttributes(size: 15))
        XCTAssertNotEqual(a, b)
        b.addEntity(.link, range: 0..<1, value: "x")
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        var c = b
        c.addEntity(.link, range: 1..<2, value: "y")
        XCTAssertNotEqual(b, c)
        XCTAssertEqual(b.entities.count, 1)
        XCTAssertEqual(Set([a, b, c]).count, 2)
    }
}
