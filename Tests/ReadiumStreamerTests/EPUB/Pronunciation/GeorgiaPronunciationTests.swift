// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
@testable import ReadiumStreamer
import Testing

/// georgia-pls-ssml (IDPF's sample of EPUB 3's text-to-speech enhancements): its package lexicon and the
/// `ssml:ph` of its page end up as phoneme spans over the page's words, all of them.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct GeorgiaPronunciationTests {
    static let book = "epub/idpf-epub3-samples/georgia-pls-ssml.epub"

    /// The text segments of the book, in reading order.
    static func segments() throws -> [TextContentElement.Segment] {
        let publication = try TestEPUBOpener.open(try Corpus.file(book))
        let iterator = try publication.content(from: nil).iterator()
        var result: [TextContentElement.Segment] = []
        while let element = try iterator.next() {
            if let text = element as? TextContentElement { result += text.segments }
        }
        return result
    }

    /// A file of the book, parsed on its own (not through the content service).
    static func document(_ href: String) throws -> XMLDocument {
        let data = try ZIPContainer(url: try Corpus.file(book)).resource(at: href).read()
        return try XMLDocument(data: data, href: href)
    }

    /// Every (text, phonemes) of the spans, in reading order.
    static func spans(_ segments: [TextContentElement.Segment]) -> [(text: String, phonemes: String)] {
        segments.flatMap { segment in segment.phonemes.map { (String(segment.text.utf8Slice($0.range)), $0.phonemes) } }
    }

    @Test func everySsmlPhOfThePageIsASpanOverItsText() throws {
        var expected: [String] = []
        try Self.document("EPUB/georgia.xhtml").root.forEachDescendant { element in
            if let ph = element.attribute("ph", namespace: XMLNamespace.ssml) {
                expected.append(element.normalizedText + " = " + ph)
            }
        }
        #expect(expected.count > 100)
        let keys = Set(expected)
        let found = Self.spans(try Self.segments()).map { $0.text + " = " + $0.phonemes }.filter(keys.contains)
        #expect(found.sorted() == expected.sorted())
    }

    @Test func everyLexemeOfTheLexiconIsASpanWhereverItsWordIsInTheText() throws {
        let lexicon = try Self.document("EPUB/lexicon/en.pls").root
        let lexemes = lexicon.children("lexeme").map { lexeme in
            (grapheme: lexeme.firstChild("grapheme")!.textContent, phoneme: lexeme.firstChild("phoneme")!.textContent)
        }
        #expect(lexemes.count == 71)
        let segments = try Self.segments()
        let spans = Self.spans(segments)
        var present = 0
        for (grapheme, phoneme) in lexemes {
            // The test's own search: the word, or it capitalized, with no letter or digit on either side.
            let variants = Set([grapheme, grapheme.prefix(1).uppercased() + grapheme.dropFirst()])
            let occurrences = segments.reduce(0) { count, segment in count + Self.wholeWordOccurrences(of: variants, in: segment.text) }
            // An occurrence inside an ssml:ph keeps the page's own phonemes (none in this book).
            let spoken = spans.filter { variants.contains($0.text) && $0.phonemes == phoneme }.count
            #expect(spoken == occurrences, "\(grapheme): \(occurrences) in the text, \(spoken) spoken as /\(phoneme)/")
            if occurrences > 0 { present += 1 }
        }
        #expect(present == lexemes.count, "every word of the lexicon is in the page")
    }

    static func wholeWordOccurrences(of variants: Set<String>, in text: String) -> Int {
        var count = 0
        for variant in variants {
            var searchStart = text.startIndex
            while let range = text.range(of: variant, range: searchStart..<text.endIndex) {
                let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : nil
                let after = range.upperBound < text.endIndex ? text[range.upperBound] : nil
                let isWord: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber } ?? false }
                let startsWord = !isWord(variant.first) || !isWord(before)
                let endsWord = !isWord(variant.last) || !isWord(after)
                if startsWord, endsWord { count += 1 }
                searchStart = range.upperBound
            }
        }
        return count
    }

    @Test func theLocatorsStillQuoteThePagesText() throws {
        for segment in try Self.segments() where !segment.phonemes.isEmpty {
            #expect(segment.quoteMap.textLength == segment.text.utf8.count)
            #expect(segment.quoteMap.quoteLength == segment.locator.text.highlight?.utf8.count)
        }
    }
}
