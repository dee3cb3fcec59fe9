import UnicodeText
import XCTest
import _LayoutTestSupport

/// Hand-checked cases for the break analysis: each expectation is derived from the UAX #14 / #29
/// rules named beside it, not recorded from the implementation.
final class TextBreaksTests: XCTestCase {
    /// UTF-16 offsets of the line-break opportunities (allowed or mandatory) of `s`, without the
    /// final end-of-text break.
    private func lineOffsets(_ s: String) -> [Int] {
        let breaks = TextBreaks.lineBreaks(s)
        XCTAssertEqual(breaks.last, LineBreakOpportunity(offset: s.utf16.count, isMandatory: true), "LB3 for \(s)")
        return breaks.dropLast().map(\.offset)
    }

    /// The substrings between line-break opportunities.
    private func lineChunks(_ s: String) -> [String] {
        let units = Array(s.utf16)
        var chunks: [String] = []
        var start = 0
        for b in TextBreaks.lineBreaks(units) where b.offset > 0 {
            chunks.append(String(decoding: units[start..<b.offset], as: UTF16.self))
            start = b.offset
        }
        return chunks
    }

    /// The extended grapheme clusters as substrings.
    private func clusters(_ s: String) -> [String] {
        let units = Array(s.utf16)
        let bounds = TextBreaks.graphemeBoundaries(units)
        return zip(bounds, bounds.dropFirst()).map { String(decoding: units[$0..<$1], as: UTF16.self) }
    }

    // MARK: CJK punctuation

    func testCJKPunctuationAttachesToTheRightSide() {
        // Ideographs (ID) break between each other (LB31); CL/EX/NS never start a line (LB13, LB21),
        // OP never ends one (LB14).
        XCTAssertEqual(lineChunks("你好，世界。"), ["你", "好，", "世", "界。"])
        XCTAssertEqual(lineChunks("真的！？好"), ["真", "的！？", "好"])
        XCTAssertEqual(lineChunks("他说「你好」。"), ["他", "说", "「你", "好」。"])
        XCTAssertEqual(lineChunks("读《三体》、《流浪地球》"), ["读", "《三", "体》、", "《流", "浪", "地", "球》"])
        // U+30FC KATAKANA-HIRAGANA PROLONGED SOUND MARK and small kana are CJ, resolved to NS (LB1, LB21).
        XCTAssertEqual(lineChunks("コーヒーぁ"), ["コー", "ヒーぁ"])
        XCTAssertEqual(UnicodeProperties.lineBreakClass(0x30FC), .CJ)
        for (scalar, cls) in [("，", LineBreakClass.CL), ("。", .CL), ("、", .CL), ("」", .CL), ("》", .CL),
                              ("「", .OP), ("《", .OP), ("！", .EX), ("？", .EX), ("（", .OP), ("）", .CL), (")", .CP)] {
            XCTAssertEqual(UnicodeProperties.lineBreakClass(scalar.unicodeScalars.first!.value), cls, scalar)
        }
    }

    func testLatinWordsBreakAfterSpacesOnly() {
        // LB7 (× SP), LB18 (SP ÷), LB28 (AL × AL), LB21 (× HY) and LB31 after HY.
        XCTAssertEqual(lineChunks("Hello, world"), ["Hello, ", "world"])
        XCTAssertEqual(lineChunks("well-known fact"), ["well-", "known ", "fact"])
        XCTAssertEqual(lineChunks("中文English混排"), ["中", "文", "English", "混", "排"])
    }

    // MARK: Numbers

    func testNumbersStayTogether() {
        // LB25 (regex form): PR × NU, NU × IS, NU IS × NU, NU × PO; PR × OP NU.
        XCTAssertEqual(lineOffsets("¥1,234.56"), [])
        XCTAssertEqual(lineOffsets("50%"), [])
        XCTAssertEqual(lineOffsets("$(12.5)"), [])
        XCTAssertEqual(lineOffsets("-3.5"), [])
        // Between ideographs and the price there are ordinary opportunities (LB31: ID ÷ PR, NU ÷ ID).
        XCTAssertEqual(lineChunks("售价¥1,234.56元"), ["售", "价", "¥1,234.56", "元"])
        XCTAssertEqual(lineChunks("涨了50%！"), ["涨", "了", "50%！"])
        // PR OP not followed by NU: LB31 breaks after PR (the backwards LB25 fix-up must not fire).
        XCTAssertEqual(lineOffsets("$(a"), [1])
        XCTAssertEqual(lineOffsets("$(1"), [])
    }

