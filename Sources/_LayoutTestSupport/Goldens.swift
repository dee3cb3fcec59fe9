import Foundation
import XCTest

/// Compares `actual` byte for byte with `Tests/<Target>/Goldens/<name>`.
///
/// - `RECORD_GOLDENS=1` rewrites the golden and fails, so a recording run is never mistaken for a pass.
/// - A missing golden is written and the test fails.
/// - When `CI` is set, goldens are never written: a missing or different golden only fails.
public func assertGolden(
    _ actual: String,
    named name: String,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let testFile = URL(fileURLWithPath: "\(file)")
    let dir = testFile.deletingLastPathComponent().appendingPathComponent("Goldens")
    let url = dir.appendingPathComponent(name)
    let env = ProcessInfo.processInfo.environment
    let onCI = env["CI"] != nil
    let record = env["RECORD_GOLDENS"] == "1" && !onCI

    let expected = try? String(contentsOf: url, encoding: .utf8)
    if record || (expected == nil && !onCI) {
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        do {
            try actual.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            XCTFail("could not write golden \(url.path): \(error)", file: file, line: line)
            return
        }
        XCTFail("recorded golden \(name); run again without RECORD_GOLDENS to compare", file: file, line: line)
        return
    }
    guard let expected else {
        XCTFail("golden \(name) is missing (CI never records goldens)", file: file, line: line)
        return
    }
    if expected != actual {
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        var first = 0
        while first < min(a.count, e.count) && a[first] == e[first] { first += 1 }
        let got = first < a.count ? String(a[first]) : "<end>"
        let want = first < e.count ? String(e[first]) : "<end>"
        XCTFail(
            "\(name) differs from its golden at line \(first + 1):\n  expected: \(want)\n  actual:   \(got)\n"
                + "(RECORD_GOLDENS=1 rewrites it)",
            file: file, line: line)
    }
}
