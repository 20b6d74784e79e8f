// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why an EPUB could not be opened at all (a publication with mistakes opens with warnings instead); the
/// subject is the href (or file name) concerned.
public typealias EPUBError = RAudioError<EPUBErrorDomain>

/// The domain of `EPUBError`; its codes are words of `RAudioErrorCode`.
public enum EPUBErrorDomain: RAudioErrorDomain {}

extension EPUBError {
    /// The message for an error about the whole publication: names the inner href when it is not the
    /// publication itself.
    var openingMessage: String {
        href.isEmpty ? message : "\(href) \(message)"
    }
}
