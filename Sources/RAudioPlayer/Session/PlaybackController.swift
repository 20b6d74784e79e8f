// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// What a streaming session drives: a `Navigator` that takes the CLI's commands, so that `raudio play`
/// and `raudio speak` share `SessionDriver` and `SessionLoop`.
///
/// The navigators conform themselves (`AudioNavigator+PlaybackController` and its siblings): everything
/// here but `perform` comes from the `Navigator` protocol. What stays in RAudioPlayer is `perform`: a
/// `PlayerCommand` is raudio's command language (stdin, keys, MPRIS, IPC), and a few of its commands exist
/// for one navigator only (`voice` and `pitch` for speech, `escape` for a narration) or are refused with
/// advice naming raudio's other commands. Session tests put a double in a navigator's place.
public protocol PlaybackController: Sendable {
    /// The navigator's events (`Navigator.navigatorEvents`). Finishes after `close()`.
    var navigatorEvents: AsyncStream<SessionEvent> { get }
    /// Starts (or continues) playing.
    func play() async
    /// Stops and releases the output; a later `play` starts over.
    func stop() async
    /// The state and locator for a `status` command or a final `state` event.
    func status() async -> (state: PlaybackState, locator: Locator?)
    /// Performs a command other than `stop`, `quit` and `status`; throws when it does not apply here
    /// (answered with a non-fatal `error` event instead of an `ack`).
    func perform(_ command: PlayerCommand) async throws(CommandRefusal)
    /// Releases the render thread and the output (a WAV file is complete when this returns).
    func close() async
    /// The setting `command` left in effect once performed, as the `settings` event names it: the command
    /// itself, but for a `voice` given as a language (`voice fr`), which names the voice chosen for it.
    func setting(after command: PlayerCommand) async -> PlayerCommand
}

extension PlaybackController {
    public func setting(after command: PlayerCommand) async -> PlayerCommand { command }
}

/// What a navigator reports, as the session prints it (docs/events.md): the navigators' common events.
public typealias SessionEvent = NavigatorEvent

/// A command that was parsed but cannot be done: a stable code and a message saying what to do instead.
public struct CommandRefusal: Error, Sendable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        (self.code, self.message) = (code, message)
    }

    public static func unsupported(_ command: PlayerCommand, _ advice: String) -> CommandRefusal {
        CommandRefusal(code: "command-unsupported", message: "'\(command.name)' does not apply here: \(advice)")
    }
}

extension Navigator {
    public func status() async -> (state: PlaybackState, locator: Locator?) {
        (playbackState, currentLocator)
    }

    /// Performs a command every navigator takes through the `Navigator` protocol. False for `seek`
    /// without a timeline, and for `escape`, `voice` and `pitch`, which the conformance performs or refuses.
    public func performNavigatorCommand(_ command: PlayerCommand) async throws(CommandRefusal) -> Bool {
        switch command {
        case .play: play()
        case .pause: pause()
        case .toggle: playPause()
        case .go(let data): try await CommandRefusal.go(to: data) { try await self.go(to: $0) }
        case .speed(let value): setSpeed(value)
        case .volume(let value): setVolume(value)
        case .next: await goForward()
        case .previous: await goBackward()
        case .forward: await skipForward()
        case .back: await skipBackward()
        case .seek(.absolute(let seconds)): return await seek(to: seconds)
        case .seek(.relative(let seconds)): return await seek(by: seconds)
        case .escape, .voice, .pitch: return false
        case .stop, .quit, .status, .bookmark, .bookmarks, .goToBookmark, .sleep, .chapter, .toc:
            break // SessionLoop does these.
        }
        return true
    }
}
