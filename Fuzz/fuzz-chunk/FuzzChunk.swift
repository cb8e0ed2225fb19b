// libFuzzer entry for the AquavateProtocol decoders (docs/swift-linux.md section 6).
//
// Build and run only through `Fuzz/run.sh fuzz-chunk SECONDS` (-sanitize=fuzzer,address -DFUZZING in
// its own scratch folder). SwiftPM links executables with `--defsym main=fuzz_chunk_main`, so the
// target needs a real `@main`; under FUZZING it hands control to libFuzzer through
// FuzzDriver's `runLibFuzzer`, and also exports `LLVMFuzzerTestOneInput` for the fuzzer runtime.
// (The file is not called main.swift: `@main` is not allowed next to top-level code.)

#if FUZZING
import AquavateProtocol
import FuzzDriver
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    ProtocolInvariants.check(bytes)
    return 0
}

@main
struct FuzzChunk {
    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--write-seeds" {
            exit(SeedCorpus.write(to: arguments[2]) ? 0 : 1)
        }
        runLibFuzzer { data, size in fuzzTestOneInput(data, size) }
    }
}
#else
@main
struct FuzzChunk {
    static func main() {
        print("fuzz-chunk is a libFuzzer target; build and run it with: Fuzz/run.sh fuzz-chunk SECONDS")
    }
}
#endif
