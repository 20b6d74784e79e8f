// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A publication of a catalog: its RWPM metadata, its links (acquisitions, `self`, related feeds) and its images.
///
/// An OPDS publication is not readable as it stands (it has no reading order): one of its acquisition links
/// leads to the book. The OPDS properties of each link (`indirectAcquisitions`, `availability`, `holds`,
/// `copies`, `price`) are read through `Link`'s accessors (`Link+OPDS.swift`).
public struct OPDSPublication: Sendable, Hashable {
    public var metadata: Metadata
    public var links: [Link]
    public var images: [Link]
    /// The `atom:id` of an OPDS 1 entry (`metadata.identifier` prefers its `dc:identifier`); nil in OPDS 2.
    public var entryID: String?

    public init(metadata: Metadata, links: [Link] = [], images: [Link] = [], entryID: String? = nil) {
        self.metadata = metadata
        self.links = links
        self.images = images
        self.entryID = entryID
    }

    /// The title, empty when the feed gave none.
    public var title: String { metadata.title?.string ?? "" }

    /// The links that acquire the publication (`http://opds-spec.org/acquisition` and its sub-relations), in order.
    public var acquisitionLinks: [Link] { links.filter(\.isAcquisition) }

    /// The first link with `rel`.
    public func link(withRel rel: String) -> Link? { links.first { $0.rels.contains(rel) } }

    /// Whether the publication is an audiobook: said by its `@type` (`http://schema.org/Audiobook`,
    /// `http://bib.schema.org/Audiobook`) or, as feeds often claim EBook for one, by the media types its
    /// acquisitions end in.
    public var isAudiobook: Bool {
        if let type = metadata.type, type.hasSuffix("/Audiobook") { return true }
        return acquisitionLinks.contains { link in link.acquisitionMediaTypes.contains(where: OPDSMediaType.isAudiobook) }
    }
}
