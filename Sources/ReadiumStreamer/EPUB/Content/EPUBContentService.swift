// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The content of an EPUB: reads the XHTML resources of the reading order into content elements,
/// one resource at a time, when an iterator reaches them.
///
/// Attach it with `EPUBContentService.attach(to:)` so that `publication.content(from:)` works. The
/// basis of `totalProgression` is the byte length of each reading-order resource (known from the
/// container without reading it): a resource covers the share of the publication its length has, and
/// inside it elements are placed by their offset in the resource's text. A malformed XHTML resource is
/// recovered as far as the XML layer can, with a warning naming its href; one that cannot be parsed
/// at all is skipped with a warning and the rest of the book still reads. Safe to share between
/// threads; each iterator is for one thread at a time.
public final class EPUBContentService: ContentService {
    let readingOrder: [Link]
    let container: any Container
    /// The first language of the publication: for text that declares none, where its language cannot be
    /// identified from the text (or ties with it).
    public let defaultLanguage: Language?
    /// The user's language, for a document that declares none and whose text is too short to identify.
    let userLanguage: Language?
    /// What finds the language of a document's text that declares none.
    public let languageIdentifier: (any LanguageIdentifier)?
    /// What was worked around while reading content (malformed resources, unmatched selectors).
    public let warnings: WarningLog
    private let onResourceParsed: (@Sendable (String) -> Void)?
    private let cumulativeShares = Locked<[Double]?>(nil)
    /// The pronunciation lexicons of the package (manifest items of type `application/pls+xml`).
    let lexiconLinks: [Link]
    /// Each lexicon read so far, by href (nil: it could not be read); and the warnings already given.
    let pronunciation = Locked<(lexicons: [String: PronunciationLexicon?], reported: Set<ParsingWarning>)>(([:], []))

    /// - Parameters:
    ///   - publication: the EPUB whose reading order is iterated.
    ///   - warnings: where malformed resources and unmatched selectors are recorded.
    ///   - languageIdentifier: finds the language of content that declares none (EPUB 3.3 §4.1.2: never
    ///     taken from `dc:language` alone); without it such content is read in the publication's language.
    ///   - onResourceParsed: called with the href of each resource as it is parsed, on the
    ///     thread of the iterator; for instrumentation (tests count parsed resources with it).
    ///   - fallbackLanguage: the language taken for `defaultLanguage` when the publication declares none (a
    ///     lone text file: the user's).
    ///   - userLanguage: the user's language, taken for a document that declares none and whose text is too short
    ///     to identify (`LanguageSource.user`); nil to take the publication's there.
    public init(
        publication: Publication, warnings: WarningLog = WarningLog(), languageIdentifier: (any LanguageIdentifier)? = nil,
        onResourceParsed: (@Sendable (String) -> Void)? = nil, fallbackLanguage: Language? = nil, userLanguage: Language? = nil
    ) {
        self.languageIdentifier = languageIdentifier
        self.userLanguage = userLanguage
        readingOrder = publication.readingOrder
        container = publication.container
        defaultLanguage = publication.metadata.languages.first.map(Language.init(code:)) ?? fallbackLanguage
        self.warnings = warnings
        self.onResourceParsed = onResourceParsed
        lexiconLinks = publication.manifest.resources.filter { $0.mediaType?.string == PronunciationLexicon.mediaType || $0.type == PronunciationLexicon.mediaType }
    }

    /// A copy of `publication` with a content service attached, so that `content(from:)` works.
    public static func attach(
        to publication: Publication, languageIdentifier: (any LanguageIdentifier)? = nil, onResourceParsed: (@Sendable (String) -> Void)? = nil,
        fallbackLanguage: Language? = nil, userLanguage: Language? = nil
    ) -> Publication {
        let service = EPUBContentService(publication: publication, languageIdentifier: languageIdentifier, onResourceParsed: onResourceParsed,
                                         fallbackLanguage: fallbackLanguage, userLanguage: userLanguage)
        return publication.adding(extension: service, forKey: ContentServiceKey.key)
    }

    public func content(from start: Locator?) throws(ContentError) -> any Content {
        guard let start else { return EPUBContent(service: self, startIndex: 0, startLocator: nil) }
        guard let index = readingOrderIndex(of: start.href, totalProgression: start.locations.totalProgression) else {
            throw ContentError(.contentUnknownHref, href: start.href, message: "is not in the reading order of the publication")
        }
        var locator = start
        if locator.locations.progression == nil, let total = locator.locations.totalProgression {
            let shares = shares()
            let span = shares[index + 1] - shares[index]
            locator.locations.progression = span > 0 ? min(max((total - shares[index]) / span, 0), 1) : 0
        }
        return EPUBContent(service: self, startIndex: index, startLocator: locator)
    }

    /// A locator at `totalProgression` (0...1) of the publication: the resource that covers it, and
    /// the progression inside that resource. Nil for an empty reading order.
    public func locator(atTotalProgression totalProgression: Double) -> Locator? {
        guard !readingOrder.isEmpty else { return nil }
        let clamped = min(max(totalProgression, 0), 1)
        let shares = shares()
        let index = (0..<readingOrder.count).last { shares[$0] <= clamped && shares[$0 + 1] > shares[$0] } ?? 0
        let span = shares[index + 1] - shares[index]
        let progression = span > 0 ? min(max((clamped - shares[index]) / span, 0), 1) : 0
        let link = readingOrder[index]
        return Locator(
            href: link.hrefWithoutFragment, type: link.type ?? MediaType.xhtml.string,
            locations: Locator.Locations(progression: progression, totalProgression: clamped)
        )
    }

