// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Turns a publication's content, from a starting locator, into numbered utterances on demand.
///
/// Utterance `base` is the one the start locator points at; later ones count up, earlier ones count
/// down (found with a second iterator walking backwards), so `previous()` works from any start.
/// Content is read only as far as asked, one resource at a time. Not thread-safe: its owner
/// (`UtteranceRenderSource`) calls it under a lock; calls block while a resource is parsed.
final class UtterancePlanner: @unchecked Sendable {
    /// Half the width of the index space of one plan: indices outside `base ± span` belong to another.
    static let span = 500_000_000

    private(set) var base: Int
    private let content: any Content
    private let tokenizer: ContentTokenizer
    private let skippedRoles: Set<String>
    private var startLocator: Locator?
    private var forward: (any ContentIterator)?
    private var backward: (any ContentIterator)?
    private var utterances: [Int: SpeechUtterance] = [:]
    /// The planned indices are `lowest..<highest`.
    private var lowest: Int
    private var highest: Int
    private var isForwardDone = false
    private var isBackwardDone = false
    /// Content errors met while reading (a resource that cannot be read), for warnings.
    private(set) var errors: [ContentError] = []

    /// The language of every text that declares none (`SpeechSynthesizerConfiguration.defaultLanguage`): it
    /// replaces the one identified from the text or the publication's.
    let forcedLanguage: Language?

    init(content: any Content, tokenizer: ContentTokenizer, skippedRoles: Set<String>, startLocator: Locator?, base: Int,
         forcedLanguage: Language? = nil) {
        self.forcedLanguage = forcedLanguage
        self.content = content
        self.tokenizer = tokenizer
        self.skippedRoles = skippedRoles
        self.startLocator = startLocator
        self.base = base
        lowest = base
        highest = base
    }

    /// Whether `index` is in this plan's index space.
    func owns(_ index: Int) -> Bool { abs(index - base) < Self.span }

    /// The utterance at `index`, reading content as far as needed; nil past either end.
    func utterance(at index: Int) -> SpeechUtterance? {
        guard owns(index) else { return nil }
        while index >= highest, !isForwardDone { extendForward() }
        while index < lowest, !isBackwardDone { extendBackward() }
        return utterances[index]
    }

    /// Moves the whole plan by `delta` indices (utterance `i` becomes `i + delta`), keeping what was
    /// read: a new index space for the same utterances, so the renderer opens them anew.
    func rebase(by delta: Int) {
        base += delta
        lowest += delta
        highest += delta
        utterances = Dictionary(uniqueKeysWithValues: utterances.map { ($0.key + delta, $0.value) })
    }

    /// Forgets utterances far from `index` (keeps `keep` on each side), bounding memory on long books.
    func forget(awayFrom index: Int, keep: Int = 64) {
        guard utterances.count > keep * 4 else { return }
        utterances = utterances.filter { abs($0.key - index) <= keep }
    }

    private func extendForward() {
        if forward == nil { forward = content.iterator() }
        guard let iterator = forward else { return }
        while true {
            let next: (any ContentElement)?
            do {
                next = try iterator.next()
            } catch {
                errors.append(error)
                continue
            }
            guard let original = next else {
                isForwardDone = true
                return
            }
            let element = spoken(original)
            var found = utterances(of: element)
            if let locator = startLocator {
                // The first element: start at the utterance the locator highlights; earlier ones go below base.
                startLocator = nil
                let raw = tokenizer.tokenize(element)
                // The locator may quote the text with its note references (`raudio text`) or without
                // (a `range` event): match either when removing them left as many utterances.
                var resumeIndex = raw.count - tokenizer.tokenize(element, resumingAt: locator).count
                let unremoved = tokenizer.tokenize(original)
                if unremoved.count == raw.count {
                    resumeIndex = max(resumeIndex, raw.count - tokenizer.tokenize(original, resumingAt: locator).count)
                }
                let converted = skippedRoles.contains(element.role.name) ? [] : raw.enumerated().compactMap { entry in
                    utterance(of: entry.element).map { (entry.offset, $0) }
                }
                let earlier = converted.filter { $0.0 < resumeIndex }.map(\.1)
                found = converted.filter { $0.0 >= resumeIndex }.map(\.1)
                for (offset, utterance) in earlier.reversed().enumerated() {
                    utterances[base - 1 - offset] = utterance
                }
                lowest = base - earlier.count
            }
            guard !found.isEmpty else { continue }
            for utterance in found {
                utterances[highest] = utterance
                highest += 1
            }
            return
        }
    }

    private func extendBackward() {
        if forward == nil { extendForward() }
        if backward == nil {
            let iterator = content.iterator()
            backward = iterator
        }
        guard let iterator = backward else { return }
        while true {
            let element: (any ContentElement)?
            do {
                element = try iterator.previous()
            } catch {
                errors.append(error)
                continue
            }
            guard let element = element.map(spoken) else {
                isBackwardDone = true
                return
            }
            let found = utterances(of: element)
            guard !found.isEmpty else { continue }
            for utterance in found.reversed() {
                lowest -= 1
                utterances[lowest] = utterance
            }
            return
        }
    }

    /// `element` without its inline runs of skipped roles (note references inside a sentence).
    private func spoken(_ element: any ContentElement) -> any ContentElement {
        (element as? TextContentElement)?.removingInlineRuns(withRoles: skippedRoles) ?? element
    }

    /// The spoken utterances of one element: tokenized, skipped roles and empty text left out.
    private func utterances(of element: any ContentElement) -> [SpeechUtterance] {
        guard !skippedRoles.contains(element.role.name) else { return [] }
        return tokenizer.tokenize(element).compactMap(utterance(of:))
    }

    /// One tokenized unit as an utterance; nil when it has nothing to say. An `audio` or `video` element
    /// with a source is an utterance played from its media.
    private func utterance(of unit: any ContentElement) -> SpeechUtterance? {
        if let sources = (unit as? AudioContentElement)?.sources ?? (unit as? VideoContentElement)?.sources {
            return sources.isEmpty ? nil : SpeechUtterance(text: "", locator: unit.locator, language: nil, role: unit.role, media: sources)
        }
        let segment = (unit as? TextContentElement)?.segments.first
        // Punctuation alone is not spoken, unless phonemes are given for it (a ditto mark read as "ditto").
        guard let text = unit.spokenText, text.contains(where: { $0.isLetter || $0.isNumber }) || segment?.phonemes.isEmpty == false else { return nil }
        var language = segment?.language ?? tokenizer.defaultLanguage
        var source = segment.map(\.languageSource) ?? (language == nil ? nil : .publication)
        if let forcedLanguage, source != .declared {
            (language, source) = (forcedLanguage, .forced)
        }
        var utterance = SpeechUtterance(text: text, locator: unit.locator, language: language, languageSource: source, role: unit.role,
                                        quoteMap: segment?.quoteMap, elementText: segment?.elementText)
        if let segment, segment.text == text { utterance.phonemes = segment.phonemes }
        return utterance
    }
}
