// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

@testable import ReadiumStreamer

/// Lone pages and text files opened by `PublicationOpener` and read by the content service, as `raudio speak`
/// and `raudio text` read them.
struct TextDocumentParserTests {
    static let gutenbergText = """
        The Project Gutenberg eBook of A Short Book

        Title: A Short Book

        Author: Jane Doe

        Language: French

        *** START OF THE PROJECT GUTENBERG EBOOK ***

        CHAPTER I.

        Il était une fois une lampe qui ne voulait plus
        briller. Personne ne savait pourquoi.

        Le gardien monta l'escalier.

        *** END OF THE PROJECT GUTENBERG EBOOK ***

        CHAPTER 2. The licence, not a chapter.
        """

    static let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="author" content="Herman Melville">
        <title>Moby Dick; Or, The Whale</title>
        <link rel="stylesheet" href="style.css">
        </head>
        <body>
        <h1>MOBY-DICK</h1>
        <h2 id="chap1">CHAPTER 1. Loomings.</h2>
        <p>Call me Ishmael.&nbsp;Some years ago<br>never mind how long.</p>
        <img src="whale.jpg" alt="A whale">
        <h2><a id="chap2"></a>CHAPTER 2. The Carpet-Bag.</h2>
        <p>I stuffed a shirt or two into my old carpet-bag.</p>
        </body>
        </html>
        """

    /// The text elements of `publication`, in reading order, through its content service.
    static func texts(of publication: Publication) throws -> [TextContentElement] {
        let iterator = try publication.content(from: nil).iterator()
        var texts: [TextContentElement] = []
        while let element = try iterator.next() {
            if let text = element as? TextContentElement { texts.append(text) }
        }
        return texts
    }

    @Test func aTextFileIsABookOfParagraphsTitledByItsHeader() throws {
        let folder = try TemporaryFolder()
        try folder.write("short-book.txt", Data(Self.gutenbergText.utf8))
        let publication = try PublicationOpener().open(url: folder.url.appendingPathComponent("short-book.txt"))
        #expect(publication.mediaType == .text)
        #expect(publication.title == "A Short Book")
        #expect(publication.metadata.authors.map(\.name.string) == ["Jane Doe"])
        #expect(publication.metadata.languages == ["fr"])
        #expect(publication.readingOrder.map(\.href) == ["short-book.txt"])
        // Its heading is its chapter, found where it starts by the content service.
        #expect(publication.tableOfContents.map(\.href) == ["short-book.txt#line-10"])
        #expect(publication.tableOfContents.map(\.title) == ["CHAPTER I."])
        let service = try #require(publication.extensions[ContentServiceKey.key] as? EPUBContentService)
        let chapterStart = try #require(service.progressions(ofFragments: ["line-10"], in: "short-book.txt")["line-10"])
        #expect(chapterStart > 0.3 && chapterStart < 0.8)
        let texts = try Self.texts(of: publication)
        let chapter = try #require(texts.firstIndex { $0.text.contains("CHAPTER I.") })
        // A paragraph wrapped over two lines is one element; its quote is the file's own text.
        #expect(texts[(chapter + 1)..<(chapter + 3)].map(\.text) == ["Il était une fois une lampe qui ne voulait plus briller. Personne ne savait pourquoi.",
                                                                        "Le gardien monta l'escalier."])
        // Project Gutenberg's header, up to its START line, is an aside, which `speak` skips.
        #expect(texts[..<chapter].allSatisfy { $0.role == .aside } && texts[..<chapter].count == 5)
        #expect(texts[chapter...].map(\.role) == [.heading(level: 2), .body, .body, .aside, .aside])
        for element in texts {
            #expect(element.locator.href == "short-book.txt" && element.locator.type == "text/plain")
            let quote = try #require(element.locator.text.highlight)
            #expect(Self.gutenbergText.contains(quote), "\(quote)")
            #expect(element.segments.allSatisfy { $0.language?.code == "fr" })
        }
        let progressions = texts.compactMap(\.locator.locations.progression)
        #expect(progressions == progressions.sorted() && progressions.count == texts.count)
    }

    /// A Project Gutenberg text lists its chapters before the book: the table of contents goes to the
    /// chapters, not to that list. A list whose entries head nothing else (and parts heading chapters) stay.
    @Test func aListOfContentsIsNotTheChapters() {
        let text = """
            CONTENTS

            CHAPTER 1. Loomings.

            CHAPTER 2. The Carpet-Bag.

            Chapter 3.  The Spouter-Inn.

            CHAPTER 1. Loomings.

            Call me Ishmael.

            CHAPTER 2. The Carpet-Bag.

            I stuffed a shirt or two.

            CHAPTER 3. The Spouter-Inn.

            Entering that gable-ended Spouter-Inn.

            BOOK II

            CHAPTER 4. The Counterpane.

