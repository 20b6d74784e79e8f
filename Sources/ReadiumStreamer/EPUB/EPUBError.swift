// SPDX-License-Identifier: GPL-3.0-or-later
/// Why an EPUB could not be opened at all (a publication with mistakes opens with warnings instead).
public struct EPUBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable category, for the CLI's exit codes.
    public enum Code: String, Sendable {
        /// No `META-INF/container.xml`: the container is not an EPUB.
        case notEPUB = "epub-not-epub"
        /// `container.xml` is unreadable or names no package document.
        case invalidContainer = "epub-invalid-container"
        /// The package document (OPF) is missing or not well-formed XML.
        case invalidPackage = "epub-invalid-package"
        /// No item of the spine can be read: nothing to read or play.
        case noReadableContent = "epub-no-readable-content"
    }

    public var code: Code
    /// The href (or file name) concerned.
    public var href: String
    /// What went wrong; does not repeat the href.
    public var message: String

    public init(_ code: Code, href: String, message: String) {
        self.code = code
        self.href = href
        self.message = message
    }

    public var description: String { "\(href): \(message)" }
}

extension EPUBError {
    /// The message for an error about the whole publication: names the inner href when it is not the
    /// publication itself.
    var openingMessage: String {
        href.isEmpty ? message : "\(href) \(message)"
    }
}
