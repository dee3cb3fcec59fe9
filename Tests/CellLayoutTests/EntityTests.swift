import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

final class EntityTests: XCTestCase {
    private let table = EmoticonTable(imageNames: ["[微笑]": "d_hehe.png", "[哈哈]": "d_haha.png"])

    private func build(
        _ text: String, urls: [URLEntity] = [], topics: [Topic] = [], prefix: String? = nil, removing pageID: String? = nil
    ) -> AttributedText {
        StatusTextBuilder.build(
            text, urls: urls, topics: topics, prefixName: prefix, removingTrailingURLOf: pageID,
            style: EntityStyle(
                plain: TextAttributes(size: 17, role: .cellText), link: TextAttributes(size: 17, role: .cellLink),
                linkTitleMaxLength: 27, emoticons: table, ascentFraction: 0.86))
    }

    private func entities(_ t: AttributedText) -> [String] {
        let u = Array(t.string.utf16)
        return t.entities.map { "\($0.kind.rawValue):\(String(decoding: u[$0.range], as: UTF16.self))=\($0.value)" }
    }

    /// A hit's rects: the first inline, the others in an array, read as one collection.
    func testHitRectsHoldEveryRectInOrder() {
        let a = Rect(x: 1, y: 2, width: 3, height: 4), b = Rect(x: 5, y: 6, width: 7, height: 8)
        let c = Rect(x: 9, y: 10, width: 11, height: 12)
        var rects = HitRects()
        XCTAssertTrue(rects.isEmpty)
        rects.append(a)
        XCTAssertEqual(Array(rects), [a])
        rects.append(b)
        rects.append(c)
        XCTAssertEqual(Array(rects), [a, b, c])
        XCTAssertEqual(rects.count, 3)
        XCTAssertEqual(rects[2], c)
        XCTAssertEqual(rects, [a, b, c])
        XCTAssertNotEqual(rects, [a, b])
        XCTAssertEqual(HitRects(a), [a])
        XCTAssertEqual(rects.heapBytes > 0, true, "the rects after the first are in an array")
        XCTAssertEqual(HitRects(a).heapBytes, 0)
    }

    func testMentionsFollowThePattern() {
        let t = build("hi @张三_x-1, @ and @Bob!ok @")
        XCTAssertEqual(t.string, "hi @张三_x-1, @ and @Bob!ok @")
        XCTAssertEqual(entities(t), ["mention:@张三_x-1=张三_x-1", "mention:@Bob=Bob"])
        // The name stops at characters outside the class: emoji, fullwidth letters, U+9FA6, "·".
        let u = build("@张三😀 @ｘ @一\u{9FA6} @丁·李 @龥")
        XCTAssertEqual(entities(u), ["mention:@张三=张三", "mention:@一=一", "mention:@丁=丁", "mention:@龥=龥"])
    }

    func testEmoticonsOnlyWhenKnown() {
        let t = build("a[微笑]b[未知][[哈哈]] [微 笑][]")
        // Known codes become one U+FFFC each; unknown codes stay text.
        XCTAssertEqual(t.string, "a\u{FFFC}b[未知][\u{FFFC}] [微 笑][]")
        XCTAssertEqual(entities(t), ["emoticon:\u{FFFC}=[微笑]", "emoticon:\u{FFFC}=[哈哈]"])
        XCTAssertEqual(t.attachments.map(\.name), ["d_hehe.png", "d_haha.png"])
        let o = t.attachments[0]
        XCTAssertEqual(o.width, 17)
        XCTAssertEqual(o.ascent, 0.86 * 17, accuracy: 1e-12)
        XCTAssertEqual(o.descent, 0.14 * 17, accuracy: 1e-12)
    }

