// SPDX-License-Identifier: GPL-3.0-or-later
/// The one shape every error of raudio has, whatever module throws it: a stable code word for programs
/// to match on, what the error is about (a file, an href), a message for people, and the C library's
/// status when a C call failed.
///
/// Each module keeps its own error type with its own `Code` cases; conforming to this protocol is what
/// lets the command line report any of them the same way (an `error` event's `code`, `href` and
/// `message`, the line on stderr).
public protocol ReportableError: Error, Sendable, CustomStringConvertible {
    /// A stable lower-case word with hyphens (`bad-data`, `xml-malformed`, `audio-server-lost`).
    var codeName: String { get }
    /// The file, href or path the error is about, when there is one.
    var subject: String? { get }
    /// What went wrong, in words a user understands; does not repeat `subject`.
    var message: String { get }
    /// The status a C library returned (an errno, an `espeak_ERROR`, a negative sd-bus status), if any.
    var underlyingStatus: Int32? { get }
}

extension ReportableError {
    public var subject: String? { nil }
    public var underlyingStatus: Int32? { nil }

    /// `camelCase` as `camel-case`: code words for `Code` cases that have no raw value of their own.
    public static func hyphenated(_ name: String) -> String {
        var word = ""
        for character in name {
            if character.isUppercase {
                if !word.isEmpty { word.append("-") }
                word.append(Character(character.lowercased()))
            } else {
                word.append(character)
            }
        }
        return word
    }
}

extension ResourceError: ReportableError {
    public var codeName: String { code.rawValue }
    public var subject: String? { href }
}

extension ContentError: ReportableError {
    public var codeName: String { "content-" + Self.hyphenated(code.rawValue) }
    public var subject: String? { href.isEmpty ? nil : href }
}

extension MediaOverlayError: ReportableError {
    public var codeName: String { code.rawValue }
    public var subject: String? { href }
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
