import ArgumentParser
import Foundation

/// A command's failure: a message for stderr and the exit code of the documented table
/// (64 usage, 65 bad data, 66 not found, as in sysexits.h).
struct CommandFailure: Error, CustomStringConvertible {
    var exitCode: Int32
    var message: String

    static func usage(_ message: String) -> CommandFailure { CommandFailure(exitCode: 64, message: message) }
    static func badData(_ message: String) -> CommandFailure { CommandFailure(exitCode: 65, message: message) }
    static func notFound(_ message: String) -> CommandFailure { CommandFailure(exitCode: 66, message: message) }

    var description: String { message }
}
