// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

/// The language of content that declares none comes from its own text (libexttextcat), never from the
/// package's dc:language alone (EPUB 3.3 §4.1.2); dc:language breaks ties; declared languages are kept.
@Suite struct LanguageIdentificationTests {
    static let english = "Call me Ishmael. Some years ago, never mind how long precisely, having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world."
    static let french = "Longtemps, je me suis couché de bonne heure. Parfois, à peine ma bougie éteinte, mes yeux se fermaient si vite que je n'avais pas le temps de me dire : Je m'endors."
    static let identifier = TextCatLanguageIdentifier.shared

    @Test func aParagraphIsIdentifiedAndAShortTextIsNot() throws {
        try #require(Self.identifier.isAvailable, "libexttextcat-data is not installed (make deps)")
        #expect(Self.identifier.candidates(for: Self.english).first?.code == "en")
        #expect(Self.identifier.candidates(for: Self.french).first?.code == "fr")
        #expect(Self.identifier.candidates(for: "Page 2").isEmpty, "a heading alone is too short to tell")
    }

    /// The languages of the text elements of a made book (`pages`, each one paragraph list).
    static func languages(_ pages: [String], dcLanguage: String?) throws -> [(code: String?, source: LanguageSource)] {
        let folder = try TestBooks.epub(pages: pages.enumerated().map { ("p\($0.offset).xhtml", "application/xhtml+xml", $0.element) },
                                        language: dcLanguage)
        defer { try? FileManager.default.removeItem(at: folder) }
        let publication = try EPUBParser(languageIdentifier: identifier).parse(container: FolderContainer(url: folder))
        return try publication.content(from: nil).elements().compactMap { $0 as? TextContentElement }
            .map { ($0.segments.first?.language?.code, $0.segments.first?.languageSource ?? .publication) }
    }

    @Test func englishUnderAFrenchLabelIsSpokenInEnglish() throws {
        let found = try Self.languages([TestBooks.xhtml([Self.english, "Chapter one."])], dcLanguage: "fr")
        #expect(found.map(\.code) == ["en", "en"], "the whole document's text decides, the short line too")
        #expect(found.allSatisfy { $0.source == .identified })
    }

    @Test func frenchWithNoLabelAtAllIsSpokenInFrench() throws {
        let found = try Self.languages([TestBooks.xhtml([Self.french])], dcLanguage: nil)
        #expect(found.map(\.code) == ["fr"])
    }

    @Test func theLabelBreaksATieAndKeepsItsRegion() throws {
        let found = try Self.languages([TestBooks.xhtml([Self.english])], dcLanguage: "en-GB")
        #expect(found.map(\.code) == ["en-GB"] && found.first?.source == .identified)
    }

    @Test func aDeclaredLanguageIsKeptWhateverTheTextLooksLike() throws {
        let found = try Self.languages([TestBooks.xhtml([Self.english], lang: "de")], dcLanguage: "fr")
        #expect(found.map(\.code) == ["de"] && found.first?.source == .declared)
    }

    @Test func tooLittleTextFallsBackToTheLabel() throws {
        let found = try Self.languages([TestBooks.xhtml(["Page 2"])], dcLanguage: "fr")
        #expect(found.map(\.code) == ["fr"] && found.first?.source == .publication)
    }

    /// W3C pkg-lang_but_not_content: "the content document should not become automatically 'fr'".
    @Test(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
    func theW3CBookLabelledFrenchIsReadInEnglish() throws {
        let publication = try EPUBParser(languageIdentifier: Self.identifier)
            .parse(container: ZIPContainer(url: Corpus.file("epub/w3c-epub-tests/pkg-lang_but_not_content.epub")))
        let languages = try publication.content(from: nil).elements().compactMap { ($0 as? TextContentElement)?.segments.first?.language?.code }
        #expect(!languages.isEmpty && languages.allSatisfy { $0 == "en" }, "\(languages)")
    }
}
