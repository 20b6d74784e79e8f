import ArgumentParser
import Foundation
import RAudioEngine
import ReadiumShared

/// The `raudio` command line: a root command with one subcommand per task.
public struct RAudioCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "raudio",
        abstract: "A headless audiobook and text-to-speech player for Readium publications.",
        version: RAudioVersion.current,
        subcommands: [InfoCommand.self, PlayCommand.self, SpeakCommand.self, TextCommand.self, VoicesCommand.self, HistoryCommand.self, BookmarksCommand.self, VersionCommand.self]
    )

    public init() {}

    /// Blocks SIGINT, SIGTERM and SIGHUP until a command decides what they do (see `SignalWatcher`).
    /// Call on the main thread before the first `await`, so that every thread inherits the mask.
    public static func holdStopSignals() {
        SignalWatcher.holdStopSignals()
    }

    /// Parses the process arguments, runs the chosen subcommand and exits with the code of the
    /// documented exit-code table (README, "Exit codes").
    public static func runMain(_ arguments: [String]? = nil) async -> Never {
        StandardStreams.ignoreSIGPIPE()
        do {
            var command = try parseAsRoot(arguments)
            // Streaming commands stop cleanly on a signal, even one that arrives while they open the
            // book; the others keep the default action.
            if command is PlayCommand || command is SpeakCommand {
                _ = SignalWatcher.shared
            } else {
                SignalWatcher.releaseStopSignals()
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch let failure as CommandFailure {
            StandardStreams.printError("raudio: error: \(failure.message)")
            Foundation.exit(failure.status.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
