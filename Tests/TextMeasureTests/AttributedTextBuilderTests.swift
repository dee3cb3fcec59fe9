import TextMeasure
import UnicodeText
import XCTest
import _LayoutTestSupport

/// `AttributedTextBuilder` (UTF-8 pieces, one string at the end) against `AttributedText`'s own
/// mutating API: the same operations must give the same value.
final class AttributedTextBuilderTests: XCTestCase {
    private let pieces = [
        "", "a", "abc ", "中文", "，。", "😀", "👨‍👩‍👧", "🇨🇳", "e\u{301}", "@名字", "[微笑]", "\u{FFFC}", "\n", "https://t.cn/x",
        String(repeating: "长", count: 40),
    ]
    private let attributes = [
        TextAttributes(size: 15), TextAttributes(size: 15, role: TextRole(rawValue: 3)),
        TextAttributes(size: 17, weight: .bold), TextAttributes(size: 0),
    ]

    func testSameValueAsAppendingToAttributedText() {
        var rng = SplitMix64(seed: 17)
        for round in 0..<2_000 {
            let base = attributes[Int(rng.next() % UInt64(attributes.count))]
            var expected = AttributedText("", attributes: base)
            var builder = AttributedTextBuilder(attributes: base, capacity: Int(rng.next() % 64))
            for _ in 0..<Int(rng.next() % 12) {
                let a = attributes[Int(rng.next() % UInt64(attributes.count))]
                switch rng.next() % 4 {
                case 0, 1:
                    let s = pieces[Int(rng.next() % UInt64(pieces.count))]
                    let r1 = expected.append(s, attributes: a)
                    let r2 = builder.append(s, attributes: a)
                    XCTAssertEqual(r1, r2, "round \(round)")
                case 2:
                    let r1 = expected.appendAttachment(width: 15, ascent: 12, descent: 3, name: "e\(round)", attributes: a)
                    let r2 = builder.appendAttachment(width: 15, ascent: 12, descent: 3, name: "e\(round)", attributes: a)
                    XCTAssertEqual(r1, r2, "round \(round)")
                default:
                    let n = expected.utf16Count
                    let lo = n == 0 ? 0 : Int(rng.next() % UInt64(n + 1))
                    let hi = lo + Int(rng.next() % UInt64(n - lo + 1))
                    expected.addEntity(.mention, range: lo..<hi, value: "v\(lo)")
                    builder.addEntity(.mention, range: lo..<hi, value: "v\(lo)")
                }
                XCTAssertEqual(builder.count, expected.utf16Count, "round \(round)")
            }
            let built = builder.finish()
            XCTAssertEqual(built, expected, "round \(round)")
            XCTAssertEqual(built.utf16Count, built.string.utf16.count, "round \(round)")
        }
    }

