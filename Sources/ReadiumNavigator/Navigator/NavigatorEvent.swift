// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// What any ``Navigator`` reports, in the vocabulary they share (`Navigator.navigatorEvents`).
///
/// Each navigator's own events say more (the ``SpeechUtterance``, the ``NarrationItem``); these say what
/// a player shows: the state, where it is, what is being read, and what went wrong.
public enum NavigatorEvent: Sendable {
    /// The state changed, with the position (nil before a speech synthesizer's first utterance).
    case stateChanged(PlaybackState, Locator?)
    /// Every `positionInterval` of media time while playing (audio navigators).
    case position(Locator)
    /// An audiobook's track being heard changed.
    case track(index: Int, link: Link, locator: Locator)
    /// Speech: an utterance starts being heard, in `language` (a BCP-47 tag) with voice `voice` (its identifier).
    case utterance(text: String, language: String, voice: String, locator: Locator, languageSource: LanguageSource? = nil)
    /// Speech: an `audio` or `video` element of the page starts being heard, played in place from
    /// `source`; `locator` selects the element.
    case media(kind: EmbeddedMediaKind, source: Link, locator: Locator)
    /// Speech: a word is heard; the utterance's locator narrowed to it.
    case range(Locator)
    /// Media overlays: a narrated item starts (a `par`'s clip, or a passage read with text-to-speech).
    case narration(text: String, language: String?, locator: Locator)
    /// Media overlays: `event` (a state, position or narration) with the position in the narration's
    /// audio; nil for text-to-speech.
    indirect case withAudioLocator(NavigatorEvent, audioLocator: Locator?)
    /// Non-fatal: a track skipped, a clip clamped, a voice fallback...
    case warning(NavigatorIssue)
    /// `issue.fatal` tells whether playback stopped.
    case error(NavigatorIssue)
}

/// What kind of element of the page an embedded media item is.
public enum EmbeddedMediaKind: String, Sendable, Hashable {
    /// An `audio` element.
    case audio
    /// A `video` element, heard through its sound.
    case video
}
