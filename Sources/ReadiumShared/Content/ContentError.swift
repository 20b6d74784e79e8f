// SPDX-License-Identifier: GPL-3.0-or-later
/// Why content cannot be iterated: an unknown starting href, an unreadable resource...
public typealias ContentError = RAudioError<ContentErrorCode>

/// The category of a `ContentError`; its code word is `content-` and the case name hyphenated.
public enum ContentErrorCode: String, RAudioErrorCode {
    /// The publication has no content service (an audiobook, a format without text).
    case unsupported
    /// The starting locator's href is not in the reading order.
    case unknownHref
    /// A resource could not be read at all.
    case unreadableResource

    public var codeName: String { "content-" + RAudioError<Self>.hyphenated(rawValue) }
}
