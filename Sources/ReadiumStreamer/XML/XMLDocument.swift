// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A parsed XML document: its root element and the warnings of a recovering parse.
///
/// Built with FoundationXML's `XMLParser` (libxml2) after a safe preprocessing of the bytes: a UTF-8
/// BOM is dropped, UTF-16 is transcoded to UTF-8, HTML named entities (`&nbsp;`) become numeric
/// references (libxml2 would drop them), and a DOCTYPE with an internal subset (where entities are
/// declared) is refused. External
/// entities and DTDs are never loaded. Elements nested deeper than `XMLTreeBuilder.maximumDepth` (256)
/// are flattened into their ancestor at that depth, with one warning: every tree is at most that deep,
/// and costs memory in proportion to the document's size. Parsing is synchronous and may be called
/// from any thread.
public struct XMLDocument: Sendable, Hashable {
    /// How to react to a document that is not well-formed.
    public enum Mode: Sendable, Hashable {
        /// Any well-formedness error throws `XMLError.Code.xmlMalformed` (package documents, NCX, SMIL).
        case strict
        /// For XHTML content documents: repair what can be repaired and report each repair as a warning.
        ///
        /// An end tag that closes an element left open (`<p>a<br>b</p>`) gets the missing end tags
        /// inserted before it; a stray end tag is dropped; an unknown named entity or a bare `&` is
        /// escaped as text; the document is re-parsed after each repair (at most `maximumRepairs`).
        /// When an error cannot be repaired this way, the tree parsed up to the error is kept, its open
        /// elements closed, and the rest of the document dropped with a warning. Only a document
        /// without any root element, or refused for security or size, still throws.
        case recovering
        /// For HTML pages (`text/html`): as `.recovering`, with HTML's void elements (`<br>`, `<img …>`,
        /// `<meta …>`) closed where they stand, as an HTML parser closes them, without a warning
        /// (`XMLPreprocessor.closingVoidElements`). A page those repairs cannot make XML (`<p>` left open
        /// before a `<table>`, attributes without quotes) is read by libxml2's HTML parser instead, as a
        /// browser reads it (`HTMLPageParser`), without a warning: HTML read as HTML is no mistake.
        case html
    }

    /// The largest document accepted by default: 32 MiB.
    public static let defaultMaximumSize = 32 * 1024 * 1024
    /// How many re-parses a recovering parse may do before it keeps the partial tree.
    public static let maximumRepairs = 64

    /// The href the document was read from, used in errors and warnings.
    public var href: String
    public var root: XMLElement
    /// Repairs made by a `.recovering` parse, each naming the href and line; empty when well-formed.
    public var warnings: [ParsingWarning]

    public init(href: String, root: XMLElement, warnings: [ParsingWarning] = []) {
        self.href = href
        self.root = root
        self.warnings = warnings
    }

    /// Parses `data`, the bytes of the document at `href`.
    ///
    /// - Throws: `XMLError` with the parser's line and column for malformed XML (in `.strict` mode),
    ///   `.entityDeclaration` for a DOCTYPE with an internal subset, `.xmlTooLarge` past `maximumSize`.
    public init(
        data: Data, href: String, mode: Mode = .strict, maximumSize: Int = XMLDocument.defaultMaximumSize
    ) throws(XMLError) {
        guard data.count <= maximumSize else {
            throw XMLError(.xmlTooLarge, href: href, message: "is \(data.count) bytes, more than the \(maximumSize) bytes allowed for an XML document")
        }
        var warnings: [ParsingWarning] = []
        var bytes = try XMLPreprocessor.decodedUTF8(data, href: href)
        try XMLPreprocessor.refuseEntityDeclarations(bytes, href: href)
        bytes = XMLPreprocessor.replacingNamedEntities(bytes, href: href, escapeUnknown: mode != .strict, warnings: &warnings)
        if mode == .html { bytes = XMLPreprocessor.closingVoidElements(bytes) }
        switch mode {
        case .strict:
            let outcome = XMLTreeBuilder.build(bytes)
            if let failure = outcome.failure {
                throw XMLError(.xmlMalformed, href: href, line: failure.line, column: failure.column, message: failure.message)
            }
            guard let root = outcome.root else {
                throw XMLError(.xmlEmpty, href: href, message: "has no root element")
            }
            if let warning = XMLDocument.flatteningWarning(outcome.flattened, href: href) { warnings.append(warning) }
            self.init(href: href, root: root, warnings: warnings)
        case .recovering:
            let root = try XMLDocument.recoveringParse(bytes, href: href, warnings: &warnings)
            self.init(href: href, root: root, warnings: warnings)
        case .html:
            var repairs = warnings
            do {
                let root = try XMLDocument.recoveringParse(bytes, href: href, keepsPartial: false, warnings: &repairs)
                self.init(href: href, root: root, warnings: repairs)
            } catch {
                // Not XML even repaired: read as HTML, or if libxml2's HTML parser is not there, kept up to the error.
                // Its XML is larger than the page (end tags written, attributes quoted), within bounds.
                guard let xml = HTMLPageParser.xml(fromHTML: data), xml.count <= 3 * maximumSize else {
                    let root = try XMLDocument.recoveringParse(bytes, href: href, warnings: &warnings)
                    self.init(href: href, root: root, warnings: warnings)
                    return
                }
                // HTML read as HTML is no mistake: the repairs tried on it are not reported, but what its XML
                // still could not hold (the rest of the page then left out) is.
                var reparse: [ParsingWarning] = []
                let serialized = try XMLPreprocessor.decodedUTF8(xml, href: href)
                try XMLPreprocessor.refuseEntityDeclarations(serialized, href: href)
                let root = try XMLDocument.recoveringParse(serialized, href: href, warnings: &reparse)
                self.init(href: href, root: root, warnings: reparse.filter {
                    $0.message.hasSuffix(XMLDocument.keptUpToTheError) || $0.message.hasSuffix(XMLDocument.flattenedElementsKept)
                })
            }
        }
    }

    /// Parses `text`, a document already decoded.
    public init(string text: String, href: String, mode: Mode = .strict) throws(XMLError) {
        try self.init(data: Data(text.utf8), href: href, mode: mode)
    }

    /// The element at `indexPath` (as in `XMLElement.indexPath`), nil when the path leads elsewhere.
    public func element(at indexPath: some Collection<Int>) -> XMLElement? {
        var element = root
        for index in indexPath {
            guard element.children.indices.contains(index), case .element(let child) = element.children[index] else {
                return nil
            }
            element = child
        }
        return element
    }

    /// The parent of `element`, nil for the root.
    public func parent(of element: XMLElement) -> XMLElement? {
        element.indexPath.isEmpty ? nil : self.element(at: element.indexPath.dropLast())
    }
}
