// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

/// Every sentence and word locator of every EPUB the project has (the sample and each corpus book that
/// opens) designates its own text as a visual navigator would find it: the selector selects one
/// element, whose text holds `before + highlight + after` in reading order, and the highlight holds the
/// text read out. `make locators` checks the same in a real browser; this is the fast check without one.
@Suite struct LocatorQuoteCorpusTests {
    /// What went wrong in one book, as lines; empty when every locator is exact.
    static func problems(in url: URL, unit: TextUnit) throws -> (problems: [String], checked: Int) {
        let publication: Publication
        do {
            publication = try TestEPUBOpener.open(url)
        } catch {
            return ([], 0)  // refused books are `make conformance`'s business
        }
        guard let service = publication.extensions[ContentServiceKey.key] as? EPUBContentService else { return (["no content service"], 0) }
        let tokenizer = ContentTokenizer(unit: unit, defaultLanguage: service.defaultLanguage)
        var checker = LocatorQuoteChecker(publication: publication)
        var problems: [String] = []
        for element in try publication.content(from: nil).elements() {
            for token in tokenizer.tokenize(element) {
                let text = token as? TextContentElement
                if let problem = checker.problem(with: token.locator, spoken: text?.text, quoteMap: text?.quoteMap) { problems.append(problem) }
            }
        }
        return (problems, checker.checked)
    }

    static func check(_ urls: [URL], unit: TextUnit) throws {
        var total = 0
        for url in urls {
            let (problems, checked) = try problems(in: url, unit: unit)
            total += checked
            #expect(problems.isEmpty, "\(url.lastPathComponent), \(unit) locators: \(problems.count) of \(checked) wrong, first: \(problems.prefix(3).joined(separator: "; "))")
        }
        #expect(total > 0)
    }

    @Test(arguments: [TextUnit.sentence, .word])
    func sampleLocatorsAreThePagesText(unit: TextUnit) throws {
        try Self.check([Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub")], unit: unit)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: [TextUnit.sentence, .word])
    func corpusLocatorsAreThePagesText(unit: TextUnit) throws {
        let books = try Corpus.files(withExtension: "epub")
        #expect(books.count > 40)
        try Self.check(books, unit: unit)
    }

    /// The checker is not blind: moved, altered or ambiguous quotes are reported.
    @Test func checkerCatchesBrokenLocators() throws {
        let url = Corpus.projectRoot.appendingPathComponent("samples/lighthouse.epub")
        let publication = try TestEPUBOpener.open(url)
        let tokenizer = ContentTokenizer(unit: .word)
        let words = try publication.content(from: nil).elements().flatMap { tokenizer.tokenize($0) }.filter { $0.locator.text.highlight != nil }
        #expect(words.count > 100)
        var checker = LocatorQuoteChecker(publication: publication)
        var broken = 0
        for word in words.prefix(200) {
            var wrongText = word.locator
            wrongText.text.highlight = wrongText.text.highlight! + "\u{2603}"
            var wrongElement = word.locator
            wrongElement.locations.cssSelector = "html > body > no-such-element"
            checker.restart()
            if checker.problem(with: wrongText) != nil { broken += 1 }
            if checker.problem(with: wrongElement) != nil { broken += 1 }
        }
        #expect(broken == 2 * min(words.count, 200))
        // Read out of order, a word goes back in its element.
        let selector = words[0].locator.locations.cssSelector
        let later = try #require(words.dropFirst().first { $0.locator.locations.cssSelector == selector })
        checker.restart()
        #expect(checker.problem(with: later.locator) == nil)
        #expect(checker.problem(with: words[0].locator) != nil)
        // Spoken text that the highlight does not hold.
        checker.restart()
        #expect(checker.problem(with: words[0].locator, spoken: "Zz") != nil)
    }
}
