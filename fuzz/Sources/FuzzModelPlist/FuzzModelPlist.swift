// libFuzzer entry point: the loader with the full-model property-list format forced (see checkLoad for the invariants).
import Foundation
import FuzzSupport
import StatusModel

@_cdecl("FuzzModelPlist_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzz)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    checkLoad(Data(bytes: data, count: size), fileName: "fuzz.plist", format: .modelPlist)
    return 0
}
