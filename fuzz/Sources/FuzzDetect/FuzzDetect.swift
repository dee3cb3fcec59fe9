// libFuzzer entry point: the loader with format detection; the first byte picks the file name (detection reads the extension for JSON Lines).
import FuzzSupport
import _FuzzTargets

@_cdecl("FuzzDetect_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.detect.run(libFuzzerData: data, size: size)
}
