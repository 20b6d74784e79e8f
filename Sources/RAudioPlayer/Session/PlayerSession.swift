// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// A listening session: a navigator played from the listener's place, its events handed to the
/// observers, the commands of every front end obeyed, the place remembered, chapters followed, the
/// sleep timer kept, until the book ends (unless `keepOpen`), a `quit`, a stop request or a fatal error.
///
/// What `raudio play` and `raudio speak` run, and what an app embeds:
///
/// ```swift
/// var session = PlayerSession(observers: [events], memory: memory, chapters: ChapterMap(publication: publication))
/// session.commands = [remote.commands]
/// let status = try await session.run(navigator, opened: .opened(publication, duration: nil)) { nil }
/// ```
public struct PlayerSession {
    /// Who follows the session: the app's view, the stdout writer, the terminal, MPRIS, the IPC server.
    /// Each is told `finish()` when `run` returns.
    public var observers: [any EventObserver]
    /// Whether the session stays open at the end of the book (`--keep-open`): then only `quit` ends it.
    public var keepOpen: Bool
    /// The listening state, saved as the session goes and when it ends.
    public var memory: ListeningMemory?
    /// The sleep timer set when playback starts (`--sleep`).
    public var sleep: SleepRequest?
    /// The speed, volume, pitch and voice playback starts with (the sleep timer fades from the volume).
    public var settings: PlayerSettings
    /// The table of contents, for `chapter` events and commands and `sleep chapter`.
    public var chapters: ChapterMap?
    /// The publication whose text entries' `#id`s are placed in the background when `chapters` has any.
    public var publication: Publication?
    /// The commands of the front ends (see `CommandChannel`).
    public var commands: [AsyncStream<IncomingCommand>] = []
    /// Each element asks the session to stop and end (a signal): as `quit`, without an `ack`.
    public var stopRequests: AsyncStream<Void>?
    /// Events written after `opened` and `settings`, before playback starts (`listening`).
    public var announcements: [PlayerEvent] = []
    /// Seconds of audio fetched ahead of a locator (a remote book), for `status`'s `buffer`.
    public var bufferedSeconds: (@Sendable (Locator) -> Double?)?
    /// The clock of the sleep timer.
    public var clock: any PlaybackClock = SystemPlaybackClock()
    /// How long a quit or a stop request waits for the navigator to confirm the stop before leaving anyway.
    public static let stopGracePeriod: Duration = .seconds(3)

    public init(
        observers: [any EventObserver] = [], keepOpen: Bool = false, memory: ListeningMemory? = nil, sleep: SleepRequest? = nil,
        settings: PlayerSettings = PlayerSettings(), chapters: ChapterMap? = nil, publication: Publication? = nil
    ) {
        self.observers = observers
        self.keepOpen = keepOpen
        self.memory = memory
        self.sleep = sleep
        self.settings = settings
        self.chapters = chapters
        self.publication = publication
    }

    /// Runs until the session ends and returns its exit status (`ExitStatus`: 0 when the book was heard
    /// to its end or the listener quit; the status of a fatal issue otherwise). `moveToStart` places the
    /// navigator (a resume point, a `--from`) before playback starts and returns a message when that
    /// position is unusable (a fatal `start-position-invalid` error, exit 64). Throws `ReaderGone` when an
    /// observer's reader went away for good.
    public func run(
        _ controller: any PlaybackController, opened: PlayerEvent, moveToStart: () async -> String?
    ) async throws(ReaderGone) -> ExitStatus {
        let writer = EventWriter(observers: observers)
        defer { for observer in observers { observer.finish() } }
        try writer.write(opened)
        try writer.write(.settings(settings))
        for event in announcements { try writer.write(event) }
        if let failure = await moveToStart() {
            try writer.report(.error, code: "start-position-invalid", message: failure, fatal: true)
            return .usage
        }
        let (timers, timerContinuation) = AsyncStream.makeStream(of: SessionInput.self)
        let inputs = SessionInput.merged(events: controller.navigatorEvents, commands: commands, timers: timers)
        let stopping = stopRequests.map { requests in
            Task {
                for await _ in requests { timerContinuation.yield(.stopRequested) }
            }
        }
        defer { stopping?.cancel() }
        let sleepTimer = SleepTimer(clock: clock, tick: { timerContinuation.yield(.sleepTick) })
        var loop = SessionLoop(controller: controller, writer: writer, keepOpen: keepOpen, memory: memory, sleepTimer: sleepTimer,
                               settings: settings, chapters: chapters)
        loop.bufferedSeconds = bufferedSeconds
        loop.publication = publication
        defer {
            memory?.sessionEnded(finished: loop.reachedTheEnd)
            sleepTimer.cancel()
            timerContinuation.finish()
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
            if let status = try await loop.handle(input) { return status }
            if loop.isQuitting, !isStopTimerRunning {
                // A quit or a stop request waits for the navigator's final state, but never forever.
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

/// Commands an app sends to a running `PlayerSession` (add `commands` to `PlayerSession.commands`).
///
/// ```swift
/// let remote = CommandChannel()
/// remote.send(.chapter(.next))
/// remote.send(.sleep(.after(seconds: 1800)))
/// ```
public final class CommandChannel: Sendable {
    public let commands: AsyncStream<IncomingCommand>
    private let continuation: AsyncStream<IncomingCommand>.Continuation

    public init() {
        (commands, continuation) = AsyncStream.makeStream(of: IncomingCommand.self)
    }

    /// Queues `command`; its `ack` (or `error`, with `id`) comes as an event.
    public func send(_ command: PlayerCommand, id: CommandID? = nil) {
        continuation.yield(IncomingCommand(PlayerCommandRequest(command: command, id: id)))
    }

    /// No more commands will come.
    public func finish() {
        continuation.finish()
    }
}

/// The events of a session as an `AsyncStream`, for an app's own view (add it to `PlayerSession.observers`).
///
/// The stream ends when the session does. It buffers every event: read it while the session runs.
public final class EventStream: EventObserver {
    public let events: AsyncStream<PlayerEvent>
    private let continuation: AsyncStream<PlayerEvent>.Continuation

    public init() {
        (events, continuation) = AsyncStream.makeStream(of: PlayerEvent.self)
    }

    public func receive(_ event: PlayerEvent) {
        continuation.yield(event)
    }

    public func finish() {
        continuation.finish()
    }
}
