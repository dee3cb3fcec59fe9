import CellLayout
import FeedLayoutSupport
import Foundation
import StatusModel
import TableLayout
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import FrameExport

/// One measurer on the pinned fonts for the whole suite (loading fonts is the slow part).
private let sharedMeasurer: TextMeasurer? = try? TextMeasurer(fonts: FontSet.load(directory: TestPaths.fonts))

final class FrameExportTests: XCTestCase {
    private func measurer() throws -> TextMeasurer {
        guard let m = sharedMeasurer else { throw XCTSkip("pinned fonts are not installed: run scripts/setup.sh") }
        return m
    }

    private func engine() throws -> FeedEngine {
        FeedEngine(cellEngine: CellLayoutEngine(measurer: try measurer()))
    }

    private func header() throws -> FrameExportHeader {
        FrameExportHeader(generatorVersion: "test", manifest: try measurer().fonts.manifest)
    }

    private func fixture(_ name: String) throws -> [Status] {
        try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent(name)).feed.statuses
    }

    private func validator() throws -> SchemaValidator {
        let url = TestPaths.packageRoot.appendingPathComponent("docs/frames.schema.json")
        return try SchemaValidator(schema: JSONParser.parse(Array(try Data(contentsOf: url))))
    }

    /// Parses `bytes`, validates them against the schema (root, or `$defs/jsonLinesRow` or
    /// `$defs/jsonLinesSection` per line)
    /// and checks every number's form and grid alignment. Returns the parsed documents.
    @discardableResult
    private func checkExport(
        _ bytes: [UInt8], format: FrameFormat, scale: Double, _ context: String, validator: SchemaValidator? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [JSONValue] {
        let v = try validator ?? self.validator()
        var docs: [JSONValue] = []
        if format == .json {
            docs = [try JSONParser.parse(bytes)]
        } else {
            XCTAssertEqual(bytes.last, 0x0A, "\(context): JSON Lines end with a newline", file: file, line: line)
            for l in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                docs.append(try JSONParser.parse(Array(l)))
            }
        }
        for d in docs {
            // A sectioned feed's JSON Lines have section lines (no "row") before their rows.
            let isSectionLine = d["header"] != nil
            let errors = v.errors(d, ref: format == .jsonl ? (isSectionLine ? "#/$defs/jsonLinesSection" : "#/$defs/jsonLinesRow") : nil)
            XCTAssertEqual(errors, [], "\(context)", file: file, line: line)
            var numbers: [String] = []
            d.numberTexts(into: &numbers)
            for t in numbers {
                if !Self.hasExportNumberForm(t) { XCTFail("\(context): number form \(t)", file: file, line: line) }
                let px = Double(t)! * scale
                if abs(px - px.rounded()) > 0.0021 * scale { XCTFail("\(context): \(t) off the 1/\(scale) grid", file: file, line: line) }
            }
        }
        return docs
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]{0,2}[1-9])?` and not "-0": no exponent, no ".0", at most 3 decimals.
    static func hasExportNumberForm(_ t: String) -> Bool {
        var u = Array(t.utf8)[...]
        if u.first == UInt8(ascii: "-") { u = u.dropFirst() }
        let digits = { (b: UInt8) in b >= 48 && b <= 57 }
        let whole = u.prefix(while: digits)
        guard !whole.isEmpty, whole.count == 1 || whole.first != 48 else { return false }
        let rest = u.dropFirst(whole.count)
        if rest.isEmpty { return t != "-0" }
        guard rest.first == UInt8(ascii: "."), rest.count >= 2, rest.count <= 4 else { return false }
        let frac = rest.dropFirst()
        return frac.allSatisfy(digits) && frac.last != 48
    }

    func testNumberFormCheck() {
        for good in ["0", "12", "-4", "0.5", "33.333", "1.25"] { XCTAssertTrue(Self.hasExportNumberForm(good), good) }
        for bad in ["-0", "1.0", "0.30000000000000004", "1e3", "01", ".5", "1.", "1.2500"] { XCTAssertFalse(Self.hasExportNumberForm(bad), bad) }
    }

    // MARK: Schema

    func testValidatorRejectsWhatTheSchemaForbids() throws {
        let v = try validator()
        let statuses = try Array(fixture("feed.plist").prefix(2))
        let layout = try engine().layoutCells(statuses, options: FeedOptions(width: 375))
        let good = try JSONParser.parse(FrameExport.data(layout, header: header()))
        XCTAssertEqual(v.errors(good), [])
        guard case .object(var root) = good else { return XCTFail("root is not an object") }
        func variant(_ change: (inout [(String, JSONValue)]) -> Void) -> JSONValue {
            var o = root
            change(&o)
            return .object(o)
        }
        let bad: [(String, JSONValue)] = [
            ("missing key", variant { $0.removeAll { $0.0 == "contentHeight" } }),
            ("extra key", variant { $0.append(("extra", .null)) }),
            ("wrong type", variant { $0[$0.firstIndex { $0.0 == "width" }!].1 = .string("375") }),
            ("not in enum", variant { $0[$0.firstIndex { $0.0 == "style" }!].1 = .string("fancy") }),
            ("wrong const", variant { $0[$0.firstIndex { $0.0 == "schemaVersion" }!].1 = .number(2, text: "2") }),
            ("below minimum", variant { $0[$0.firstIndex { $0.0 == "contentHeight" }!].1 = .number(-1, text: "-1") }),
            ("short array", variant { $0[$0.firstIndex { $0.0 == "rowRange" }!].1 = .array([.number(0, text: "0")]) }),
            ("keys out of order", variant { $0.swapAt(0, 1) }),
            ("not integer", variant { $0[$0.firstIndex { $0.0 == "rowCount" }!].1 = .number(2.5, text: "2.5") }),
        ]
        for (name, doc) in bad { XCTAssertNotEqual(v.errors(doc), [], name) }
        // A nested row problem is found through $ref, items and properties.
        root[root.firstIndex { $0.0 == "sections" }!].1 = .array([.object([("section", .number(0, text: "0"))])])
        XCTAssertNotEqual(v.errors(.object(root)), [])
        XCTAssertThrowsError(try SchemaValidator(schema: JSONParser.parse(Array(#"{"pattern": "x"}"#.utf8))))
    }

    func testFixturesValidateAgainstSchemaBothStylesSeveralWidths() throws {
        let engine = try engine()
        let header = try header()
        for name in ["feed.plist", "StatusInfo.plist"] {
            let statuses = try fixture(name)
            for style in [CellStyle.weibo, .classic] {
                for (width, scale) in [(320.0, 2.0), (375, 3), (414, 2), (768, 1)] {
                    let options = FeedOptions(width: width, style: style, scale: scale, maxTextLines: width == 320 ? 3 : 0)
                    let layout = try engine.layoutCells(statuses, options: options, threads: 2)
                    let context = "\(name) \(style.name) \(width)@\(scale)"
                    let docs = try checkExport(FrameExport.data(layout, header: header), format: .json, scale: scale, context)
                    XCTAssertEqual(docs.first?["sections"]?.array?.first?["rows"]?.array?.count, statuses.count, context)
                    try checkExport(FrameExport.data(layout, header: header, format: .jsonl), format: .jsonl, scale: scale, context)
                }
            }
        }
    }

    func testSharedCorpusValidatesAgainstSchema() throws {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        let statuses = try files.flatMap { try FeedLoader.load(contentsOf: $0).feed.statuses }
        XCTAssertEqual(statuses.count, 206)
        let engine = try engine()
        let v = try validator()
        for style in [CellStyle.weibo, .classic] {
            let layouts = try [320.0, 414].map { try engine.layoutCells(statuses, options: FeedOptions(width: $0, style: style, maxTextLines: 4), threads: 2) }
            let docs = try checkExport(FrameExport.data(layouts, header: header()), format: .json, scale: 2, "corpus \(style.name)", validator: v)
            XCTAssertEqual(docs.first?["layouts"]?.array?.count, 2)
        }
        // The JSON Lines row form too, and the classic plist fixture (member badges, which the
        // Weibo corpus does not have) in both forms.
        let weibo = try engine.layoutCells(statuses, options: FeedOptions(width: 375))
        try checkExport(FrameExport.data(weibo, header: header(), format: .jsonl), format: .jsonl, scale: 2, "corpus jsonl", validator: v)
        let classic = try engine.layoutCells(fixture("StatusInfo.plist"), options: FeedOptions(width: 375, style: .classic))
        for format in FrameFormat.allCases {
            try checkExport(FrameExport.data(classic, header: header(), format: format), format: format, scale: 2, "classic \(format)", validator: v)
        }
        // Sectioned feeds: the friend list with one group open and a footer, in both forms.
        var sections = try XCTUnwrap(
            FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("friends.plist")).feed.sections)
        sections[1].footer = "家人的生日都记在日历里"
        var doc = try FeedDocument(engine: engine, options: FeedOptions(width: 375, style: .friend), statusSections: sections, threads: 1)
        doc.setExpanded(true, section: 1)
        for format in FrameFormat.allCases {
            try checkExport(FrameExport.data(doc, header: header(), format: format), format: format, scale: 2, "friends \(format)", validator: v)
        }
        // The schema describes nothing the export never writes: every declared property occurs
        // (additionalProperties: false already rejects anything undeclared).
        XCTAssertEqual(v.allProperties.subtracting(v.coverage.seen).sorted(), [])
    }

    // MARK: Determinism

    func testByteIdenticalAtAnyThreadCount() throws {
        var generator = FeedGenerator(seed: 11)
        let statuses = generator.statuses(count: 240)
        let m = try measurer()
        let header = try header()
        var outputs: [[UInt8]] = []
        for threads in [1, 2, 4] {
            // A fresh engine per run: nothing is shared but the measurer.
            let engine = FeedEngine(cellEngine: CellLayoutEngine(measurer: m))
            let layout = try engine.layoutCells(statuses, options: FeedOptions(width: 375, maxTextLines: 5), threads: threads, chunkSize: 16)
            outputs.append(try FrameExport.data(layout, header: header, threads: threads))
            outputs.append(try FrameExport.data(layout, header: header, format: .jsonl, threads: threads))
        }
        XCTAssertGreaterThan(outputs[0].count, 100_000)
        XCTAssertEqual(outputs[0], outputs[2])
        XCTAssertEqual(outputs[0], outputs[4])
        XCTAssertEqual(outputs[1], outputs[3])
        XCTAssertEqual(outputs[1], outputs[5])
    }

    func testStreamingInBatchesGivesTheSameBytes() throws {
        let statuses = try fixture("feed.plist") + fixture("StatusInfo.plist")
        let layout = try engine().layoutCells(statuses, options: FeedOptions(width: 375, style: .classic))
        let header = try header()
        for format in FrameFormat.allCases {
            for rows: Range<Int>? in [nil, 5..<17] {
                let whole = try FrameExport.data(layout, header: header, format: format, rows: rows)
                var rng = SplitMix64(seed: 3)
                var stream = try FrameStream(options: layout.layout.options, header: header, format: format, rows: rows)
                var out: [UInt8] = []
                stream.begin(into: &out)
                var start = 0
                let cells = layout.cells
                while start < cells.count {
                    let end = min(cells.count, start + Int(rng.next() % 9))
                    stream.append(cells[start..<end], threads: 2, into: &out)
                    start = end
                }
                stream.finish(into: &out)
                XCTAssertEqual(out, whole, "\(format) rows \(String(describing: rows))")
            }
        }
    }

    // MARK: Round trip

    func testRoundTripMatchesInMemoryLayout() throws {
        let statuses = try fixture("feed.plist")
        let layout = try engine().layoutCells(statuses, options: FeedOptions(width: 390, scale: 3, maxTextLines: 1))
        let data = Data(try FrameExport.data(layout, header: header()))
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(root["contentHeight"] as? Double ?? -1, layout.layout.contentHeight, accuracy: 0.0011)
        XCTAssertEqual(root["rowCount"] as? Int, statuses.count)
        let sections = try XCTUnwrap(root["sections"] as? [[String: Any]])
        let rows = try XCTUnwrap(sections.first?["rows"] as? [[String: Any]])
        XCTAssertEqual(rows.count, statuses.count)
        let grid = PixelGrid(scale: 3)
        func same(_ any: Any?, _ r: Rect?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
            guard let r else { return XCTAssertNil(any, "\(what) should be absent", file: file, line: line) }
            guard let a = any as? [Double], a.count == 4 else { return XCTFail("\(what): \(String(describing: any))", file: file, line: line) }
            let want = [r.minX, r.minY, r.width, r.height]
            for k in 0..<4 { XCTAssertEqual(a[k], want[k], accuracy: 0.0011, "\(what)[\(k)]", file: file, line: line) }
        }
        func sameText(_ any: Any?, _ box: TextBox?, _ what: String) {
            guard let box else { return XCTAssertNil(any, what) }
            guard let t = any as? [String: Any] else { return XCTFail("\(what) missing") }
            same(t["frame"], box.frame, "\(what).frame")
            XCTAssertEqual(t["string"] as? String, box.string, what)
            XCTAssertEqual(t["truncated"] as? Bool, box.layout.isTruncated, what)
            let lines = t["lines"] as? [[String: Any]] ?? []
            XCTAssertEqual(lines.count, box.layout.lines.count, what)
            for (l, want) in zip(lines, box.layout.lines) {
                XCTAssertEqual(l["range"] as? [Int], [want.range.lowerBound, want.range.upperBound], what)
                XCTAssertEqual(l["baseline"] as? Double ?? -1, grid.round(want.baseline), accuracy: 0.0011, what)
                XCTAssertEqual(l["width"] as? Double ?? -1, grid.round(want.width), accuracy: 0.0011, what)
            }
            same(t["token"], box.token, "\(what).token")
            let entities = t["entities"] as? [[String: Any]] ?? []
            XCTAssertEqual(entities.count, box.entities.count, what)
            for (e, want) in zip(entities, box.entities) {
                XCTAssertEqual(e["kind"] as? String, want.kind.rawValue, what)
                XCTAssertEqual(e["value"] as? String, want.value, what)
                let rects = e["rects"] as? [Any] ?? []
                XCTAssertEqual(rects.count, want.rects.count, what)
                for (r, w) in zip(rects, want.rects) { same(r, w, "\(what).entity") }
            }
            let attachments = t["attachments"] as? [[String: Any]] ?? []
            XCTAssertEqual(attachments.map { $0["name"] as? String }, box.attachments.map(\.name), what)
            for (a, w) in zip(attachments, box.attachments) { same(a["frame"], w.frame, "\(what).attachment") }
        }
        var truncatedSeen = false
        for (i, row) in rows.enumerated() {
            let cell = layout.cells[i]
            XCTAssertEqual(row["row"] as? Int, i)
            XCTAssertEqual((row["id"] as? NSNumber)?.int64Value, cell.statusID)
            XCTAssertEqual(row["y"] as? Double ?? -1, layout.layout.y(ofRow: i), accuracy: 0.0011)
            XCTAssertEqual(row["height"] as? Double ?? -1, cell.height, accuracy: 0.0011)
            XCTAssertEqual(row["truncated"] as? Bool, cell.isTextTruncated)
            truncatedSeen = truncatedSeen || cell.isTextTruncated
            let blocks = row["blocks"] as? [[String: Any]] ?? []
            XCTAssertEqual(blocks.map { $0["kind"] as? String }, cell.blocks.map(\.kind.rawValue))
            same(row["avatar"], cell.avatar, "avatar")
            same((row["avatarBadge"] as? [String: Any])?["frame"], cell.avatarBadge?.frame, "avatarBadge")
            sameText(row["name"], cell.name, "name")
            sameText(row["time"], cell.time, "time")
            sameText(row["text"], cell.text, "text")
            let retweet = row["retweet"] as? [String: Any]
            same(retweet?["frame"], cell.retweet?.frame, "retweet")
            sameText(retweet?["text"], cell.retweet?.text, "retweet.text")
            for (key, grid) in [("pictures", cell.pictures), ("retweetPictures", cell.retweet?.pictures)] {
                let any = key == "pictures" ? row["pictures"] : retweet?["pictures"]
                let g = any as? [String: Any]
                same(g?["frame"], grid?.frame, key)
                let items = g?["items"] as? [[String: Any]] ?? []
                XCTAssertEqual(items.map { $0["id"] as? String }, (grid?.pictures ?? CellFrames()).map(\.pictureID), key)
                for (item, p) in zip(items, grid?.pictures ?? CellFrames()) { same(item["frame"], p.frame, key) }
            }
            let card = (row["card"] ?? retweet?["card"]) as? [String: Any]
            same(card?["frame"], (cell.card ?? cell.retweet?.card)?.frame, "card")
            same((row["tag"] as? [String: Any])?["frame"], cell.tag?.frame, "tag")
            let buttons = (row["toolbar"] as? [String: Any])?["buttons"] as? [[String: Any]] ?? []
            XCTAssertEqual(buttons.map { $0["kind"] as? String }, (cell.toolbar?.buttons ?? CellFrames()).map(\.kind.rawValue))
            for (b, want) in zip(buttons, cell.toolbar?.buttons ?? CellFrames()) {
                same(b["frame"], want.frame, "button")
                same(b["icon"], want.icon, "button.icon")
                sameText(b["label"], want.label, "button.label")
            }
        }
        XCTAssertTrue(truncatedSeen, "the fixture should exercise a truncated text at 1 line")
    }

    func testGroupedTablePlacesRowsLikeTheGeometry() throws {
        let statuses = try fixture("StatusInfo.plist")
        let layout = try engine().layoutCells(statuses, options: FeedOptions(width: 414, scale: 3, tableStyle: .grouped))
        let root = try JSONParser.parse(FrameExport.data(layout, header: header()))
        let section = try XCTUnwrap(root["sections"]?.array?.first)
        let rows = try XCTUnwrap(section["rows"]?.array)
        for (i, row) in rows.enumerated() {
            XCTAssertEqual(row["y"]?.double ?? -1, layout.layout.y(ofRow: i), accuracy: 0.0011)
        }
        func rect(_ v: JSONValue?) -> [Double] { v?.array?.compactMap(\.double) ?? [] }
        let h = layout.layout.geometry.rectForHeader(inSection: 0), f = layout.layout.geometry.rectForFooter(inSection: 0)
        XCTAssertEqual(rect(section["header"]), [h.x, h.y, h.width, h.height])
        XCTAssertEqual(rect(section["footer"]).map { ($0 * 3).rounded() }, [f.x, f.y, f.width, f.height].map { ($0 * 3).rounded() })
        XCTAssertEqual(root["contentHeight"]?.double ?? -1, layout.layout.contentHeight, accuracy: 0.0011)
        XCTAssertEqual(root["tableStyle"]?.stringValue, "grouped")
    }

    // MARK: Rows, JSON Lines, goldens

    func testRowRangeWritesThoseRowsWithWholeFeedOffsets() throws {
        let statuses = try fixture("feed.plist")
        let layout = try engine().layoutCells(statuses, options: FeedOptions(width: 375))
        let header = try header()
        let all = try JSONParser.parse(FrameExport.data(layout, header: header))
        let part = try JSONParser.parse(FrameExport.data(layout, header: header, rows: 3..<7))
        let allRows = all["sections"]?.array?.first?["rows"]?.array ?? []
        let partRows = part["sections"]?.array?.first?["rows"]?.array ?? []
        XCTAssertEqual(partRows.count, 4)
        XCTAssertEqual(partRows, Array(allRows[3..<7]))
        XCTAssertEqual(part["rowRange"], .array([.number(3, text: "3"), .number(7, text: "7")]))
        XCTAssertEqual(part["contentHeight"], all["contentHeight"])
        XCTAssertEqual(part["rowCount"], all["rowCount"])
        // A range past the end is clamped; an empty one writes no rows.
        let tail = try JSONParser.parse(FrameExport.data(layout, header: header, rows: 10..<1000))
        XCTAssertEqual(tail["rowRange"], .array([.number(10, text: "10"), .number(13, text: "13")]))
        let none = try JSONParser.parse(FrameExport.data(layout, header: header, rows: 50..<60))
        XCTAssertEqual(none["sections"]?.array?.first?["rows"]?.array?.count, 0)
    }

    func testJSONLinesAreTheDocumentRowsWithTheirWidth() throws {
        let statuses = try fixture("feed.plist")
        let engine = try engine()
        let layouts = try [320.0, 414].map { try engine.layoutCells(statuses, options: FeedOptions(width: $0)) }
        let header = try header()
        let lines = try checkExport(FrameExport.data(layouts, header: header, format: .jsonl), format: .jsonl, scale: 2, "jsonl")
        XCTAssertEqual(lines.count, 2 * statuses.count)
        let doc = try JSONParser.parse(FrameExport.data(layouts, header: header))
        let docRows = (doc["layouts"]?.array ?? []).flatMap { $0["sections"]?.array?.first?["rows"]?.array ?? [] }
        XCTAssertEqual(docRows.count, lines.count)
        for (line, row) in zip(lines, docRows) {
            guard case .object(var o) = line else { return XCTFail("not an object") }
            XCTAssertEqual(o.first?.0, "width")
            o.removeFirst()
            XCTAssertEqual(JSONValue.object(o), row)
        }
        XCTAssertEqual(lines.first?["width"]?.double, 320)
        XCTAssertEqual(lines.last?["width"]?.double, 414)
    }

    func testGoldenRows() throws {
        let engine = try engine()
        let header = FrameExportHeader(generatorVersion: "golden", manifest: try measurer().fonts.manifest)
        let weibo = try engine.layoutCells(fixture("feed.plist"), options: FeedOptions(width: 375, maxTextLines: 4))
        assertGolden(String(decoding: try FrameExport.data(weibo, header: header, rows: 0..<3), as: UTF8.self), named: "weibo-feed-375-rows-0-3.json")
        let classic = try engine.layoutCells(fixture("StatusInfo.plist"), options: FeedOptions(width: 320, style: .classic, scale: 3))
        assertGolden(
            String(decoding: try FrameExport.data(classic, header: header, format: .jsonl, rows: 0..<2), as: UTF8.self),
            named: "classic-StatusInfo-320@3-rows-0-2.jsonl")
    }

    func testInvalidOptionsAreErrors() throws {
        XCTAssertThrowsError(try FrameStream(options: FeedOptions(width: -1), header: header(), format: .json)) {
            guard case .invalidOptions = $0 as? FrameExportError else { return XCTFail("\($0)") }
        }
        // A y origin past 1e15 trapped when its pixels were converted to a 64-bit integer.
        for y in [1e15, 4.7e18, 1e300, -1, .nan, .infinity] {
            XCTAssertThrowsError(try FrameStream(options: FeedOptions(width: 375), header: header(), format: .json, yOrigin: y), "\(y)") {
                guard case .invalidOptions = $0 as? FrameExportError else { return XCTFail("\($0)") }
            }
        }
        XCTAssertNoThrow(try FrameStream(options: FeedOptions(width: 375, scale: 4), header: header(), format: .json, yOrigin: 999_999_999_999_999))
    }
}

/// The number and string forms of the writer.
final class JSONBytesTests: XCTestCase {
    private func text(_ scale: Double, _ body: (inout JSONBytes) -> Void) -> String {
        var w = JSONBytes(scale: scale)
        body(&w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    func testNumbersAreQuantizedAndShort() {
        XCTAssertEqual(text(2) { $0.number(0.1 + 0.2) }, "0.5")
        XCTAssertEqual(text(1) { $0.number(0.1 + 0.2) }, "0")
        XCTAssertEqual(text(3) { $0.number(0.1 + 0.2) }, "0.333")
        XCTAssertEqual(text(3) { $0.number(2 / 3) }, "0.667")
        XCTAssertEqual(text(2) { $0.number(12) }, "12")
        XCTAssertEqual(text(2) { $0.number(-4.25) }, "-4.5")
        XCTAssertEqual(text(2) { $0.number(-0.1) }, "0")
        XCTAssertEqual(text(4) { $0.number(1.25) }, "1.25")
        XCTAssertEqual(text(3) { $0.number(1e7 + 1 / 3) }, "10000000.333")
        XCTAssertEqual(text(2) { $0.number(.nan) }, "0")
        XCTAssertEqual(text(2) { $0.plainNumber(375) }, "375")
        XCTAssertEqual(text(2) { $0.plainNumber(0.1 + 0.2) }, "0.3")
        XCTAssertEqual(text(2) { $0.int(Int64(-1234567890123)) }, "-1234567890123")
        XCTAssertEqual(text(2) { $0.uint(UInt64.max) }, "18446744073709551615")
        // Rect edges are rounded, so widths are edge differences.
        XCTAssertEqual(text(2) { $0.rect(Rect(x: 0.3, y: 0, width: 0.5, height: 1)) }, "[0.5,0,0.5,1]")
        XCTAssertEqual(text(2) { $0.rect(Rect(x: 0.3, y: 0, width: 0.4, height: 1)) }, "[0.5,0,0,1]")
    }

    /// The bytes `form` writes for `px` (its whole-scale path when the scale allows it).
    private func written(_ form: PixelNumberForm, _ px: Int64) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: PixelNumberForm.bound) { buffer in
            let n = form.write(px, to: buffer.baseAddress!)
            return Array(buffer[..<n])
        }
    }

    private func writtenByGeneralPath(_ px: Int64, scale: Double) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: PixelNumberForm.bound) { buffer in
            let n = PixelNumberForm.writeGeneral(px, scale: scale, to: buffer.baseAddress!)
            return Array(buffer[..<n])
        }
    }

    func testWholeScalesWriteWhatTheGeneralPathWrites() {
        let limit = Int64(PixelNumberForm.wholeScaleLimit)
        var random = SplitMix64(seed: 23)
        for scale in [1.0, 2, 3, 4] {
            let form = PixelNumberForm(scale: scale)
            var counts = Array(Int64(-300_000)...300_000)
            // Around the limit of the whole-scale path, and spread up to it.
            counts += (limit - 2_000)..<(limit + 2_000)
            counts += (0..<200_000).map { _ in Int64(random.below(Int(limit))) * (random.chance(50) ? -1 : 1) }
            counts += [Int64.max / 1000, -(Int64.max / 1000)]
            for px in counts where written(form, px) != writtenByGeneralPath(px, scale: scale) {
                XCTFail("scale \(scale), \(px) px: \(String(decoding: written(form, px), as: UTF8.self))")
                break
            }
        }
        // A scale that is not whole takes the general path.
        XCTAssertEqual(String(decoding: written(PixelNumberForm(scale: 2.5), 7), as: UTF8.self), "2.8")
    }

    func testDecimalTextMatchesPrintf() {
        // Below 2^52 units, printf's rounding of the rounded value gives the same digits.
        var random = SplitMix64(seed: 29)
        for _ in 0..<20_000 {
            let decimals = random.below(7)
            let one = Double(DecimalText.powerOfTen(decimals))
            let units = Int64(random.below(1_000_000_000_000_000)) >> random.below(50) * (random.chance(50) ? -1 : 1)
            let value = (Double(units) + Double(random.below(1000)) / 1000) / one
            let rounded = (value * one).rounded() / one
            var expected = String(format: "%.\(decimals)f", rounded)
            if expected.contains(".") {
                while expected.hasSuffix("0") { expected.removeLast() }
                if expected.hasSuffix(".") { expected.removeLast() }
            }
            if expected == "-0" { expected = "0" }
            XCTAssertEqual(DecimalText.string(value, decimals: decimals), expected, "\(value) to \(decimals) decimals")
        }
        XCTAssertEqual(DecimalText.string(-0.0004, decimals: 3), "0")
        XCTAssertEqual(DecimalText.string(2.0 / 3, decimals: 2), "0.67")
        XCTAssertEqual(DecimalText.string(.nan, decimals: 2), "0")
        XCTAssertEqual(DecimalText.string(1e300, decimals: 1), "1e+300")
    }

    func testStringsOfEveryLengthAreEscapedWherever() {
        // The word-at-a-time copy covers whole words, the last short word and strings shorter
        // than a word; an escape may fall anywhere.
        let pieces = [
            "a", "中", "\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{2028}", "\u{2029}", "…", "é", "😀", "z", "\u{7F}", "\u{80}",
            "\u{9B}", "\u{9F}", "\u{A0}", "\u{FEFF}", "\u{FEFB}", "！", "\u{FFBB}", "\u{2027}",
            "\u{200D}", "\u{200E}", "\u{200F}", "\u{2029}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2065}", "\u{2066}",
            "\u{2069}", "\u{206A}", "\u{061C}",
        ]
        let named: [Unicode.Scalar: String] = [
            "\"": #"\""#, "\\": #"\\"#, "\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#, "\u{2028}": #"\u2028"#, "\u{2029}": #"\u2029"#,
        ]
        func reference(_ s: String) -> String {
            let body = s.unicodeScalars.map { u in
                let bidi = [0x200E, 0x200F].contains(u.value) || (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value)
                let hex = u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u.value == 0xFEFF || bidi
                return named[u] ?? (hex ? String(format: #"\u%04x"#, u.value) : String(u))
            }
            return "\"" + body.joined() + "\""
        }
        var random = SplitMix64(seed: 31)
        for length in 0..<40 {
            for _ in 0..<30 {
                // Mostly plain letters, so that words without escapes occur.
                let s = (0..<length).map { _ in random.chance(80) ? "a" : random.pick(pieces) }.joined()
                XCTAssertEqual(text(1) { $0.string(s) }, reference(s), s.debugDescription)
            }
        }
    }

    func testStringsAreEscaped() {
        XCTAssertEqual(text(1) { $0.string("a\"b\\c\n\t\u{1}\u{2028}中😀\u{FFFC}") }, #""a\"b\\c\n\t\u0001\u2028中😀\#u{FFFC}""#)
        let tricky = "x\u{7F}\r\u{2029}é\u{9B}[31m\u{FEFF}！"
        let parsed = try? JSONSerialization.jsonObject(with: Data(text(1) { $0.string(tricky) }.utf8), options: .fragmentsAllowed)
        XCTAssertEqual(parsed as? String, tricky)
    }
}
