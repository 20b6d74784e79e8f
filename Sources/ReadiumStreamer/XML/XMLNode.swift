// SPDX-License-Identifier: GPL-3.0-or-later
/// One node of an `XMLDocument` tree: an element, a run of text, or a CDATA section.
///
/// Comments and processing instructions are not kept. Adjacent text is merged into one `.text` node;
/// a CDATA section stays a separate `.cdata` node, in document order.
public enum XMLNode: Sendable, Hashable {
    case element(XMLElement)
    case text(String)
    case cdata(String)

    /// The element, when this node is one.
    public var element: XMLElement? {
        if case .element(let element) = self { return element }
        return nil
    }

    /// The text of this node: its characters for text and CDATA, `textContent` for an element.
    public var textContent: String {
        switch self {
        case .element(let element): element.textContent
        case .text(let text), .cdata(let text): text
        }
    }
}

/// An attribute of an element, with its namespace resolved from the document's declarations.
///
/// An unprefixed attribute has no namespace (XML Namespaces 1.0 §6.2), so `id` and `href` have a nil
/// `namespaceURI`; `epub:type` has `XMLNamespace.ops`, `xml:lang` has `XMLNamespace.xml`.
/// Namespace declarations (`xmlns`, `xmlns:p`) are not attributes.
public struct XMLAttribute: Sendable, Hashable {
    public var localName: String
    public var prefix: String?
    public var namespaceURI: String?
    public var value: String

    public init(localName: String, prefix: String? = nil, namespaceURI: String? = nil, value: String) {
        self.localName = localName
        self.prefix = prefix
        self.namespaceURI = namespaceURI
        self.value = value
    }

    /// The name as written in the document (`epub:type`).
    public var qualifiedName: String {
        prefix.map { "\($0):\(localName)" } ?? localName
    }
}
