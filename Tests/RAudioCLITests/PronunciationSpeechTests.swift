// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// Pronunciation as a user meets it: `raudio text` lists the phonemes of georgia-pls-ssml's words, and `raudio speak`
/// warns (code `pronunciation`) about a lexicon or `ssml:ph` it cannot use, naming the file and the entry, and speaks
/// those words as written.
@Suite(.enabled(if: RAudioBinary.isBuilt, "build raudio first (swift build)"))
struct PronunciationSpeechTests {
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func textListsThePhonemesOfTheLexiconAndOfSsmlPh() throws {
        let lines = try NoteRefSpeechTests.textLines([])
        let first = try #require(lines.first { $0["text"]?.stringValue?.hasPrefix("GEORGIA, a southern state") == true })
        let phonemes = (first["phonemes"]?.arrayValue ?? []).compactMap { $0.objectValue }
        let pairs = phonemes.map { "\($0["text"]?.stringValue ?? "")=\($0["ipa"]?.stringValue ?? "")" }
        #expect(pairs.contains("30°=ˈθɜrti dɪˈgriz"))
        #expect(pairs.contains("N.=nɔrθ"))
        #expect(pairs.contains("Alabama=ˌæləˈbæmə"), "the lexicon's word")
        // The locator still quotes the page's text.
        #expect(first["locator"]?.objectValue?["text"]?.objectValue?["highlight"]?.stringValue?.contains("35° N., and between 81°") == true)
    }

    @Test func unusableLexiconsAndPhonemesAreWarnedAndSpokenAsWritten() throws {
        let page = """
        <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:ssml="http://www.w3.org/2001/10/synthesis" \
        xml:lang="en" lang="en"><head><title>t</title><link rel="pronunciation" type="application/pls+xml" hreflang="en" href="broken.pls"/></head>\
        <body><p>Kali grows by <span ssml:alphabet="x-arpabet" ssml:ph="M AA K AH N">Macon</span> today.</p></body></html>
        """
        let book = try TestBooks.epub(pages: [("page.xhtml", "application/xhtml+xml", page)], language: "en")
        defer { try? FileManager.default.removeItem(at: book) }
        try Data("""
        <?xml version="1.0" encoding="utf-8"?><lexicon version="1.0" alphabet="ipa" xml:lang="en" \
        xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"><lexeme><grapheme>Kali</grapheme>\
        <phoneme alphabet="x-klingon">qqq</phoneme></lexeme></lexicon>
        """.utf8).write(to: book.appendingPathComponent("EPUB/package.pls"))
        try Data("<lexicon xmlns=\"http://www.w3.org/2005/01/pronunciation-lexicon\"><lexeme>".utf8).write(to: book.appendingPathComponent("EPUB/broken.pls"))
        let opf = book.appendingPathComponent("EPUB/package.opf")
        let package = try String(contentsOf: opf, encoding: .utf8)
            .replacingOccurrences(of: "</manifest>", with: "<item id=\"pls\" href=\"package.pls\" media-type=\"application/pls+xml\"/></manifest>")
        try Data(package.utf8).write(to: opf)

        let (result, events) = try SpeakCommandTests.speak([book.path, "--output", "null"])
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = events.filter { $0["type"] == "warning" && $0["code"] == "pronunciation" }
        let messages = warnings.compactMap { $0["message"]?.stringValue }
        #expect(messages.contains { $0.contains("EPUB/broken.pls") }, "\(messages)")
        #expect(messages.contains { $0.contains("EPUB/package.pls") && $0.contains("lexeme[1] (Kali)") && $0.contains("x-klingon") }, "\(messages)")
        #expect(messages.contains { $0.contains("EPUB/page.xhtml") && $0.contains("x-arpabet") }, "\(messages)")
        #expect(warnings.count == 3, "each once: \(messages)")
        let texts = SpeakCommandTests.utterances(events).compactMap { $0["text"]?.stringValue }
        #expect(texts == ["Kali grows by Macon today."])
    }
}
