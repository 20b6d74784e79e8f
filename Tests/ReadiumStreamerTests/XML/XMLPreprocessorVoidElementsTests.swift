// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

@testable import ReadiumStreamer

struct XMLPreprocessorVoidElementsTests {
    func closed(_ html: String) -> String {
        String(decoding: XMLPreprocessor.closingVoidElements(Array(html.utf8)), as: UTF8.self)
    }

    @Test func voidStartTagsAreClosedWhereTheyStand() {
        #expect(closed(#"<p>a<br>b<BR >c<img src="x>y" alt='q>r'>d<hr/>e<meta charset=utf-8></p>"#)
            == #"<p>a<br/>b<BR />c<img src="x>y" alt='q>r'/>d<hr/>e<meta charset=utf-8/></p>"#)
    }

    @Test func endTagsCommentsScriptsAndOtherElementsAreLeftAlone() {
        let untouched = #"<!DOCTYPE html><!-- <br> --><![CDATA[<img>]]><br></br><br>  </BR><script>if (a<b && c) { x = "<br>" }</script><style>p > br { }</style><brx>t</brx><p>x</p>"#
        #expect(closed(untouched) == untouched)
    }

    @Test func anHTMLPageParsesWithoutRepairs() throws {
        let page = #"<html><head><meta charset="utf-8"><link rel="stylesheet" href="s.css"></head><body><p>One<br>two</p><img src="a.png"><p>Three</p></body></html>"#
        let document = try XMLDocument(data: Data(page.utf8), href: "p.html", mode: .html)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        let body = try #require(document.root.firstChild("body"))
        #expect(body.childElements.map(\.localName) == ["p", "img", "p"])
        // The same page as XHTML is repaired, with a warning for each element left open.
        let recovered = try XMLDocument(data: Data(page.utf8), href: "p.xhtml", mode: .recovering)
        #expect(!recovered.warnings.isEmpty)
    }
}
