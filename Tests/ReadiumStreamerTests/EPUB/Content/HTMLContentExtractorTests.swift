// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
@testable import ReadiumStreamer
import Testing

@Suite struct HTMLContentExtractorTests {
    func extract(_ body: String, language: String? = "en") throws -> [any ContentElement] {
        let xhtml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>T</title>
        <style>p { color: red }</style><script>var x = "not text";</script></head>
        <body>\(body)</body></html>
        """
        let document = try XMLDocument(string: xhtml, href: "OEBPS/chapter.xhtml", mode: .recovering)
        let extractor = HTMLContentExtractor(
            href: "OEBPS/chapter.xhtml", type: "application/xhtml+xml", defaultLanguage: language.map(Language.init(code:)),
            totalProgressionRange: 0.5..<0.75)
        return extractor.extract(document).elements.map(\.element)
    }

    func texts(_ elements: [any ContentElement]) -> [String] {
        elements.compactMap { ($0 as? TextContentElement)?.text }
    }

    @Test func whiteSpaceCollapsesAndInlineElementsJoinAsInABrowser() throws {
        let elements = try extract("<p>  The   <em>quick</em>\n\t brown <span>fox</span> .</p><div>\n</div><p>&#160;A&#160;&#160;b</p>")
        #expect(texts(elements) == ["The quick brown fox .", "A\u{00A0}\u{00A0}b"])
    }

    /// In a `text/html` page the browser puts rows written directly in a table in a `tbody` of their own: the
    /// selectors name it there, as the page the browser shows has it; an XHTML document's rows stay where written.
    @Test func rowsOfAnHTMLTableAreInTheBodyTheBrowserAdds() throws {
        let page = "<html><body><table><caption>Log</caption><tr><td>Wind</td></tr>\n<tr><td>Sea</td></tr><tfoot><tr><td>End</td></tr></tfoot><tr><td>Late</td></tr></table></body></html>"
        let selectors = { (impliesTableBodies: Bool) throws -> [String] in
            var extractor = HTMLContentExtractor(href: "page.html", type: "text/html", defaultLanguage: Language(code: "en"), totalProgressionRange: 0..<1)
            extractor.impliesTableBodies = impliesTableBodies
            let document = try XMLDocument(string: page, href: "page.html", mode: .html)
            return extractor.extract(document).elements.compactMap { ($0.element as? TextContentElement)?.locator.locations.cssSelector }
        }
        let table = "html > body > table:nth-child(1)"
        #expect(try selectors(true) == ["\(table) > caption:nth-child(1)", "\(table) > tbody:nth-child(2) > tr:nth-child(1) > td:nth-child(1)",
                                        "\(table) > tbody:nth-child(2) > tr:nth-child(2) > td:nth-child(1)",
                                        "\(table) > tfoot:nth-child(3) > tr:nth-child(1) > td:nth-child(1)",
                                        "\(table) > tbody:nth-child(4) > tr:nth-child(1) > td:nth-child(1)"])
        #expect(try selectors(false)[1] == "\(table) > tr:nth-child(2) > td:nth-child(1)")
    }

    @Test func scriptsStylesHiddenElementsAndRubyAnnotationsAreSkipped() throws {
        let elements = try extract("""
        <p>Seen<span hidden="hidden"> hidden</span><span aria-hidden="true"> aria</span><span style="display: none"> css</span>.</p>
        <script>alert("no")</script><p><ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp>字<rt>ji</rt></ruby></p>
        """)
        #expect(texts(elements) == ["Seen.", "漢字"])
    }

    @Test func lineBreaksSurviveCollapsing() throws {
        #expect(texts(try extract("<p>April is the cruellest month, breeding<br/>\n   Lilacs out of the dead land</p>")) == [
            "April is the cruellest month, breeding\nLilacs out of the dead land",
        ])
    }

    @Test func rolesComeFromElementsAndEPUBTypes() throws {
        let elements = try extract("""
        <h2>Chapter</h2><p>Body <span epub:type="pagebreak" id="p5" title="5">5</span> text.</p>
        <blockquote><p>Quoted</p></blockquote><ul><li>Item</li></ul>
        <table><caption>Table caption</caption><tr><td>Cell</td></tr></table>
        <aside epub:type="footnote" id="fn1"><p>A footnote.</p></aside><aside><p>Sidebar</p></aside>
        <section epub:type="endnotes"><ol><li epub:type="endnote"><p>An endnote.</p></li></ol></section>
        <div role="doc-pagebreak" aria-label="6">6</div>
        """)
        let roles = elements.compactMap { $0 as? TextContentElement }.map { "\($0.role.name):\($0.text)" }
        #expect(roles == [
            "heading:Chapter", "body:Body", "pagebreak:5", "body:text.", "quote:Quoted", "listitem:Item",
            "caption:Table caption", "tablecell:Cell", "footnote:A footnote.", "aside:Sidebar", "endnote:An endnote.", "pagebreak:6",
        ])
        #expect((elements.first as? TextContentElement)?.role == .heading(level: 2))
        #expect(elements.filter(\.role.isSkippable).count == 5)
    }

    /// A note's or an aside's heading and list items are part of it: skipping notes skips their headings.
    /// Project Gutenberg's licence header and footer are asides.
    @Test func whatIsInsideANoteOrAnAsideHasItsRole() throws {
        let elements = try extract("""
        <section class="pg-boilerplate pgheader" id="pg-header"><h2>The Project Gutenberg eBook of X</h2><p>Use it freely.</p></section>
        <h1>Chapter 1</h1><blockquote><p>Quoted</p></blockquote>
        <section epub:type="endnotes"><h2>Notes</h2><ol><li>First note.</li></ol></section>
        <aside><h3>Sidebar title</h3><table><tr><td>Cell</td></tr></table></aside>
        <div id="pg-footer"><p>The licence.</p></div>
        """)
        let roles = elements.compactMap { $0 as? TextContentElement }.map { "\($0.role.name):\($0.text)" }
        #expect(roles == [
            "aside:The Project Gutenberg eBook of X", "aside:Use it freely.", "heading:Chapter 1", "quote:Quoted",
            "endnote:Notes", "endnote:First note.", "aside:Sidebar title", "aside:Cell", "aside:The licence.",
        ])
    }

    @Test func languageChangesStartSegmentsAndAreInherited() throws {
        let elements = try extract("""
        <p>Summer surprised us. <span xml:lang="de">Bin gar keine Russin, <em>stamm' aus Litauen</em></span>, echt deutsch.</p>
        <div lang="fr"><p>Bonjour <span lang="">vide</span></p></div>
        """)
        let first = try #require(elements.first as? TextContentElement)
        #expect(first.segments.map(\.text) == ["Summer surprised us. ", "Bin gar keine Russin, stamm' aus Litauen", ", echt deutsch."])
        #expect(first.segments.map { $0.language?.code } == ["en", "de", "en"])
        #expect(first.segments[1].locator.text.highlight == "Bin gar keine Russin, stamm' aus Litauen")
        #expect(first.segments[1].locator.text.before == "Summer surprised us. ")
        let second = try #require(elements.last as? TextContentElement)
        #expect(second.segments.map { $0.language?.code } == ["fr"])
    }

    @Test func imagesCarryAltTextAndFigureCaptionAndMediaTheirSources() throws {
        let elements = try extract("""
        <figure id="fig1"><img src="../images/cat.jpg" alt="A cat asleep"/><figcaption>Figure 1. The cat.</figcaption></figure>
        <audio src="audio/a.mp3"><source src="audio/a.ogg"/>fallback</audio><video><source src="v.mp4"/></video>
        """)
        let image = try #require(elements.first as? ImageContentElement)
        #expect(image.embeddedLink.href == "images/cat.jpg")
        #expect(image.embeddedLink.type == "image/jpeg")
        #expect(image.accessibilityLabel == "A cat asleep")
        #expect(image.caption == "Figure 1. The cat.")
        #expect(image.locator.locations.cssSelector == "html > body > figure:nth-child(1) > img:nth-child(1)")
        #expect(texts(elements) == ["Figure 1. The cat."])
        let audio = try #require(elements.first { $0 is AudioContentElement } as? AudioContentElement)
        #expect(audio.sources.map(\.href) == ["OEBPS/audio/a.mp3", "OEBPS/audio/a.ogg"])
        let video = try #require(elements.last as? VideoContentElement)
        #expect(video.sources.map(\.href) == ["OEBPS/v.mp4"])
    }

    @Test func selectorsUseIdsElseChildIndexPaths() throws {
        let elements = try extract("<div><h1>Title</h1><p>One</p><p id=\"second\">Two</p><p id=\"2bad\">Three</p></div>")
        #expect(elements.map { $0.locator.locations.cssSelector } == [
            "html > body > div:nth-child(1) > h1:nth-child(1)", "html > body > div:nth-child(1) > p:nth-child(2)", "#second",
            "html > body > div:nth-child(1) > p:nth-child(4)",
        ])
    }

    @Test func locatorsGiveProgressionsAndContext() throws {
        let elements = try extract("<p>First paragraph.</p><p>Second paragraph.</p>")
        let locators = elements.map(\.locator)
        #expect(locators[0].locations.progression == 0)
        #expect(locators[0].locations.totalProgression == 0.5)
        let second = try #require(locators[1].locations.progression)
        #expect(second > 0.4 && second < 0.6)
        #expect(locators[1].locations.totalProgression == 0.5 + 0.25 * second)
        // The context stays inside the selected element, where a visual navigator searches for it.
        #expect(locators[1].text == Locator.Text(highlight: "Second paragraph."))
        #expect(locators[0].text == Locator.Text(highlight: "First paragraph."))
    }

    @Test func noElementIsEmptyOrWhitespaceOnly() throws {
        let elements = try extract("<p> </p><p>&#160;</p><div>\n\n<span> </span></div><p><br/></p><p>x</p>")
        #expect(texts(elements) == ["x"])
    }
}

@Suite struct HTMLContentExtractorMalformedTests {
    @Test func unescapedMarkupInAScriptDoesNotCrashTheExtraction() throws {
        let xhtml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>T</title>
        <style>p { color: red }</style><script>var x = "<not text>";</script></head>
        <body><p>Body <span epub:type="pagebreak" id="p5" title="5">5</span> text.</p><div><h1>Title</h1><p id="x">One</p></div>
        <p>April is the cruellest month, breeding<br/>Lilacs</p></body></html>
        """
        let document = try XMLDocument(string: xhtml, href: "c.xhtml", mode: .recovering)
        let extractor = HTMLContentExtractor(href: "c.xhtml", type: "application/xhtml+xml", defaultLanguage: nil, totalProgressionRange: 0..<1)
        let elements = extractor.extract(document).elements
        #expect(elements.allSatisfy { ($0.element.spokenText ?? "").isEmpty == false })
    }
}

