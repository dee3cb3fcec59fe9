import Foundation
import UnicodeText
import XCTest
import _LayoutTestSupport

/// Runs the UCD's own break tests (auxiliary/LineBreakTest.txt and GraphemeBreakTest.txt) through
/// `TextBreaks.analyze` and compares every boundary position.
final class ConformanceTests: XCTestCase {
    /// One test case: the scalars and, for each position between them (0...count), whether the file
    /// marks a break (÷) there.
    struct Case {
        var line: Int
        var scalars: [UInt32]
        var breaks: [Bool]
    }

    /// LineBreakTest.txt lines we deliberately do not match, by line number, with the reason. Empty:
    /// every case passes.
    static let lineBreakExceptions: [Int: String] = [:]
    /// GraphemeBreakTest.txt lines we deliberately do not match. Empty: every case passes.
    static let graphemeExceptions: [Int: String] = [:]

    static func load(_ name: String) throws -> [Case] {
        let url = TestPaths.unicodeData.appendingPathComponent("auxiliary").appendingPathComponent(name)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw XCTSkip("\(url.path) is absent: install Debian's unicode-data (scripts/setup.sh does)")
        }
        // The tables are generated from one UCD version; a different installed version is not the
        // reference these tests are about.
        if let header = text.split(separator: "\n", maxSplits: 1).first,
            !header.contains("-\(UnicodeProperties.unicodeVersion).txt")
        {
            throw XCTSkip("\(url.path) is \(header), the tables are Unicode \(UnicodeProperties.unicodeVersion)")
        }
        var cases: [Case] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let data = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let tokens = data.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if tokens.isEmpty { continue }
            var c = Case(line: index + 1, scalars: [], breaks: [])
            for token in tokens {
                switch token {
                case "÷": c.breaks.append(true)
                case "×": c.breaks.append(false)
                default:
                    guard let v = UInt32(token, radix: 16) else {
                        XCTFail("\(name):\(index + 1): bad token \(token)")
                        continue
                    }
                    c.scalars.append(v)
                }
            }
            XCTAssertEqual(c.breaks.count, c.scalars.count + 1, "\(name):\(index + 1)")
            cases.append(c)
        }
        return cases
    }

    /// Encodes scalars to UTF-16 and returns the code units and the offset of each scalar boundary.
    static func utf16(_ scalars: [UInt32]) -> (units: [UInt16], offsets: [Int]) {
        var units: [UInt16] = []
        var offsets = [0]
        for v in scalars {
            if v >= 0x10000 {
                let w = v - 0x10000
                units.append(UInt16(0xD800 + (w >> 10)))
                units.append(UInt16(0xDC00 + (w & 0x3FF)))
            } else {
                units.append(UInt16(v))
            }
            offsets.append(units.count)
        }
        return (units, offsets)
    }

    /// Checks every case against `flag`; returns how many cases fail (exceptions aside).
    func run(_ cases: [Case], flag: BreakFlags, exceptions: [Int: String], name: String) -> Int {
        var failures = 0
        var flags: [BreakFlags] = []
        for c in cases {
            let (units, offsets) = Self.utf16(c.scalars)
            units.withUnsafeBufferPointer { TextBreaks.analyze($0, into: &flags) }
            XCTAssertEqual(flags.count, units.count + 1)
            // Both files mark sot with ×/÷ the way `analyze` reports position 0 (no line break,
            // a grapheme boundary), so position 0 is compared too.
            let got: [Bool] = offsets.map { flags[$0].contains(flag) }
            var insidePair = 0
            for i in 1..<max(units.count, 1) where !offsets.contains(i) && flags[i] != [] { insidePair += 1 }
            XCTAssertEqual(insidePair, 0, "\(name):\(c.line): flags inside a surrogate pair")
            if got != c.breaks && exceptions[c.line] == nil {
                failures += 1
                if failures <= 20 {
                    var render = ""
                    for i in got.indices {
                        render += got[i] ? "÷" : "×"
                        if i < c.scalars.count { render += " " + String(c.scalars[i], radix: 16, uppercase: true) + " " }
                    }
                    XCTFail("\(name):\(c.line): got \(render)")
                }
            }
        }
        return failures
    }

    func testLineBreakTestFile() throws {
        let cases = try Self.load("LineBreakTest.txt")
        XCTAssertGreaterThan(cases.count, 7000)
        XCTAssertLessThanOrEqual(Self.lineBreakExceptions.count * 100, cases.count)
        let failures = run(cases, flag: .lineAllowed, exceptions: Self.lineBreakExceptions, name: "LineBreakTest.txt")
        XCTAssertEqual(failures, 0, "\(failures) of \(cases.count) LineBreakTest.txt cases fail")
    }

    func testGraphemeBreakTestFile() throws {
        let cases = try Self.load("GraphemeBreakTest.txt")
        XCTAssertGreaterThan(cases.count, 600)
        XCTAssertLessThanOrEqual(Self.graphemeExceptions.count * 100, cases.count)
        let failures = run(cases, flag: .grapheme, exceptions: Self.graphemeExceptions, name: "GraphemeBreakTest.txt")
        XCTAssertEqual(failures, 0, "\(failures) of \(cases.count) GraphemeBreakTest.txt cases fail")
    }
}
