// libFuzzer entry point: the cell layout of a fuzzed status in both styles at a fuzzed width and scale; see CellTarget.
import FuzzSupport
import _FuzzTargets

@_cdecl("FuzzCell_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.cell.run(libFuzzerData: data, size: size)
}
