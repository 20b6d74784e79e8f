// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoundationXML

/// Builds an `XMLElement` tree from FoundationXML's `XMLParser` (libxml2 SAX2) callbacks.
///
/// Namespaces are resolved here rather than by `XMLParser` (which reports attributes by qualified
/// name only), so attributes get their namespace too. Parsing stops at the first error: libxml2 would
/// otherwise "recover" by closing whichever element is open, which produces a wrong tree.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// An element still open when the parse stopped.
    struct OpenElement: Equatable {
        var qualifiedName: String
        /// Where its start tag ends (the parser's position when it reported the element).
        var line: Int
        var column: Int
    }

    /// The first error of a parse, where libxml2 reported it.
    struct Failure: Equatable {
        var code: Int
        var line: Int
        var column: Int
        var message: String
        /// The elements open at the error, outermost first.
        var openElements: [OpenElement]
    }

    struct Outcome {
        /// The complete tree, or, after a failure, the tree parsed up to it with open elements closed.
        var root: XMLElement?
        var failure: Failure?
        /// Elements nested deeper than `maximumDepth`, flattened into their ancestor at that depth; nil when none.
        var flattened: Flattened?
    }

    /// The elements a parse flattened: how many, and where the first one starts.
    struct Flattened: Equatable {
        var count: Int
        var firstLine: Int
    }

    /// The deepest an element is nested in the tree (the root is at depth 1): the limit of libxml2's pull
    /// parser (`xmlParserMaxDepth`), which its push parser, the one `XMLParser` drives, does not apply.
    ///
    /// An element deeper than this is flattened into its ancestor at this depth: its text is kept, in
    /// order, its tag and attributes are not. Publications nest a few dozen levels at most; a deeper
    /// tree only serves to exhaust the stack or memory of whatever walks it.
    static let maximumDepth = 256

    private struct Frame {
        var element: XMLElement
        /// The prefixes this element declares (`""` for the default namespace), popped from `namespaces` at its end.
        var declaredPrefixes: [String]
        var open: OpenElement
    }

    /// The namespace bindings in scope, innermost last, for each prefix: an element pushes what it declares
    /// and pops it at its end, so that a deep tree costs one binding per declaration, not a copy per element.
    private var namespaces: [String: [String]] = ["xml": [XMLNamespace.xml]]
    private var stack: [Frame] = []
    /// The elements open below the one at `maximumDepth`, outermost first: flattened, named for errors only.
    private var flattenedOpen: [OpenElement] = []
    private var flattened: Flattened?
    private var root: XMLElement?
    private var failure: Failure?

    /// The elements open at this point of the parse, outermost first.
    private var openElements: [OpenElement] { stack.map(\.open) + flattenedOpen }

    /// Parses `bytes` and returns the tree and the first error, if any. Synchronous, on the caller's thread.
    static func build(_ bytes: [UInt8]) -> Outcome {
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let succeeded = parser.parse()
        if builder.failure == nil && !succeeded {
            let code = (parser.parserError as NSError?)?.code ?? 0
            let open = builder.openElements
            builder.failure = Failure(
                code: code, line: parser.lineNumber, column: parser.columnNumber,
                message: XMLTreeBuilder.describe(code: code, openElements: open), openElements: open)
        }
        if builder.failure != nil {
            while !builder.stack.isEmpty { builder.closeTop() }
        }
        return Outcome(root: builder.root, failure: builder.failure, flattened: builder.flattened)
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        let open = OpenElement(qualifiedName: elementName, line: parser.lineNumber, column: parser.columnNumber)
        if stack.isEmpty && root != nil {
            return  // a second root element: libxml2 reports it as an error next
        }
        guard stack.count < Self.maximumDepth else {
            flattenedOpen.append(open)
            flattened = Flattened(count: (flattened?.count ?? 0) + 1, firstLine: flattened?.firstLine ?? parser.lineNumber)
            return
        }
        var declaredPrefixes: [String] = []
        for (name, value) in attributeDict {
            let prefix: String
            if name == "xmlns" {
                prefix = ""
            } else if name.hasPrefix("xmlns:") {
                prefix = String(name.dropFirst(6))
            } else {
                continue
            }
            namespaces[prefix, default: []].append(value)
            declaredPrefixes.append(prefix)
        }
        let (prefix, localName) = Self.split(elementName)
        var attributes: [XMLAttribute] = []
        for (name, value) in attributeDict where name != "xmlns" && !name.hasPrefix("xmlns:") {
            let (attributePrefix, attributeLocalName) = Self.split(name)
            attributes.append(XMLAttribute(
                localName: attributeLocalName, prefix: attributePrefix,
                namespaceURI: attributePrefix.flatMap { namespaces[$0]?.last }, value: value))
        }
        attributes.sort { $0.qualifiedName < $1.qualifiedName }
        let position = stack.last.map { XMLElement.Position(parent: $0.element.position, index: $0.element.children.count) }
        let namespaceURI = namespaces[prefix ?? ""]?.last.flatMap { $0.isEmpty ? nil : $0 }
        let element = XMLElement(
            localName: localName, prefix: prefix, namespaceURI: namespaceURI,
            attributes: attributes, position: position, line: parser.lineNumber)
        stack.append(Frame(element: element, declaredPrefixes: declaredPrefixes, open: open))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil, !stack.isEmpty else { return }
        if !flattenedOpen.isEmpty {
            flattenedOpen.removeLast()
            return
        }
        closeTop()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, !stack.isEmpty else { return }
        let last = stack.count - 1
        if case .text(var previous)? = stack[last].element.children.last {
            // Appended in place (libxml2 reports text in chunks, and at each character reference): linear, not quadratic.
            let lastChild = stack[last].element.children.count - 1
            stack[last].element.children[lastChild] = .text("")
            previous += string
            stack[last].element.children[lastChild] = .text(previous)
        } else {
            stack[last].element.children.append(.text(string))
        }
    }

    func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
        self.parser(parser, foundCharacters: whitespaceString)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard failure == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].element.children.append(.cdata(String(decoding: CDATABlock, as: UTF8.self)))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard failure == nil else { return }
        let code = (parseError as NSError).code
        let open = openElements
        failure = Failure(
            code: code, line: parser.lineNumber, column: parser.columnNumber,
            message: Self.describe(code: code, openElements: open), openElements: open)
        parser.abortParsing()
    }

    private func closeTop() {
        let frame = stack.removeLast()
        for prefix in frame.declaredPrefixes { namespaces[prefix]?.removeLast() }
        if stack.isEmpty {
            root = frame.element
        } else {
            stack[stack.count - 1].element.children.append(.element(frame.element))
        }
    }

    private static func split(_ qualifiedName: String) -> (prefix: String?, localName: String) {
        guard let colon = qualifiedName.firstIndex(of: ":") else { return (nil, qualifiedName) }
        return (String(qualifiedName[..<colon]), String(qualifiedName[qualifiedName.index(after: colon)...]))
    }

    /// A message for libxml2's error `code` (`XMLParser.ErrorCode`), which FoundationXML on Linux
    /// reports without a description.
    static func describe(code: Int, openElements: [OpenElement]) -> String {
        let innermost = openElements.last.map { " <\($0.qualifiedName)> (opened line \($0.line))" } ?? ""
        switch code {
        case XMLParser.ErrorCode.tagNameMismatchError.rawValue:
            return "an end tag does not match the open element\(innermost)"
        case XMLParser.ErrorCode.prematureDocumentEndError.rawValue:
            return openElements.isEmpty ? "the document is empty or ends too early" : "the document ends before the element\(innermost) is closed"
        case XMLParser.ErrorCode.undeclaredEntityError.rawValue, XMLParser.ErrorCode.unparsedEntityError.rawValue:
            return "an undefined entity is referenced"
        case XMLParser.ErrorCode.emptyDocumentError.rawValue:
            return "the document is empty"
        case XMLParser.ErrorCode.ltRequiredError.rawValue:
            return "'<' expected: text is not allowed here"
        case XMLParser.ErrorCode.gtRequiredError.rawValue:
            return "'>' expected: a tag is not closed"
        case XMLParser.ErrorCode.entityRefAtEOFError.rawValue, XMLParser.ErrorCode.entityRefLoopError.rawValue:
            return "an entity reference is malformed"
        default:
            let name = XMLParser.ErrorCode(rawValue: code).map { String(describing: $0) } ?? "error"
            return "not well-formed XML (libxml2 \(name), code \(code))"
        }
    }
}
