// SPDX-License-Identifier: GPL-3.0-or-later
/// Why an XML document could not be parsed.
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable category of failure.
    public enum Code: String, Sendable {
        /// The document is not well-formed XML (the parser's message, line and column say where).
        case malformed = "xml-malformed"
        /// The DOCTYPE declares entities (`<!ENTITY`): refused, as a defence against entity expansion
        /// ("billion laughs") and external entities (XXE).
        case entityDeclaration = "xml-entity-declaration"
        /// The document is larger than the size limit.
        case tooLarge = "xml-too-large"
        /// The bytes cannot be decoded in the declared or detected encoding.
        case encoding = "xml-encoding"
        /// The document has no root element.
        case empty = "xml-empty"
    }

    public var code: Code
    /// The href (or path) of the document.
    public var href: String
    /// 1-based line of the error, 0 when unknown.
    public var line: Int
    /// 1-based column of the error, 0 when unknown.
    public var column: Int
    /// What went wrong; does not repeat the href.
    public var message: String

    public init(_ code: Code, href: String, line: Int = 0, column: Int = 0, message: String) {
        self.code = code
        self.href = href
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(href):\(line):\(column): \(message)" : "\(href): \(message)"
    }
}
