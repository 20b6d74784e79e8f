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
    }

    private struct Frame {
        var element: XMLElement
        var namespaces: [String: String]
        var open: OpenElement
    }

    private static let predefinedNamespaces = ["xml": XMLNamespace.xml]

    private var stack: [Frame] = []
    private var root: XMLElement?
    private var failure: Failure?

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
            builder.failure = Failure(
                code: code, line: parser.lineNumber, column: parser.columnNumber,
                message: XMLTreeBuilder.describe(code: code, openElements: builder.stack.map(\.open)),
                openElements: builder.stack.map(\.open))
        }
        if builder.failure != nil {
            while !builder.stack.isEmpty { builder.closeTop() }
        }
        return Outcome(root: builder.root, failure: builder.failure)
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        var namespaces = stack.last?.namespaces ?? Self.predefinedNamespaces
        for (name, value) in attributeDict {
            if name == "xmlns" {
                namespaces[""] = value
            } else if name.hasPrefix("xmlns:") {
                namespaces[String(name.dropFirst(6))] = value
            }
        }
        let (prefix, localName) = Self.split(elementName)
        var attributes: [XMLAttribute] = []
        for (name, value) in attributeDict where name != "xmlns" && !name.hasPrefix("xmlns:") {
            let (attributePrefix, attributeLocalName) = Self.split(name)
            attributes.append(XMLAttribute(
                localName: attributeLocalName, prefix: attributePrefix,
                namespaceURI: attributePrefix.flatMap { namespaces[$0] }, value: value))
        }
        attributes.sort { $0.qualifiedName < $1.qualifiedName }
        let indexPath = stack.last.map { $0.element.indexPath + [$0.element.children.count] } ?? []
        let namespaceURI = namespaces[prefix ?? ""].flatMap { $0.isEmpty ? nil : $0 }
        let element = XMLElement(
            localName: localName, prefix: prefix, namespaceURI: namespaceURI,
            attributes: attributes, indexPath: indexPath, line: parser.lineNumber)
        let open = OpenElement(qualifiedName: elementName, line: parser.lineNumber, column: parser.columnNumber)
        if stack.isEmpty && root != nil {
            return  // a second root element: libxml2 reports it as an error next
        }
        stack.append(Frame(element: element, namespaces: namespaces, open: open))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil, !stack.isEmpty else { return }
        closeTop()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, !stack.isEmpty else { return }
        let last = stack.count - 1
        if case .text(let previous)? = stack[last].element.children.last {
            stack[last].element.children[stack[last].element.children.count - 1] = .text(previous + string)
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
        let open = stack.map(\.open)
        failure = Failure(
            code: code, line: parser.lineNumber, column: parser.columnNumber,
            message: Self.describe(code: code, openElements: open), openElements: open)
        parser.abortParsing()
    }

    private func closeTop() {
        let frame = stack.removeLast()
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
