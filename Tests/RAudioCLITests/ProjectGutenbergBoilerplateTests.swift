// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// Project Gutenberg EPUB 2 books made before its ebookmaker marked the header and licence (`pg-boilerplate`),
/// such as PG #64999, read the licence aloud (issue #51): 150 words first, 2,906 at the end. Recognised by their
/// text, as in text files, they are asides, which `speak` skips.
@Suite struct ProjectGutenbergBoilerplateTests {
    static let licence = String(repeating: "Project Gutenberg is synonymous with the free distribution of electronic works. ", count: 20)

    /// A book laid out as PG's old EPUBs are: the header in a `pre` ending with the START line, then the book;
    /// the last page ends the book with "End of the Project Gutenberg EBook", the END line and the licence; a
    /// last page holds the full licence under its heading.
    static func oldLayoutBook() throws -> URL {
        func page(_ body: String) -> String {
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>t</title></head><body>\(body)</body></html>"
        }
        let first = page("""
            <pre>
            The Project Gutenberg EBook of The Old Book, by A. Writer

            This eBook is for the use of anyone anywhere at no cost and with
            almost no restrictions whatsoever.  You may copy it, give it away or
            re-use it under the terms of the Project Gutenberg License included
            with this eBook or online at www.gutenberg.org

            Title: The Old Book
            Author: A. Writer
            Release Date: March 1, 2021 [EBook #64999]
            Language: English

            *** START OF THIS PROJECT GUTENBERG EBOOK THE OLD BOOK ***
            </pre>
            <h2>CHAPTER I.</h2><p>The story begins on a quiet morning.</p>
            """)
        let second = page("""
            <h2>CHAPTER II.</h2><p>The story ends on a quiet evening.</p>
            <p>End of the Project Gutenberg EBook of The Old Book, by A. Writer</p>
            <p>*** END OF THIS PROJECT GUTENBERG EBOOK THE OLD BOOK ***</p>
            <p>***** This file should be named 64999-h.htm or 64999-h.zip *****</p><p>\(licence)</p>
            """)
        let third = page("<h2>THE FULL PROJECT GUTENBERG LICENSE</h2><p>\(licence)</p><p>\(licence)</p>")
        return try TestBooks.epub(pages: [("p1.xhtml", "application/xhtml+xml", first), ("p2.xhtml", "application/xhtml+xml", second),
                                          ("p3.xhtml", "application/xhtml+xml", third)], language: "en")
    }

    @Test func theHeaderAndLicenceOfAnOldLayoutAreAsidesThatSpeakSkips() throws {
        let book = try Self.oldLayoutBook()
        defer { try? FileManager.default.removeItem(at: book) }
        let all = try ProcessRunner.raudio(["text", book.path], timeout: 60)
        #expect(all.status == 0, "\(all.standardError)")
        let lines = try all.outputLines.compactMap { try JSONParser.parse(Array($0.utf8)).objectValue }
        let read = lines.filter { $0["role"]?.stringValue != "aside" }.compactMap { $0["text"]?.stringValue }
        #expect(read == ["CHAPTER I.", "The story begins on a quiet morning.", "CHAPTER II.", "The story ends on a quiet evening."], "\(read)")
        let asideWords = lines.filter { $0["role"]?.stringValue == "aside" }.compactMap { $0["text"]?.stringValue }
            .reduce(0) { $0 + $1.split(whereSeparator: \.isWhitespace).count }
        #expect(asideWords > 600, "the header and licence are there, as asides: \(asideWords) words")
        // `speak`'s default `--skip`: what it reads is the book alone.
        let spoken = try ProcessRunner.raudio(["text", book.path, "--skip", "aside,endnote,footnote,pagebreak"], timeout: 60)
        let words = try spoken.outputLines.compactMap { try JSONParser.parse(Array($0.utf8)).objectValue?["text"]?.stringValue }
            .reduce(0) { $0 + $1.split(whereSeparator: \.isWhitespace).count }
        #expect(words == 18, "\(spoken.standardOutput)")
    }
}
