// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// What every navigator of this module does: play a publication, move in it, and say what happens.
///
/// `AudioNavigator`, `PublicationSpeechSynthesizer` and `MediaOverlayNavigator` conform, so one
/// program can drive any of them (Readium's `Navigator` and `MediaNavigator` together). Each keeps its
/// own `events` with its own vocabulary (`Event`: a track, an utterance and its voice, a narrated
/// `par`); ``navigatorEvents`` gives them in the vocabulary common to all, ``NavigatorEvent``, for a
/// session loop written once. Commands are actor-isolated: call them with `await` from anywhere.
///
/// Moving by time needs a timeline: an audiobook has one, a narration has one when it has recorded
/// clips, text read aloud has none. Where there is none, ``seek(to:)`` and ``seek(by:)`` do nothing and
/// return false; ``goForward()``, ``goBackward()`` and ``go(to:)`` always apply.
public protocol Navigator<Event>: Actor {
    /// What this navigator reports, in its own vocabulary.
    associatedtype Event: Sendable

    /// What happens, in order; finishes when `close()` returns. Iterate it once, or
    /// ``navigatorEvents`` once, not both: an `AsyncStream` gives each element to one iterator.
    nonisolated var events: AsyncStream<Event> { get }

    /// `event` in the vocabulary every navigator shares.
    nonisolated func navigatorEvent(for event: Event) -> NavigatorEvent

    /// The state of the shared ``PlaybackStateMachine``.
    var playbackState: PlaybackState { get }

    /// Where playback is (or will start): the position heard, the utterance spoken, the text narrated.
    /// Nil before a speech synthesizer has planned its first utterance.
    var currentLocator: Locator? { get }

    /// Starts, or continues from where it paused; after the end or a stop, starts over.
    func play()

    /// Pauses where it is heard; `play()` continues the same samples.
    func pause()

    /// Pauses when playing, else plays.
    func playPause()

    /// Stops and releases the output; the position is kept.
    func stop()

    /// Moves to `seconds` of the publication's timeline (an audiobook's time, a narration's recorded
    /// clips back to back), clamped. False, and nothing done, when there is no timeline (text read aloud,
    /// a narration that is all text-to-speech).
    @discardableResult
    func seek(to seconds: Double) async -> Bool

    /// Moves by `seconds` (negative: back) from the position heard, clamped. False, and nothing done,
    /// when there is no timeline.
    @discardableResult
    func seek(by seconds: Double) async -> Bool

    /// Moves to `locator`, keeping playing if playing. Throws when the locator is not in the publication
    /// (`AudioNavigatorError` from the audio navigators, `ContentError` from the speech synthesizer).
    func go(to locator: Locator) async throws

    /// The next unit of the reading order: a track, an utterance, a narrated `par`.
    func goForward() async

    /// The previous unit (the start of the first one at the first).
    func goBackward() async

    /// A listener's skip forward: the configured interval where the navigator moves by time (an
    /// audiobook), the next unit where it moves by text (an utterance, a `par`).
    func skipForward() async

    /// A listener's skip back: the configured interval (an audiobook), else the previous unit.
    func skipBackward() async

    /// Changes the speed (a multiplier, clamped to what the navigator supports) while playing.
    func setSpeed(_ speed: Double)

    /// Changes the volume (a gain, clamped) at once.
    func setVolume(_ volume: Double)

    /// Stops the render thread and releases the output (a WAV file is complete when this returns).
    /// Idempotent; nothing is emitted after it returns.
    func close() async
}

extension Navigator {
    /// ``events`` in the common vocabulary (``navigatorEvent(for:)``), in order; finishes with them.
    /// Each access makes a new stream that consumes ``events``: take it once.
    public nonisolated var navigatorEvents: AsyncStream<NavigatorEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: NavigatorEvent.self)
        let events = self.events
        let task = Task { [self] in
            for await event in events { continuation.yield(navigatorEvent(for: event)) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Whether samples are being heard (or about to be, after a load).
    public var isPlaying: Bool { playbackState == .playing }

    /// Moves to `locator` and plays from there.
    public func play(from locator: Locator) async throws {
        try await go(to: locator)
        play()
    }
}
