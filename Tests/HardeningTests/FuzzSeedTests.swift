// Every seed of fuzz/Corpus through its fuzz target's checks: the invariants libFuzzer explores
// from these inputs (`make fuzz`) hold on the inputs themselves, in every test run.
import Foundation
import XCTest
import _FuzzTargets
import _LayoutTestSupport

final class FuzzSeedTests: XCTestCase {
    func testEverySeedPassesItsTargetsChecks() throws {
        let corpus = TestPaths.packageRoot.appendingPathComponent("fuzz/Corpus")
        var seeds = 0
        for target in FuzzTarget.allCases {
            let folder = corpus.appendingPathComponent(target.rawValue)
            let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            XCTAssertFalse(files.isEmpty, "no seeds for \(target.rawValue)")
            for file in files {
                // A failed check stops the process with the target's message on stderr.
                try [UInt8](Data(contentsOf: file)).withUnsafeBufferPointer { target.run($0) }
                seeds += 1
            }
        }
        XCTAssertGreaterThanOrEqual(seeds, FuzzTarget.allCases.count)
    }
}
