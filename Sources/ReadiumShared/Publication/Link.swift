// SPDX-License-Identifier: GPL-3.0-or-later
/// A link to a resource of a publication, as in the Readium Web Publication Manifest.
///
/// Used for the reading order (one per track or chapter), resources, the table of contents (with
/// `children`) and links of the manifest itself.
public struct Link: Sendable, Hashable {
    /// URI or URI template of the resource, relative to the manifest (normalized by the streamer).
    public var href: String
    /// Whether `href` is a URI template.
    public var templated: Bool
    /// The media type of the resource, when given.
    public var type: String?
    public var title: String?
    /// Relations such as `self`, `cover`, `alternate`.
    public var rels: [String]
    /// The `properties` object, kept whole.
    public var properties: JSONObject
    public var height: Int?
    public var width: Int?
    /// Original size in bytes.
    public var size: Int?
    /// Length in seconds, for audio and video.
    public var duration: Double?
    /// Bit rate in kilobits per second.
    public var bitrate: Double?
    /// BCP-47 tags of the expected languages.
    public var languages: [String]
    public var alternates: [Link]
    /// Nested links, for example sub-chapters of a table-of-contents entry.
    public var children: [Link]
    /// Keys outside the RWPM link model, kept for the round trip.
    public var otherProperties: JSONObject

    public init(
        href: String, templated: Bool = false, type: String? = nil, title: String? = nil, rels: [String] = [],
        properties: JSONObject = JSONObject(), height: Int? = nil, width: Int? = nil, size: Int? = nil,
        duration: Double? = nil, bitrate: Double? = nil, languages: [String] = [], alternates: [Link] = [],
        children: [Link] = [], otherProperties: JSONObject = JSONObject()
    ) {
        self.href = href
        self.templated = templated
        self.type = type
        self.title = title
        self.rels = rels
        self.properties = properties
        self.height = height
        self.width = width
        self.size = size
        self.duration = duration
        self.bitrate = bitrate
        self.languages = languages
        self.alternates = alternates
        self.children = children
        self.otherProperties = otherProperties
    }

    /// The parsed media type, when `type` is a valid one.
    public var mediaType: MediaType? { type.flatMap(MediaType.init) }

    /// `href` without its fragment (`track.mp3#t=30` -> `track.mp3`).
    public var hrefWithoutFragment: String {
        guard let hash = href.firstIndex(of: "#") else { return href }
        return String(href[..<hash])
    }

    /// The fragment of `href`, without `#`, or nil.
    public var fragment: String? {
        guard let hash = href.firstIndex(of: "#") else { return nil }
        return String(href[href.index(after: hash)...])
    }

    /// This link and all its descendants, depth first (for searching a table of contents).
    public var flattened: [Link] {
        [self] + children.flatMap(\.flattened)
    }
}
