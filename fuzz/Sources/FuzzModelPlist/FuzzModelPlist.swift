// libFuzzer entry point: the loader with the full-model property-list format forced (see checkLoad for the invariants).
import FuzzSupport
import _FuzzTargets

@_cdecl("FuzzModelPlist_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.modelPlist.run(libFuzzerData: data, size: size)
}
