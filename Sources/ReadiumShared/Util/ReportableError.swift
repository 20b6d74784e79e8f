// SPDX-License-Identifier: GPL-3.0-or-later
/// The one shape every error of raudio has, whatever module throws it: a stable code word for programs
/// to match on, what the error is about (a file, an href), a message for people, and the C library's
/// status when a C call failed.
///
/// Each module's error is `RAudioError` with the module's own `Code` cases, which conforms; so do the few
/// errors of another shape (a JSON syntax error, a refused command). Conforming is what lets the command
/// line report any of them the same way (an `error` event's `code`, `href` and `message`, the line on
/// stderr), and `detailedDescription()` follow the chain of causes.
public protocol ReportableError: Error, Sendable, CustomStringConvertible {
    /// A stable lower-case word with hyphens (`bad-data`, `xml-malformed`, `audio-server-lost`).
    var codeName: String { get }
    /// The file, href or path the error is about, when there is one.
    var subject: String? { get }
    /// What went wrong, in words a user understands; does not repeat `subject`.
    var message: String { get }
    /// The status a C library returned (an errno, an `espeak_ERROR`, a negative sd-bus status), if any.
    var underlyingStatus: Int32? { get }
    /// The error this one was made from, if any.
    var cause: (any Error)? { get }
    /// The error type's name in `detailedDescription()` (`ResourceError`).
    var errorName: String { get }
    /// Where in raudio's source the error was made, when it was recorded.
    var sourceLocation: CodeLocation? { get }
}

extension ReportableError {
    public var subject: String? { nil }
    public var underlyingStatus: Int32? { nil }
    public var cause: (any Error)? { nil }
    public var errorName: String { String(describing: type(of: self)) }
    public var sourceLocation: CodeLocation? { nil }

    /// The error and its causes, one level a block, as a tree:
    ///
    ///     AudioDecoderError track-unreachable: b.ogg: cannot connect to the server
    ///     ├─ at AudioDecoderError(reading:) (RAudioEngine/Decoders/VorbisDecoder.swift:40)
    ///     └─ cause: ResourceError remote-unreachable: http://host/b.ogg: cannot connect to the server
    ///        └─ at ...
    public func detailedDescription() -> String {
        Self.detailedLines(of: self).joined(separator: "\n")
    }

    private static func detailedLines(of error: any Error) -> [String] {
        guard let error = error as? any ReportableError else {
            return ["\(type(of: error)): \(String(reflecting: error))"]
        }
        var lines = ["\(error.errorName) \(error.codeName): \(error.description)"]
        var branches: [[String]] = []
        if let location = error.sourceLocation { branches.append(["at \(location)"]) }
        if let cause = error.cause {
            var causeLines = detailedLines(of: cause)
            causeLines[0] = "cause: " + causeLines[0]
            branches.append(causeLines)
        }
        for (index, branch) in branches.enumerated() {
            let last = index == branches.count - 1
            lines.append((last ? "└─ " : "├─ ") + branch[0])
            lines += branch.dropFirst().map { (last ? "   " : "│  ") + $0 }
        }
        return lines
    }
}

extension RAudioError: ReportableError {
    public var codeName: String { code.rawValue }
    public var errorName: String { Domain.errorName }
    public var sourceLocation: CodeLocation? { location }
}

extension JSONParser.SyntaxError: ReportableError {
    public var codeName: String { "json-malformed" }
}

extension Manifest.ParseError: ReportableError {
    public var codeName: String { "manifest-malformed" }
    public var subject: String? { source }
}

extension Locator.ParseError: ReportableError {
    public var codeName: String { "locator-malformed" }
}