    // MARK: Emoji

    func testEmojiSequencesAreSingleClusters() {
        let cases = [
            "👨‍👩‍👧‍👦",  // family, ZWJ sequence (GB11)
            "👍🏽",  // skin tone (GB9: EM is Extend)
            "🧑🏽‍💻",  // skin tone + ZWJ
            "🏳️‍🌈",  // VS16 + ZWJ
            "🇨🇳",  // flag (GB12)
            "1️⃣",  // keycap: 1 FE0F 20E3
            "#️⃣",
            "❤️",  // text-default pictographic + VS16
        ]
        for s in cases {
            XCTAssertEqual(clusters(s), [s], "one cluster: \(s.unicodeScalars.map { String($0.value, radix: 16) })")
            XCTAssertEqual(lineOffsets(s), [], "no line break inside \(s)")
        }
        // Two flags: two clusters (GB12/13 pair RIs), a break opportunity between them (LB30a).
        XCTAssertEqual(clusters("🇨🇳🇺🇸🇯"), ["🇨🇳", "🇺🇸", "🇯"])
        XCTAssertEqual(lineOffsets("🇨🇳🇺🇸"), [4])
        // Emoji are ID: breaks between them and around them next to ideographs (LB31).
        XCTAssertEqual(lineChunks("好😀👍🏽"), ["好", "😀", "👍🏽"])
        // A ZWJ not after a pictographic does not join (GB11 needs ExtPict Extend* ZWJ).
        XCTAssertEqual(clusters("a\u{200D}😀"), ["a\u{200D}", "😀"])
        // But LB8a never breaks after ZWJ.
        XCTAssertEqual(lineOffsets("a\u{200D}😀"), [])
    }

    // MARK: Hard breaks

    func testHardBreaks() {
        func mandatory(_ s: String) -> [Int] {
            TextBreaks.lineBreaks(s).filter(\.isMandatory).map(\.offset)
        }
        XCTAssertEqual(mandatory("a\nb"), [2, 3])
        XCTAssertEqual(mandatory("a\r\nb"), [3, 4])  // LB5: CR × LF
        XCTAssertEqual(lineOffsets("a\r\nb"), [3])
        XCTAssertEqual(mandatory("a\rb"), [2, 3])
        XCTAssertEqual(mandatory("a\u{2028}b"), [2, 3])  // LINE SEPARATOR is BK
        XCTAssertEqual(mandatory("a\u{2029}b"), [2, 3])  // PARAGRAPH SEPARATOR is BK
        XCTAssertEqual(mandatory("a\u{85}b"), [2, 3])  // NEXT LINE is NL
        XCTAssertEqual(mandatory("a\n\nb"), [2, 3, 4])
        // Spaces before a hard break stay on the line (LB6, LB7).
        XCTAssertEqual(lineOffsets("a  \nb"), [4])
        // CR LF is one grapheme cluster (GB3); controls are clusters of their own (GB4, GB5).
        XCTAssertEqual(clusters("a\r\n\n\u{301}"), ["a", "\r\n", "\n", "\u{301}"])
        // Every mandatory break also allows a break.
        for f in TextBreaks.analyze("x\ny\r\nz") where f.contains(.lineMandatory) {
            XCTAssertTrue(f.contains(.lineAllowed))
        }
    }

    // MARK: Edge cases

    func testEmptyText() {
        XCTAssertEqual(TextBreaks.analyze(""), [[.grapheme, .lineAllowed, .lineMandatory]])
        XCTAssertEqual(TextBreaks.graphemeBoundaries(""), [0])
        var flags: [BreakFlags] = [.grapheme, .grapheme, .lineAllowed]
        [UInt16]().withUnsafeBufferPointer { TextBreaks.analyze($0, into: &flags) }
        XCTAssertEqual(flags, [[.grapheme, .lineAllowed, .lineMandatory]])
    }

