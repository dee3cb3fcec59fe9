import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

/// Property lists read into the JSON tape: XML by `XMLPlistReader` (the same feeds as the same
/// documents in binary, read by `BinaryPlistReader`, and as JSON), the grammar of Apple's plist
/// DTD, errors that name the line and column, and the values JSON has no type for.
final class XMLPlistReaderTests: XCTestCase {
    private func load(_ xml: String, name: String = "t.plist") throws -> LoadResult {
        try FeedLoader.load(data: Data(xml.utf8), fileName: name)
    }

    private func plistError(_ xml: String, file: StaticString = #filePath, line: UInt = #line) -> StatusModelError? {
        loadError(Data(xml.utf8), name: "bad.plist", file: file, line: line)
    }

    /// The same tree in binary form, written by Foundation.
    private func binary(_ xml: Data) throws -> Data {
        let tree = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
        return try PropertyListSerialization.data(fromPropertyList: tree, format: .binary, options: 0)
    }

    func testGeneratedFeedsLoadAsTheirBinaryFormAndTheirJSON() throws {
        for seed: UInt64 in [1, 7, 42] {
            let statuses = generated(seed, 300)
            let xml = FeedWriter.data(statuses, format: .modelPlist)
            let fromXML = try FeedLoader.load(data: xml, fileName: "g.plist").feed
            let fromBinary = try FeedLoader.load(data: try binary(xml), fileName: "g.plist").feed
            let fromJSON = try FeedLoader.load(data: FeedWriter.data(statuses, format: .weiboJSON), fileName: "g.json").feed
            XCTAssertEqual(fromXML.statuses.count, 300)
            XCTAssertEqual(fromXML.statuses, fromBinary.statuses, "seed \(seed)")
            XCTAssertEqual(fromXML.statuses, fromJSON.statuses, "seed \(seed)")
            XCTAssertEqual(fromXML.format, .modelPlist)
        }
    }

    /// The writer's plists load back equal, whatever the strings hold.
    func testWrittenPlistsLoadBackEqual() throws {
        let texts = [
            "a & b < c > d ]]> e", "\u{FEFF}lead", " spaces \t\r\n", "\u{0}\u{1}\u{1F}\u{7F}\u{85}", "&amp; &#x41; <!-- no -->",
            "<![CDATA[x]]>", "中文 😀👍🏽 עברית", "",
        ]
        let statuses = texts.enumerated().map { i, t in
            Status(id: Int64(i + 1), text: t, user: User(id: 2, name: t, screenName: t))
        }
        let xml = FeedWriter.data(statuses, format: .modelPlist)
        XCTAssertEqual(try FeedLoader.load(data: xml, fileName: "w.plist").feed.statuses, statuses)
    }

    func testFixturesLoadAsTheirBinaryForm() throws {
        for name in ["StatusInfo.plist", "feed.plist", "friends.plist", "hostile-escapes.plist"] {
            let url = TestPaths.fixtures.appendingPathComponent(name)
            let xml = try Data(contentsOf: url)
            let a = try FeedLoader.load(data: xml, fileName: name).feed
            let b = try FeedLoader.load(data: try binary(xml), fileName: name).feed
            XCTAssertEqual(a.format, b.format, name)
            XCTAssertEqual(a.sections, b.sections, name)
            XCTAssertEqual(a.statuses, b.statuses, name)
            XCTAssertFalse(a.statuses.isEmpty, name)
        }
    }

