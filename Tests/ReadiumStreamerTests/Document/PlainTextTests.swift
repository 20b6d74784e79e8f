// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

@testable import ReadiumStreamer

struct PlainTextTests {
    @Test func paragraphsAreTheRunsOfLinesBetweenBlankLines() {
        let text = "\n\nCall me Ishmael. Some years ago--never mind how\nlong precisely--having little money.\n\n  \n\u{0C}\nIt is a way I have.\nOf driving off the spleen.\n\n"
        #expect(PlainText.paragraphs(of: text) == [
            PlainText.Paragraph(line: 2, text: "Call me Ishmael. Some years ago--never mind how\nlong precisely--having little money."),
            PlainText.Paragraph(line: 7, text: "It is a way I have.\nOf driving off the spleen."),
        ])
    }

    @Test func withoutBlankLinesALineThatEndsASentenceEndsItsParagraph() {
        let text = "Chapter one.\nThe storm came in the night and\nit did not stop until morning.\n« Bonjour »\nno end here"
        #expect(PlainText.paragraphs(of: text).map(\.text) == [
            "Chapter one.", "The storm came in the night and\nit did not stop until morning.", "« Bonjour »", "no end here",
        ])
        #expect(PlainText.paragraphs(of: text).map(\.line) == [0, 1, 3, 4])
        #expect(PlainText.paragraphs(of: " \n\t\n").isEmpty)
    }

    @Test(arguments: ["CHAPTER 1. Loomings.", "Chapter one.", "BOOK IV", "Chapitre trois", "XIV.", "12", "I", "PART THE FIRST", "Stave 2: The First of the Three Spirits",
                      "   CHAPTER 1.  ", "\tCHAPTER\tTWO", "\u{A0}Livre premier", "Chapter 56. Of the Less Erroneous Pictures of Whales, and the True"])
    func aShortLineNamingAChapterWithANumberIsAHeading(text: String) {
        #expect(PlainText.Paragraph(line: 0, text: text).isHeading)
    }

    @Test(arguments: ["CIVIL", "Chapter and verse were quoted at him.", "Part of the plan", "CHAPTER 1.\nLoomings.", "Call me Ishmael.",
                      "Chapter 3 was the longest of them all, and nobody in the village ever finished it", "A",
                      "   Call me 12", "The chapter 1"])
    func otherLinesAreNotHeadings(text: String) {
        #expect(!PlainText.Paragraph(line: 0, text: text).isHeading)
    }

    @Test func decodingReadsUTF8UTF16AndWindows1252() {
        #expect(PlainText.decode(Data([0xEF, 0xBB, 0xBF] + Array("café\r\nthé\rfin".utf8))) == "café\nthé\nfin")
        #expect(PlainText.decode(Data([0xFF, 0xFE, 0x63, 0x00, 0xE9, 0x00])) == "cé")
        // Not UTF-8: Latin-1 and Windows-1252 text (0x93 and 0x94 are its curly quotes).
        #expect(PlainText.decode(Data([0x63, 0x61, 0x66, 0xE9, 0x20, 0x93, 0x6F, 0x6B, 0x94])) == "café \u{201C}ok\u{201D}")
    }

    /// A paragraph with no character to escape is written as it is; one with a C1 control or a noncharacter
    /// (no markup around them) still has them as spaces.
    @Test func charactersXMLRefusesBecomeSpacesInAParagraphWithoutMarkup() throws {
        let text = "café crème\n\nnext\u{85}line and \u{FFFE}here, \u{7F}there"
        let document = try XMLDocument(data: PlainText.xhtml(of: text), href: "t.txt", mode: .strict)
        let body = try #require(document.root.firstChild("body"))
        #expect(body.childElements.map(\.textContent) == ["café crème", "next line and  here,  there"])
    }

    @Test func theDocumentKeepsEachParagraphsTextExactlyAndIsWellFormed() throws {
        let text = "Tom & Jerry <b>not bold</b> \"quoted\"\nsecond line\u{07}bell\n\nCHAPTER II.\n\nNext"
        let document = try XMLDocument(data: PlainText.xhtml(of: text, language: "en"), href: "t.txt", mode: .strict)
        let body = try #require(document.root.firstChild("body"))
        #expect(body.childElements.map(\.localName) == ["p", "h2", "p"])
        #expect(body.childElements.map { $0.attribute("id") ?? "" } == ["line-0", "line-3", "line-5"])
        #expect(body.childElements.map(\.textContent) == ["Tom & Jerry <b>not bold</b> \"quoted\"\nsecond line bell", "CHAPTER II.", "Next"])
        #expect(document.root.declaredLanguage == "en")
    }
}
