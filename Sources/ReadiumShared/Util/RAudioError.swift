// SPDX-License-Identifier: GPL-3.0-or-later
/// The part of raudio an error comes from, which names its type: `ResourceError` is `RAudioError<ResourceErrorDomain>`.
///
/// Each part (a module may have several: `ResourceError` and `HTTPError` in ReadiumShared) declares one
/// empty `enum ...ErrorDomain: RAudioErrorDomain` and names its error `typealias ...Error =
/// RAudioError<...ErrorDomain>`; its codes are those of its section of `RAudioErrorCode`. A domain may say how its errors read on one line (a C status after the message).
public protocol RAudioErrorDomain: Sendable {
    /// The error type's name in a detailed description (`ResourceError` for `ResourceErrorDomain`).
    static var errorName: String { get }
    /// The error on one line. `[subject[:line:column]: ]message` unless the domain adds to it (a C status).
    static func describe(_ error: RAudioError<Self>) -> String
}

extension RAudioErrorDomain {
    public static var errorName: String {
        let name = String(describing: Self.self)
        return name.hasSuffix("Domain") ? String(name.dropLast(6)) : name
    }

    public static func describe(_ error: RAudioError<Self>) -> String { error.plainDescription }
}

/// An error of raudio: a code, what it is about, a message for people, the C status and the error that
/// caused it, and where in raudio's source it was made.
///
/// One shape for every module (as swift-nio's `FileSystemError`): `ResourceError`, `AudioDecoderError`,
/// `TTSError`... are this struct in their module's domain, so a `throws(TTSError)` says which module's
/// errors come out, and every code is a word of the one `RAudioErrorCode` list. An error made from another keeps it as its
/// `cause`, so `detailedDescription()` shows the whole chain (a decoder's error, the resource error under
/// it, the HTTP error under that). Two errors are equal when their code, subject, position, message and
/// status are: the cause and the source location do not count.
public struct RAudioError<Domain: RAudioErrorDomain>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The codes: `ResourceError.Code.notFound`.
    public typealias Code = RAudioErrorCode

    public var code: Code
    /// The href, path or URL the error is about, when there is one.
    public var subject: String?
    /// Where in `subject` the error is (a line and column of a document), when known.
    public var position: TextPosition?
    /// What went wrong, in words a user understands; does not repeat the subject.
    public var message: String
    /// The status a C library returned (an errno, an `espeak_ERROR`, a `CURLcode`), if any.
    public var underlyingStatus: Int32?
    /// The error this one was made from, if any.
    public var cause: (any Error)?
    /// Where in raudio's source the error was made.
    public var location: CodeLocation

    public init(
        _ code: Code, subject: String? = nil, position: TextPosition? = nil, message: String,
        underlyingStatus: Int32? = nil, cause: (any Error)? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        self.code = code
        self.subject = subject
        self.position = position
        self.message = message
        self.underlyingStatus = underlyingStatus
        self.cause = cause
        self.location = CodeLocation(file: file, function: function, line: line)
    }

    /// `[subject[:line:column]: ]message`.
    public var plainDescription: String {
        guard let subject, !subject.isEmpty else { return message }
        guard let position else { return "\(subject): \(message)" }
        return "\(subject):\(position.line):\(position.column): \(message)"
    }

    public var description: String { Domain.describe(self) }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.subject == rhs.subject && lhs.position == rhs.position
            && lhs.message == rhs.message && lhs.underlyingStatus == rhs.underlyingStatus
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(subject)
        hasher.combine(message)
    }
}

/// An error with a code of raudio's list, whatever its domain: what code handling the errors of every
/// module (an exit status, an event) reads.
public protocol CodedError: Error {
    var code: RAudioErrorCode { get }
}

extension RAudioError: CodedError {}

/// A line and column in a document, both 1-based.
public struct TextPosition: Sendable, Hashable {
    public var line: Int
    public var column: Int
}

/// A place in raudio's source code: where an error was made.
public struct CodeLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` gives it (`ReadiumShared/Resource/FileResource.swift`).
    public var file: String
    public var function: String
    public var line: Int

    public var description: String { "\(function) (\(file):\(line))" }
}

extension RAudioError {
    /// The subject under the name most modules give it: the href of a resource. Empty when none.
    public var href: String {
        get { subject ?? "" }
        set { subject = newValue }
    }

    /// The subject as the path of a publication.
    public var path: String {
        get { subject ?? "" }
        set { subject = newValue }
    }

    /// The subject as the URL of a request.
    public var url: String {
        get { subject ?? "" }
        set { subject = newValue }
    }

    /// An error about the resource at `href` (empty for none).
    public init(
        _ code: Code, href: String, message: String, underlyingStatus: Int32? = nil, cause: (any Error)? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        self.init(code, subject: href.isEmpty ? nil : href, message: message, underlyingStatus: underlyingStatus,
                  cause: cause, file: file, function: function, line: line)
    }

    /// An error at 1-based `line` and `column` of the document `href`; without a position when `line` is 0
    /// (unknown).
    public init(
        _ code: Code, href: String, line: Int, column: Int, message: String,
        file: String = #fileID, function: String = #function, sourceLine: Int = #line
    ) {
        self.init(code, subject: href, position: line > 0 ? TextPosition(line: line, column: column) : nil, message: message,
                  file: file, function: function, line: sourceLine)
    }

    /// An error about the publication or file at `path`.
    public init(
        _ code: Code, path: String, message: String, cause: (any Error)? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        self.init(code, subject: path, message: message, cause: cause, file: file, function: function, line: line)
    }

    /// An error about a request for `url`.
    public init(
        _ code: Code, url: String, message: String, underlyingStatus: Int32? = nil, cause: (any Error)? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        self.init(code, subject: url, message: message, underlyingStatus: underlyingStatus, cause: cause,
                  file: file, function: function, line: line)
    }
}
