// raudio-fuzz: libFuzzer drivers for raudio's parsers. `make fuzz` builds it with
// `-sanitize=fuzzer,address -DFUZZING` into .build-fuzz; a plain `swift build` gets a stub that says so.
//
//     raudio-fuzz TARGET [libFuzzer options and corpus folders...]
#if FUZZING
import CFuzzerSupport
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
    FileHandle.standardError.write(Data("usage: raudio-fuzz TARGET [libFuzzer options] [corpus...]; TARGET is one of: \(names)\n".utf8))
    exit(2)
}
FuzzTarget.selected = target

// libFuzzer parses its own argv: the program name, then everything after the target name.
var driverArguments: [UnsafeMutablePointer<CChar>?] = ([arguments[0]] + arguments.dropFirst(2)).map { strdup($0) }
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
