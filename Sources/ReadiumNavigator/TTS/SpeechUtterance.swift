// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// One utterance of a publication read aloud: its text, where it is, and the language it is in.
///
/// Readium's `PublicationSpeechSynthesizer.Utterance`. `text` is what is spoken and shown (white space
/// collapsed, ruby readings left out, alternative text put in); `locator.text.highlight` is the page's
/// own text it reads, which a visual navigator finds, and `quoteMap` lines the two up. An image has no
/// quote: its locator selects the image and `text` is its alternative text. An `audio` or `video`
/// element of the page is an utterance too, played instead of spoken (`media`): its locator selects the
/// element and `text` is empty.
public struct SpeechUtterance: Sendable, Hashable {
    public var text: String
    public var locator: Locator
    /// The language declared for the text (`lang`/`xml:lang`, inherited), or the fallbacks.
    public var language: Language?
    public var role: ContentRole
    /// How `text` lines up with `locator.text.highlight`.
    public var quoteMap: TextQuoteMap
    /// The selected element's whole text, where `quoteMap`'s quote begins: what gives each word a
    /// context that designates it alone. Nil when unknown; words then quote what the locator holds.
    public var elementText: ElementText?
    /// Where `language` comes from: declared by the content, identified from its text, the user's, the publication's, forced.
    public var languageSource: LanguageSource?
    /// The sources of an embedded `audio` or `video` element, in document order: the utterance is heard by
    /// playing the first of them that decodes. Empty for text.
    public var media: [Link]
    /// Parts of `text` to speak as given phonemes (a pronunciation lexicon's, `ssml:ph`), UTF-8 offsets of `text`.
    public var phonemes: [PhonemeSpan] = []

    /// Whether this utterance is the page's own audio (an `audio` element or a `video`'s sound), played in place.
    public var isMedia: Bool { !media.isEmpty }

    /// An utterance; without `quoteMap`, `text` is taken to be the page's text as it is.
    public init(text: String, locator: Locator, language: Language?, languageSource: LanguageSource? = nil, role: ContentRole = .body,
                quoteMap: TextQuoteMap? = nil, elementText: ElementText? = nil, media: [Link] = []) {
        self.text = text
        self.media = media
        self.locator = locator
        self.language = language
        self.languageSource = languageSource
        self.role = role
        self.quoteMap = quoteMap ?? .verbatim(text)
        self.elementText = elementText
    }

    /// The utterance's locator narrowed to the word at `range` of `text`: the page's text of the word as
    /// `text.highlight`, with `before` and `after` moved to the word's sides (at least `contextLength`
    /// characters, more where the element has the same words elsewhere). An utterance without a quote (an image) gives its own locator.
    public func locator(forWordAt range: Range<String.Index>, contextLength: Int = 50) -> Locator {
        guard let quote = locator.text.highlight else { return locator }
        var word = locator
        let textRange = text.utf8.distance(from: text.startIndex, to: range.lowerBound)..<text.utf8.distance(from: text.startIndex, to: range.upperBound)
        if let elementText, quoteMap.textLength == text.utf8.count {
            word.text = elementText.quote(quoteMap.quoteRange(forText: textRange), contextLength: contextLength)
        } else if quoteMap.textLength == text.utf8.count, quoteMap.quoteLength == quote.utf8.count {
            word.text = locator.text.narrowed(toHighlight: quoteMap.quoteRange(forText: textRange), contextLength: contextLength)
        } else {
            // A quote that is not the page's text mapped (made by hand): narrow the text itself.
            var own = locator.text
            own.highlight = text
            word.text = own.narrowed(toHighlight: textRange, contextLength: contextLength)
        }
        return word
    }
}
