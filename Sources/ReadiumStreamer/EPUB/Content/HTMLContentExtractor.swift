import ReadiumShared

/// Turns one XHTML document into content elements with locators, walking its tree as a browser lays
/// out boxes: block elements separate elements, inline text is joined with white space collapsed.
///
/// Roles come from the element and its ancestors (`HTMLElementRules.role(of:)`); languages from
/// `xml:lang`/`lang`, inherited, else `defaultLanguage`. Progression is the offset of the element's
/// text in the text of the whole resource (in characters); `totalProgression` maps it into
/// `totalProgressionRange`, the share of the publication this resource covers. Pure: any thread.
struct HTMLContentExtractor {
    var href: String
    var type: String
    var defaultLanguage: Language?
    var totalProgressionRange: Range<Double>
    var contextLength = 50

    func extract(_ document: XMLDocument) -> ExtractedResource {
        let walker = HTMLContentWalker(href: href, defaultLanguage: defaultLanguage)
        walker.walk(document.root, parentPath: "", index: 1)
        walker.flush()
        return ExtractedResource(href: href, elements: locate(walker.drafts))
    }

    /// Gives every draft and segment its locator, from their offsets in the resource's text.
    private func locate(_ drafts: [HTMLContentDraft]) -> [ExtractedElement] {
        // The resource's text: every element's text, separated by a line break.
        var characters: [Character] = []
        var starts: [Int] = []
        for draft in drafts {
            if !characters.isEmpty, !draft.text.isEmpty { characters.append("\n") }
            starts.append(characters.count)
            characters.append(contentsOf: draft.text)
        }
        let total = max(characters.count, 1)

        func locator(selector: String, start: Int, length: Int) -> Locator {
            let progression = Double(min(start, total - 1)) / Double(total)
            let span = totalProgressionRange.upperBound - totalProgressionRange.lowerBound
            var locations = Locator.Locations(progression: progression, totalProgression: totalProgressionRange.lowerBound + span * progression)
            locations.cssSelector = selector
            let end = min(start + length, characters.count)
            let before = String(characters[max(0, start - contextLength)..<start])
            let after = String(characters[end..<min(characters.count, end + contextLength)])
            let highlight = String(characters[start..<end])
            return Locator(
                href: href, type: type, locations: locations,
                text: Locator.Text(before: before.isEmpty ? nil : before, highlight: highlight.isEmpty ? nil : highlight, after: after.isEmpty ? nil : after)
            )
        }

        var result: [ExtractedElement] = []
        for (draft, start) in zip(drafts, starts) {
            let elementLocator = locator(selector: draft.selector, start: start, length: draft.text.count)
            let element: any ContentElement
            switch draft.kind {
            case .text(let segments, let role):
                var offset = start
                let located = segments.map { segment in
                    defer { offset += segment.text.count }
                    return TextContentElement.Segment(
                        locator: locator(selector: draft.selector, start: offset, length: segment.text.count),
                        text: segment.text, language: segment.language, inlineRuns: segment.runs
                    )
                }
                element = TextContentElement(locator: elementLocator, role: role, segments: located)
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

/// An element found by the walker, before locators are computed.
struct HTMLContentDraft {
    enum Kind {
        case text([(text: String, language: Language?, runs: [TextContentElement.InlineRun])], ContentRole)
        case image(Link, alt: String?, caption: String?)
        case audio([Link])
        case video([Link])
    }

    var kind: Kind
    var selector: String
    var matchingSelectors: Set<String>

    /// The text this element contributes to the resource's text (used for progression and context).
    var text: String {
        switch kind {
        case .text(let segments, _): segments.map(\.text).joined()
        case .image(_, let alt, _): alt ?? ""
        case .audio, .video: ""
        }
    }
}