    func testShortURLsBecomeIconAndTitleCutAt27() {
        let long = String(repeating: "长", count: 30)
        let urls = [
            URLEntity(shortURL: "http://t.cn/A", title: "网页"),
            URLEntity(shortURL: "http://t.cn/B", title: long),
        ]
        let t = build("看 http://t.cn/A 和 http://t.cn/B", urls: urls)
        XCTAssertEqual(t.string, "看 \u{FFFC}网页 和 \u{FFFC}" + String(repeating: "长", count: 27) + "…")
        XCTAssertEqual(entities(t), [
            "link:\u{FFFC}网页=http://t.cn/A",
            "link:\u{FFFC}" + String(repeating: "长", count: 27) + "…=http://t.cn/B",
        ])
        XCTAssertEqual(t.attachments.map(\.name), ["link-icon", "link-icon"])
    }

    func testPriorityURLThenTopicThenMention() {
        // The mention-looking text inside a topic stays part of the topic.
        let t = build(
            "#话题@甲#说 @乙 http://t.cn/x",
            urls: [URLEntity(shortURL: "http://t.cn/x", title: "链接")], topics: [Topic(title: "话题@甲")])
        XCTAssertEqual(entities(t), ["topic:#话题@甲#=话题@甲", "mention:@乙=乙", "link:\u{FFFC}链接=http://t.cn/x"])
        // A #...# not in the topic list is not a topic.
        XCTAssertEqual(entities(build("#没有#")), [])
    }

    func testRetweetPrefixAndTrailingCardURL() {
        let urls = [URLEntity(shortURL: "http://t.cn/c", title: "卡片", pageID: "p1")]
        let t = build("正文 http://t.cn/c  ", urls: urls, prefix: "作者 A", removing: "p1")
        XCTAssertEqual(t.string, "@作者 A:正文")
        XCTAssertEqual(entities(t), ["mention:@作者 A=作者 A"])
        // Not at the end: kept.
        XCTAssertEqual(build("http://t.cn/c 后", urls: urls, removing: "p1").string, "\u{FFFC}卡片 后")
        // Another page id: kept.
        XCTAssertEqual(build("正文 http://t.cn/c", urls: urls, removing: "p2").string, "正文 \u{FFFC}卡片")
        // The end is compared as characters (the bytes only rule out a mismatch first): a URL
        // whose first letter is part of a character with the one before it is not at the end…
        XCTAssertEqual(build("正文\u{0600}http://t.cn/c", urls: urls, removing: "p1").string, "正文\u{0600}\u{FFFC}卡片")
        // …and a short URL that is not ASCII matches canonically equivalent text.
        let accented = [URLEntity(shortURL: "http://t.cn/\u{E9}", title: "卡片", pageID: "p1")]
        XCTAssertEqual(build("正文 http://t.cn/e\u{301}", urls: accented, removing: "p1").string, "正文")
    }

    /// The trailing card URL found by bytes: white space of every kind around it (ASCII and
    /// not: U+3000, U+00A0, U+2028), a text that is only the URL, a URL longer than the text,
    /// and the entry that ends the text among several with the page id.
    func testTrailingCardURLByBytes() {
        let urls = [
            URLEntity(shortURL: "http://t.cn/a", title: "甲", pageID: "p1"),
            URLEntity(shortURL: "http://t.cn/b", title: "乙", pageID: "p1"),
            URLEntity(shortURL: "http://t.cn/c", title: "丙", pageID: "p2"),
        ]
        XCTAssertEqual(build("正文\u{3000}\t http://t.cn/b\u{3000}\n\u{A0}", urls: urls, removing: "p1").string, "正文")
        XCTAssertEqual(build("正文\u{2028}http://t.cn/a", urls: urls, removing: "p1").string, "正文")
        XCTAssertEqual(build("http://t.cn/a  ", urls: urls, removing: "p1").string, "")
        XCTAssertEqual(build("http://t.cn/a", urls: urls, removing: "p1").utf16Count, 0)
        XCTAssertEqual(build("t.cn/a", urls: urls, removing: "p1").string, "t.cn/a")
        XCTAssertEqual(build("看 http://t.cn/a 和 http://t.cn/b", urls: urls, removing: "p1").string, "看 \u{FFFC}甲 和")
        // The entry of another page id is not removed, and the end must be the whole URL.
        XCTAssertEqual(build("看 http://t.cn/c", urls: urls, removing: "p1").string, "看 \u{FFFC}丙")
        XCTAssertEqual(build("看 xhttp://t.cn/a", urls: urls, removing: "p1").string, "看 x")
        XCTAssertEqual(build("看 http://t.cn/ab", urls: urls, removing: "p1").string, "看 \u{FFFC}甲b")
        // A combining mark after the URL makes its last letter another character: kept.
        XCTAssertEqual(build("看 http://t.cn/a\u{301}", urls: urls, removing: "p1").string, "看 \u{FFFC}甲\u{301}")
    }

