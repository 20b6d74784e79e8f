// SPDX-License-Identifier: GPL-3.0-or-later
/// The category of one module's errors: a stable word for programs, such as `bad-data` or
/// `track-unreachable`.
///
/// Each module declares one `enum ...ErrorCode: String, RAudioErrorCode` whose raw values are its code
/// words, and names its error `typealias ...Error = RAudioError<...ErrorCode>`.
public protocol RAudioErrorCode: Sendable, Hashable {
    /// The word in `error` events and reports; the raw value unless the module prefixes it.
    var codeName: String { get }
    /// The error type's name in a detailed description (`ResourceError` for `ResourceErrorCode`).
    static var errorName: String { get }
    /// The error on one line. `[subject[:line:column]: ]message` unless the module adds to it (a C status).
    static func describe(_ error: RAudioError<Self>) -> String
}

extension RAudioErrorCode where Self: RawRepresentable, RawValue == String {
    public var codeName: String { rawValue }
}

extension RAudioErrorCode {
    public static var errorName: String {
        let name = String(describing: Self.self)
        return name.hasSuffix("Code") ? String(name.dropLast(4)) : name
    }

    public static func describe(_ error: RAudioError<Self>) -> String { error.plainDescription }
}

/// An error of raudio: a typed code, what it is about, a message for people, the C status and the error
/// that caused it, and where in raudio's source it was made.
///
/// One shape for every module (as swift-nio's `FileSystemError`): `ResourceError`, `AudioDecoderError`,
/// `TTSError`... are this struct with their module's code. An error made from another keeps it as its
/// `cause`, so `detailedDescription()` shows the whole chain (a decoder's error, the resource error under
/// it, the HTTP error under that). Two errors are equal when their code, subject, position, message and
/// status are: the cause and the source location do not count.
public struct RAudioError<ErrorCode: RAudioErrorCode>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The module's code type: `ResourceError.Code.notFound`.
    public typealias Code = ErrorCode

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

    public var description: String { Code.describe(self) }

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

/// A line and column in a document, both 1-based.
public struct TextPosition: Sendable, Hashable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
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
