// The one hand-over to libFuzzer that every fuzz target makes (docs/swift-linux.md P9). SwiftPM
// links an executable with `--defsym main=<module>_main`, so a fuzz target has an `@main` of its
// own, which passes the process's arguments and its one-input check to libFuzzer's driver here.
// Only a build with -DFUZZING (Fuzz/run.sh) has the driver to link against; a plain build gets
// an empty module.

#if FUZZING
#if canImport(Glibc)
import Glibc
#endif

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with this process's arguments, calling `check` once per input, and exits with
/// its status.
public func runLibFuzzer(_ check: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, check))
}
#endif
