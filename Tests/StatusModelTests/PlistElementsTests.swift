import Foundation
import XCTest
import FeedLayoutSupport
import _LayoutTestSupport

@testable import StatusModel

/// Model property lists read in batches (`PlistElements` → `PlistElementsDecoder`): the same
/// statuses, skipped statuses and errors as the whole load, at any batch size, or the whole load
/// itself where the tag scan does not follow the document.
final class PlistElementsTests: XCTestCase {
    enum Outcome: Equatable {
        case loaded([Status], [SkippedStatus])
        case failed(StatusModelError)
    }

    private func whole(_ bytes: [UInt8], options: LoadOptions = LoadOptions()) -> Outcome {
        do {
            let result = try FeedLoader.load(bytes: bytes, fileName: "feed.plist", options: options)
            return .loaded(result.feed.statuses, result.skipped)
        } catch {
            return .failed(error)
        }
    }

    /// The batched read, `batch` statuses at a time with one decoder; nil when the document is
    /// left to the whole load.
    private func batched(_ bytes: [UInt8], options: LoadOptions = LoadOptions(), batch: Int) -> Outcome? {
        guard let elements = PlistElements.split(bytes, fileName: "feed.plist", options: options, minimumBytes: 0) else { return nil }
        var decoder = PlistElementsDecoder()
        var statuses: [Status] = []
        var skipped: [SkippedStatus] = []
        var at = 0
        do {
            while at < elements.statusCount {
                let end = min(elements.statusCount, at + batch)
                skipped += try decoder.decode(elements, statuses: at..<end) { statuses.append($0) }
                at = end
            }
            return .loaded(statuses, skipped)
        } catch {
            return .failed(error)
        }
    }

    private func plist(_ statuses: [Status]) -> [UInt8] { [UInt8](FeedWriter.data(statuses, format: .modelPlist)) }

    private func generated(_ seed: UInt64, _ count: Int) -> [Status] {
        var g = FeedGenerator(seed: seed)
        return g.statuses(count: count)
    }

    func testBatchesDecodeTheWholeLoadsStatusesByteForByte() throws {
        let statuses = generated(3, 120)
        let bytes = plist(statuses)
        for batch in [1, 7, 64, 1000] {
            guard case .loaded(let got, let skipped) = batched(bytes, batch: batch) else {
                return XCTFail("a generated model plist is split (batch \(batch))")
            }
            XCTAssertEqual(skipped, [])
            XCTAssertEqual(FeedWriter.data(got, format: .jsonLines), FeedWriter.data(statuses, format: .jsonLines), "batch \(batch)")
        }
    }

    /// The nesting limit counts the root dict and the array around a batch's statuses: every
    /// limit gives the whole load's outcome (the statuses, or the error at the same depth).
    func testTheNestingLimitIsTheWholeLoads() throws {
        let bytes = plist(generated(9, 30))
        var outcomes = Set<Bool>()
        for depth in 3...9 {
            let options = LoadOptions(maxNestingDepth: depth)
            let expected = whole(bytes, options: options)
            if case .loaded = expected { outcomes.insert(true) } else { outcomes.insert(false) }
            XCTAssertEqual(batched(bytes, options: options, batch: 4), expected, "limit \(depth)")
        }
        XCTAssertEqual(outcomes, [true, false], "limits on both sides of the feed's depth")
    }

