// libFuzzer entry point: the loader with JSON Lines forced (see checkLoad for the invariants).
import FuzzSupport
import _FuzzTargets

@_cdecl("FuzzJSONLines_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.jsonLines.run(libFuzzerData: data, size: size)
}
