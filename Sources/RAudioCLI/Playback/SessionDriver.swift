// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// The part of a streaming session `raudio play` and `raudio speak` share: prints `opened`, moves to
/// the start position, plays, and runs the `SessionLoop` over events, stdin and signals.
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
    /// How long a quit or a signal waits for the navigator to confirm the stop before leaving anyway.
    static let stopGracePeriod: Duration = .seconds(3)

    /// Runs until the session ends and returns its exit status. `moveToStart` places the controller
    /// at `--from` and returns a message when that position is unusable (a usage error, exit 64).
    func run(
        _ controller: any PlaybackController, opened: PlayerEvent, moveToStart: () async -> String?
    ) async throws(ReaderGone) -> ExitStatus {
        let signals = SignalWatcher.shared
        var writer = writer
        let stdin = CommandLineReader()
        if let terminal = frontEnds.terminal {
            // The display shows the events and their messages from now on.
            writer.observers.removeAll { $0 is JSONLinesPrinter }
            writer.observers.append(terminal)
            terminal.start()
        } else {
            stdin.start()
        }
        // The stdout writer last: the others have the event when it finds stdout closed.
        let printers = writer.observers.filter { $0 is JSONLinesPrinter }
        writer.observers.removeAll { $0 is JSONLinesPrinter }
        writer.observers += frontEnds.observers + printers
        defer {
            frontEnds.terminal.map { $0.finish(summary: $0.summary) }
            for observer in frontEnds.observers { observer.finish() }
        }
        if let failure = frontEnds.ipcFailure {
            try writer.report(.error, code: failure.code, message: failure.message, fatal: true)
            return .usage
        }
        try writer.write(opened)
        try writer.write(.settings(settings))
        for address in frontEnds.ipcAddresses {
            let page = address == frontEnds.pageAddress ? frontEnds.pageURL : nil
            try writer.write(.listening(address: address.description, page: page))
        }
        if let failure = await moveToStart() {
            try writer.report(.error, code: "start-position-invalid", message: failure, fatal: true)
            return .usage
        }
        let (timers, timerContinuation) = AsyncStream.makeStream(of: SessionInput.self)
        let inputs = SessionInput.merged(events: controller.navigatorEvents, commands: frontEnds.commandSources(stdin: stdin), timers: timers)
        // A signal stops the session, said on stderr.
        Task {
            for await number in signals.signals {
                StandardStreams.printError("raudio: \(String(cString: strsignal(number))): stopping")
                timerContinuation.yield(.stopRequested)
            }
        }
        let sleepTimer = SleepTimer(tick: { timerContinuation.yield(.sleepTick) })
        var loop = SessionLoop(controller: controller, writer: writer, keepOpen: keepOpen, memory: memory, sleepTimer: sleepTimer, settings: settings, chapters: chapters)
        loop.bufferedSeconds = bufferedSeconds
        defer {
            memory?.sessionEnded(finished: loop.reachedTheEnd)
            sleepTimer.cancel()
        }
        if let chapters, chapters.hasUnplacedFragments, let publication {
            Task {
                let placed = await BlockingWork.run(named: "raudio.chapters") { chapters.placingFragments(of: publication) }
                timerContinuation.yield(.chaptersPlaced(placed))
            }
        }
        await controller.play()
        if let sleep { try await loop.setSleep(sleep, acknowledging: false) }
        var isStopTimerRunning = false
        for await input in inputs {
            let status = try await loop.handle(input)
            if let status { return status }
            if loop.isQuitting, !isStopTimerRunning {
                // A quit or a signal waits for the navigator's final state, but never forever.
                isStopTimerRunning = true
                Task {
                    try? await Task.sleep(for: Self.stopGracePeriod)
                    timerContinuation.yield(.stopTimeout)
                }
            }
        }
        return loop.finalStatus
    }
}
