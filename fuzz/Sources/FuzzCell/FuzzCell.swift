// libFuzzer entry point: the cell layout of a fuzzed status in both styles at a fuzzed width and scale; see CellTarget.
import Foundation
import FuzzSupport

@_cdecl("FuzzCell_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var input = FuzzInput(data, size)
    CellTarget.run(&input)
    return 0
}
