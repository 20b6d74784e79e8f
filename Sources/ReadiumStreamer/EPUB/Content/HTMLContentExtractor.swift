// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Turns one XHTML document into content elements with locators, walking its tree as a browser lays
/// out boxes: block elements separate elements, inline text is joined with white space collapsed.
///
/// Roles come from the element and its ancestors (`HTMLElementRules.role(of:)`); languages from
/// `xml:lang`/`lang`, inherited, else `defaultLanguage`. A text locator's `cssSelector` selects the
/// block the text is in, and its `text` quotes that element's `textContent` exactly: `highlight` is the
/// page's own text for the reading text (newlines, indentation and ruby readings included), `before` and
/// `after` the element's text around it. Images, audio and video get their own selector and no quote.
/// Progression is the offset of the element's reading text in the reading text of the whole resource
/// (in characters); `totalProgression` maps it into `totalProgressionRange`, the share of the
/// publication this resource covers. Pure: any thread.
struct HTMLContentExtractor {
    var href: String
    var type: String
    var defaultLanguage: Language?
    var totalProgressionRange: Range<Double>
    /// Finds the language of the document's text that declares none; without it (or where the text is too
    /// short to tell) that text is in `defaultLanguage`, the publication's.
    var languageIdentifier: (any LanguageIdentifier)?
    var contextLength = 50
    /// An SVG document without text: its `title` and `desc` are read (else never, as a page's `title`).
    var readsSVGDescriptions = false
    /// A `text/html` document, which a browser parses as HTML: rows directly in a `table` are in a `tbody`
    /// it adds, and selectors name it (`table > tbody:nth-child(1) > tr:nth-child(2)`).
    var impliesTableBodies = false
    /// The pronunciation lexicons of the publication and of this document; each applies to the text in its language.
    var lexicons: [PronunciationLexicon] = []
    /// The user's language, for a document that declares none and whose text is too short to identify.
    var userLanguage: Language?

    func extract(_ document: XMLDocument) -> ExtractedResource {
        let (language, source) = undeclaredLanguage(of: document.root)
        let walker = HTMLContentWalker(href: href, defaultLanguage: language, defaultLanguageSource: source,
                                       identifierCounts: HTMLElementRules.identifierCounts(in: document.root))
        walker.readsSVGDescriptions = readsSVGDescriptions
        walker.impliesTableBodies = impliesTableBodies
        walker.lexicons = lexicons
        if let alphabet = lexicons.lazy.compactMap(\.alphabetName).first { walker.defaultAlphabet = alphabet }
        walker.walk(document.root, parentPath: "", index: 1)
        walker.flush()
        let drafts = HTMLContentDraft.markingProjectGutenbergBoilerplate(walker.drafts)
        return ExtractedResource(href: href, elements: locate(drafts, documentText: walker.documentText, elementSources: walker.elementSources),
                                 warnings: walker.warnings)
    }

    /// The language of the document's text that declares none: identified from that text (per document, never
    /// per sentence: a heading alone tells little), the publication's breaking a tie (when it is one of the
    /// likeliest, it is kept, with its region); where the text is too short to tell, the user's (a content
    /// document does not inherit the package's language: W3C epub-tests `pkg-lang_but_not_content`), else the
    /// publication's.
    func undeclaredLanguage(of root: XMLElement) -> (Language?, LanguageSource) {
        guard let languageIdentifier else { return (defaultLanguage, .publication) }
        var text = ""
        Self.collectUndeclaredText(of: root, into: &text)
        let candidates = languageIdentifier.candidates(for: text)
        guard let first = candidates.first else {
            if let userLanguage { return (userLanguage, .user) }
            return (defaultLanguage, .publication)
        }
        if let publication = defaultLanguage, candidates.contains(where: { $0.baseCode == publication.baseCode }) {
            return (publication, .identified)
        }
        return (first, .identified)
    }

    /// The text of `element` outside every element that declares a language, and outside what is never read.
    /// Iterative (a deep tree costs heap, not stack); stops past 8 KiB.
    private static func collectUndeclaredText(of element: XMLElement, into text: inout String) {
        func isCounted(_ element: XMLElement) -> Bool {
            !HTMLElementRules.isSkipped(element) && (element.declaredLanguage?.isEmpty ?? true)
        }
        guard isCounted(element) else { return }
        element.visitNodes { node in
            guard text.utf8.count <= 8192 else { return .stop }
            switch node {
            case .element(let child): return isCounted(child) ? .descend : .skipChildren
            case .text(let string), .cdata(let string): text += string
            }
            return .descend
        }
    }