    func testStartAndEndFlags() {
        let flags = TextBreaks.analyze("ab cd")
        XCTAssertEqual(flags.count, 6)
        XCTAssertEqual(flags[0], .grapheme)  // LB2
        XCTAssertEqual(flags[3], [.grapheme, .lineAllowed])  // LB18
        XCTAssertEqual(flags[1], .grapheme)  // LB28
        XCTAssertEqual(flags[5], [.grapheme, .lineAllowed, .lineMandatory])  // LB3
    }

    func testReusesAndResizesTheFlagsBuffer() {
        var flags = [BreakFlags](repeating: [.lineMandatory], count: 50)
        let units = Array("a b".utf16)
        units.withUnsafeBufferPointer { TextBreaks.analyze($0, into: &flags) }
        XCTAssertEqual(flags, [.grapheme, .grapheme, [.grapheme, .lineAllowed], [.grapheme, .lineAllowed, .lineMandatory]])
    }

    func testWritingIntoOverwritesEveryPosition() {
        // Memory reused across texts holds stale flags; every position must be rewritten, those
        // inside surrogate pairs included.
        for s in ["😀a😀😀", "a\u{301}b", "", "中文 text 123 🇨🇳🇺🇸"] {
            let units = Array(s.utf16)
            var memory = [BreakFlags](repeating: [.grapheme, .lineAllowed, .lineMandatory], count: units.count + 1)
            units.withUnsafeBufferPointer { text in
                memory.withUnsafeMutableBufferPointer { TextBreaks.analyze(text, writingInto: $0.baseAddress!) }
            }
            XCTAssertEqual(memory, TextBreaks.analyze(units), s)
            XCTAssertEqual(memory, TextBreaks._analyzeCountingSteps(units, byRules: true).flags, s)
        }
    }

    func testUnpairedSurrogatesAreReplacementCharacters() {
        // U+FFFD is AI, resolved to AL (LB1): AL × AL (LB28), so none of these break inside; each
        // lone surrogate is its own grapheme cluster (GB999).
        let cases: [[UInt16]] = [
            [0x61, 0xD800, 0x62],  // lone high surrogate
            [0x61, 0xDC00, 0x62],  // lone low surrogate
            [0xDC00, 0xD800],  // reversed pair
            [0xD83D],  // truncated pair at the end
        ]
        for units in cases {
            let flags = TextBreaks.analyze(units)
            XCTAssertEqual(flags.count, units.count + 1)
            XCTAssertFalse(flags.dropFirst().dropLast().contains { $0.contains(.lineAllowed) }, "\(units)")
        }
        XCTAssertEqual(TextBreaks.graphemeBoundaries([0x61, 0xD800, 0x62]), [0, 1, 2, 3])
        XCTAssertEqual(TextBreaks.graphemeBoundaries([0xDC00, 0xD800]), [0, 1, 2])
        // The valid pair at the end is one scalar: nothing at offset 2.
        XCTAssertEqual(TextBreaks.graphemeBoundaries([0xD83D, 0xD83D, 0xDE00]), [0, 1, 3])
        // U+FFFD ÷ U+1F600 (AL ÷ ID, LB31).
        XCTAssertEqual(TextBreaks.lineBreaks([0xD83D, 0xD83D, 0xDE00]).map(\.offset), [1, 3])
    }

    func testNoFlagsInsideSurrogatePairs() {
        let units = Array("😀a😀😀".utf16)
        let flags = TextBreaks.analyze(units)
        for i in [1, 4, 6] { XCTAssertEqual(flags[i], [], "offset \(i) is inside a pair") }
    }

    func testManyCombiningMarksAreLinear() {
        func run(_ marks: Int) -> Int {
            let units = [UInt16(0x61)] + [UInt16](repeating: 0x0301, count: marks)
            let (flags, steps) = TextBreaks._analyzeCountingSteps(units)
            // One cluster (GB9) and no line break (LB9) however many marks follow the base.
            XCTAssertEqual(flags.indices.filter { flags[$0].contains(.grapheme) }, [0, marks + 1])
            XCTAssertEqual(flags.indices.filter { flags[$0].contains(.lineAllowed) }, [marks + 1])
            return steps
        }
        let small = run(10_000)
        let large = run(100_000)
        XCTAssertEqual(small, 10_001)
        XCTAssertEqual(large, 100_001)
        XCTAssertLessThanOrEqual(large, small * 11)
    }

