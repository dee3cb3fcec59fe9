// The libFuzzer driver of the targets (their checks are the main package's `_FuzzTargets`).
import CFuzzDriver

/// Runs libFuzzer on `callback` with the process arguments; the body of each target's
/// `<Module>_main` (see CFuzzDriver.h for why there is no plain `main`).
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector, callback)
}
