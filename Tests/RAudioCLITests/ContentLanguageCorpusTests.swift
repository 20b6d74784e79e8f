// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

/// Identifying the language of content that declares none must not change the books that declare theirs:
/// on every corpus EPUB whose spine documents all declare a language (`xml:lang`/`lang` on their root), the
/// languages of `raudio text`'s utterances are those it gave before identification came in
/// (Fixtures/corpus-text-languages.jsonl, made by that `raudio text`: each book's languages, run-length coded).
@Suite(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
struct ContentLanguageCorpusTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/corpus-text-languages.jsonl")

    static func before() throws -> [(book: String, languages: String)] {
        try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n").map { line in
            let object = try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
            return (try #require(object["book"]?.stringValue), try #require(object["languages"]?.stringValue))
        }
    }

    /// The languages of `raudio text`'s utterances, run-length coded as in the fixture.
    static func languages(of book: URL) throws -> String {
        let result = try ProcessRunner.raudio(["text", book.path], timeout: 120)
        var runs: [(String, Int)] = []
        for line in result.outputLines {
            guard let language = try JSONParser.parse(Array(line.utf8)).objectValue?["language"]?.stringValue else { continue }
            if runs.last?.0 == language { runs[runs.count - 1].1 += 1 } else { runs.append((language, 1)) }
        }
        return runs.map { "\($0.0)*\($0.1)" }.joined(separator: " ")
    }

    /// Whether every XHTML document of the book's spine declares its language on its root element.
    static func declaresItsContentLanguage(_ book: URL) throws -> Bool {
        let publication = try TestEPUBOpener.open(book)
        let documents = publication.readingOrder.filter { $0.mediaType?.matches(.xhtml) == true }
        guard !documents.isEmpty else { return false }
        return try documents.allSatisfy { link in
            let document = try ReadiumStreamer.XMLDocument(data: try publication.container.resource(at: link.hrefWithoutFragment).read(), href: link.href, mode: .recovering)
            return !(document.root.declaredLanguage ?? "").isEmpty
        }
    }

    @Test func booksThatDeclareTheirLanguageAreReadInTheSameLanguagesAsBefore() throws {
        var compared = 0
        for (book, expected) in try Self.before() {
            let url = try Corpus.file(book)
            guard (try? Self.declaresItsContentLanguage(url)) == true else { continue }
            compared += 1
            #expect(try Self.languages(of: url) == expected, "\(book)")
        }
        #expect(compared >= 20, "only \(compared) corpus books declare their content language")
    }

    /// W3C pkg-lang_but_not_content (dc:language fr, English pages that declare nothing): spoken in English,
    /// each utterance saying the language was identified; `--language` forces another.
    @Test func speakSaysWhereEachLanguageComesFrom() throws {
        let book = try Corpus.file("epub/w3c-epub-tests/pkg-lang_but_not_content.epub").path
        func utterances(_ extra: [String]) throws -> [JSONObject] {
            let result = try ProcessRunner.raudio(["speak", book, "--output", "null", "--no-state"] + extra, timeout: 120)
            #expect(result.status == 0, "\(result.standardError)")
            return try result.outputLines.map { try JSONParser.parse(Array($0.utf8)) }.compactMap(\.objectValue)
                .filter { $0["type"]?.stringValue == "utterance" }
        }
        let identified = try utterances([])
        #expect(!identified.isEmpty)
        #expect(identified.allSatisfy { $0["language"]?.stringValue == "en" && $0["languageSource"]?.stringValue == "identified" })
        let forced = try utterances(["--language", "de"])
        #expect(!forced.isEmpty && forced.allSatisfy { $0["language"]?.stringValue == "de" && $0["languageSource"]?.stringValue == "forced" })
    }

    /// A page that declares no language and whose text is too short to identify does not inherit the package's
    /// `dc:language` (issue #51; W3C epub-tests `pkg-lang_but_not_content`): it is read in the user's language
    /// (the locale's), and in the package's only where the locale names none (C, POSIX).
    @Test func aShortPageThatDeclaresNoLanguageIsReadInTheUsersLanguage() throws {
        let book = try TestBooks.epub(pages: [
            ("short.xhtml", "application/xhtml+xml", TestBooks.xhtml(["Hi there."])),
            ("declared.xhtml", "application/xhtml+xml", TestBooks.xhtml(["Bonjour."], lang: "fr")),
        ], language: "fr")
        defer { try? FileManager.default.removeItem(at: book) }
        func languages(locale: String) throws -> [(text: String, language: String, source: String)] {
            let result = try ProcessRunner.raudio(["text", book.path], environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": locale], timeout: 60)
            #expect(result.status == 0, "\(result.standardError)")
            return try result.outputLines.compactMap { try JSONParser.parse(Array($0.utf8)).objectValue }.map {
                ($0["text"]?.stringValue ?? "", $0["language"]?.stringValue ?? "", $0["languageSource"]?.stringValue ?? "")
            }
        }
        let english = try languages(locale: "en_GB.UTF-8")
        let short = try #require(english.first { $0.text == "Hi there." })
        #expect(short.language == "en" && short.source == "user", "\(english)")
        #expect(english.contains { $0.text == "Bonjour." && $0.language == "fr" && $0.source == "declared" }, "\(english)")
        let plain = try languages(locale: "C.UTF-8")
        #expect(plain.contains { $0.text == "Hi there." && $0.language == "fr" && $0.source == "publication" }, "\(plain)")
    }
}
