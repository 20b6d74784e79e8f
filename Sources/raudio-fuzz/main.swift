// SPDX-License-Identifier: GPL-3.0-or-later
// raudio-fuzz: libFuzzer drivers for raudio's parsers. `make fuzz` builds it with
// `-sanitize=fuzzer,address -DFUZZING` into .build-fuzz; a plain `swift build` gets a stub that says so.
//
//     raudio-fuzz TARGET [libFuzzer options and corpus folders...]
#if FUZZING
import CFuzzerSupport
import Foundation

// The target is the first argument. libFuzzer re-runs its own argv in some modes (-minimize_crash,
// -merge, -fork), which no longer hold the target name: it travels to those runs in RAUDIO_FUZZ_TARGET.
var arguments = CommandLine.arguments
let target: FuzzTarget
if arguments.count >= 2, let named = FuzzTarget(rawValue: arguments[1]) {
    target = named
    arguments.remove(at: 1)
    setenv("RAUDIO_FUZZ_TARGET", named.rawValue, 1)
} else if let inherited = ProcessInfo.processInfo.environment["RAUDIO_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:)) {
    target = inherited
} else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
    FileHandle.standardError.write(Data("usage: raudio-fuzz TARGET [libFuzzer options] [corpus...]; TARGET is one of: \(names)\n".utf8))
    exit(2)
}
FuzzTarget.selected = target

// libFuzzer parses its own argv: the program name, then everything after the target name.
var driverArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
driverArguments.append(nil)
var argumentCount = Int32(driverArguments.count - 1)
let status = driverArguments.withUnsafeMutableBufferPointer { buffer in
    var argv = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argumentCount, &argv) { data, size in
        fuzzTestOneInput(data, size)
    }
}
exit(status)
#else
import Foundation

FileHandle.standardError.write(Data("raudio-fuzz does nothing in this build: run `make fuzz` (it builds with -sanitize=fuzzer -DFUZZING).\n".utf8))
exit(2)
#endif
