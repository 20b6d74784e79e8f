// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// What a `PublicationSpeechSynthesizer` tells its listeners, in order, on `events`.
public enum SpeechSynthesizerEvent: Sendable {
    /// The playback state changed, with the locator of the utterance (nil before the first one).
    case stateChanged(PlaybackState, Locator?)
    /// An utterance starts being heard (or is loaded, paused, at that position).
    case utterance(SpeechUtterance, voice: TTSVoice)
    /// An `audio` or `video` element of the page starts being heard, played in place from `source` (the
    /// first of the utterance's `media` that decodes). It has no words.
    case media(SpeechUtterance, source: Link)
    /// A word is heard: the utterance's locator narrowed to the word.
    case range(Locator)
    /// Non-fatal: a voice fallback, a malformed chapter skipped, an utterance that failed to synthesize.
    case warning(NavigatorIssue)
    /// `issue.fatal` tells whether playback stopped.
    case error(NavigatorIssue)
}

/// The synthesizer's state in Readium's terms.
public enum SpeechSynthesizerState: Sendable, Hashable {
    case stopped
    case paused(SpeechUtterance)
    /// `range` is the word being heard, when known.
    case playing(SpeechUtterance, range: Locator?)
    /// The end of the publication was reached.
    case ended
}