    func testAppendingUTF8BytesCountsUTF16Units() {
        // One unit per scalar of one to three bytes, two per four-byte scalar.
        for s in ["", "A", "é", "中", "😀", "a中😀é\u{10FFFF}", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}"] {
            var builder = AttributedTextBuilder(attributes: TextAttributes(size: 15), capacity: 0)
            var bytes = Array(s.utf8)
            let r = bytes.withUnsafeMutableBufferPointer { builder.append(utf8: UnsafeBufferPointer($0), attributes: TextAttributes(size: 15)) }
            XCTAssertEqual(r, 0..<s.utf16.count, s)
            XCTAssertEqual(builder.finish().string, s)
        }
    }

    /// The premise of the text engine's shortcut for one-unit printable ASCII clusters
    /// (in `ClusterInfo`'s initializer): none of them is an emoji, a separator or hanging white space.
    func testPrintableASCIIHasNoClusterProperty() {
        for v in UInt32(0x21)...0x7E {
            let t = UnicodeProperties.traits(v)
            XCTAssertFalse(t.isEmojiPresentation || t.isExtendedPictographic || t.isRegionalIndicator || t.isEmojiModifier, "U+\(v)")
            XCTAssertFalse([LineBreakClass.BK, .CR, .LF, .NL].contains(t.lineBreakClass), "U+\(v)")
            XCTAssertNotEqual(t.lineBreakClass, .SP, "U+\(v)")
        }
    }

    /// The decoder against `String.utf16`, on seeded random strings of one- to four-byte scalars
    /// (runs of three-byte ones take a loop of their own) at every length from 0 to 50 scalars,
    /// and on long runs of each kind.
    func testDecodingUTF8GivesTheStringsUTF16() {
        var rng = SplitMix64(seed: 0x0716)
        let scalars: [Unicode.Scalar] = [
            "a", "~", "\u{7F}", "é", "\u{7FF}", "\u{800}", "中", "\u{FFFC}", "\u{FFFF}", "😀", "\u{10FFFF}", "\u{1F1E6}",
        ]
        var strings: [String] = []
        for length in 0..<300 {
            var s = ""
            for _ in 0..<(length % 50) { s.unicodeScalars.append(scalars[Int(rng.next() % UInt64(scalars.count))]) }
            strings.append(s)
        }
        for scalar in scalars { strings.append(String(repeating: String(Character(scalar)), count: 1017)) }
        for s in strings {
            var copy = s
            let units = copy.withUTF8 { bytes in
                [UInt16](unsafeUninitializedCapacity: bytes.count) { out, n in n = UTF16Transcoding.decode(bytes, into: out.baseAddress!) }
            }
            XCTAssertEqual(units, Array(s.utf16), s.debugDescription)
        }
    }

    /// Strings made from UTF-16 units against `String(decoding:as:)`: every kind of scalar, and
    /// random units with lone and reversed surrogates (each becomes U+FFFD).
    func testStringsOfUTF16UnitsMatchTheStandardDecoder() {
        var rng = SplitMix64(seed: 0x5716)
        let pool: [UInt16] = [0x61, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x4E2D, 0xFFFC, 0xFFFF, 0xD83D, 0xDE00, 0xDBFF, 0xDFFF, 0xDC00, 0xD800]
        var cases: [[UInt16]] = [[], Array("a中😀é\u{10FFFF}\u{7FF}".utf16)]
        for length in 0..<400 { cases.append((0..<(length % 40)).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }) }
        for units in cases {
            let made = units.withUnsafeBufferPointer { UTF16Transcoding.string($0) }
            XCTAssertEqual(Array(made.utf8), Array(String(decoding: units, as: UTF16.self).utf8), "\(units)")
        }
    }

    /// A sequence cut short at the end is not read past: decoding stops before it.
    func testDecodingStopsBeforeASequenceCutShort() {
        for (s, whole) in [("a中", 1), ("ab😀", 2), ("é", 0), ("x\u{7FF}", 1)] {
            let bytes = Array(s.utf8.dropLast())
            let units = bytes.withUnsafeBufferPointer { b in
                [UInt16](unsafeUninitializedCapacity: max(1, b.count)) { out, n in n = UTF16Transcoding.decode(b, into: out.baseAddress!) }
            }
            XCTAssertEqual(units, Array(s.utf16.prefix(whole)), s)
        }
    }
}

/// The prepared-text cache's key (`TextKey`), made from an attributed text.
final class TextKeyTests: XCTestCase {
    /// Equal content is one key; a size, a role or other bytes for the same characters make another.
    func testTextKeysCompareContent() {
        XCTAssertEqual(TextKey(text: AttributedText("label 99", size: 14)), TextKey(text: AttributedText("label 99", size: 14)))
        XCTAssertNotEqual(TextKey(text: AttributedText("label 99", size: 14)), TextKey(text: AttributedText("label 99", size: 15)))
        XCTAssertNotEqual(
            TextKey(text: AttributedText("label 99", size: 14)),
            TextKey(text: AttributedText("label 99", size: 14, role: TextRole(rawValue: 7))))
        // Canonically equivalent but different bytes: different keys (they may shape differently).
        XCTAssertNotEqual(TextKey(text: AttributedText("\u{E9}", size: 14)), TextKey(text: AttributedText("e\u{301}", size: 14)))
    }
}
