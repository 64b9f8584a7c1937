// Two ways in. Built by `scripts/fuzz.sh` (with `-D FUZZING` and libFuzzer), libFuzzer's own `main` calls
// `LLVMFuzzerTestOneInput` with each input it makes, for the target named by LITEVISION_FUZZ_TARGET. Built
// normally, `litevision-fuzz TARGET FILE…` runs a target once on each file: a crash reproducer, and the quick
// corpus replay that CI runs.

import LiteVisionSystem

/// Writes a line to standard error.
func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

#if FUZZING
/// The target of this fuzzing run, named by LITEVISION_FUZZ_TARGET.
let selectedTarget: FuzzTarget = {
    let name = getenv("LITEVISION_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        printError("litevision-fuzz: set LITEVISION_FUZZ_TARGET to one of \(names)")
        exit(2)
    }
    return target
}()

/// libFuzzer's entry point: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget.run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
#else
/// `litevision-fuzz TARGET FILE…`: runs the target once on each file.
@main
struct ReplayCorpus {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            printError("usage: litevision-fuzz \(names) FILE...")
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            guard let bytes = try? FileContents.read(atPath: path) else {
                printError("litevision-fuzz: cannot read \(path)")
                exit(1)
            }
            bytes.withUnsafeBytes { target.run($0) }
            count += 1
        }
        print("\(name): \(count) inputs, no crash")
    }
}
#endif