    /// `findAll` (memchr + memcmp) against a byte-by-byte scan: non-overlapping matches left to
    /// right, within the range only, on seeded random texts over a small alphabet (so that
    /// overlapping and repeated needles such as "aa" in "aaaa" come up often).
    func testFindAllMatchesAByteScan() {
        var rng = SplitMix64(seed: 0x51AB)
        func next() -> Int { Int(rng.next() % 1_000_000) }
        let alphabet: [UInt8] = [0x61, 0x62, 0x23, 0xE4]  // a b # and a lead byte
        func reference(_ needle: [UInt8], _ s: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
            var out: [Range<Int>] = []
            var i = range.lowerBound
            while i + needle.count <= range.upperBound {
                if Array(s[i..<(i + needle.count)]) == needle {
                    out.append(i..<(i + needle.count))
                    i += needle.count
                } else {
                    i += 1
                }
            }
            return out
        }
        for _ in 0..<5_000 {
            let s = (0..<(next() % 24)).map { _ in alphabet[next() % alphabet.count] }
            let needle = (0..<(1 + next() % 3)).map { _ in alphabet[next() % 2] }
            let lo = s.isEmpty ? 0 : next() % (s.count + 1)
            let range = lo..<(lo + next() % (s.count - lo + 1))
            var found: [TextPiece] = []
            s.withUnsafeBufferPointer { sp in
                needle.withUnsafeBufferPointer { np in
                    StatusTextBuilder.findAll(np, in: sp, range: range, kind: .mention, into: &found)
                }
            }
            XCTAssertEqual(found.map(\.range), reference(needle, s, range), "\(needle) in \(s) over \(range)")
        }
    }

    /// Leftmost-longest: a text's http://t.cn/AB is a link to /AB even when url_struct lists
    /// http://t.cn/A first (it became a link to /A followed by a plain "B").
    func testLongestShortURLWinsWhateverTheOrder() {
        let urls = [URLEntity(shortURL: "http://t.cn/A", title: "a"), URLEntity(shortURL: "http://t.cn/AB", title: "ab")]
        for list in [urls, Array(urls.reversed())] {
            let t = build("x http://t.cn/AB y http://t.cn/A", urls: list)
            XCTAssertEqual(t.entities.map(\.value), ["http://t.cn/AB", "http://t.cn/A"])
            XCTAssertFalse(t.string.contains("B y"), t.string)
        }
        let topics = [Topic(title: "a"), Topic(title: "a#b")]
        XCTAssertEqual(build("#a#b# #a#", topics: topics).entities.map(\.value), ["a#b", "a"])
    }

