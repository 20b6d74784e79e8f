// SPDX-License-Identifier: GPL-3.0-or-later
/// A Readium Web Publication Manifest: what a publication is and which resources make it.
///
/// Audiobooks come with one (`manifest.json`); EPUBs and folders of audio files get one built by the
/// streamer, so every navigator works from the same model.
public struct Manifest: Sendable, Hashable {
    /// `@context` URIs.
    public var context: [String]
    public var metadata: Metadata
    public var links: [Link]
    /// The resources in reading order: tracks of an audiobook, spine items of an EPUB.
    public var readingOrder: [Link]
    /// The other resources (cover, style sheets, ...).
    public var resources: [Link]
    /// The table of contents.
    public var tableOfContents: [Link]
    /// EPUB page list (`pageList`), when the publication has one.
    public var pageList: [Link]
    /// EPUB landmarks, when the publication has them.
    public var landmarks: [Link]
    /// Other subcollections and extension keys, kept as written.
    public var subcollections: JSONObject

    public init(
        context: [String] = ["https://readium.org/webpub-manifest/context.jsonld"], metadata: Metadata,
        links: [Link] = [], readingOrder: [Link], resources: [Link] = [], tableOfContents: [Link] = [],
        pageList: [Link] = [], landmarks: [Link] = [], subcollections: JSONObject = JSONObject()
    ) {
        self.context = context
        self.metadata = metadata
        self.links = links
        self.readingOrder = readingOrder
        self.resources = resources
        self.tableOfContents = tableOfContents
        self.pageList = pageList
        self.landmarks = landmarks
        self.subcollections = subcollections
    }

    /// Whether the manifest says it is an audiobook (`@type` or `conformsTo`), or all its reading order is audio.
    public var conformsToAudiobook: Bool {
        if metadata.conformsTo.contains("https://readium.org/webpub-manifest/profiles/audiobook") { return true }
        if metadata.type == "http://schema.org/Audiobook" || metadata.type == "https://schema.org/Audiobook" { return true }
        return !readingOrder.isEmpty && readingOrder.allSatisfy { $0.mediaType?.isAudio ?? false }
    }

    /// The first link with the relation `rel` in `links`.
    public func link(withRel rel: String) -> Link? {
        links.first { $0.rels.contains(rel) }
    }

    /// The publication's cover: the first link with the relation `cover` among the resources, the links
    /// and the reading order (an EPUB's cover image, an M4B's embedded picture).
    public var coverLink: Link? {
        (resources + links + readingOrder).first { $0.rels.contains("cover") }
    }

    /// The index in the reading order of the resource at `href` (fragment ignored).
    public func readingOrderIndex(ofHref href: String) -> Int? {
        let path = Link(href: href).hrefWithoutFragment
        return readingOrder.firstIndex { $0.hrefWithoutFragment == path }
    }
}
