// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Settings of a `PublicationSpeechSynthesizer`, as in Readium's `Configuration`.
public struct SpeechSynthesizerConfiguration: Sendable, Hashable {
    /// The language of text that declares none, when the publication declares none either.
    public var defaultLanguage: Language?
    /// The voice that speaks the publication's main language (and text with no language). Text marked
    /// in another language is spoken by a voice for that language, unless this voice speaks it too.
    public var voiceIdentifier: String?
    /// Rate multiplier of the voice preset's words per minute (1 = the preset's rate).
    public var speed: Double
    /// Pitch multiplier (1 = the voice preset's pitch).
    public var pitch: Double
    /// Output gain, 0...1.
    public var volume: Double
    /// Role names (`ContentRole.name`) that are not spoken.
    public var skippedRoles: Set<String>
    /// Seconds of audio after which the output stops (`--duration`); nil: no limit.
    public var stopAfter: Double?
    /// How many utterances are synthesized ahead of the one being played.
    public var lookahead: Int

    public init(
        defaultLanguage: Language? = nil, voiceIdentifier: String? = nil, speed: Double = 1, pitch: Double = 1,
        volume: Double = 1, skippedRoles: Set<String> = ContentRole.skippableNames, stopAfter: Double? = nil,
        lookahead: Int = 2
    ) {
        self.defaultLanguage = defaultLanguage
        self.voiceIdentifier = voiceIdentifier
        self.speed = speed
        self.pitch = pitch
        self.volume = volume
        self.skippedRoles = skippedRoles
        self.stopAfter = stopAfter
        self.lookahead = lookahead
    }
}