    /// Documents the reader accepts that a tag scan could misread: comments, CDATA and quoted
    /// attribute values holding markup, empty elements, a DOCTYPE with an internal subset, other
    /// root members before and after the statuses, white space everywhere.
    func testMarkupThatLooksLikeTagsIsFollowed() throws {
        let one = String(decoding: plist(generated(4, 1)), as: UTF8.self)
        // The status dict as written (between the array's tags).
        let body = one.components(separatedBy: "<array>")[1].components(separatedBy: "</array>")[0]
        XCTAssertTrue(body.contains("<dict>"))
        let elements = [
            body,
            "<!-- <dict> </array> --> " + body,
            body.replacingOccurrences(of: "<dict>", with: "<dict  >"),
            body.replacingOccurrences(of: "</dict>", with: "</dict >"),
        ].joined(separator: "\n")
        let documents = [
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [ <!ENTITY x \"<dict>\"> ]>\n<plist version=\"1.0\">\n<dict>\n"
                + "<key>before</key><array><dict/><array/></array>\n<key>note</key><string><![CDATA[<array><dict>]]></string>\n"
                + "<key>statuses</key>\n<!-- c --><array>\(elements)</array>\n<key>after</key><dict><key>a</key><array><dict></dict></array></dict>\n"
                + "</dict>\n</plist>\n",
            "<plist version='1.0 >'><dict><key>statuses</key><array>\(elements)</array></dict></plist>",
        ]
        for doc in documents {
            let bytes = Array(doc.utf8)
            guard case .loaded(let expected, _) = whole(bytes) else { return XCTFail("valid: \(doc.prefix(200))") }
            XCTAssertEqual(expected.count, 4)
            XCTAssertEqual(batched(bytes, batch: 1), .loaded(expected, []))
            XCTAssertEqual(batched(bytes, batch: 3), .loaded(expected, []))
        }
    }

    /// Documents the scan leaves to the whole load: root arrays (classic statuses, friend lists),
    /// sections, a `statuses` key written with an entity, other encodings, binary plists.
    func testOtherDocumentsAreLoadedWhole() throws {
        let statuses = generated(5, 3)
        let model = String(decoding: plist(statuses), as: UTF8.self)
        let cases: [(String, [UInt8])] = [
            ("root array", Array(model.replacingOccurrences(of: "<dict>\n\t<key>statuses</key>\n\t", with: "").replacingOccurrences(of: "</array>\n</dict>\n</plist>", with: "</array>\n</plist>").utf8)),
            ("entity key", Array(model.replacingOccurrences(of: "<key>statuses</key>", with: "<key>&#115;tatuses</key>").utf8)),
            ("latin-1", Array(model.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-1\"").utf8)),
            ("empty", Array("<plist><dict><key>statuses</key><array/></dict></plist>".utf8)),
            ("binary root array", [UInt8](try PropertyListSerialization.data(fromPropertyList: [["Id": 1]], format: .binary, options: 0))),
        ]
        for (name, bytes) in cases {
            XCTAssertNil(PlistElements.split(bytes, fileName: "f", options: LoadOptions(), minimumBytes: 0), name)
        }
        XCTAssertNotNil(PlistElements.split(plist(statuses), fileName: "f", options: LoadOptions(), minimumBytes: 0))
        XCTAssertNil(PlistElements.split(plist(statuses), fileName: "f", options: LoadOptions()), "smaller than the minimum")
        var classic = LoadOptions()
        classic.format = .classicPlist
        XCTAssertNil(PlistElements.split(plist(statuses), fileName: "f", options: classic, minimumBytes: 0))
    }