            Upon waking next morning.
            """
        let toc = TextDocumentParser.manifest(ofText: text, href: "moby.txt", name: "moby").tableOfContents
        #expect(toc.map(\.title) == ["CHAPTER 1. Loomings.", "CHAPTER 2. The Carpet-Bag.", "CHAPTER 3. The Spouter-Inn.", "BOOK II",
                                     "CHAPTER 4. The Counterpane."])
        #expect(toc.first?.href == "moby.txt#line-8")
        // Moby-Dick's list ends with its last chapter and then "Epilogue", which is no heading: the list's last
        // entry is no chapter either.
        let ending = "CHAPTER 1.\n\nCHAPTER 2.\n\nCHAPTER 3.\n\nEpilogue\n\nCHAPTER 1.\n\nCall me Ishmael.\n\nCHAPTER 2.\n\nI stuffed.\n\nCHAPTER 3.\n\nEntering.\n\nEpilogue\n\nThe drama's done."
        #expect(TextDocumentParser.manifest(ofText: ending, href: "m.txt", name: "m").tableOfContents.map(\.href) == ["m.txt#line-8", "m.txt#line-12", "m.txt#line-16"])
        let listOnly = "CHAPTER 1.\n\nCHAPTER 2.\n\nCHAPTER 3.\n\nThe end."
        #expect(TextDocumentParser.manifest(ofText: listOnly, href: "t.txt", name: "t").tableOfContents.count == 3)
    }

    @Test func aTextWithoutHeaderIsTitledByItsName() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes.txt", Data("Buy milk.\nCall the plumber.\n".utf8))
        let publication = try PublicationOpener().open(url: folder.url.appendingPathComponent("notes.txt"))
        #expect(publication.title == "notes")
        #expect(publication.metadata.languages.isEmpty)
        #expect(try Self.texts(of: publication).map(\.text) == ["Buy milk.", "Call the plumber."])
    }

    @Test func anHTMLPageIsReadToItsEndDespiteItsVoidElements() throws {
        let folder = try TemporaryFolder()
        try folder.write("moby.html", Data(Self.page.utf8))
        let publication = try PublicationOpener().open(url: folder.url.appendingPathComponent("moby.html"))
        #expect(publication.mediaType == .html)
        #expect(publication.title == "Moby Dick; Or, The Whale")
        #expect(publication.metadata.authors.map(\.name.string) == ["Herman Melville"])
        #expect(publication.metadata.languages == ["en"])
        #expect(publication.tableOfContents.map(\.href) == ["moby.html#chap1", "moby.html#chap2"])
        #expect(publication.tableOfContents.map(\.title) == ["CHAPTER 1. Loomings.", "CHAPTER 2. The Carpet-Bag."])
        let texts = try Self.texts(of: publication)
        // `<img>` and `<br>` left open, as HTML writes them, swallow nothing after them.
        #expect(texts.map(\.text) == ["MOBY-DICK", "CHAPTER 1. Loomings.", "Call me Ishmael.\u{A0}Some years ago\nnever mind how long.",
                                      "CHAPTER 2. The Carpet-Bag.", "I stuffed a shirt or two into my old carpet-bag."])
        let service = try #require(publication.extensions[ContentServiceKey.key] as? EPUBContentService)
        #expect(service.warnings.warnings.isEmpty, "\(service.warnings.warnings)")
        // The chapters' places are found in the page, the second after the first.
        let places = service.progressions(ofFragments: ["chap1", "chap2"], in: "moby.html")
        let first = try #require(places["chap1"]), second = try #require(places["chap2"])
        #expect(0 < first && first < second && second < 1)
    }

    @Test(arguments: [("LANG", "fr_FR.UTF-8", "fr"), ("LC_ALL", "de_DE", "de"), ("LANG", "C.UTF-8", nil), ("LANG", "POSIX", nil)] as [(String, String, String?)])
    func theUserLanguageComesFromTheLocale(variable: String, value: String, expected: String?) {
        #expect(TextDocumentParser.userLanguage(environment: [variable: value])?.code == expected)
    }

    @Test func aLanguageIsNamedInEnglishOrByItsCode() {
        #expect(TextDocumentParser.languageCode(named: "English") == "en")
        #expect(TextDocumentParser.languageCode(named: " german ") == "de")
        #expect(TextDocumentParser.languageCode(named: "fi") == "fi")
        #expect(TextDocumentParser.languageCode(named: "Klingonese") == nil)
    }

    @Test(arguments: [("book.epub", "<!DOCTYPE html><html><body>404 Not Found</body></html>", "an HTML page"),
                      ("track.mp3", "rubbish\n", "text")])
    func textUnderAPackageOrAudioNameIsABrokenFileNotAPage(name: String, content: String, holds: String) throws {
        let folder = try TemporaryFolder()
        try folder.write(name, Data(content.utf8))
        #expect {
            try PublicationOpener().open(url: folder.url.appendingPathComponent(name))
        } throws: { error in
            let opening = error as! OpeningError
            return opening.code == .badData && opening.message.contains("holds \(holds)") && opening.message.contains("download")
        }
    }

    @Test func binaryDataIsNotText() throws {
        let folder = try TemporaryFolder()
        try folder.write("data.bin", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))
        #expect(throws: OpeningError.self) { try PublicationOpener().open(url: folder.url.appendingPathComponent("data.bin")) }
    }
}
