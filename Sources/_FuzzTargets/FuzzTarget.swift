// The fuzz targets by name: the executables of fuzz/ (libFuzzer, `make fuzz`) and the folders of
// seeds in fuzz/Corpus/. The checks live in the main package so that every build compiles them
// against the modules they check, and its tests run every seed through them.
import Foundation
import StatusModel

public enum FuzzTarget: String, CaseIterable, Sendable {
    case classicPlist = "FuzzClassicPlist"
    case modelPlist = "FuzzModelPlist"
    case weiboJSON = "FuzzWeiboJSON"
    case jsonLines = "FuzzJSONLines"
    /// The loader with format detection; the first byte picks the file name (detection reads
    /// the extension for JSON Lines).
    case detect = "FuzzDetect"
    case text = "FuzzText"
    case cell = "FuzzCell"

    /// `run` on libFuzzer's input (`data` may be nil when `size` is 0): the body of every
    /// target's `LLVMFuzzerTestOneInput`, whose result (always 0) it returns.
    public func run(libFuzzerData data: UnsafePointer<UInt8>?, size: Int) -> CInt {
        run(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
        return 0
    }

    /// Checks the target's invariants on one input; a failed check stops the process with its
    /// message (`fuzzCheck`), which libFuzzer records as a crash.
    public func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .classicPlist: checkLoad(Data(bytes), fileName: "fuzz.plist", format: .classicPlist)
        case .modelPlist: checkLoad(Data(bytes), fileName: "fuzz.plist", format: .modelPlist)
        case .weiboJSON: checkLoad(Data(bytes), fileName: "fuzz.json", format: .weiboJSON)
        case .jsonLines: checkLoad(Data(bytes), fileName: "fuzz.jsonl", format: .jsonLines)
        case .detect:
            guard let first = bytes.first else { return }
            let names = ["feed.json", "feed.jsonl", "feed.plist", "feed.ndjson", "feed"]
            checkLoad(Data(bytes.dropFirst()), fileName: names[Int(first) % names.count], format: nil)
        case .text:
            var input = FuzzInput(bytes)
            TextTarget.run(&input)
        case .cell:
            var input = FuzzInput(bytes)
            CellTarget.run(&input)
        }
    }
}
