// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing
import RAudioTestSupport

@testable import ReadiumStreamer

@Suite("XMLDocument parsing")
struct XMLDocumentTests {
    @Test func resolvesElementAndAttributeNamespaces() throws {
        let xml = """
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="fr">
            <body><nav epub:type="toc" id="n"><p>x</p></nav></body></html>
            """
        let document = try XMLDocument(string: xml, href: "nav.xhtml")
        #expect(document.root.namespaceURI == XMLNamespace.xhtml)
        #expect(document.root.declaredLanguage == "fr")
        let nav = try #require(document.root.firstDescendant("nav", namespace: XMLNamespace.xhtml))
        #expect(nav.attribute("type", namespace: XMLNamespace.ops) == "toc")
        #expect(nav.attribute("type") == nil)
        #expect(nav.attribute("id") == "n")
        #expect(nav.attribute(qualifiedName: "epub:type") == "toc")
        #expect(document.root.firstChild("nav") == nil)
        #expect(document.parent(of: nav)?.localName == "body")
        #expect(document.element(at: nav.indexPath) == nav)
    }

    @Test func replacesHTMLNamedEntitiesAndKeepsXMLOnes() throws {
        let document = try XMLDocument(string: "<p a=\"&eacute;\">caf&eacute;&nbsp;&mdash;&amp;&lt;&NotEqualTilde;&#x41;</p>", href: "a.xhtml")
        #expect(document.root.textContent == "café\u{A0}—&<\u{2242}\u{338}A")
        #expect(document.root.attribute("a") == "é")
    }

    @Test func keepsEntityTextInsideCDATAAndCommentsUntouched() throws {
        let document = try XMLDocument(string: "<p>a<!-- &nbsp; --><![CDATA[&nbsp;<b>]]>c</p>", href: "a.xhtml")
        #expect(document.root.children == [.text("a"), .cdata("&nbsp;<b>"), .text("c")])
    }

    @Test func entityTableHoldsEveryHTML5NameWithSemicolon() {
        #expect(HTMLEntities.codePoints.count == 2125)
        #expect(HTMLEntities.characters(for: "eacute") == "é")
        #expect(HTMLEntities.characters(for: "fjlig") == "fj")
    }

    @Test func acceptsUTF8ByteOrderMark() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data("<?xml version=\"1.0\"?><a>é</a>".utf8)
        #expect(try XMLDocument(data: data, href: "bom.xml").root.textContent == "é")
    }

    @Test(arguments: [String.Encoding.utf16BigEndian, .utf16LittleEndian, .utf16])
    func decodesUTF16Documents(encoding: String.Encoding) throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a x=\"ü\">日本&nbsp;</a>"
        let data = try #require(text.data(using: encoding))
        let document = try XMLDocument(data: data, href: "utf16.xml")
        #expect(document.root.textContent == "日本\u{A0}")
        #expect(document.root.attribute("x") == "ü")
    }

    @Test func malformedDocumentThrowsWithLineColumnAndHref() {
        #expect {
            try XMLDocument(string: "<a>\n<b>x</c>\n</a>", href: "OEBPS/bad.opf")
        } throws: { error in
            guard let error = error as? XMLError else { return false }
            return error.code == .xmlMalformed && error.line == 2 && error.column > 0
                && error.description.hasPrefix("OEBPS/bad.opf:2:")
        }
    }

    @Test func billionLaughsIsRefused() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <lolz>&lol2;</lolz>
            """
        #expect(throws: XMLError.self) { try XMLDocument(string: xml, href: "lol.xml") }
        #expect { try XMLDocument(string: xml, href: "lol.xml", mode: .recovering) } throws: {
            ($0 as? XMLError)?.code == .entityDeclaration
        }
    }

    @Test func externalEntityIsRefused() {
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><a>&xxe;</a>"
        #expect { try XMLDocument(string: xml, href: "xxe.xml") } throws: { ($0 as? XMLError)?.code == .entityDeclaration }
    }

    @Test func externalDTDIsNotLoadedAndNotAnError() throws {
        let xml = """
            <?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml"><body>a&hellip;</body></html>
            """
        #expect(try XMLDocument(string: xml, href: "c.xhtml").root.textContent == "a…")
    }

    @Test func documentsOverTheSizeLimitAreRefused() {
        #expect { try XMLDocument(data: Data(repeating: 0x20, count: 100), href: "big.xml", maximumSize: 10) } throws: {
            ($0 as? XMLError)?.code == .xmlTooLarge
        }
    }

    @Test func recoveringModeClosesUnclosedElementsAndWarns() throws {
        let xml = "<html><body><p>one<span>two</p><p>three</p></body></html>"
        #expect(throws: XMLError.self) { try XMLDocument(string: xml, href: "c.xhtml") }
        let document = try XMLDocument(string: xml, href: "c.xhtml", mode: .recovering)
        let paragraphs = document.root.descendants("p")
        #expect(paragraphs.map(\.textContent) == ["onetwo", "three"])
        #expect(paragraphs[0].firstChild("span")?.textContent == "two")
        #expect(document.warnings.count == 1)
        #expect(document.warnings.first?.source == "c.xhtml")
    }

    @Test func recoveringModeClosesVoidElementsWhereTheyStart() throws {
        let document = try XMLDocument(string: "<body><p>one<br>two<img src=\"a\">three</p></body>", href: "c.xhtml", mode: .recovering)
        let paragraph = try #require(document.root.firstChild("p"))
        #expect(paragraph.textContent == "onetwothree")
        #expect(paragraph.firstChild("br")?.children.isEmpty == true)
        #expect(paragraph.firstChild("img")?.attribute("src") == "a")
        #expect(document.warnings.count == 2)
    }

    @Test func recoveringModeDropsStrayEndTagsAndEscapesBareAmpersands() throws {
        let document = try XMLDocument(string: "<body><p>A & B &bogus;</em></p><p>c</p></body>", href: "c.xhtml", mode: .recovering)
        #expect(document.root.childElements.map(\.textContent) == ["A & B &bogus;", "c"])
        #expect(document.warnings.count == 3)
    }

    @Test func recoveringModeKeepsTruncatedDocumentUpToTheEnd() throws {
        let document = try XMLDocument(string: "<html><body><p>one</p><p>tw", href: "c.xhtml", mode: .recovering)
        #expect(document.root.descendants("p").map(\.textContent) == ["one", "tw"])
        #expect(document.warnings.count == 1)
    }

    @Test func recoveringModeStillFailsWithoutAnyElement() {
        #expect(throws: XMLError.self) { try XMLDocument(string: "just text", href: "c.xhtml", mode: .recovering) }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: [
        "readium/swift-toolkit/StreamerTests/Fixtures/OPF/full-metadata.opf",
        "readium/swift-toolkit/StreamerTests/Fixtures/Navigation Documents/nav.xhtml",
        "readium/swift-toolkit/StreamerTests/Fixtures/Navigation Documents/nav.ncx",
    ])
    func parsesCorpusDocuments(path: String) throws {
        let url = try Corpus.file(path)
        let document = try XMLDocument(data: Data(contentsOf: url), href: url.lastPathComponent)
        #expect(!document.root.descendants.isEmpty)
        #expect(document.warnings.isEmpty)
    }
}
