// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import Foundation
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
@testable import RAudioPlayer

/// A navigator behind the session, as a test double: it records what the session asks of it and
/// answers `status` with what the test set. The test sends the navigator's events itself, through
/// `SessionLoop.handle(.navigator(...))`, so the session runs in order and without threads or audio.
final class ControllerDouble: PlaybackController {
    let navigatorEvents = AsyncStream<SessionEvent> { $0.finish() }
    private let performed = Locked<[PlayerCommand]>([])
    let current = Locked<(state: PlaybackState, locator: Locator?)>((.idle, nil))

    var commands: [PlayerCommand] { performed.withLock { $0 } }

    func play() async { performed.withLock { $0.append(.play) } }
    func stop() async { performed.withLock { $0.append(.stop) } }
    func status() async -> (state: PlaybackState, locator: Locator?) { current.withLock { $0 } }
    func perform(_ command: PlayerCommand) async throws(CommandRefusal) { performed.withLock { $0.append(command) } }
    func close() async {}

    /// The voice a `voice` command chooses, as the speech synthesizer resolves a language to a voice.
    let chosenVoice = Locked<String?>(nil)
    func setting(after command: PlayerCommand) async -> PlayerCommand {
        guard case .voice = command, let chosen = chosenVoice.withLock({ $0 }) else { return command }
        return .voice(chosen)
    }
}

/// Keeps every event the session writes, in order (as the terminal and MPRIS receive them).
final class EventRecorder: EventObserver {
    private let received = Locked<[PlayerEvent]>([])

    func receive(_ event: PlayerEvent) { received.withLock { $0.append(event) } }

    var all: [PlayerEvent] { received.withLock { $0 } }

    /// The events of `type`, as the JSON objects a client gets.
    func events(_ type: String) -> [JSONObject] {
        all.filter { $0.kind.rawValue == type }.compactMap(\.json.objectValue)
    }

    var types: [String] { all.map(\.kind.rawValue) }
}

/// A session loop over a `ControllerDouble`, its events recorded, its sleep timer on a manual clock.
struct SessionHarness {
    let controller = ControllerDouble()
    let recorder = EventRecorder()
    let clock = ManualClock()
    var loop: SessionLoop

    init(chapters: ChapterMap? = nil) {
        let writer = EventWriter(observers: [recorder])
        loop = SessionLoop(controller: controller, writer: writer, keepOpen: false, sleepTimer: SleepTimer(clock: clock, tick: nil),
                           chapters: chapters)
    }

    /// Handles a navigator event.
    mutating func navigator(_ event: SessionEvent) async throws {
        _ = try await loop.handle(.navigator(event))
    }

    /// Handles a command line as stdin gives it.
    mutating func command(_ line: String) async throws {
        guard let command = IncomingCommand(parsing: line) else { return }
        _ = try await loop.handle(.command(command))
    }

    /// Moves the manual clock by `seconds`, then ticks the sleep timer once.
    mutating func pass(_ seconds: Double) async throws {
        clock.advance(by: seconds)
        _ = try await loop.handle(.sleepTick)
    }
}

