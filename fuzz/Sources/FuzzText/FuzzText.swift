// libFuzzer entry point: the text engine (fuzzed text, runs, inline objects, width, line limit, wrap, line height); see TextTarget.
import FuzzSupport
import _FuzzTargets

@_cdecl("FuzzText_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.text.run(libFuzzerData: data, size: size)
}
