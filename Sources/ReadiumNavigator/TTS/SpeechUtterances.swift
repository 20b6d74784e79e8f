// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A publication's utterances in reading order, as `PublicationSpeechSynthesizer` reads them (the same
/// sentences, skipped roles, languages and embedded media), for reading a book into a file rather than to a
/// listener (`raudio render`). Content is read as far as iterated, one resource at a time; each iterator
/// keeps only the utterances around the one it is at. Its iterators block while a resource is parsed.
public struct SpeechUtterances: Sequence {
    let publication: Publication
    let configuration: SpeechSynthesizerConfiguration

    /// The utterances of `publication` with `configuration`'s skipped roles and forced language. Throws
    /// `ContentError` when the publication has no text content (see `PublicationSpeechSynthesizer.canSpeak`).
    public init(publication: Publication, configuration: SpeechSynthesizerConfiguration = .init()) throws(ContentError) {
        _ = try publication.content(from: nil)
        self.publication = publication
        self.configuration = configuration
    }

    /// The language text that declares none is spoken in: the publication's, else the configuration's default.
    public var mainLanguage: Language? {
        publication.metadata.languages.first.map(Language.init(code:)) ?? configuration.defaultLanguage
    }

    public func makeIterator() -> Iterator {
        let content = (try? publication.content(from: nil)) ?? EmptyContent()
        let tokenizer = ContentTokenizer(defaultLanguage: mainLanguage)
        return Iterator(planner: UtterancePlanner(content: content, tokenizer: tokenizer, skippedRoles: configuration.skippedRoles,
                                                  startLocator: nil, base: 0, forcedLanguage: configuration.defaultLanguage))
    }

    public struct Iterator: IteratorProtocol {
        let planner: UtterancePlanner
        private var index = 0

        init(planner: UtterancePlanner) {
            self.planner = planner
        }

        public mutating func next() -> SpeechUtterance? {
            guard let utterance = planner.utterance(at: index) else { return nil }
            planner.forget(awayFrom: index)
            index += 1
            return utterance
        }

        /// The content errors met so far (a resource that could not be read, skipped).
        public var errors: [ContentError] { planner.errors }
    }
}

extension TTSUtterance {
    /// The request that speaks `utterance` as `PublicationSpeechSynthesizer` would: a chosen `voice` speaks its
    /// own languages, and text in a language it does not speak (the book's main language included) gets a voice
    /// for that language, as without a chosen voice (an English voice does not read a French book's French);
    /// text with no language, in a book that declares none, is the chosen voice's. Without a chosen voice, the
    /// engine's voice for the text's language, else the main language's, else the fallback's. Its phoneme spans
    /// go with it.
    public init(speaking utterance: SpeechUtterance, voice: TTSVoice?, mainLanguage: Language?, fallbackLanguage: Language,
                rate: Double = 1, pitch: Double = 1) {
        let language = utterance.language ?? mainLanguage ?? fallbackLanguage
        let voiceOrLanguage: VoiceOrLanguage
        if let voice, voice.speaks(baseLanguageOf: language) || (utterance.language == nil && mainLanguage == nil) {
            voiceOrLanguage = .voice(voice)
        } else {
            voiceOrLanguage = .language(language)
        }
        self.init(text: utterance.text, voiceOrLanguage: voiceOrLanguage, rate: rate, pitch: pitch)
        phonemes = utterance.phonemes
    }
}