    /// Invalid statuses: skipped with the whole load's index, id and key path, or the whole
    /// load's error.
    func testInvalidStatusesAreReportedAsTheWholeLoadReportsThem() throws {
        var text = String(decoding: plist(generated(6, 40)), as: UTF8.self)
        // Two counts written as strings (the later first, so that the earlier's place holds).
        var keys: [Range<String.Index>] = []
        while let r = text.range(of: "<key>reposts_count</key>", range: (keys.last?.upperBound ?? text.startIndex)..<text.endIndex) {
            keys.append(r)
        }
        XCTAssertGreaterThan(keys.count, 31)
        for k in [31, 9] {
            let open = try XCTUnwrap(text.range(of: "<integer>", range: keys[k].upperBound..<text.endIndex))
            let close = try XCTUnwrap(text.range(of: "</integer>", range: open.upperBound..<text.endIndex))
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: "<string>x</string>")
        }
        let bytes = Array(text.utf8)
        for skip in [false, true] {
            let options = LoadOptions(skipInvalid: skip)
            let expected = whole(bytes, options: options)
            if case .loaded(_, let skipped) = expected { XCTAssertEqual(skipped.count, 2) } else { XCTAssertFalse(skip) }
            for batch in [1, 5, 100] { XCTAssertEqual(batched(bytes, options: options, batch: batch), expected, "skip \(skip), batch \(batch)") }
        }
    }

    /// Many corrupted documents: wherever the damage is (inside a status, between them, around
    /// the array, in the root's other members), the batched read gives the whole load's outcome:
    /// the same error (reason, line, column), or the same statuses.
    func testCorruptedDocumentsGiveTheWholeLoadsOutcome() throws {
        let base = plist(generated(7, 12))
        let snippets = [
            "<", "</dict>", "<dict>", "</array>", "<array>", "<!--", "-->", "<![CDATA[", "]]>", "&", "&lt;", "<key>id</key>",
            "<true/>", "<string>x</string>", "<dict/>", "<key>statuses</key><array/>", "\u{1}", "<plist>", "</plist>", ">", "'", "\"",
        ]
        let (split, failed) = corruptedRounds(base, seed: 17) { bytes, random, round in
            for _ in 0..<(1 + Int(random.next() % 2)) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 12)))
                case 1: bytes.insert(contentsOf: Array(snippets[Int(random.next() % UInt64(snippets.count))].utf8), at: at)
                default: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            return LoadOptions(skipInvalid: round % 3 == 0, maxNestingDepth: round % 5 == 0 ? 4 : 128)
        }
        // The scan is not so strict that damage always sends the document to the whole load.
        XCTAssertGreaterThan(split, 500)
        XCTAssertGreaterThan(failed, 100)
    }

    /// The same tree as a binary list, written by Foundation (strings and numbers shared).
    private func binary(_ statuses: [Status]) throws -> [UInt8] {
        let tree = try PropertyListSerialization.propertyList(from: Data(plist(statuses)), format: nil)
        return [UInt8](try PropertyListSerialization.data(fromPropertyList: tree, format: .binary, options: 0))
    }

    /// Binary lists: batches write the objects the whole load writes, at any batch size and
    /// nesting limit.
    func testBinaryListsDecodeTheWholeLoadsStatuses() throws {
        let statuses = generated(10, 120)
        let bytes = try binary(statuses)
        for batch in [1, 7, 1000] {
            guard case .loaded(let got, let skipped) = batched(bytes, batch: batch) else {
                return XCTFail("a binary model plist is split (batch \(batch))")
            }
            XCTAssertEqual(skipped, [])
            XCTAssertEqual(FeedWriter.data(got, format: .jsonLines), FeedWriter.data(statuses, format: .jsonLines), "batch \(batch)")
        }
        var outcomes = Set<Bool>()
        for depth in 3...9 {
            let options = LoadOptions(maxNestingDepth: depth)
            let expected = whole(bytes, options: options)
            if case .loaded = expected { outcomes.insert(true) } else { outcomes.insert(false) }
            XCTAssertEqual(batched(bytes, options: options, batch: 4) ?? expected, expected, "limit \(depth)")
        }
        XCTAssertEqual(outcomes, [true, false])
    }

    /// Corrupted binary lists (bytes changed anywhere: objects, references, the offset table)
    /// give the whole load's outcome when they are split at all.
    func testCorruptedBinaryListsGiveTheWholeLoadsOutcome() throws {
        let base = try binary(generated(11, 12))
        let (split, failed) = corruptedRounds(base, seed: 23) { bytes, random, round in
            for _ in 0..<(1 + Int(random.next() % 3)) {
                // Mostly the objects; a quarter of the changes in the offset table and trailer.
                let at = round % 4 == 0
                    ? bytes.count - 1 - Int(random.next() % UInt64(min(bytes.count, 400))) : 8 + Int(random.next() % UInt64(bytes.count - 8))
                bytes[at] = random.next() % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : bytes[at] ^ (1 << UInt8(random.next() % 8))
            }
            return LoadOptions(skipInvalid: round % 3 == 0)
        }
        XCTAssertGreaterThan(split, 500)
        XCTAssertGreaterThan(failed, 50)
    }

    /// 1 500 documents made from `base` by `corrupt` (which returns the load's options): each one
    /// split gives the whole load's outcome. Returns how many were split, and how many of those
    /// the whole load refused or skipped statuses of.
    private func corruptedRounds(
        _ base: [UInt8], seed: UInt64, _ corrupt: (inout [UInt8], inout SplitMix64, Int) -> LoadOptions
    ) -> (split: Int, failed: Int) {
        var random = SplitMix64(seed: seed)
        var split = 0
        var failed = 0
        for round in 0..<1500 {
            var bytes = base
            let options = corrupt(&bytes, &random, round)
            guard let got = batched(bytes, options: options, batch: 1 + round % 4) else { continue }
            split += 1
            let expected = whole(bytes, options: options)
            if case .failed = expected { failed += 1 }
            if case .loaded(_, let skipped) = expected, !skipped.isEmpty { failed += 1 }
            XCTAssertEqual(got, expected, "round \(round)")
        }
        return (split, failed)
    }

    /// A job reads a large model plist in parallel batches with the whole load's counts.
    func testValidationOfALargeModelPlistMatchesTheWholeLoad() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let statuses = generated(8, 900)
        let bytes = plist(statuses)
        XCTAssertGreaterThan(bytes.count, PlistElements.minimumBytes)
        let url = dir.appendingPathComponent("big.plist")
        try Data(bytes).write(to: url)
        guard case .plistElements(let elements) = try FeedSource.open(url.path) else { return XCTFail("a large model plist is split") }
        XCTAssertEqual(elements.statusCount, 900)
        var decoder = PlistElementsDecoder()
        var got: [Status] = []
        _ = try decoder.decode(elements, statuses: 0..<900) { got.append($0) }
        XCTAssertEqual(FeedWriter.data(got, format: .jsonLines), FeedWriter.data(statuses, format: .jsonLines))
    }
}
