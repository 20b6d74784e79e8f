// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Every `NarrationItem` of a publication, in reading order: the `par`s of each media overlay, and
/// for content documents without one, their text passages for text-to-speech.
///
/// Built once (parses every SMIL file and the narrated content documents; a few milliseconds per
/// chapter), either whole by `init` or document by document by a `NarrationPlanBuilder` (then a
/// snapshot may be partial: see `isComplete`). Pure value; `warnings` says what was skipped and why.
public struct NarrationPlan: Sendable {
    /// How the plan is made.
    public struct Options: Sendable, Hashable {
        /// Read documents without an overlay with text-to-speech (`--no-tts` clears it).
        public var speakDocumentsWithoutNarration = true
        /// Ignore the overlays and read everything with text-to-speech (`--tts`).
        public var forceTextToSpeech = false
        /// `epub:type`s (on a `par` or an enclosing `seq`) and content roles whose items are left out
        /// (`pagebreak`, `note`, `sidebar`...).
        public var skippedTypes: Set<String> = []

        public init(speakDocumentsWithoutNarration: Bool = true, forceTextToSpeech: Bool = false, skippedTypes: Set<String> = []) {
            self.speakDocumentsWithoutNarration = speakDocumentsWithoutNarration
            self.forceTextToSpeech = forceTextToSpeech
            self.skippedTypes = skippedTypes
        }
    }

    public private(set) var items: [NarrationItem] = []
    public private(set) var warnings: [NavigatorIssue] = []
    /// The items' recorded clips back to back: what `seek` and a time-based `totalProgression` use.
    /// In a partial plan, the timeline of the items so far (start times and positions before its
    /// end are final; `totalDuration` and `isFullyTimed` are not).
    public private(set) var timeline = NarrationTimeline(items: [])
    /// The publication's first language, for items that declare none.
    public let defaultLanguage: Language?
    /// False for a partial snapshot of a `NarrationPlanBuilder`: only the first documents' items are
    /// there, and `timeline` and the items' `totalProgression` are not set yet.
    public internal(set) var isComplete = false

    /// The `seq` types `escape` leaves: EPUB 3 Media Overlays' escapable structures (tables, lists,
    /// figures, asides, notes) and the sections Readium treats likewise (glossary, sidebar...).
    public static let escapableTypes: Set<String> = [
        "table", "table-row", "table-cell", "list", "list-item", "figure", "aside", "sidebar", "note", "footnote",
        "endnote", "rearnote", "footnotes", "endnotes", "rearnotes", "glossary", "annotation", "marginalia", "practice", "help",
    ]

    /// Builds the whole plan on the calling thread (blocks: parses every SMIL file and extracts the
    /// text of every document read with text-to-speech). `MediaOverlayNavigator` uses a
    /// `NarrationPlanBuilder` instead, which defers the text extraction.
    public init(publication: Publication, options: Options = Options()) {
        self.init(empty: publication)
        for index in publication.readingOrder.indices {
            appendDocument(at: index, of: publication, options: options)
        }
        finish(publication: publication, options: options)
    }

    /// A plan with no item yet, for `appendDocument` and `finish`.
    init(empty publication: Publication) {
        defaultLanguage = publication.metadata.languages.first.map(Language.init(code:))
    }

    /// Whether reading-order item `index` is read with text-to-speech (its text must be extracted,
    /// the slow part of planning) rather than by its media overlay.
    static func needsTextExtraction(at index: Int, of publication: Publication, options: Options) -> Bool {
        guard options.speakDocumentsWithoutNarration || options.forceTextToSpeech else { return false }
        if !options.forceTextToSpeech, let service = publication.mediaOverlays, service.hasMediaOverlay(at: index) { return false }
        return true
    }

    /// Appends the items of reading-order item `index`: its overlay's `par`s, or its text passages.
    /// Documents must be appended in reading order, each once.
    mutating func appendDocument(at index: Int, of publication: Publication, options: Options) {
        guard publication.readingOrder.indices.contains(index) else { return }
        let link = publication.readingOrder[index]
        if !options.forceTextToSpeech, let service = publication.mediaOverlays, service.hasMediaOverlay(at: index) {
            do {
                if let overlay = try service.mediaOverlay(at: index) {
                    appendNarration(overlay, index: index, link: link, options: options)
                    return
                }
            } catch {
                warnings.append(NavigatorIssue(code: .init(rawValue: error.code.rawValue), message: error.description + "; read with text-to-speech instead",
                                               href: error.href, fatal: false, cause: error))
            }
        }
        if options.speakDocumentsWithoutNarration || options.forceTextToSpeech {
            appendSpeech(of: publication, index: index, link: link, options: options)
        }
    }

    /// Appends the items and warnings of `part`, the plan of the next documents.
    mutating func append(_ part: NarrationPlan) {
        items.append(contentsOf: part.items)
        warnings.append(contentsOf: part.warnings)
    }

    /// Sets `timeline` over the items so far (a partial plan's).
    mutating func updatePartialTimeline() {
        timeline = NarrationTimeline(items: items)
    }

