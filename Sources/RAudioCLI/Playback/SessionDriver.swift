// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// The part of a streaming session `raudio play` and `raudio speak` share: the front ends (stdin, the
/// terminal player, MPRIS, IPC, signals) around the library's `PlayerSession`.
struct SessionDriver {
    let writer: EventWriter
    let keepOpen: Bool
    /// The listening state, saved as the session goes and when it ends.
    var memory: ListeningMemory? = nil
    /// `--sleep`: the sleep timer set when playback starts.
    var sleep: SleepRequest? = nil
    /// The speed, volume, pitch and voice playback starts with (the sleep timer fades from the volume).
    var settings = PlayerSettings()
    /// The table of contents, for `chapter` events and commands.
    var chapters: ChapterMap? = nil
    /// The publication whose text entries' `#id`s are placed in the background when `chapters` has any.
    var publication: Publication? = nil
    /// Who else follows the session and sends commands: the terminal player, MPRIS, a progress bar.
    var frontEnds = SessionFrontEnds()
    /// Seconds of audio fetched ahead of a locator (a remote book), for `status`'s `buffer`.
    var bufferedSeconds: (@Sendable (Locator) -> Double?)? = nil
    /// Runs until the session ends and returns its exit status. `moveToStart` places the controller
    /// at `--from` and returns a message when that position is unusable (a usage error, exit 64).
    func run(
        _ controller: any PlaybackController, opened: PlayerEvent, moveToStart: () async -> String?
    ) async throws(ReaderGone) -> ExitStatus {
        var observers = writer.observers
        let stdin = CommandLineReader()
        if let terminal = frontEnds.terminal {
            // The display shows the events and their messages from now on.
            observers.removeAll { $0 is JSONLinesPrinter }
            observers.append(terminal)
            terminal.start()
        } else {
            stdin.start()
        }
        defer { frontEnds.terminal.map { $0.finish(summary: $0.summary) } }
        // The stdout writer last: the others have the event when it finds stdout closed.
        let printers = observers.filter { $0 is JSONLinesPrinter }
        observers.removeAll { $0 is JSONLinesPrinter }
        observers += frontEnds.observers + printers
        if let failure = frontEnds.ipcFailure {
            defer { for observer in observers { observer.finish() } }
            try EventWriter(observers: observers).report(.error, code: failure.code, message: failure.message, fatal: true)
            return .usage
        }
        var session = PlayerSession(observers: observers, keepOpen: keepOpen, memory: memory, sleep: sleep, settings: settings,
                                    chapters: chapters, publication: publication)
        session.commands = frontEnds.commandSources(stdin: stdin)
        session.bufferedSeconds = bufferedSeconds
        session.announcements = frontEnds.ipcAddresses.map { address in
            .listening(address: address.description, page: address == frontEnds.pageAddress ? frontEnds.pageURL : nil)
        }
        // A signal stops the session, said on stderr.
        let (stopRequests, stopContinuation) = AsyncStream.makeStream(of: Void.self)
        let signals = Task {
            for await number in SignalWatcher.shared.signals {
                StandardStreams.printError("raudio: \(String(cString: strsignal(number))): stopping")
                stopContinuation.yield()
            }
        }
        defer { signals.cancel() }
        session.stopRequests = stopRequests
        return try await session.run(controller, opened: opened, moveToStart: moveToStart)
    }
}
