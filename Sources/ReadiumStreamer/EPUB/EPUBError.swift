// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why an EPUB could not be opened at all (a publication with mistakes opens with warnings instead); the
/// subject is the href (or file name) concerned.
public typealias EPUBError = RAudioError<EPUBErrorCode>

/// A stable category of `EPUBError`, for the CLI's exit codes.
public enum EPUBErrorCode: String, RAudioErrorCode {
    /// No `META-INF/container.xml`: the container is not an EPUB.
    case notEPUB = "epub-not-epub"
    /// `container.xml` is unreadable or names no package document.
    case invalidContainer = "epub-invalid-container"
    /// The package document (OPF) is missing or not well-formed XML.
    case invalidPackage = "epub-invalid-package"
    /// No item of the spine can be read: nothing to read or play.
    case noReadableContent = "epub-no-readable-content"
}

extension EPUBError {
    /// The message for an error about the whole publication: names the inner href when it is not the
    /// publication itself.
    var openingMessage: String {
        href.isEmpty ? message : "\(href) \(message)"
    }
}