/// Note references (`epub:type="noteref"`, `role="doc-noteref"`) inside a paragraph.
@Suite struct HTMLContentExtractorNoteRefTests {
    @Test func noteReferencesStayInTheTextAsInlineRunsThatAReaderAloudCanRemove() throws {
        let elements = try HTMLContentExtractorTests().extract("""
        <p>The sea<a epub:type="noteref" href="#n1">12</a> and <span lang="fr">la mer <sup><a role="doc-noteref" href="#n2">3</a></sup></span> and the sky.</p>
        """)
        let paragraph = try #require(elements.first as? TextContentElement)
        #expect(paragraph.text == "The sea12 and la mer 3 and the sky.")
        let runs = paragraph.segments.map { segment in segment.inlineRuns.map { run in
            String(Array(segment.text)[run.range]) + ":" + run.role.name
        } }
        #expect(runs == [["12:noteref"], ["3:noteref"], []], "\(paragraph.segments.map(\.text))")
        let spoken = paragraph.removingInlineRuns(withRoles: ["noteref"])
        #expect(spoken.text == "The sea and la mer and the sky.")
        #expect(spoken.segments.map(\.language?.code) == ["en", "fr", "en"])
        // A highlight is one contiguous range of the page, so it still spans the reference the voice skips.
        #expect(spoken.segments.map(\.locator.text.highlight) == ["The sea12 and", "la mer 3", "and the sky."])
        #expect(paragraph.removingInlineRuns(withRoles: ["pagebreak"]) == paragraph)
    }
}