    /// Gives every draft and segment its locator: progression from their offsets in the resource's
    /// reading text, the quote from the document's text.
    private func locate(_ drafts: [HTMLContentDraft], documentText: String, elementSources: [Range<Int>]) -> [ExtractedElement] {
        // The resource's reading text: every element's text, separated by a line break.
        var starts: [Int] = []
        var total = 0
        for draft in drafts {
            let length = draft.text.count
            if total > 0, length > 0 { total += 1 }
            starts.append(total)
            total += length
        }
        total = max(total, 1)

        func locations(selector: String, start: Int) -> Locator.Locations {
            let progression = Double(min(start, total - 1)) / Double(total)
            let span = totalProgressionRange.upperBound - totalProgressionRange.lowerBound
            var locations = Locator.Locations(progression: progression, totalProgression: totalProgressionRange.lowerBound + span * progression)
            locations.cssSelector = selector
            return locations
        }

        var result: [ExtractedElement] = []
        for (draft, start) in zip(drafts, starts) {
            let elementLocator = Locator(href: href, type: type, locations: locations(selector: draft.selector, start: start))
            let element: any ContentElement
            switch draft.kind {
            case .text(let draftRuns, let role):
                let bounds = draft.element.map { elementSources[$0] } ?? 0..<documentText.utf8.count
                let elementString = String(documentText.utf8Slice(bounds))
                let runs = Self.trimmingEnds(of: draftRuns, in: documentText)
                func quote(_ range: Range<Int>) -> Locator.Text {
                    .quoting(range, of: documentText, within: bounds, contextLength: contextLength)
                }
                var offset = start
                let segments = runs.map { run -> TextContentElement.Segment in
                    defer { offset += run.text.count }
                    var locator = elementLocator
                    locator.locations = locations(selector: draft.selector, start: offset)
                    locator.text = quote(run.quoteStart..<run.quoteEnd)
                    var segment = TextContentElement.Segment(locator: locator, text: run.text, language: run.language, languageSource: run.languageSource,
                                                             inlineRuns: run.inlineRuns,
                                                             quoteMap: run.map, elementText: ElementText(text: elementString, quoteStart: run.quoteStart - bounds.lowerBound))
                    segment.phonemes = run.phonemes
                    return segment
                }
                var locator = elementLocator
                let quoteStart = runs.first?.quoteStart ?? bounds.lowerBound
                locator.text = quote(quoteStart..<(runs.last?.quoteEnd ?? quoteStart))
                element = TextContentElement(locator: locator, role: role, segments: segments,
                                             elementText: ElementText(text: elementString, quoteStart: quoteStart - bounds.lowerBound))
            case .image(let link, let alt, let caption):
                element = ImageContentElement(locator: elementLocator, embeddedLink: link, accessibilityLabel: alt, caption: caption)
            case .audio(let sources):
                element = AudioContentElement(locator: elementLocator, sources: sources)
            case .video(let sources):
                element = VideoContentElement(locator: elementLocator, sources: sources)
            }
            result.append(ExtractedElement(element: element, ownSelector: draft.selector, matchingSelectors: draft.matchingSelectors))
        }
        return result
    }
}

extension HTMLContentExtractor {
    /// `runs` without the white space the page has before the first one's text and after the last
    /// one's, where their maps read it as standing for no text (or inside a formula's text), so that
    /// the element's quote and map begin and end with what is read.
    static func trimmingEnds(of runs: [HTMLTextRun], in documentText: String) -> [HTMLTextRun] {
        guard !runs.isEmpty else { return runs }
        var runs = runs
        let first = runs[0]
        let leading = documentText.utf8Slice(first.quoteStart..<first.quoteEnd).prefix(while: \.isWhitespace).utf8.count
        if leading < first.map.quoteLength, let map = first.map.trimmingQuote(leading: leading, trailing: 0) {
            runs[0].map = map
            runs[0].quoteStart += leading
        }
        let last = runs[runs.count - 1]
        let trailing = documentText.utf8Slice(last.quoteStart..<last.quoteEnd).reversed().prefix(while: \.isWhitespace).reduce(0) { $0 + $1.utf8.count }
        if trailing < last.map.quoteLength, let map = last.map.trimmingQuote(leading: 0, trailing: trailing) {
            runs[runs.count - 1].map = map
        }
        return runs
    }
}

/// An element found by the walker, before locators are computed.
struct HTMLContentDraft {
    enum Kind {
        case text([HTMLTextRun], ContentRole)
        case image(Link, alt: String?, caption: String?)
        case audio([Link])
        case video([Link])
    }

    var kind: Kind
    var selector: String
    /// The serial of the element `selector` selects, in the walker's `elementSources`; nil when its
    /// text is not quoted (an image).
    var element: Int?
    var matchingSelectors: Set<String>

    /// The text this element contributes to the resource's reading text (used for progression).
    var text: String {
        switch kind {
        case .text(let segments, _): segments.map(\.text).joined()
        case .image(_, let alt, _): alt ?? ""
        case .audio, .video: ""
        }
    }
}
