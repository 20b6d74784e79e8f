// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
@testable import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing

/// The locators `raudio speak` and narration emit designate the page's own text, as a visual navigator
/// finds it: every utterance, every word of it (as `range` events narrow it), every narration item.
/// The same checks as LocatorQuoteCorpusTests, on what the navigators make of the content.
@Suite struct SpeechLocatorQuoteCorpusTests {
    static func books() throws -> [URL] {
        [Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub")] + (Corpus.root == nil && !Corpus.isCI ? [] : try Corpus.files(withExtension: "epub"))
    }

    /// The words of `text` as ranges: runs of characters that are not white space.
    static func wordRanges(_ text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start: String.Index?
        for index in text.indices {
            if text[index].isWhitespace {
                if let begun = start { ranges.append(begun..<index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let begun = start { ranges.append(begun..<text.endIndex) }
        return ranges
    }

    @Test func utteranceAndWordLocatorsAreThePagesText() throws {
        var checkedBooks = 0
        for url in try Self.books() {
            guard let publication = try? TestEPUBOpener.open(url),
                  let service = publication.extensions[ContentServiceKey.key] as? EPUBContentService else { continue }
            let planner = UtterancePlanner(content: try publication.content(from: nil), tokenizer: ContentTokenizer(defaultLanguage: service.defaultLanguage),
                                           skippedRoles: ContentRole.skippableNames, startLocator: nil, base: 0)
            var utterances = LocatorQuoteChecker(publication: publication)
            var words = LocatorQuoteChecker(publication: publication)
            var problems: [String] = []
            var index = 0
            while let utterance = planner.utterance(at: index) {
                index += 1
                if let problem = utterances.problem(with: utterance.locator, spoken: utterance.text, quoteMap: utterance.quoteMap) { problems.append(problem) }
                guard utterance.locator.text.highlight != nil else { continue }
                for range in Self.wordRanges(utterance.text) {
                    let textRange = utterance.text.utf8.distance(from: utterance.text.startIndex, to: range.lowerBound)..<utterance.text.utf8.distance(from: utterance.text.startIndex, to: range.upperBound)
                    if let problem = words.problem(with: utterance.locator(forWordAt: range), spoken: String(utterance.text[range]),
                                                   quoteMap: utterance.quoteMap.slice(textRange)) {
                        problems.append(problem)
                    }
                }
            }
            #expect(problems.isEmpty, "\(url.lastPathComponent): \(problems.count) of \(utterances.checked + words.checked) wrong, first: \(problems.prefix(3).joined(separator: "; "))")
            if index > 0 { checkedBooks += 1 }
        }
        #expect(checkedBooks > 0)
    }

    @Test func narrationLocatorsAreThePagesText() throws {
        var checkedItems = 0
        for url in try Self.books() {
            guard let publication = try? TestEPUBOpener.open(url), !publication.readingOrder.isEmpty else { continue }
            let plan = NarrationPlan(publication: publication)
            var checker = LocatorQuoteChecker(publication: publication)
            var problems: [String] = []
            for item in plan.items where item.locator.locations.cssSelector != nil {
                if let problem = checker.problem(with: item.locator, spoken: item.spokenText, quoteMap: item.quoteMap) { problems.append(problem) }
                checkedItems += 1
            }
            #expect(problems.isEmpty, "\(url.lastPathComponent): \(problems.count) of \(checker.checked) wrong, first: \(problems.prefix(3).joined(separator: "; "))")
        }
        #expect(checkedItems > 0)
    }
}