    public func progressions(ofFragments fragments: [String], in href: String) -> [String: Double] {
        guard !fragments.isEmpty, let index = readingOrderIndex(of: href) else { return [:] }
        let elements = extractResource(at: index).elements
        var placed: [String: Double] = [:]
        for fragment in fragments where placed[fragment] == nil {
            let selector = "#" + fragment
            let element = elements.first { $0.ownSelector == selector } ?? elements.first { $0.matchingSelectors.contains(selector) }
            if let element { placed[fragment] = element.element.locator.locations.progression ?? 0 }
        }
        return placed
    }

    /// The reading-order index of `href`. A spine that repeats a document has it at several indices: the
    /// one whose share of the publication holds `totalProgression` (so that a locator, a bookmark or a resumed
    /// place comes back to its own occurrence), else the first (as a hyperlink goes, EPUB 3.3 §4.1.2.3).
    func readingOrderIndex(of href: String, totalProgression: Double? = nil) -> Int? {
        guard let path = try? Href(href).path else { return nil }
        let indices = readingOrder.indices.filter { (try? Href(readingOrder[$0].hrefWithoutFragment).path) == path }
        guard indices.count > 1, let totalProgression else { return indices.first }
        let shares = shares()
        return indices.first { shares[$0] <= totalProgression && totalProgression < shares[$0 + 1] }
            ?? indices.min { abs(shares[$0] - totalProgression) < abs(shares[$1] - totalProgression) }
    }

    /// `shares[i]` is where resource `i` starts in the publication (0...1); `shares[count]` is 1.
    func shares() -> [Double] {
        cumulativeShares.withLock { cached in
            if let cached { return cached }
            let lengths = readingOrder.map { link -> Double in
                let length = (try? container.resource(at: link.hrefWithoutFragment).length()) ?? 0
                return Double(max(length, 1))
            }
            let total = lengths.reduce(0, +)
            var shares: [Double] = [0]
            for length in lengths { shares.append(shares.last! + length / total) }
            shares[shares.count - 1] = 1
            cached = shares
            return shares
        }
    }

    /// An SVG content document's text (EPUB 3.3 §6.2): its `text` elements (with their `tspan`s and
    /// `textPath`s) in document order, each an element of its own; where it has none, its `title` and `desc`,
    /// its text alternative. Nil when it has no text at all (then it is shown whole, as an image).
    private func extractSVG(href: String, type: String, range: Range<Double>) -> ExtractedResource? {
        onResourceParsed?(href)
        let document: XMLDocument
        do {
            let data = try container.resource(at: href).read(maximumSize: XMLDocument.defaultMaximumSize)
            document = try XMLDocument(data: data, href: href, mode: .recovering)
        } catch {
            warnings.append(ParsingWarning(source: href, path: "", message: "skipped: its content cannot be read (\(error))"))
            return nil
        }
        for warning in document.warnings { warnings.append(warning) }
        for readsDescriptions in [false, true] {
            var extractor = HTMLContentExtractor(href: href, type: type, defaultLanguage: defaultLanguage, totalProgressionRange: range,
                                                 languageIdentifier: languageIdentifier)
            extractor.userLanguage = userLanguage
            extractor.readsSVGDescriptions = readsDescriptions
            let extracted = extractor.extract(document)
            if extracted.elements.contains(where: { $0.element is TextContentElement }) { return extracted }
        }
        return nil
    }

    /// Reads and extracts the resource at `index` of the reading order; never throws: a resource that
    /// cannot be read or parsed gives no element and a warning.
    func extractResource(at index: Int) -> ExtractedResource {
        let link = readingOrder[index]
        let href = link.hrefWithoutFragment
        let shares = shares()
        let range = shares[index]..<max(shares[index + 1], shares[index])
        let mediaType = link.mediaType ?? MediaType.forFileExtension(String(href.split(separator: ".").last ?? ""))
        let type = mediaType?.string ?? link.type ?? ""
        if mediaType?.matches(.svg) == true, let svg = extractSVG(href: href, type: type, range: range) {
            return svg
        }
        if let mediaType, mediaType.string.hasPrefix("image/") {
            var locations = Locator.Locations(progression: 0, totalProgression: range.lowerBound)
            locations.cssSelector = nil
            let locator = Locator(href: href, type: type, locations: locations)
            let image = ImageContentElement(locator: locator, embeddedLink: Link(href: href, type: type), accessibilityLabel: nil, caption: nil)
            return ExtractedResource(href: href, elements: [ExtractedElement(element: image, ownSelector: nil, matchingSelectors: [])])
        }
        let isText = mediaType?.matches(.text) == true
        guard mediaType?.matches(.xhtml) == true || mediaType?.matches(.html) == true || isText else {
            return ExtractedResource(href: href, elements: [])
        }
        onResourceParsed?(href)
        do {
            var data = try container.resource(at: href).read(maximumSize: XMLDocument.defaultMaximumSize)
            // A plain text file (a lone `.txt` opened by `TextDocumentParser`) is read as a page of paragraphs.
            if isText { data = PlainText.xhtml(of: PlainText.decode(data)) }
            let document = try XMLDocument(data: data, href: href, mode: mediaType?.matches(.html) == true ? .html : .recovering)
            for warning in document.warnings { warnings.append(warning) }
            var extractor = HTMLContentExtractor(href: href, type: type, defaultLanguage: defaultLanguage, totalProgressionRange: range,
                                                 languageIdentifier: languageIdentifier)
            extractor.userLanguage = userLanguage
            extractor.lexicons = lexicons(for: document)
            extractor.impliesTableBodies = mediaType?.matches(.html) == true
            let extracted = extractor.extract(document)
            report(extracted.warnings)
            return extracted
        } catch {
            warnings.append(ParsingWarning(source: href, path: "", message: "skipped: its content cannot be read (\(error))"))
            return ExtractedResource(href: href, elements: [])
        }
    }
}
