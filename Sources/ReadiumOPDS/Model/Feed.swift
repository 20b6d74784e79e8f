// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// An OPDS catalog feed, OPDS 1.x (Atom) or OPDS 2.0 (JSON), in one model.
///
/// Shaped as readium/swift-toolkit's ReadiumOPDS `Feed`: its `metadata`, its own `links` (self, search,
/// pagination with `next`, `previous`, `first`, `last`), `facets`, `groups`, `publications` and
/// `navigation`. Hrefs are kept as the feed wrote them; `resolved(against:)` makes them absolute against the URL
/// the feed was served from. Mistakes of the feed's author that were worked around are in `warnings`.
public struct Feed: Sendable, Hashable {
    public var metadata: FeedMetadata
    public var links: [Link]
    public var facets: [Facet]
    public var groups: [Group]
    public var publications: [OPDSPublication]
    /// Links to other feeds (an OPDS 1 entry without acquisition link is one).
    public var navigation: [Link]
    /// A directory of catalogs (OPDS 2 registries list them under `catalogs`), each as a publication.
    public var catalogs: [OPDSPublication]
    /// The JSON-LD `@context` of an OPDS 2 feed.
    public var context: [String]
    public var warnings: [ParsingWarning]

    public init(
        metadata: FeedMetadata, links: [Link] = [], facets: [Facet] = [], groups: [Group] = [],
        publications: [OPDSPublication] = [], navigation: [Link] = [], catalogs: [OPDSPublication] = [],
        context: [String] = [], warnings: [ParsingWarning] = []
    ) {
        self.metadata = metadata
        self.links = links
        self.facets = facets
        self.groups = groups
        self.publications = publications
        self.navigation = navigation
        self.catalogs = catalogs
        self.context = context
        self.warnings = warnings
    }

    /// The first of the feed's links with `rel`.
    public func link(withRel rel: String) -> Link? {
        links.first { $0.rels.contains(rel) }
    }

    /// The feed's links with `rel`.
    public func links(withRel rel: String) -> [Link] {
        links.filter { $0.rels.contains(rel) }
    }

    /// The next page (`rel="next"`).
    public var nextLink: Link? { link(withRel: "next") }
    /// The previous page (`rel="previous"`, or `prev` as some servers write it).
    public var previousLink: Link? { link(withRel: "previous") ?? link(withRel: "prev") }
    public var firstLink: Link? { link(withRel: "first") }
    public var lastLink: Link? { link(withRel: "last") }
    /// How to search: an OpenSearch description (OPDS 1) or a templated link (OPDS 2).
    public var searchLink: Link? { link(withRel: "search") }
    /// The OPDS Authentication document of the catalog, when the feed names one.
    public var authenticationLink: Link? {
        link(withRel: OPDSRel.authenticationDocument) ?? links.first { $0.type.map(OPDSMediaType.isAuthentication) ?? false }
    }

    /// Every publication of the feed, its own then those of its groups, each once (by identifier, else by title).
    public var allPublications: [OPDSPublication] {
        var seen = Set<String>()
        return (publications + groups.flatMap(\.publications)).filter { publication in
            let key = publication.metadata.identifier ?? publication.title
            return seen.insert(key).inserted
        }
    }
}

/// The metadata of a feed, a group or a facet.
public struct FeedMetadata: Sendable, Hashable {
    public var title: String
    public var identifier: String?
    /// `@type` (OPDS 2), such as `http://schema.org/DataFeed`.
    public var type: String?
    public var subtitle: String?
    /// When the feed last changed (`atom:updated`, `modified`).
    public var modified: String?
    public var language: String?
    /// How many items the whole feed has, over all its pages (`opensearch:totalResults`).
    public var numberOfItems: Int?
    public var itemsPerPage: Int?
    /// The 1-based number of this page.
    public var currentPage: Int?
    /// Keys outside OPDS's feed metadata, kept for the round trip.
    public var otherMetadata: JSONObject

    public init(
        title: String, identifier: String? = nil, type: String? = nil, subtitle: String? = nil, modified: String? = nil,
        language: String? = nil, numberOfItems: Int? = nil, itemsPerPage: Int? = nil, currentPage: Int? = nil,
        otherMetadata: JSONObject = JSONObject()
    ) {
        self.title = title
        self.identifier = identifier
        self.type = type
        self.subtitle = subtitle
        self.modified = modified
        self.language = language
        self.numberOfItems = numberOfItems
        self.itemsPerPage = itemsPerPage
        self.currentPage = currentPage
        self.otherMetadata = otherMetadata
    }
}

/// A facet group: ways to narrow or sort a feed (`Sort by`: Title, Author...).
///
/// The active facet is the link with `rel` `self` (OPDS 2); an OPDS 1 `opds:activeFacet="true"` link is given
/// that rel too. A facet link's `numberOfItems` (`thr:count`) is in its properties.
public struct Facet: Sendable, Hashable {
    public var metadata: FeedMetadata
    public var links: [Link]

    public init(metadata: FeedMetadata, links: [Link] = []) {
        self.metadata = metadata
        self.links = links
    }

    /// The facet in use, if the feed says.
    public var activeLink: Link? { links.first { $0.rels.contains("self") } }
}

/// A group of a feed: publications or navigation links under a title, with a link to the whole group.
public struct Group: Sendable, Hashable {
    public var metadata: FeedMetadata
    public var links: [Link]
    public var publications: [OPDSPublication]
    public var navigation: [Link]

    public init(metadata: FeedMetadata, links: [Link] = [], publications: [OPDSPublication] = [], navigation: [Link] = []) {
        self.metadata = metadata
        self.links = links
        self.publications = publications
        self.navigation = navigation
    }
}