    /// Completes the plan once every document is appended: the overlay parser's repair warnings,
    /// the timeline and each item's `totalProgression`.
    mutating func finish(publication: Publication, options: Options) {
        if !options.forceTextToSpeech, let service = publication.mediaOverlays {
            for warning in service.warnings {
                warnings.append(NavigatorIssue(code: .smilRepaired, message: warning.description, href: warning.source, fatal: false))
            }
        }
        isComplete = true
        timeline = NarrationTimeline(items: items)
        let count = Double(max(items.count, 1))
        for position in items.indices {
            items[position].locator.locations.totalProgression = timeline.totalProgression(item: position, seconds: 0) ?? Double(position) / count
        }
    }

    private mutating func appendNarration(_ overlay: MediaOverlay, index: Int, link: Link, options: Options) {
        let type = link.type ?? MediaType.xhtml.string
        let pars = overlay.pars.filter { options.skippedTypes.isDisjoint(with: $0.allTypes) }
        for (position, par) in pars.enumerated() {
            var locations = Locator.Locations(progression: Double(position) / Double(max(pars.count, 1)))
            if let fragment = par.textFragment {
                locations.fragments = [fragment]
                locations.otherLocations["cssSelector"] = .string("#" + fragment)
            }
            // A Readium locator's href is the resource; the element is in `fragments` and `cssSelector`
            // (a visual navigator matches the href against its reading order).
            let href = par.textPath.flatMap { $0.isEmpty ? nil : $0 } ?? overlay.documentHref
            let locator = Locator(href: href, type: type, title: link.title,
                                  locations: locations, text: par.text ?? Locator.Text())
            // The page's text, as read aloud: white space collapsed. The highlight is the element's whole
            // text but for white space at its ends, so it stands for the element's text in word quotes.
            let spoken = par.text?.highlight.map(TextQuoteMap.collapsingWhitespace(of:))
            items.append(NarrationItem(readingOrderIndex: index, par: par, locator: locator, spokenText: spoken?.text, language: nil, quoteMap: spoken?.map,
                                       elementText: par.text?.highlight.map { ElementText(text: $0, quoteStart: 0) }))
        }
    }

    private mutating func appendSpeech(of publication: Publication, index: Int, link: Link, options: Options) {
        let href = link.hrefWithoutFragment
        guard let mediaType = link.mediaType, mediaType.matches(.xhtml) || mediaType.matches(.html) else { return }
        do {
            let iterator = try publication.content(from: Locator(href: href, type: mediaType.string)).iterator()
            while let element = try iterator.next() {
                guard element.locator.href == href else { break }
                guard !options.skippedTypes.contains(element.role.name),
                      let text = element.spokenText, text.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
                var locator = element.locator
                // The content service's share of the book is not the plan's: `finish` sets it.
                locator.locations.totalProgression = nil
                let textElement = element as? TextContentElement
                items.append(NarrationItem(readingOrderIndex: index, par: nil, locator: locator, spokenText: text,
                                           language: textElement?.segments.first?.language, quoteMap: textElement?.quoteMap,
                                           elementText: textElement?.elementText))
            }
        } catch {
            warnings.append(NavigatorIssue(code: .init(rawValue: error.code.rawValue), message: "\(href): \(error.message)", href: href, fatal: false, cause: error))
        }
    }
}

extension NarrationPlan {
    /// The item a locator designates: the `par` whose text fragment (or `cssSelector` `#id`) it names,
    /// the `par` whose clip covers its `t=` time when it points at an audio file, else the first item
    /// of its document at or after its `progression`. Nil when the href is not narrated.
    public func itemIndex(for locator: Locator) -> Int? {
        let (path, hrefFragment) = Self.split(locator.href)
        let fragment = hrefFragment ?? locator.locations.cssSelector.flatMap { $0.hasPrefix("#") ? String($0.dropFirst()) : nil }
            ?? locator.locations.fragments.first { !$0.contains("=") }
        if let time = locator.locations.time {
            if let index = items.firstIndex(where: { item in
                guard let clip = item.clip, Self.split(clip.href).path == path else { return false }
                let start = time.begin ?? 0
                return start >= clip.begin && start < (clip.end ?? .infinity)
            }) { return index }
        }
        let inDocument = items.indices.filter { Self.split(items[$0].locator.href).path == path }
        if let fragment, let index = inDocument.first(where: { items[$0].par?.textFragment == fragment }) { return index }
        guard let first = inDocument.first else { return nil }
        if let progression = locator.locations.progression {
            return inDocument.first { (items[$0].locator.locations.progression ?? 0) >= progression } ?? inDocument.last
        }
        return first
    }

    /// The first item after `index` outside the escapable `seq` that item `index` is in (the
    /// innermost one); nil when it is in none.
    public func indexAfterEscaping(from index: Int) -> Int? {
        guard items.indices.contains(index), let par = items[index].par,
              let seq = par.ancestors.last(where: { !Self.escapableTypes.isDisjoint(with: $0.types) }) else { return nil }
        let readingOrderIndex = items[index].readingOrderIndex
        var next = index + 1
        while next < items.count, items[next].readingOrderIndex == readingOrderIndex,
              items[next].par?.ancestors.contains(where: { $0.index == seq.index }) == true {
            next += 1
        }
        return next
    }

    static func split(_ href: String) -> (path: String, fragment: String?) {
        let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil)
    }
}
