import Foundation
import UnicodeText
import XCTest
import _LayoutTestSupport

/// `UnicodeScript.of` against the UCD's Scripts.txt for every code point (through its ISO 15924
/// code, from PropertyValueAliases.txt): the BMP table, the ASCII shortcut and the runs above the
/// BMP all answer as the file does.
final class ScriptConformanceTests: XCTestCase {
    func testEveryCodePointMatchesScriptsTxt() throws {
        let scripts = TestPaths.unicodeData.appendingPathComponent("Scripts.txt")
        let aliases = TestPaths.unicodeData.appendingPathComponent("PropertyValueAliases.txt")
        guard let text = try? String(contentsOf: scripts, encoding: .utf8),
            let aliasText = try? String(contentsOf: aliases, encoding: .utf8)
        else {
            throw XCTSkip("\(scripts.path) is absent: install Debian's unicode-data (scripts/setup.sh does)")
        }
        if let header = text.split(separator: "\n", maxSplits: 1).first,
            !header.contains("-\(UnicodeProperties.unicodeVersion).txt")
        {
            throw XCTSkip("\(scripts.path) is \(header), the tables are Unicode \(UnicodeProperties.unicodeVersion)")
        }
        // "sc ; Hani ; Han ; …": long name -> ISO code.
        var codeOfName: [String: String] = [:]
        for line in aliasText.split(separator: "\n") where line.hasPrefix("sc ") {
            let fields = line.split(separator: "#")[0].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            for name in fields.dropFirst(2) { codeOfName[name] = fields[1] }
        }
        // Unlisted code points are Unknown.
        var expected = [String](repeating: "Zzzz", count: 0x110000)
        var listed = 0
        for line in text.split(separator: "\n") {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = data.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2 else { continue }
            let bounds = fields[0].split(separator: ".", omittingEmptySubsequences: true).compactMap { Int($0, radix: 16) }
            let code = try XCTUnwrap(codeOfName[fields[1]], "no ISO code for \(fields[1])")
            for cp in bounds[0]...(bounds.last ?? bounds[0]) {
                expected[cp] = code
                listed += 1
            }
        }
        XCTAssertGreaterThan(listed, 140_000, "Scripts.txt parsed too few code points")
        var mismatches: [String] = []
        for cp in 0..<0x110000 {
            let got = UnicodeScript.of(UInt32(cp)).code
            if got != expected[cp] && mismatches.count < 10 {
                mismatches.append("U+\(String(cp, radix: 16, uppercase: true)): \(got), file says \(expected[cp])")
            }
        }
        XCTAssertEqual(mismatches, [])
        XCTAssertTrue(UnicodeScript.of(0x41) == .latin && UnicodeScript.of(0x4E2D) == .han && UnicodeScript.of(0x3042) == .hiragana)
        XCTAssertTrue(UnicodeScript.common.isWeak && UnicodeScript.inherited.isWeak && !UnicodeScript.latin.isWeak)
    }

    /// `UnicodeScript.strongDirectionWithoutScript` against extracted/DerivedBidiClass.txt for
    /// every code point: L for left to right, R and AL for right to left, for the characters
    /// whose script is Common or Inherited; nil for every other character.
    func testStrongDirectionsWithoutAScriptMatchDerivedBidiClass() throws {
        let url = TestPaths.unicodeData.appendingPathComponent("extracted/DerivedBidiClass.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw XCTSkip("\(url.path) is absent: install Debian's unicode-data (scripts/setup.sh does)")
        }
        if let header = text.split(separator: "\n", maxSplits: 1).first,
            !header.contains("-\(UnicodeProperties.unicodeVersion).txt")
        {
            throw XCTSkip("\(url.path) is \(header), the tables are Unicode \(UnicodeProperties.unicodeVersion)")
        }
        // The explicit lines only (the @missing defaults cover unassigned code points, which
        // have no script of their own to lack: they are Unknown).
        var strong = [StrongDirection?](repeating: nil, count: 0x110000)
        for line in text.split(separator: "\n") {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = data.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2 else { continue }
            let direction: StrongDirection
            switch fields[1] {
            case "L": direction = .leftToRight
            case "R", "AL": direction = .rightToLeft
            default: continue
            }
            let bounds = fields[0].split(separator: ".", omittingEmptySubsequences: true).compactMap { Int($0, radix: 16) }
            for cp in bounds[0]...(bounds.last ?? bounds[0]) { strong[cp] = direction }
        }
        var mismatches: [String] = [], found = 0
        for cp in 0..<0x110000 {
            let script = UnicodeScript.of(UInt32(cp))
            let expected = script == .common || script == .inherited ? strong[cp] : nil
            let got = UnicodeScript.strongDirectionWithoutScript(UInt32(cp))
            if got != nil { found += 1 }
            if got != expected && mismatches.count < 10 {
                mismatches.append("U+\(String(cp, radix: 16, uppercase: true)): \(String(describing: got)), file says \(String(describing: expected))")
            }
        }
        XCTAssertEqual(mismatches, [])
        XCTAssertGreaterThan(found, 1_000)
        XCTAssertEqual(UnicodeScript.strongDirectionWithoutScript(0x1F1E8), .leftToRight)  // a regional indicator
        XCTAssertEqual(UnicodeScript.strongDirectionWithoutScript(0x0640), .rightToLeft)  // ARABIC TATWEEL
        XCTAssertNil(UnicodeScript.strongDirectionWithoutScript(0x0041))  // Latin: its script says
        XCTAssertNil(UnicodeScript.strongDirectionWithoutScript(0x1F600))  // an emoji is neutral
    }
}
