/// A block of text (a paragraph, a heading, a list item...) made of segments of one language each.
///
/// A change of language (`xml:lang` or `lang`, inherited) inside the block starts a new segment, so a
/// speech engine can switch voices. The element's locator points at the whole block; each segment
/// has its own locator with the segment as `text.highlight`.
public struct TextContentElement: ContentElement, Hashable {
    public var locator: Locator
    public var role: ContentRole
    public var segments: [Segment]

    public init(locator: Locator, role: ContentRole, segments: [Segment]) {
        self.locator = locator
        self.role = role
        self.segments = segments
    }

    /// The text of all segments joined.
    public var text: String { segments.map(\.text).joined() }

    public var spokenText: String? { text }

    /// A run of text in one language, with the Locator of that run.
    public struct Segment: Sendable, Hashable {
        public var locator: Locator
        public var text: String
        /// The language in scope (`xml:lang`/`lang`, else the publication's); nil when none is declared.
        public var language: Language?
        /// Runs of `text` with a role of their own (note references), in text order; `text` includes them.
        public var inlineRuns: [InlineRun]

        public init(locator: Locator, text: String, language: Language?, inlineRuns: [InlineRun] = []) {
            self.locator = locator
            self.text = text
            self.language = language
            self.inlineRuns = inlineRuns
        }
    }
}
