// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

@testable import ReadiumStreamer

/// HTML pages that are not XML, as most web pages are, read whole (`XMLDocument.Mode.html`): libxml2's HTML
/// parser reads what the XML repairs cannot, as a browser would.
struct HTMLPageParserTests {
    static let page = """
        <!DOCTYPE html>
        <html lang=en>
        <head>
        <meta charset=utf-8>
        <title>Messy &amp; real</title>
        <script>if (a < b && c) { document.write("<p>x</p>"); }</script>
        </head>
        <body>
        <nav><ul><li><a href=/>Home<li><a href=/about>About</ul></nav>
        <h1 id=title>A real article</h1>
        <p>First paragraph with a&nbsp;non-breaking space and &copy; 2026.
        <p>Second paragraph, unclosed, with <b>bold</b> text.
        <p>Third, with an <img src=x.png alt="inline picture"> and <br> a break.
        <table><tr><td>Cell one<td>Cell two</table>
        <p>Fourth paragraph &amp; the last one.
        </body>
        </html>
        """

    @Test func aPageThatIsNotXMLIsReadWholeAsHTML() throws {
        let document = try XMLDocument(data: Data(Self.page.utf8), href: "page.html", mode: .html)
        #expect(document.root.localName == "html")
        #expect(document.root.attribute("lang") == "en")
        let body = try #require(document.root.firstChild("body"))
        let paragraphs = body.descendants.filter { $0.localName == "p" }.map(\.normalizedText)
        #expect(paragraphs == ["First paragraph with a non-breaking space and © 2026.", "Second paragraph, unclosed, with bold text.",
                               "Third, with an and a break.", "Fourth paragraph & the last one."], "\(paragraphs)")
        #expect(body.descendants.first { $0.localName == "p" }?.textContent.contains("a\u{A0}non-breaking") == true, "&nbsp; is a no-break space")
        #expect(body.descendants.filter { $0.localName == "td" }.map(\.normalizedText) == ["Cell one", "Cell two"])
        #expect(body.descendants.first { $0.localName == "img" }?.attribute("alt") == "inline picture")
        #expect(body.descendants.first { $0.localName == "h1" }?.attribute("id") == "title")
        // HTML read as HTML is no mistake: neither the XML repairs tried first nor the bare `&` of its script
        // are reported.
        #expect(document.warnings.isEmpty, "\(document.warnings)")
    }

    /// A page the XML repairs can read (void elements closed, a missing end tag) is read by them, as before:
    /// their warnings say so, and its elements are those of its own markup.
    @Test func aPageTheRepairsCanReadIsNotReparsed() throws {
        let page = "<html><body><div><p>One<br>two<img src=\"a.png\" alt=\"A\"></p><p>Three</div></body></html>"
        let document = try XMLDocument(data: Data(page.utf8), href: "page.html", mode: .html)
        #expect(document.warnings.contains { $0.message.contains("left open") }, "\(document.warnings)")
        #expect(document.root.firstChild("body")?.firstChild("div")?.childElements.map(\.localName) == ["p", "p"])
    }

    /// A page with an XHTML 1.0 DOCTYPE and its `xmlns`, served as HTML and not XML: read whole, its `xmlns`
    /// written once, no `id` added where the page has a `name`.
    @Test func anXHTMLDoctypePageThatIsNotXMLIsReadWhole() throws {
        let page = """
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml" lang=en><head><title>Old page</title></head>
            <body><a name=top></a><p>First\u{01} paragraph.<p>Second paragraph.</body></html>
            """
        let document = try XMLDocument(data: Data(page.utf8), href: "old.html", mode: .html)
        let body = try #require(document.root.firstChild("body"))
        #expect(body.descendants.filter { $0.localName == "p" }.map(\.normalizedText) == ["First paragraph.", "Second paragraph."])
        #expect(body.descendants.first { $0.localName == "a" }?.attribute("id") == nil)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
    }

    /// Only `.html` reads as HTML: an XHTML document that is not well-formed is still repaired or refused.
    @Test func xhtmlIsNotReadAsHTML() {
        #expect(throws: XMLError.self) {
            try XMLDocument(data: Data(Self.page.utf8), href: "page.xhtml", mode: .strict)
        }
    }
}
