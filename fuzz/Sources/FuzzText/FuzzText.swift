// libFuzzer entry point: the text engine (fuzzed text, runs, inline objects, width, line limit, wrap, line height); see TextTarget.
import Foundation
import FuzzSupport

@_cdecl("FuzzText_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var input = FuzzInput(data, size)
    TextTarget.run(&input)
    return 0
}
