// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing
import RAudioTestSupport

@testable import ReadiumStreamer

/// A DOCTYPE with an internal subset, where entities are declared, is refused however it is written (issue #51:
/// looking for the text `<!ENTITY` was bypassed three ways), and no entity is ever expanded.
@Suite("XML entity declarations")
struct XMLEntityRefusalTests {
    static let expanded = "ENTITY-EXPANDED"

    /// DOCTYPEs whose subset declares `secret`, each written to get past a scan for `<!ENTITY`.
    static let disguisedSubsets: [String] = [
        // A `<!DOCTYPE` quoted in a comment first: the scan stopped at that one's `>`.
        "<!-- <!DOCTYPE x> --><!DOCTYPE html [<!ENTITY secret \"\(expanded)\">]>",
        // A quote in a comment of the subset: the declaration read as quoted text.
        "<!DOCTYPE html [<!-- ' --><!ENTITY secret \"\(expanded)\"><!-- ' -->]>",
        // A `]` in a comment of the subset: the subset taken as closed before the declaration.
        "<!DOCTYPE html [<!-- ] --><!ENTITY secret \"\(expanded)\">]>",
        // A parameter entity declaring the entity.
        "<!DOCTYPE html [<!ENTITY % p \"<!ENTITY secret '\(expanded)'>\"> %p;]>",
        // After the XML declaration, a processing instruction and white space.
        "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.css\"?>\n<!DOCTYPE html\n  SYSTEM \"a]b.dtd\" [\n<!ENTITY secret \"\(expanded)\">]>",
        // Written in lower case, as HTML allows.
        "<!doctype html [<!ENTITY secret \"\(expanded)\">]>",
    ]

    static func page(_ prolog: String) -> String {
        prolog + "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>t</title></head><body><p>a &secret; b</p></body></html>"
    }

    @Test(arguments: disguisedSubsets)
    func aDisguisedInternalSubsetIsRefusedInEveryMode(prolog: String) {
        for mode in [XMLDocument.Mode.strict, .recovering, .html] {
            #expect(performing: { try XMLDocument(string: Self.page(prolog), href: "OEBPS/p.xhtml", mode: mode) }, throws: { error in
                guard let error = error as? XMLError else { return false }
                return error.code == .entityDeclaration && error.description.contains("OEBPS/p.xhtml")
            })
        }
    }

    /// What is not refused expands nothing: an empty subset-less DOCTYPE, a DOCTYPE after the root (not XML), an
    /// external DTD that would declare the entity (never loaded).
    @Test func nothingIsEverExpanded() throws {
        let folder = try TemporaryDirectory()
        let dtd = folder.url.appendingPathComponent("evil.dtd")
        try Data("<!ENTITY secret \"\(Self.expanded)\">".utf8).write(to: dtd)
        let pages = [
            Self.page("<!DOCTYPE html SYSTEM \"\(dtd.absoluteString)\">"),
            Self.page("<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.1//EN\" \"\(dtd.path)\">"),
            "<html><body><p>a &secret; b</p></body></html><!DOCTYPE html [<!ENTITY secret \"\(Self.expanded)\">]>",
            "<p>text first</p><!DOCTYPE html [<!ENTITY secret \"\(Self.expanded)\">]><p>&secret;</p>",
        ]
        for page in pages {
            for mode in [XMLDocument.Mode.strict, .recovering, .html] {
                guard let document = try? XMLDocument(string: page, href: "p.xhtml", mode: mode) else { continue }
                #expect(!document.root.textContent.contains(Self.expanded), "\(mode): \(page)")
            }
        }
    }
}
