// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// What a streaming session drives: the audiobook navigator or the speech synthesizer, behind one
/// interface so that `raudio play` and `raudio speak` share `SessionDriver` and `SessionLoop`.
protocol PlaybackController: Sendable {
    /// The navigator's events, in the session's vocabulary. Finishes after `close()`.
    var events: AsyncStream<SessionEvent> { get }
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
}

/// A command that was parsed but cannot be done: a stable code and a message saying what to do instead.
struct CommandRefusal: Error, Sendable {
    var code: String
    var message: String

    static func unsupported(_ command: PlayerCommand, _ advice: String) -> CommandRefusal {
        CommandRefusal(code: "command-unsupported", message: "'\(command.name)' does not apply here: \(advice)")
    }
}

/// What a navigator reports, as the session prints it (docs/events.md).
enum SessionEvent: Sendable {
    case stateChanged(PlaybackState, Locator?)
    case position(Locator)
    case track(index: Int, link: Link, locator: Locator)
    case utterance(text: String, language: String, voice: String, locator: Locator)
    case range(Locator)
    /// Media overlays: a narrated item starts (an `utterance` event with `"narration": true`).
    case narration(text: String, language: String?, locator: Locator)
    /// `event` with the position in the narration's audio, printed as its `audioLocator`.
    indirect case withAudioLocator(SessionEvent, audioLocator: Locator?)
    case warning(NavigatorIssue)
    case error(NavigatorIssue)
}

extension AsyncStream where Element: Sendable {
    /// This stream's elements transformed one by one, in order.
    func mapped<T: Sendable>(_ transform: @escaping @Sendable (Element) -> T) -> AsyncStream<T> {
        let (stream, continuation) = AsyncStream<T>.makeStream()
        let task = Task {
            for await element in self { continuation.yield(transform(element)) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
