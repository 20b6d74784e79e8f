// SPDX-License-Identifier: GPL-3.0-or-later
/// An element of an `XMLDocument`: its name, namespace, attributes and children in document order.
///
/// A value type: the tree is immutable once parsed and safe to share between threads. The parent of
/// an element is found through its `indexPath` with `XMLDocument.parent(of:)`.
public struct XMLElement: Sendable, Hashable {
    public var localName: String
    public var prefix: String?
    /// The namespace URI, resolved from the `xmlns` declarations in scope; nil when there is none.
    public var namespaceURI: String?
    public var attributes: [XMLAttribute]
    /// Elements, text and CDATA, in document order.
    public var children: [XMLNode]
    /// Where the element is from the root, shared with its parent's: one node per element, however deep.
    var position: Position?
    /// The 1-based line of the start tag in the parsed text, 0 when unknown.
    public var line: Int

    public init(
        localName: String, prefix: String? = nil, namespaceURI: String? = nil,
        attributes: [XMLAttribute] = [], children: [XMLNode] = [], indexPath: [Int] = [], line: Int = 0
    ) {
        self.localName = localName
        self.prefix = prefix
        self.namespaceURI = namespaceURI
        self.attributes = attributes
        self.children = children
        self.position = Position.of(indexPath)
        self.line = line
    }

    init(
        localName: String, prefix: String?, namespaceURI: String?, attributes: [XMLAttribute], position: Position?, line: Int
    ) {
        self.localName = localName
        self.prefix = prefix
        self.namespaceURI = namespaceURI
        self.attributes = attributes
        self.children = []
        self.position = position
        self.line = line
    }

    /// Position from the root: `[]` for the root, `[3, 0]` for the first node of the root's fourth
    /// node. Indices count every node in `children` (text and CDATA included).
    public var indexPath: [Int] {
        get {
            var path: [Int] = []
            var node = position
            while let current = node {
                path.append(current.index)
                node = current.parent
            }
            return path.reversed()
        }
        set { position = Position.of(newValue) }
    }

    /// The name as written in the document (`dc:title`).
    public var qualifiedName: String {
        prefix.map { "\($0):\(localName)" } ?? localName
    }

    /// Whether this element has `localName` in `namespace` (any namespace when `namespace` is nil).
    public func isNamed(_ localName: String, namespace: String? = nil) -> Bool {
        self.localName == localName && (namespace == nil || namespaceURI == namespace)
    }
}

extension XMLElement {
    /// An element's index in its parent's `children` and its parent's position: a list shared by the
    /// elements below, so that an element costs the same at any depth (a path copied per element cost a
    /// tree nested 20,000 deep 1.6 GB). Compared by the index path it stands for.
    final class Position: Sendable, Hashable {
        let parent: Position?
        let index: Int

        init(parent: Position?, index: Int) {
            self.parent = parent
            self.index = index
        }

        /// The position of `indexPath`, nil for the root's (empty) path.
        static func of(_ indexPath: [Int]) -> Position? {
            var node: Position? = nil
            for index in indexPath { node = Position(parent: node, index: index) }
            return node
        }

        static func == (lhs: Position, rhs: Position) -> Bool {
            var left: Position? = lhs, right: Position? = rhs
            while let l = left, let r = right {
                if l === r { return true }
                guard l.index == r.index else { return false }
                left = l.parent
                right = r.parent
            }
            return left == nil && right == nil
        }

        func hash(into hasher: inout Hasher) {
            var node: Position? = self
            while let current = node {
                hasher.combine(current.index)
                node = current.parent
            }
        }
    }

    /// The child elements, in document order.
    public var childElements: [XMLElement] {
        children.compactMap(\.element)
    }

    /// The first child element named `localName` in `namespace` (any namespace when nil).
    public func firstChild(_ localName: String, namespace: String? = nil) -> XMLElement? {
        for case .element(let child) in children where child.isNamed(localName, namespace: namespace) {
            return child
        }
        return nil
    }

