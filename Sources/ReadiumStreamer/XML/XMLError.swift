// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why an XML document could not be parsed; the subject is the href (or path) of the document, the
/// position where the parser stopped.
public typealias XMLError = RAudioError<XMLErrorCode>

/// A stable category of `XMLError`.
public enum XMLErrorCode: String, RAudioErrorCode {
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

extension XMLError {
    /// An error at 1-based `line` and `column` of the document (0 when unknown).
    public init(_ code: Code, href: String, line: Int, column: Int, message: String,
                file: String = #fileID, function: String = #function, sourceLine: Int = #line) {
        self.init(code, subject: href, position: line > 0 ? TextPosition(line: line, column: column) : nil, message: message,
                  file: file, function: function, line: sourceLine)
    }

    /// 1-based line of the error, 0 when unknown.
    public var line: Int { position?.line ?? 0 }
    /// 1-based column of the error, 0 when unknown.
    public var column: Int { position?.column ?? 0 }
}
