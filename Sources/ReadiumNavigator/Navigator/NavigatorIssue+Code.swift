// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension NavigatorIssue {
    /// A stable word naming a kind of problem, such as `track-corrupt`.
    ///
    /// A struct rather than an enum: the codes of other modules' errors (`AudioSinkError`, `TTSError`,
    /// a remote resource's retries) pass through as they are, and a client matches the ones it knows.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        // MARK: Tracks of an audiobook (`AudioNavigator`)

        /// The track's bytes are not decodable audio, break part-way, or hold no audio at all.
        public static let trackCorrupt = Code(rawValue: "track-corrupt")
        /// The track's format is recognized but not supported by any decoder.
        public static let trackUndecodable = Code(rawValue: "track-undecodable")
        /// A narration's clip file is in a format no decoder supports (`AudioDecoderError.Code.trackUnsupported`).
        public static let trackUnsupported = Code(rawValue: "track-unsupported")
        /// The track could not be read.
        public static let trackUnreadable = Code(rawValue: "track-unreadable")
        /// The track's server cannot be reached after the retries: playback stops where the listener is.
        public static let trackUnreachable = Code(rawValue: "track-unreachable")
        /// The track's server keeps answering that it is unavailable.
        public static let trackUnavailable = Code(rawValue: "track-unavailable")
        /// The track is not in the publication's container, or its server says it does not exist.
        public static let trackNotFound = Code(rawValue: "track-not-found")
        /// The track's server refuses to give it.
        public static let trackRefused = Code(rawValue: "track-refused")
        /// The track's server failed in another way.
        public static let trackRemote = Code(rawValue: "track-remote")
        /// Seeking inside the track failed.
        public static let seekFailed = Code(rawValue: "seek-failed")
        /// No track of the reading order can be played.
        public static let noPlayableTrack = Code(rawValue: "no-playable-track")
        /// A clip ends after the end of its track or file; it plays to the end instead.
        public static let clipClamped = Code(rawValue: "clip-clamped")

        // MARK: Items of any navigator

        /// An item failed with an error its source does not know.
        public static let itemUnreadable = Code(rawValue: "item-unreadable")

        // MARK: Narration (`MediaOverlayNavigator`)

        /// Nothing of the narration can be played.
        public static let noPlayableItem = Code(rawValue: "no-playable-item")
        /// A narration's audio file cannot be played; its text is read with text-to-speech.
        public static let narrationAudioMissing = Code(rawValue: "narration-audio-missing")
        /// A narrated item without audio cannot be spoken (no speech engine): it is skipped.
        public static let narrationSkipped = Code(rawValue: "narration-skipped")
        /// A SMIL document was malformed and repaired.
        public static let smilRepaired = Code(rawValue: "smil-repaired")

        // MARK: Speech (`PublicationSpeechSynthesizer`)

        /// There is no text to speak from where reading starts.
        public static let noText = Code(rawValue: "no-text")
        /// The voice asked for does not speak the text's language: another voice reads it.
        public static let voiceFallback = Code(rawValue: "voice-fallback")
        /// An `audio` or `video` element of the page none of whose sources can be played;
        /// skipped, reading goes on.
        public static let mediaSkipped = Code(rawValue: "media-skipped")
        /// A malformed chapter was skipped.
        public static let chapterSkipped = Code(rawValue: "chapter-skipped")
        /// A malformed chapter was repaired and is read.
        public static let chapterRepaired = Code(rawValue: "chapter-repaired")
        /// A pronunciation lexicon, one of its entries or an `ssml:ph` cannot be used (malformed, an unknown
        /// phonetic alphabet): the words are spoken as written.
        public static let pronunciation = Code(rawValue: "pronunciation")

        // MARK: Output (`AudioSinkError.Code`)

        /// The audio server is not running or refuses the connection.
        public static let audioServerUnavailable = Code(rawValue: AudioSinkError.Code.serverUnavailable.rawValue)
        /// The audio server went away while playing.
        public static let audioServerLost = Code(rawValue: AudioSinkError.Code.serverLost.rawValue)
        /// The output went away for good. No navigator of this version reports it (a lost output is
        /// `audioServerLost`); kept so that a program matching it still compiles and exits as before.
        public static let outputLost = Code(rawValue: "output-lost")
        /// The output (a WAV file, a stream) could not be created.
        public static let outputNotCreated = Code(rawValue: AudioSinkError.Code.cannotCreate.rawValue)
        /// Writing to the output failed.
        public static let outputWriteFailed = Code(rawValue: AudioSinkError.Code.writeFailed.rawValue)

        /// A failure of raudio itself.
        public static let internalError = Code(rawValue: "internal-error")
    }
}

extension NavigatorIssue.Code {
    /// The code of an error, with the same word: an output error, a speech engine error (`tts-...`), a
    /// decoder error reported for an item other than an audiobook's track (an audiobook names its
    /// tracks' codes itself: `PublicationRenderSource`).
    public init(_ code: RAudioErrorCode) { self.init(rawValue: code.rawValue) }
}
