// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Runs one subcommand and maps its outcome to an exit status, printing a JSON line for the
/// measurements that cannot be made so the script can say why.
enum BenchmarkRunner {
    static func run(_ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return 0
        } catch let error as BenchmarkError {
            switch error {
            case .usage(let message):
                log("raudio-bench: \(message)\n\(BenchmarkArguments.usage)")
                return 64
            case .notMeasurable(let reason):
                emit(["status": "not-measured", "reason": .string(reason)])
                return 2
            case .failed(let message):
                log("raudio-bench: \(message)")
                return 1
            }
        } catch {
            log("raudio-bench: \(error)")
            return 1
        }
    }

    /// Prints one measurement as a compact JSON line on stdout.
    static func emit(_ object: JSONObject) {
        print(JSONValue.object(object).serialized())
    }

    /// Writes a line to stderr.
    static func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
