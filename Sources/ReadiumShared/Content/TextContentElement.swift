// SPDX-License-Identifier: GPL-3.0-or-later
/// A block of text (a paragraph, a heading, a list item...) made of segments of one language each.
///
/// A change of language (`xml:lang` or `lang`, inherited) inside the block starts a new segment, so a
/// speech engine can switch voices. The element's locator points at the whole block; each segment
/// has its own locator whose `text.highlight` is the page's own text the segment reads (its
/// `quoteMap` says which part of it each part of `text` reads).
public struct TextContentElement: ContentElement, Hashable {
    public var locator: Locator
    public var role: ContentRole
    public var segments: [Segment]
    /// The selected element's whole text and where `locator.text.highlight` begins in it, for narrower
    /// quotes; nil when unknown (an element made by hand).
    public var elementText: ElementText?

    public init(locator: Locator, role: ContentRole, segments: [Segment], elementText: ElementText? = nil) {
        self.locator = locator
        self.role = role
        self.segments = segments
        self.elementText = elementText
    }

    /// The text of all segments joined.
    public var text: String { segments.map(\.text).joined() }

    public var spokenText: String? { text }

    /// How `text` lines up with `locator.text.highlight`: the segments' maps end to end (their quotes
    /// follow each other on the page).
    public var quoteMap: TextQuoteMap {
        var map = TextQuoteMap()
        for segment in segments { map.append(segment.quoteMap) }
        return map
    }

    /// A run of text in one language, with the Locator of that run.
    public struct Segment: Sendable, Hashable {
        public var locator: Locator
        public var text: String
        /// The language in scope (`xml:lang`/`lang`, else the one identified from the document's text, else the
        /// publication's); nil when none is known.
        public var language: Language?
        /// Where `language` comes from.
        public var languageSource: LanguageSource
        /// Runs of `text` with a role of their own (note references), in text order; `text` includes them.
        public var inlineRuns: [InlineRun]
        /// How `text` lines up with `locator.text.highlight`, the page's own text it reads.
        public var quoteMap: TextQuoteMap
        /// The selected element's whole text and where this segment's highlight begins in it.
        public var elementText: ElementText?
        /// Parts of `text` spoken as given phonemes (a pronunciation lexicon's, `ssml:ph`), in text order.
        public var phonemes: [PhonemeSpan] = []

        /// A segment; without `quoteMap`, `text` is taken to be the page's text as it is.
        public init(locator: Locator, text: String, language: Language?, languageSource: LanguageSource = .declared, inlineRuns: [InlineRun] = [],
                    quoteMap: TextQuoteMap? = nil, elementText: ElementText? = nil) {
            self.locator = locator
            self.text = text
            self.language = language
            self.languageSource = languageSource
            self.inlineRuns = inlineRuns
            self.quoteMap = quoteMap ?? .verbatim(text)
            self.elementText = elementText
        }
    }
}
