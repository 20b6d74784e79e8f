// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// How the content extractor treats XHTML elements: which are blocks, which are skipped, which role
/// an element gives the text inside it.
enum HTMLElementRules {
    /// Elements whose start and end separate content elements, as block boxes do in a browser.
    static let blocks: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "dialog", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
        "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "thead", "tfoot",
        "tr", "td", "th", "ul",
    ]

    /// Elements never read: metadata (an HTML `head`, an SVG `metadata`), scripts, ruby annotations (`rt`, `rp`), templates.
    static let skipped: Set<String> = [
        "head", "script", "style", "template", "noscript", "rt", "rp", "title", "object", "iframe", "canvas", "metadata",
    ]

    /// Whether `element` is hidden from a reader (`hidden`, `aria-hidden="true"`, `display: none`) or skipped.
    static func isSkipped(_ element: XMLElement) -> Bool {
        if skipped.contains(element.localName) { return true }
        if element.attribute("hidden") != nil { return true }
        if element.attribute("aria-hidden")?.lowercased() == "true" { return true }
        if let style = element.attribute("style")?.lowercased().filter({ !$0.isWhitespace }),
           style.contains("display:none") || style.contains("visibility:hidden") {
            return true
        }
        return false
    }

    /// The semantic types of `element`: its `epub:type` tokens and ARIA `role` tokens, lowercased.
    static func semanticTypes(of element: XMLElement) -> [String] {
        let epubType = element.attribute("type", namespace: XMLNamespace.ops) ?? element.attribute(qualifiedName: "epub:type") ?? ""
        let role = element.attribute("role") ?? ""
        return (epubType + " " + role).lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Whether `element` is a page-break marker (kept as an element of its own).
    static func isPageBreak(_ element: XMLElement) -> Bool {
        semanticTypes(of: element).contains { $0 == "pagebreak" || $0 == "doc-pagebreak" }
    }

    /// Whether `element` is a note reference (`epub:type="noteref"`, `role="doc-noteref"`): an inline
    /// run of its block's text with the role `.noteRef`.
    static func isNoteRef(_ element: XMLElement) -> Bool {
        semanticTypes(of: element).contains { $0 == "noteref" || $0 == "doc-noteref" }
    }

    /// The role `element` gives the text inside it, or nil when it gives none (a `p`, a `div`).
    static func role(of element: XMLElement) -> ContentRole? {
        if isProjectGutenbergBoilerplate(element) { return .aside }
        let types = semanticTypes(of: element)
        if types.contains(where: { $0 == "pagebreak" || $0 == "doc-pagebreak" }) { return .pageBreak }
        if types.contains(where: { ["footnote", "footnotes", "doc-footnote", "note"].contains($0) }) { return .footnote }
        if types.contains(where: { ["endnote", "endnotes", "rearnote", "rearnotes", "doc-endnote", "doc-endnotes"].contains($0) }) {
            return .endnote
        }
        switch element.localName {
        case "h1", "h2", "h3", "h4", "h5", "h6":
            return .heading(level: Int(String(element.localName.last!)) ?? 1)
        case "aside": return .aside
        case "blockquote": return .quote
        case "li", "dt", "dd": return .listItem
        case "figcaption", "caption": return .caption
        case "td", "th": return .tableCell
        default:
            if types.contains(where: { $0 == "sidebar" || $0 == "doc-sidebar" }) { return .aside }
            return nil
        }
    }

    /// Whether `element` is Project Gutenberg's licence header or footer, which its ebookmaker puts in every
    /// book it makes (`<section class="pg-boilerplate pgheader" id="pg-header">`, `pg-footer`,
    /// `pg-machine-header`): an aside, which `speak` skips unless `--skip` says otherwise.
    static func isProjectGutenbergBoilerplate(_ element: XMLElement) -> Bool {
        if let id = element.attribute("id"), ["pg-header", "pg-footer", "pg-machine-header"].contains(id) { return true }
        return element.attribute("class")?.split(separator: " ").contains("pg-boilerplate") == true
    }

    /// How many elements of the tree under `root` (itself included) carry each `id`: a `#id` selector
    /// designates one element only when its id is unique.
    static func identifierCounts(in root: XMLElement) -> [String: Int] {
        var counts: [String: Int] = [:]
        if let id = root.attribute("id") { counts[id, default: 0] += 1 }
        root.forEachDescendant { element in
            if let id = element.attribute("id") { counts[id, default: 0] += 1 }
        }
        return counts
    }

    /// A CSS identifier that may be written `#id` unescaped.
    static func isPlainIdentifier(_ id: String) -> Bool {
        guard !id.isEmpty, !(id.first!.isNumber), !id.hasPrefix("--"), !(id.hasPrefix("-") && id.dropFirst().first?.isNumber == true) else { return false }
        return id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || !$0.isASCII }
    }
}