    func testCombiningMarksAfterSpaceAndAtStart() {
        // LB10: a mark after SP or at the start of text is AL; SP ÷ (LB18) then AL × AL (LB28).
        XCTAssertEqual(lineOffsets("\u{301}a"), [])
        XCTAssertEqual(lineOffsets("a \u{301}b"), [2])
        // LB9: OP CM is OP, so no break after it (LB14).
        XCTAssertEqual(lineOffsets("(\u{301}中"), [])
    }

    func testStringAndArrayVariantsAgree() {
        let s = "Weibo 微博 👍🏽 ¥5\r\n"
        XCTAssertEqual(TextBreaks.analyze(s), TextBreaks.analyze(Array(s.utf16)))
        XCTAssertEqual(TextBreaks.graphemeBoundaries(s), TextBreaks.graphemeBoundaries(Array(s.utf16)))
    }
}

/// The tabulated automata and their fixed-point runs against the rule cascade on seeded random
/// strings.
final class BreakTablesTests: XCTestCase {
    /// One scalar for each combination of line-break class, grapheme property, width and
    /// pictographic flags found in U+0000...U+3FFFF, so random strings
    /// reach every rule.
    static let samples: [UInt32] = {
        var seen = Set<[Int]>()
        var result: [UInt32] = []
        for v: UInt32 in 0...0x3FFFF where !(0xD800...0xDFFF).contains(v) {
            let w = UnicodeProperties.eastAsianWidth(v)
            let key = [
                Int(UnicodeProperties.lineBreakClass(v).rawValue), Int(UnicodeProperties.graphemeBreak(v).rawValue),
                w == .wide || w == .fullwidth || w == .halfwidth ? 1 : 0,
                UnicodeProperties.isExtendedPictographic(v) ? 1 : 0,
            ]
            if seen.insert(key).inserted { result.append(v) }
        }
        return result
    }()

    /// Common classes, weighted up, so sequences like `PR OP NU` and `HL HY` come up often: letters,
    /// digits, `,.()$%-`, Hebrew, ideographs (U+4E00, U+6587 and U+9FFF skip the lookup), CJK
    /// punctuation, RI, EB, EM, ZWJ, a combining mark, an emoji, dash, ZWSP, NBSP, lone surrogates.
    static let common: [UInt32] = [
        0x20, 0x41, 0x30, 0x2C, 0x2E, 0x28, 0x29, 0x24, 0x25, 0x2D, 0x5D0, 0x4E00, 0x6587, 0x9FFF, 0x3002,
        0xFF0C, 0x1F1E6, 0x261D, 0x1F3FB, 0x200D, 0x301, 0x1F600, 0x2014, 0x200B, 0xA0,
        0xD800, 0xDC00,
    ]

    /// Groups of scalars that share their break properties, so a run drawn from one group keeps
    /// the same input: ASCII letters, digits, ideographs, spaces, combining marks, emoji.
    static let groups: [[UInt32]] = [
        Array(0x61...0x7A) + Array(0x41...0x5A), Array(0x30...0x39), [0x4E00, 0x6587, 0x4E2D, 0x9FFF],
        [0x20], [0x301, 0x300, 0x308], [0x1F600, 0x1F44D], [0x1F1E6, 0x1F1E8], [0x200D], [0x3002], [0xD800],
    ]

    private static func append(_ v: UInt32, to units: inout [UInt16]) {
        if v >= 0x10000 {
            units.append(UInt16(0xD800 + ((v - 0x10000) >> 10)))
            units.append(UInt16(0xDC00 + ((v - 0x10000) & 0x3FF)))
        } else {
            units.append(UInt16(v))
        }
    }

    /// Compares the tabulated analysis of `units` with the rule cascade; false after a failure.
    private func assertTablesMatchRules(
        _ units: [UInt16], _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        let fast = TextBreaks._analyzeCountingSteps(units)
        let slow = TextBreaks._analyzeCountingSteps(units, byRules: true)
        if fast.flags != slow.flags || fast.steps != slow.steps {
            XCTFail("\(message): \(units.map { String($0, radix: 16) }) tables \(fast) rules \(slow)", file: file, line: line)
            return false
        }
        return true
    }

