// libFuzzer entry point: the loader with format detection; the first byte picks the file name (detection reads the extension for JSON Lines).
import Foundation
import FuzzSupport
import StatusModel

@_cdecl("FuzzDetect_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let names = ["feed.json", "feed.jsonl", "feed.plist", "feed.ndjson", "feed"]
    guard size > 0 else { return 0 }
    checkLoad(Data(bytes: data + 1, count: size - 1), fileName: names[Int(data[0]) % names.count], format: nil)
    return 0
}