    /// Every construct of the DTD and of XML a plist writer may use.
    func testGrammar() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd" [
              <!ENTITY unused "x>y">
            ]>
            <!-- a comment before the root -->
            <plist version="1.0"><?pi inside?>
            <dict>
              <key>statuses</key>
              <array>
                <dict>
                  <key>id</key><integer> 0x1F </integer>
                  <key>text</key><string>a&lt;b&gt;&amp;&quot;&apos;&#x4E2D;&#25991;<!-- not text --><![CDATA[<i>&amp;</i>]]>
            x</string>
                  <key>reposts_count</key><integer>+5</integer>
                  <key>comments_count</key><real>12.0</real>
                  <key>attitudes_count</key><real>1e3</real>
                  <key>favorited</key><true/>
                  <key>deleted</key><false></false>
                  <key>attitudes_status</key><integer>0X1</integer>
                  <key>source</key><string/>
                  <key>pic_ids</key><array/>
                  <key>user</key><dict><key>id</key><integer>-7</integer><key>screen_name</key><string>名</string></dict>
                  <key>extra</key><dict/>
                </dict>
              </array>
            </dict>
            </plist>
            <!-- and one after -->

            """
        let s = try XCTUnwrap(load(xml).feed.statuses.first)
        XCTAssertEqual(s.id, 31)
        XCTAssertEqual(s.text, "a<b>&\"'中文<i>&amp;</i>\nx")
        XCTAssertEqual(s.repostsCount, 5)
        XCTAssertEqual(s.commentsCount, 12)
        XCTAssertEqual(s.attitudesCount, 1000)
        XCTAssertFalse(s.isDeleted)
        XCTAssertTrue(s.liked)
        XCTAssertEqual(s.user.id, -7)
        XCTAssertEqual(s.user.screenName, "名")
        // A root without <plist> around it.
        let bare = "<array><dict><key>Id</key><integer>1</integer><key>userName</key><string>u</string><key>text</key><string>t</string></dict></array>"
        XCTAssertEqual(try load(bare).feed.format, .classicPlist)
        // Text is kept as written: a byte-order mark at a string's start, white space around it.
        let marked = bare.replacingOccurrences(of: "<string>t</string>", with: "<string>\u{FEFF} t\r\n</string>")
        XCTAssertEqual(try load(marked).feed.statuses.first?.text, "\u{FEFF} t\r\n")
    }

    /// Values JSON has no type for are never taken for a field: errors say what they are.
    func testDatesDataAndInfiniteRealsAreTypeErrorsNamingTheField() {
        func status(_ key: String, _ value: String) -> String {
            "<plist><array><dict><key>id</key><integer>1</integer><key>text</key><string>t</string>"
                + "<key>user</key><dict><key>id</key><integer>2</integer><key>screen_name</key><string>u</string></dict>"
                + "<key>\(key)</key>\(value)</dict></array></plist>"
        }
        for (key, value, found) in [
            ("source", "<date>2015-09-09T10:11:34Z</date>", "date"), ("source", "<data>AAEC\n</data>", "data"),
            ("reposts_count", "<real>nan</real>", "number nan"), ("reposts_count", "<real>-infinity</real>", "number -inf"),
        ] {
            let e = plistError(status(key, value))
            XCTAssertEqual(e?.caseName, "typeMismatch", "\(value): \(String(describing: e))")
            XCTAssertEqual(e?.location?.keyPath, "[0].\(key)", value)
            XCTAssertTrue(e?.description.contains("found \(found)") ?? false, "\(String(describing: e))")
        }
    }

    /// Binary lists are written to the same tape: a real is a number up to 2^53 (past it the
    /// shortest decimal of the double is not its value), dates and data are no numbers.
    func testBinaryRealsAndDatesInAnIntegerField() throws {
        func real(_ d: Double) -> [UInt8] { [0x23] + withUnsafeBytes(of: d.bitPattern.bigEndian) { Array($0) } }
        XCTAssertEqual(try FeedLoader.load(data: BinaryPlistBuilder.feed(id: real(12)), fileName: "r.plist").feed.statuses.first?.id, 12)
        XCTAssertEqual(
            try FeedLoader.load(data: BinaryPlistBuilder.feed(id: real(9_007_199_254_740_992)), fileName: "r.plist").feed.statuses.first?.id,
            9_007_199_254_740_992)
        let date = [0x33] + withUnsafeBytes(of: Double(0).bitPattern.bigEndian) { Array($0) }
        for (id, found) in [(real(0x1p60), "number 1.152921504606847e+18"), (real(.nan), "number nan"), (real(12.5), "number 12.5"), (date, "date")] {
            let e = loadError(BinaryPlistBuilder.feed(id: id), name: "r.plist")
            XCTAssertEqual(e?.location?.keyPath, "statuses[0].id", found)
            XCTAssertTrue(e?.description.contains("found \(found)") ?? false, "\(String(describing: e))")
        }
    }

    func testMalformedDocumentsNameTheLineAndColumn() {
        // Columns count from the line's first byte: the body starts at column 20 of line 3.
        let head = "<plist>\n<array>\n<dict><key>Id</key>"
        for (body, reason, position) in [
            ("<integer>1</integer><key>t</key><string>&nbsp;</string>", "unknown entity &nbsp;", "line 3, column 60"),
            ("<integer>1</integer><key>t</key><string>a & b</string>", "a '&' that begins no entity", "line 3, column 62"),
            ("<integer>1</integer><key>t</key><strong>x</strong>", "unexpected <strong>", "line 3, column 52"),
            ("<integer>1</integer><key>t</key></dict>", "a <key> without a value", "line 3, column 52"),
            ("<integer>1</integer>text<key>t</key>", "text outside an element", "line 3, column 40"),
            ("<integer>1</integer><key>t</key><string>x</str>", "expected </string>, found </str>", "line 3, column 61"),
            ("<integer>1</integer><key>t</key><string>x<!-- open", "a comment without its end", "line 3, column 61"),
            ("<integer>18446744073709551616</integer>", "out of range", "line 3, column 20"),
            ("<integer>0x1FFFFFFFFFFFFFFFF</integer>", "out of range", "line 3, column 20"),
            ("<integer>-9223372036854775809</integer>", "out of range", "line 3, column 20"),
            ("<integer>12abc</integer>", "not an integer", "line 3, column 20"),
        ] {
            let e = plistError(head + body + "</dict></array></plist>")
            XCTAssertEqual(e?.caseName, "malformed", body)
            let text = e?.description ?? ""
            XCTAssertTrue(text.contains(reason) && text.contains(position), "\(body): \(text)")
        }
        var bytes = Array((head + "<integer>1</integer><key>t</key><string>").utf8)
        bytes += [0xC3, 0x28] + Array("</string></dict></array></plist>".utf8)
        let e = loadError(Data(bytes), name: "u.plist")
        XCTAssertTrue(e?.description.contains("invalid UTF-8") ?? false, "\(String(describing: e))")
        XCTAssertTrue(e?.description.contains("line 3, column 60") ?? false, "\(String(describing: e))")
    }

    func testNestingPastTheLimitIsRefusedWithoutRecursion() {
        for depth in [129, 100_000] {
            let xml = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
            XCTAssertEqual(plistError(xml)?.caseName, "nestingTooDeep", "\(depth)")
        }
        let ok = "<plist><dict><key>statuses</key>" + String(repeating: "<array>", count: 100) + String(repeating: "</array>", count: 100)
            + "</dict></plist>"
        XCTAssertEqual(plistError(ok)?.caseName, "typeMismatch")
    }

    func testDeclaredEncodingsAreTranscoded() throws {
        var latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><array><dict><key>Id</key><integer>1</integer>".utf8)
        latin1 += Array("<key>userName</key><string>u</string><key>text</key><string>caf".utf8) + [0xE9]
        latin1 += Array("</string></dict></array></plist>".utf8)
        XCTAssertEqual(try FeedLoader.load(data: Data(latin1), fileName: "l.plist").feed.statuses.first?.text, "café")
        let unknown = "<?xml version=\"1.0\" encoding=\"x-klingon\"?><plist><array/></plist>"
        let e = plistError(unknown)
        XCTAssertTrue(e?.description.contains("x-klingon") ?? false, "\(String(describing: e))")
    }

    /// Keys compare by their decoded bytes: two spellings of one key are one key; keys that only
    /// look alike (composed and decomposed é) are two, as in JSON.
    func testKeysCompareByDecodedBytes() throws {
        let dup = "<plist><array><dict><key>Id</key><integer>1</integer>\n<key>&#73;d</key><integer>2</integer></dict></array></plist>"
        let e = plistError(dup)
        XCTAssertTrue(e?.description.contains("duplicate key \"Id\"") ?? false, "\(String(describing: e))")
        XCTAssertTrue(e?.description.contains("line 2, column 1") ?? false, "\(String(describing: e))")
        let alike = "<plist><array><dict><key>Id</key><integer>1</integer><key>userName</key><string>u</string>"
            + "<key>text</key><string>t</string><key>caf\u{E9}</key><true/><key>cafe\u{301}</key><true/></dict></array></plist>"
        XCTAssertEqual(try load(alike).feed.statuses.count, 1)
    }
}
