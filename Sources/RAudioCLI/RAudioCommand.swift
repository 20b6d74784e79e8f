// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioEngine
import RAudioPlayer
import ReadiumShared

/// The `raudio` command line: a root command with one subcommand per task.
public struct RAudioCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "raudio",
        abstract: "A headless audiobook and text-to-speech player for Readium publications.",
        // Also the DESCRIPTION of `man raudio` (generate-manual reads it from the binary).
        discussion: """
            raudio plays Readium audiobooks (.audiobook, manifest.json, folders and ZIPs of audio files, lone \
            M4B, MP3, Opus, Ogg and FLAC files) and the Media Overlays of EPUBs, reads EPUBs (and lone \
            HTML pages and text files) aloud with eSpeak NG or a neural Piper voice, and renders them as read-aloud books (raudio render: EPUB 3 with \
            Media Overlays, M4B). At a terminal, play and speak show a player; otherwise they write JSON-lines events on \
            stdout, each position a Readium Locator, and read commands on stdin. Each subcommand has its own \
            page: man raudio.play, man raudio.speak, ... Books protected by Readium LCP (.lcpa, LCP EPUBs, an .lcpl \
            beside its package) open with their passphrase: --passphrase-file FILE, one raudio remembers (only its \
            SHA-256 is kept), or a prompt on the terminal; raudio lcp info shows a licence (docs/LCP.md). raudio \
            catalog lists an OPDS catalog, and play, speak and info open an entry of one as CATALOG-URL#ENTRY \
            (docs/OPDS.md).

            Environment: RAUDIO_STATE_DIR is where positions, bookmarks and settings are kept (default \
            $XDG_STATE_HOME/raudio, else ~/.local/state/raudio); RAUDIO_NO_STATE=1 neither resumes nor saves; \
            RAUDIO_VOICES is a folder of voice presets (default share/raudio/voices beside the binary's bin \
            folder); PULSE_SERVER names the PulseAudio server; NO_COLOR turns the player's colours off.

            Exit status: 0 success; 64 usage (a bad option, an unknown voice); 65 bad data (an unreadable, \
            corrupt, unsupported or protected publication); 66 input not found; 69 a service unavailable (no \
            audio server, or a remote book's server); 70 internal error; 73 output cannot be created; 74 I/O \
            error while writing output.
            """,
        version: RAudioVersion.current,
        subcommands: [InfoCommand.self, PlayCommand.self, SpeakCommand.self, RenderCommand.self, AlignCommand.self, TextCommand.self, VoicesCommand.self,
                      HistoryCommand.self, BookmarksCommand.self]
            + catalogSubcommands + lcpSubcommands + [VersionCommand.self, ESpeakWorkerCommand.self]
    )

    public init() {}

    /// `raudio lcp`, absent from CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumLCP.
    private static var lcpSubcommands: [any ParsableCommand.Type] {
        #if canImport(ReadiumLCP)
        [LCPCommand.self]
        #else
        []
        #endif
    }

    /// `raudio catalog`, absent from CI's ThreadSanitizer build, which has no ReadiumOPDS.
    private static var catalogSubcommands: [any ParsableCommand.Type] {
        #if canImport(ReadiumOPDS)
        [CatalogCommand.self]
        #else
        []
        #endif
    }

    /// `raudio lcp acquire`, which removes its partial download on a signal.
    private static func isStreamingLCPCommand(_ command: any ParsableCommand) -> Bool {
        #if canImport(ReadiumLCP)
        command is LCPAcquireCommand
        #else
        false
        #endif
    }

    /// Blocks SIGINT, SIGTERM and SIGHUP until a command decides what they do (see `SignalWatcher`).
    /// Call on the main thread before the first `await`, so that every thread inherits the mask.
    public static func holdStopSignals() {
        SignalWatcher.holdStopSignals()
    }

    /// Makes SIGQUIT and the fatal signals end the process, the terminal put back first (see
    /// `FatalSignals`). Call first thing in `main`.
    public static func installFatalSignalHandlers() {
        FatalSignals.install()
    }

    /// Parses the process arguments, runs the chosen subcommand and exits with the code of the
    /// documented exit-code table (README, "Exit codes").
    public static func runMain(_ arguments: [String]? = nil) async -> Never {
        StandardStreams.ignoreSIGPIPE()
        do {
            var command = try parseAsRoot(arguments)
            // Streaming commands stop cleanly on a signal, even one that arrives while they open the
            // book (and `lcp acquire` removes its partial download); the others keep the default action.
            if command is PlayCommand || command is SpeakCommand || isStreamingLCPCommand(command) {
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
