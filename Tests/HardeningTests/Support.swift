// Shared pieces of the hostile-input tests: the real measurer, memory readings, the scale switch.
import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

enum Hardening {
    /// The measurer on the pinned fonts (nil when Fonts/ was not set up: tests then skip).
    static let measurer: TextMeasurer? = (try? FontSet.load(directory: TestPaths.fonts)).map { TextMeasurer(fonts: $0) }

    static func requireMeasurer() throws -> TextMeasurer {
        guard let m = measurer else { throw XCTSkip("the pinned fonts are missing: run scripts/setup.sh") }
        return m
    }

    /// `HARDENING_FULL=1` runs every case at the size of docs/hardening.md (for the release
    /// measurements); the default sizes keep the debug suite fast. Cases already at full size in
    /// debug ignore it.
    static let full = ProcessInfo.processInfo.environment["HARDENING_FULL"] == "1"

    /// Resident memory of the process now, in bytes (/proc/self/statm; 0 where unavailable).
    static func residentBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = s.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Peak resident memory of the process so far, in bytes (VmHWM of /proc/self/status).
    static func peakBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kb * 1024
    }

    /// Runs `body`, then prints one `hardening:` line with its time and memory (collected into the
    /// table of docs/hardening.md by scripts; never asserted on).
    static func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let rss0 = residentBytes()
        let t0 = Date()
        let result = try body()
        let seconds = Date().timeIntervalSince(t0)
        let mb = { (b: Int) in String(format: "%.1f", Double(b) / 1_048_576) }
        print("hardening: \(name): \(String(format: "%.3f", seconds)) s, RSS +\(mb(residentBytes() - rss0)) MB, peak \(mb(peakBytes())) MB")
        return result
    }

    /// Checks that the lines of `layout` cover `prepared` in order without gaps and that every
    /// number is finite and non-negative where it must be.
    static func assertCovers(
        _ layout: TextLayout, _ prepared: PreparedText, file: StaticString = #filePath, line: UInt = #line
    ) {
        var unit = 0, cluster = 0
        for l in layout.lines {
            XCTAssertEqual(l.range.lowerBound, unit, "line starts after a gap", file: file, line: line)
            XCTAssertEqual(l.clusters.lowerBound, cluster, file: file, line: line)
            XCTAssertTrue(l.width.isFinite && l.width >= 0, "line width \(l.width)", file: file, line: line)
            XCTAssertTrue(l.baseline.isFinite, file: file, line: line)
            unit = l.range.upperBound
            cluster = l.clusters.upperBound
        }
        if !layout.isTruncated {
            XCTAssertEqual(unit, prepared.text.utf16Count, "lines do not reach the end", file: file, line: line)
            XCTAssertEqual(cluster, prepared.clusterCount, file: file, line: line)
        }
        XCTAssertTrue(layout.size.width.isFinite && layout.size.width >= 0, file: file, line: line)
        XCTAssertTrue(layout.size.height.isFinite && layout.size.height >= 0, file: file, line: line)
    }
}