    /// The child elements named `localName` in `namespace` (any namespace when nil).
    public func children(_ localName: String, namespace: String? = nil) -> [XMLElement] {
        childElements.filter { $0.isNamed(localName, namespace: namespace) }
    }

    /// Every element below this one, depth first in document order (this element excluded).
    public var descendants: [XMLElement] {
        var result: [XMLElement] = []
        forEachDescendant { result.append($0) }
        return result
    }

    /// The descendants named `localName` in `namespace` (any namespace when nil), in document order.
    public func descendants(_ localName: String, namespace: String? = nil) -> [XMLElement] {
        var result: [XMLElement] = []
        forEachDescendant { if $0.isNamed(localName, namespace: namespace) { result.append($0) } }
        return result
    }

    /// The first descendant named `localName` in `namespace` (any namespace when nil).
    public func firstDescendant(_ localName: String, namespace: String? = nil) -> XMLElement? {
        var found: XMLElement?
        visitDescendants(while: { element in
            guard element.isNamed(localName, namespace: namespace) else { return true }
            found = element
            return false
        })
        return found
    }

    /// Calls `body` for every descendant element, depth first in document order.
    public func forEachDescendant(_ body: (XMLElement) -> Void) {
        visitDescendants(while: { element in
            body(element)
            return true
        })
    }

    /// Calls `body` for the descendant elements, depth first in document order, until it returns false.
    ///
    /// Iterative: a tree's depth costs heap, never stack.
    func visitDescendants(while body: (XMLElement) -> Bool) {
        visitNodes { node in
            guard case .element(let child) = node else { return .skipChildren }
            return body(child) ? .descend : .stop
        }
    }

    /// What `visitNodes` does after a node.
    enum NodeVisit {
        /// Goes on into the node's children (for an element), then on in document order.
        case descend
        /// Goes on in document order past the node's children.
        case skipChildren
        /// Ends the walk.
        case stop
    }

    /// Calls `visit` for every node below this element (elements, text and CDATA), depth first in
    /// document order, as it says. The one walk of a tree: iterative, so a tree's depth costs heap, never stack.
    func visitNodes(_ visit: (XMLNode) -> NodeVisit) {
        // The elements whose children are being visited, with the index of the next child to look at.
        var pending: [(element: XMLElement, next: Int)] = [(self, 0)]
        while let last = pending.indices.last {
            let (element, next) = pending[last]
            guard next < element.children.count else {
                pending.removeLast()
                continue
            }
            pending[last].next = next + 1
            let node = element.children[next]
            switch visit(node) {
            case .descend: if case .element(let child) = node { pending.append((child, 0)) }
            case .skipChildren: continue
            case .stop: return
            }
        }
    }

    /// The text of every text and CDATA node below this element, concatenated in document order.
    public var textContent: String {
        var text = ""
        appendText(to: &text)
        return text
    }

    /// Appends `textContent` to `text`, iteratively.
    func appendText(to text: inout String) {
        visitNodes { node in
            switch node {
            case .element: break
            case .text(let string), .cdata(let string): text += string
            }
            return .descend
        }
    }

    /// `textContent` with runs of white space collapsed to one space and the ends trimmed.
    public var normalizedText: String {
        textContent.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The value of the attribute `localName` in `namespace`.
    ///
    /// With a nil `namespace` only an unprefixed attribute matches (`attribute("id")`); pass
    /// `XMLNamespace.ops` for `epub:type`, `XMLNamespace.xml` for `xml:lang`.
    public func attribute(_ localName: String, namespace: String? = nil) -> String? {
        attributes.first { $0.localName == localName && $0.namespaceURI == namespace }?.value
    }

    /// The value of the attribute written `qualifiedName` (`opf:role`), whatever its namespace.
    ///
    /// For documents that use a prefix without declaring it, as some EPUB 2 packages do.
    public func attribute(qualifiedName: String) -> String? {
        attributes.first { $0.qualifiedName == qualifiedName }?.value
    }

    /// The language in scope as declared on this element (`xml:lang`, else `lang`), if any.
    public var declaredLanguage: String? {
        attribute("lang", namespace: XMLNamespace.xml) ?? attribute("lang")
    }
}
