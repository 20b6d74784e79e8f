// SPDX-License-Identifier: GPL-3.0-or-later
/// Produces the content of a publication from a starting point; attached by the streamer.
///
/// Shared defines the protocol so that navigators can iterate content without knowing the parser:
/// the EPUB streamer stores its implementation in `Publication.extensions[ContentServiceKey.key]`
/// (see `Publication.content(from:)`).
public protocol ContentService: Sendable {
    /// The content starting at `start` (nil: the beginning of the publication).
    ///
    /// - Throws: `ContentError.Code.contentUnknownHref` when `start` points outside the reading order.
    func content(from start: Locator?) throws(ContentError) -> any Content

    /// Where the elements that `fragments` (element ids, without `#`) designate start in the resource
    /// `href`: the `progression` (0...1) of the first content element each designates (the element, its
    /// first descendant with content, or the element an empty anchor stands just before). Ids that
    /// designate nothing are left out.
    ///
    /// Reads and parses the resource: call it from a thread you own, not on Swift's cooperative pool.
    func progressions(ofFragments fragments: [String], in href: String) -> [String: Double]
}

extension ContentService {
    /// A service that cannot place fragments places none.
    public func progressions(ofFragments fragments: [String], in href: String) -> [String: Double] { [:] }
}

/// The key of the content service in `Publication.extensions`.
public enum ContentServiceKey {
    public static let key = "readium.contentService"
}

extension Publication {
    /// The content of the publication from `start` (nil: from the beginning).
    ///
    /// Cheap: nothing is parsed until the iterator reaches a resource.
    /// - Throws: `.contentUnsupported` when no content service is attached, `.contentUnknownHref` for a locator
    ///   outside the reading order.
    public func content(from start: Locator? = nil) throws(ContentError) -> any Content {
        guard let service = extensions[ContentServiceKey.key] as? any ContentService else {
            throw ContentError(.contentUnsupported, href: "", message: "\(title) has no text content to iterate (\(mediaType))")
        }
        return try service.content(from: start)
    }

    /// A copy of this publication with `extensions[key]` set to `value` (how a service is attached).
    public func adding(extension value: any Sendable, forKey key: String) -> Publication {
        var extensions = self.extensions
        extensions[key] = value
        return Publication(
            manifest: manifest, container: container, mediaType: mediaType, protection: protection,
            warnings: warnings, extensions: extensions
        )
    }
}
