// SPDX-License-Identifier: GPL-3.0-or-later
/// What a navigator is doing, as reported to listeners (the `state` event of the CLI).
///
/// The same states serve the audiobook `AudioNavigator` and the TTS `PublicationSpeechSynthesizer`.
/// The synthesizer's own states map onto these: `stopped` is `idle`, `stopped`, `ended` or `failed`;
/// `paused(utterance)` is `paused` (or `loading` while `intent` is `.pause`); `playing(utterance, range)`
/// is `playing` (or `loading` while `intent` is `.play`).
public enum PlaybackState: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Nothing has been loaded yet.
    case idle
    /// A resource (track, utterance) is being made ready, or the output is being reconnected.
    /// Whether playback starts afterwards is the machine's `intent`.
    case loading
    /// Audio is being heard.
    case playing
    /// A resource is loaded at the position, the output is held; `play` continues from here.
    case paused
    /// The user stopped playback; the resource and output are released. `play` starts over.
    case stopped
    /// The end of the publication (or of the clip) was reached. `play` starts over.
    case ended
    /// A fatal error stopped playback. `play` or `seek` try again, as after `stopped`.
    case failed

    /// The wire name, as written in the `state` event: `idle`, `loading`, `playing`, ...
    public var name: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .playing: "playing"
        case .paused: "paused"
        case .stopped: "stopped"
        case .ended: "ended"
        case .failed: "failed"
        }
    }

    /// Finds a state by its wire name (exact, lower case).
    public init?(name: String) {
        guard let state = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = state
    }

    /// Whether a resource is held (`loading`, `playing`, `paused`): the states `stop` leaves.
    public var isActive: Bool {
        switch self {
        case .loading, .playing, .paused: true
        case .idle, .stopped, .ended, .failed: false
        }
    }

    public var description: String { name }
}

/// Whether the user wants playback to run: the "play when ready" of other players.
///
/// It survives loading: a `seek` while playing plays again once loaded, a `seek` while paused stays
/// paused, and `pause` during loading keeps the loaded resource paused.
public enum PlaybackIntent: Sendable, Hashable {
    case play
    case pause
}