    /// `FewNeedles` (compared one by one) against `NeedleMatcher` (the trie): the same
    /// leftmost-longest matches and indices, on random needles over a small alphabet (prefixes,
    /// repeats, duplicates, empty needles) and random texts and ranges.
    func testFewNeedlesMatchLikeTheTrie() {
        var seed: UInt64 = 0x5EED
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33)
        }
        let alphabet: [Character] = ["a", "b", "#", "中"]
        func word(_ maxLength: Int) -> String { String((0..<(next() % (maxLength + 1))).map { _ in alphabet[next() % alphabet.count] }) }
        var checked = 0
        for _ in 0..<3_000 {
            let needles = (0..<(1 + next() % FewNeedles.maxCount)).map { _ in (word(4), next() % 3 == 0) }
            let text = Array(word(40).utf8)
            var few = FewNeedles([])
            XCTAssertTrue(few.set(needles))
            var trie = NeedleMatcher(needles.map { s, hashes in s.isEmpty || !hashes ? s : "#" + s + "#" })
            XCTAssertEqual(few.isEmpty, trie.isEmpty)
            let lo = text.isEmpty ? 0 : next() % text.count, hi = lo + (text.count == lo ? 0 : next() % (text.count - lo + 1))
            var a: [TextPiece] = [], b: [TextPiece] = []
            text.withUnsafeBufferPointer { sp in
                few.findAll(in: sp, range: lo..<hi, kind: { .link($0) }, into: &a)
                trie.findAll(in: sp, range: lo..<hi, kind: { .link($0) }, into: &b)
            }
            func key(_ p: [TextPiece]) -> [String] {
                p.map { piece in
                    guard case .link(let k) = piece.kind else { return "?" }
                    return "\(piece.range)=\(k)"
                }
            }
            XCTAssertEqual(key(a), key(b), "\(needles) in \(String(decoding: text, as: UTF8.self)) over \(lo..<hi)")
            checked += b.count
        }
        XCTAssertGreaterThan(checked, 1_000)
        // Past the bounds, `set` declines (the trie takes them).
        var few = FewNeedles([])
        XCTAssertFalse(few.set((0...FewNeedles.maxCount).map { ("n\($0)", false) }))
        XCTAssertFalse(few.set([(String(repeating: "a", count: FewNeedles.maxBytes + 1), false)]))
        XCTAssertTrue(few.isEmpty)
    }

    /// The automaton that takes over from the trie walks (needles built to repeat the text)
    /// finds the same matches.
    func testRepetitiveNeedlesMatchLikeTheTrieWalk() {
        let text = String(repeating: "a", count: 3000) + "b" + String(repeating: "a", count: 50)
        let urls = [URLEntity(shortURL: String(repeating: "a", count: 900) + "c", title: "t"),
                    URLEntity(shortURL: "aab", title: "t"), URLEntity(shortURL: "aaaa", title: "t")]
        let t = build(text, urls: urls)
        // Greedy from the left: 750 "aaaa" take the 3 000 a's (so "aab" never starts a match),
        // then 12 more after the "b".
        XCTAssertEqual(t.entities.filter { $0.value == "aaaa" }.count, 750 + 12)
        XCTAssertEqual(t.entities.filter { $0.value == "aab" }.count, 0)
    }

    /// Cost: every url_struct entry rescanned the whole text (10 000 entries on a 1.2 MB status
    /// took 44.8 s). Now one pass for all: 4 000 entries cost about what 2 do (bound generous:
    /// the old code was ~2 000 times slower; timing the same text in the same test).
    func testManyShortURLsCostLikeFew() {
        var text = ""
        for k in 0..<4_000 { text += "看 http://t.cn/Z\(k) 这里 " }
        text += String(repeating: "普通的文字 plain text ", count: 20_000)
        let many = (0..<4_000).map { URLEntity(shortURL: "http://t.cn/Y\($0)", title: "t") }
        let few = Array(many.prefix(2))
        func time(_ urls: [URLEntity]) -> Double {
            let t0 = Date()
            for _ in 0..<3 { _ = build(text, urls: urls) }
            return Date().timeIntervalSince(t0)
        }
        _ = time(few)
        let a = time(few), b = time(many)
        XCTAssertLessThan(b, 40 * a + 0.5, "4 000 entries \(b) s, 2 entries \(a) s")
    }
}
