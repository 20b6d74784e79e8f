// SPDX-License-Identifier: GPL-3.0-or-later
/// The play/pause/seek/stop/end logic shared by `AudioNavigator` and `PublicationSpeechSynthesizer`.
///
/// A plain value: feed it events with `handle(_:)` and perform the actions it returns, in order. It
/// knows nothing of audio, threads or clocks, so it is used from one isolation domain at a time (the
/// navigator's actor) and tested without any of them. Invalid events for a state are ignored and
/// return no actions; the machine never traps.
///
/// `Target` is the caller's opaque position: what `seek` carries and what a `load` action asks for
/// (a track index and time for audiobooks, an utterance for TTS). `start` is the target that `play`
/// loads from `idle`, `stopped`, `ended` and `failed`.
///
/// Decisions, as a mature player makes them:
/// - `stop` releases everything and forgets the position; `play` afterwards starts from `start`.
///   `play` after `ended` also starts over. To resume somewhere else, `seek` first: a seek from
///   these states loads the target and waits `paused`.
/// - A seek keeps the intent: playing plays again once loaded, paused stays paused.
/// - The end of the last resource heard while playing drains the output and `ended`; an end that is
///   reported while paused is remembered and reached when playback resumes.
/// - Every `error` event yields a report action; nothing is swallowed.
public struct PlaybackStateMachine<Target: Sendable>: Sendable {
    /// Whether the output is open, and whether it is running (as the machine asked it to be).
    public enum OutputPhase: Sendable, Hashable {
        case closed
        case running
        case paused
    }

    // The setters are internal only so that the transitions can live in their own file; nothing else
    // in the module may set them.

    /// The state last emitted (or `idle` at first).
    public internal(set) var state: PlaybackState = .idle
    /// Whether the user wants playback to run once the resource and output are ready.
    public internal(set) var intent: PlaybackIntent = .pause
    /// The load whose `loaded` the machine waits for, if any.
    public internal(set) var pendingLoad: PlaybackLoadID?
    /// Whether a resource is ready at the current position (after `loaded`, until released or a seek).
    public internal(set) var isResourceLoaded = false
    /// The output as the machine's actions left it.
    public internal(set) var outputPhase: OutputPhase = .closed
    /// False between `outputLost` and `outputRestored`.
    public internal(set) var isOutputAvailable = true
    /// Whether `loading` stands for a wait on the input (`bufferingStarted`) while playing.
    public internal(set) var isBuffering = false
    /// The last resource was rendered to its end while not playing; resuming drains and ends.
    public internal(set) var isEndReached = false
    /// Where `play` starts from when nothing is loaded: the beginning of the publication, or of a clip.
    public var start: Target

    var lastLoadID: UInt64 = 0

    /// Makes a machine in `idle` whose `play` will load `start`.
    public init(start: Target) {
        self.start = start
    }

    /// Applies `event` and returns what the caller must do, in order.
    public mutating func handle(_ event: PlaybackEvent<Target>) -> [PlaybackAction<Target>] {
        var actions: [PlaybackAction<Target>] = []
        switch event {
        case .play: play(&actions)
        case .pause: pause(&actions)
        case .toggle:
            if state.isActive && intent == .play { pause(&actions) } else { play(&actions) }
        case .stop: stop(&actions)
        case .seek(let target): seek(to: target, &actions)
        case .loaded(let id): loaded(id, &actions)
        case .endOfResource(let hasNext): endOfResource(hasNext: hasNext, &actions)
        case .clipEnded: endOfResource(hasNext: false, &actions)
        case .error(let fatal, let hasNext):
            if fatal { fatalError(&actions) } else { skippableError(hasNext: hasNext, &actions) }
        case .outputLost: outputLost(&actions)
        case .outputRestored: outputRestored(&actions)
        case .bufferingStarted: bufferingStarted(&actions)
        case .bufferingEnded: bufferingEnded(&actions)
        }
        return actions
    }
}
