import ArgumentParser
import Foundation
import ReadiumShared

/// The `raudio` command line: a root command with one subcommand per task.
public struct RAudioCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "raudio",
        abstract: "A headless audiobook and text-to-speech player for Readium publications.",
        version: "0.1.0",
        subcommands: [VersionCommand.self, TextCommand.self]
    )

    public init() {}

    /// Parses the process arguments, runs the chosen subcommand and exits with the code of the
    /// documented exit-code table (README, "Exit codes").
    public static func runMain(_ arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("raudio: \(failure.message)\n".utf8))
            Foundation.exit(failure.exitCode)
        } catch let error as ContentError {
            FileHandle.standardError.write(Data("raudio: \(error)\n".utf8))
            Foundation.exit(65)
        } catch {
            exit(withError: error)
        }
    }
}