    func testTablesMatchRules() {
        var rng = SplitMix64(seed: 0x5EED_2026)
        XCTAssertTrue(TextBreaks._ideographPathIsOn, "CJK Unified Ideographs no longer share their properties")
        let pool = Self.samples + Self.common + Self.common
        // At least one sample per line-break class that occurs outside the surrogates (all but SG).
        XCTAssertGreaterThanOrEqual(Set(Self.samples.map { UnicodeProperties.lineBreakClass($0) }).count, 42)
        // The second half of the iterations draws, half of the time, runs of one to six scalars of
        // one group or of one pool scalar repeated, so that the fixed-point runs start after every
        // class and end on every class.
        for iteration in 0..<40_000 {
            var units: [UInt16] = []
            for _ in 0..<(1 + Int(rng.next() % 10)) {
                if iteration >= 20_000 && rng.next() % 2 == 0 {
                    let count = 1 + Int(rng.next() % 6)
                    if rng.next() % 2 == 0 {
                        let group = Self.groups[Int(rng.next() % UInt64(Self.groups.count))]
                        for _ in 0..<count { Self.append(group[Int(rng.next() % UInt64(group.count))], to: &units) }
                    } else {
                        let v = pool[Int(rng.next() % UInt64(pool.count))]
                        for _ in 0..<count { Self.append(v, to: &units) }
                    }
                    continue
                }
                Self.append(pool[Int(rng.next() % UInt64(pool.count))], to: &units)
            }
            if !assertTablesMatchRules(units, "iteration \(iteration)") { return }
        }
    }

    /// Runs entering and leaving the fixed-point loop where the state or the input changes in a
    /// way a run must notice.
    func testRunsAtStateChanges() {
        let cases = [
            "abc\u{301}\u{301}def",  // marks absorbed inside a run of letters (LB9, GB9)
            "\u{301}\u{301}\u{301}a",  // marks at the start (LB10: AL)
            "a   b  \u{301}\u{301}c",  // spaces, then marks after spaces (LB10)
            "a\u{200D}\u{200D}\u{200D}b",  // ZWJ runs (LB8a)
            "😀\u{200D}😀\u{200D}😀😀😀",  // GB11 chains, then a run of emoji
            "👍🏽👍🏽👍🏽🏽🏽",  // EB EM pairs (LB30b), then EM after EM
            "🇨🇳🇨🇳🇨🇳🇨",  // RI pairs (GB12/13, LB30a): the state alternates, no fixed point
            "$(1$(1$-1$-11",  // LB25 fix-ups between PR and OP/HY
            "$(\u{301}1",  // a fix-up across an absorbed mark
            "12.34.56,789%%%",  // LB25 number sequences
            "1)))2]]]a",  // NU CP*, NU CL*
            "((((1", "----1", "$$$$1",
            "\r\n\r\n\n\n\r\r",  // hard breaks repeat without a fixed point of the grapheme state
            "中中中中a中中",
            "中\u{301}\u{301}中中",
            "aaaa1111aaaa",  // AL × NU × AL (LB23)
            "\u{FF08}\u{FF08}a(((a",  // wide and narrow OP (LB30)
        ]
        for s in cases {
            _ = assertTablesMatchRules(Array(s.utf16), s.debugDescription)
        }
        // Lone and reversed surrogates among pairs.
        for units: [UInt16] in [[0xD800, 0xD800, 0xD800], [0xDC00, 0xDC00, 0x61], [0xD83D, 0xDE00, 0xD83D, 0xDE00, 0xD83D],
                                [0xD83D, 0xD83D, 0xDE00, 0xDE00]] {
            _ = assertTablesMatchRules(units, "surrogates")
        }
    }

    func testAutomatonIsSmall() {
        // The canonical states stay few (the table is 128 bytes a state) and every input fits a
        // six-bit column.
        let size = TextBreaks._lineAutomatonSize
        XCTAssertLessThanOrEqual(size.states, 256)
        XCTAssertLessThanOrEqual(size.columns, 64)
        print("line automaton: \(size.states) states, \(size.columns) columns")
    }
}
