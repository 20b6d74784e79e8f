// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

@testable import ReadiumStreamer

/// The tree builder's depth limit (issue #51): elements nested deeper than `XMLTreeBuilder.maximumDepth` are
/// flattened into their ancestor at that depth, their text kept in order, with one warning naming the document.
@Suite("XMLTreeBuilder depth limit")
struct XMLTreeBuilderDepthTests {
    /// `levels` nested `div`s in an XHTML body, "level N" written at the start of each, "the end" after them.
    static func nested(_ levels: Int) -> String {
        var xml = "<html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\"><body>"
        for level in 1...levels { xml += "<div class=\"d\">level \(level) " }
        xml += String(repeating: "</div>", count: levels)
        return xml + "<p epub:type=\"z\">the end</p></body></html>"
    }

    /// The depth of the tree under `root` (the root is at depth 1), counted without recursion.
    static func depth(of root: XMLElement) -> Int {
        var deepest = 1
        var pending: [(XMLElement, Int)] = [(root, 1)]
        while let (element, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            pending += element.childElements.map { ($0, depth + 1) }
        }
        return deepest
    }

    @Test(arguments: [XMLDocument.Mode.strict, .recovering, .html])
    func elementsDeeperThanTheLimitAreFlattenedWithTheirTextAndOneWarning(mode: XMLDocument.Mode) throws {
        let levels = 1_000
        let document = try XMLDocument(string: Self.nested(levels), href: "OEBPS/deep.xhtml", mode: mode)
        #expect(Self.depth(of: document.root) == XMLTreeBuilder.maximumDepth)
        let expected = (1...levels).map { "level \($0) " }.joined() + "the end"
        #expect(document.root.textContent == expected)
        let warnings = document.warnings.filter { $0.message.contains("nested more than") }
        #expect(warnings.count == 1, "\(document.warnings)")
        let warning = try #require(warnings.first)
        #expect(warning.source == "OEBPS/deep.xhtml")
        // html > body > 254 divs reach the limit: the 255th div is the first one flattened.
        #expect(warning.message.hasPrefix("\(levels - (XMLTreeBuilder.maximumDepth - 2)) elements nested more than 256 levels deep"), "\(warning.message)")
        // The namespaces declared at the root still apply after the flattened elements end.
        let end = try #require(document.root.firstDescendant("p", namespace: XMLNamespace.xhtml))
        #expect(end.attribute("type", namespace: XMLNamespace.ops) == "z")
        #expect(document.parent(of: end)?.localName == "body")
    }

    @Test func aTreeAsDeepAsTheLimitIsKeptWhole() throws {
        let document = try XMLDocument(string: Self.nested(XMLTreeBuilder.maximumDepth - 2), href: "a.xhtml")
        #expect(Self.depth(of: document.root) == XMLTreeBuilder.maximumDepth)
        #expect(document.warnings.isEmpty)
        let innermost = try #require(document.root.descendants("div").last)
        #expect(innermost.indexPath.count == XMLTreeBuilder.maximumDepth - 1)
        #expect(document.element(at: innermost.indexPath) == innermost)
        #expect(document.parent(of: innermost)?.localName == "div")
    }

    /// 200,000 levels (600 KB of tags): parsed without exhausting the stack, into a tree at most 256 deep.
    @Test func twoHundredThousandLevelsParseIntoATreeAtTheLimit() throws {
        let levels = 200_000
        let xml = "<package xmlns=\"http://www.idpf.org/2007/opf\">" + String(repeating: "<x>", count: levels) + "deep"
            + String(repeating: "</x>", count: levels) + "<spine/></package>"
        let document = try XMLDocument(string: xml, href: "OEBPS/content.opf")
        #expect(Self.depth(of: document.root) == XMLTreeBuilder.maximumDepth)
        #expect(document.root.textContent == "deep")
        #expect(document.root.firstChild("spine", namespace: XMLNamespace.opf) != nil)
        #expect(document.warnings.count == 1)
    }

    /// A mismatched end tag below the limit is still repaired: the flattened elements are open elements too.
    @Test func aMismatchBelowTheLimitIsRepaired() throws {
        let levels = 300
        let xml = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>" + String(repeating: "<div>", count: levels)
            + "<i>left open" + String(repeating: "</div>", count: levels) + "<p>after</p></body></html>"
        let document = try XMLDocument(string: xml, href: "a.xhtml", mode: .recovering)
        #expect(document.root.normalizedText == "left openafter")
        #expect(document.root.firstDescendant("p")?.textContent == "after")
        #expect(document.warnings.contains { $0.message.contains("closed <i>") }, "\(document.warnings)")
    }
}
