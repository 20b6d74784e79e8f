// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Reads OPDS 1.x catalogs: Atom feeds (`atom:feed`) and standalone entries (`atom:entry`).
///
/// Read with the streamer's `XMLDocument` (strict: a truncated feed is an error naming its line), as package
/// documents are. An entry with an acquisition link is a publication, any other a navigation link (its first
/// link, titled as the entry). An entry with a `collection` link goes to that group instead of the feed's
/// publications (as a "groups" feed repeats an entry in every group it is in). `opds:facet` links become
/// facets, grouped by `opds:facetGroup`, the active one given the `self` rel as OPDS 2 marks it.
/// `opds:price`, `opds:indirectAcquisition`, `opds:availability`, `opds:holds` and `opds:copies` become the link's
/// OPDS 2 properties, so both versions read alike (`Link+OPDS.swift`).
public enum OPDS1Parser {
    /// Parses the Atom document `data` served at `url` (used in errors and warnings).
    public static func parse(data: Data, url: String) throws(OPDSError) -> Feed {
        let document: XMLDocument
        do {
            document = try XMLDocument(data: data, href: url, maximumSize: OPDSParser.maximumDocumentSize)
        } catch {
            switch error.code {
            case .xmlTooLarge: throw OPDSError(.tooLarge, url: url, message: error.message, cause: error)
            default:
                let place = error.line > 0 ? " (line \(error.line), column \(error.column))" : ""
                throw OPDSError(.catalogMalformed, url: url, message: "is not a well-formed OPDS feed: \(error.message)\(place)", cause: error)
            }
        }
        return try parse(document: document, url: url)
    }

    /// Parses an already parsed Atom document.
    public static func parse(document: XMLDocument, url: String) throws(OPDSError) -> Feed {
        let root = document.root
        let log = WarningLog()
        for warning in document.warnings { log.append(warning) }
        if root.localName == "entry" {
            let publication = parseEntry(root, url: url, log: log)
            return Feed(
                metadata: FeedMetadata(title: publication.title, identifier: publication.entryID),
                publications: [publication], warnings: log.warnings
            )
        }
        guard root.localName == "feed" else {
            throw OPDSError(.catalogNotAFeed, url: url, message: "is XML with a <\(root.qualifiedName)> root, not an OPDS feed (an Atom <feed> or <entry>)")
        }
        var metadata = FeedMetadata(
            title: root.atomChild("title")?.normalizedText ?? "",
            identifier: root.atomChild("id").map { $0.textContent.trimmingCharacters(in: .whitespacesAndNewlines) },
            subtitle: root.atomChild("subtitle")?.normalizedText,
            modified: root.atomChild("updated").map { $0.textContent.trimmingCharacters(in: .whitespacesAndNewlines) },
            language: root.declaredLanguage
        )
        if let total = root.integer("totalResults", namespace: OPDS1Namespace.openSearch) { metadata.numberOfItems = total }
        if let perPage = root.integer("itemsPerPage", namespace: OPDS1Namespace.openSearch) { metadata.itemsPerPage = perPage }
        if let startIndex = root.integer("startIndex", namespace: OPDS1Namespace.openSearch), let perPage = metadata.itemsPerPage, perPage > 0 {
            metadata.currentPage = (max(1, startIndex) - 1) / perPage + 1
        }
        if metadata.title.isEmpty { log.append(ParsingWarning(source: url, path: "feed", message: "the feed has no title")) }

        var feed = Feed(metadata: metadata)
        var facetIndex: [String: Int] = [:]
        for element in root.children("link") where element.isAtom {
            guard var link = parseLink(element, url: url, log: log) else { continue }
            guard link.rels.contains(OPDSRel.facet) else {
                feed.links.append(link)
                continue
            }
            let groupName = element.opdsAttribute("facetGroup") ?? ""
            link.rels.removeAll { $0 == OPDSRel.facet }
            if element.opdsAttribute("activeFacet") == "true" { link.rels.append("self") }
            if let index = facetIndex[groupName] {
                feed.facets[index].links.append(link)
            } else {
                facetIndex[groupName] = feed.facets.count
                feed.facets.append(Facet(metadata: FeedMetadata(title: groupName), links: [link]))
            }
        }

        var groupIndex: [String: Int] = [:]
        for entry in root.children("entry") where entry.isAtom {
            let publication = parseEntry(entry, url: url, log: log)
            let isPublication = !publication.acquisitionLinks.isEmpty
            let navigationLink = isPublication ? nil : navigationLink(of: entry, publication: publication, url: url, log: log)
            if let collection = publication.link(withRel: OPDSRel.collection) {
                let index: Int
                if let existing = groupIndex[collection.href] {
                    index = existing
                } else {
                    index = feed.groups.count
                    groupIndex[collection.href] = index
                    let title = collection.title ?? collection.href
                    feed.groups.append(Group(metadata: FeedMetadata(title: title), links: [Link(href: collection.href, type: collection.type, title: title, rels: ["self"])]))
                }
                if isPublication {
                    feed.groups[index].publications.append(publication)
                } else if let navigationLink {
                    feed.groups[index].navigation.append(navigationLink)
                }
            } else if isPublication {
                feed.publications.append(publication)
            } else if let navigationLink {
                feed.navigation.append(navigationLink)
            }
        }
        feed.warnings = log.warnings
        return feed
    }

    /// The navigation link an entry without acquisition stands for: its first link of a feed type (else its
    /// first link), titled as the entry.
    private static func navigationLink(of entry: XMLElement, publication: OPDSPublication, url: String, log: WarningLog) -> Link? {
        let links = publication.links.filter { !$0.rels.contains(OPDSRel.collection) }
        guard var link = links.first(where: { $0.type.map(OPDSMediaType.isAtom) ?? false }) ?? links.first else {
            log.append(ParsingWarning(source: url, path: "entry \"\(publication.title)\"", message: "an entry with no link; ignored"))
            return nil
        }
        if !publication.title.isEmpty { link.title = publication.title }
        return link
    }

    /// Reads one `atom:entry`.
    static func parseEntry(_ entry: XMLElement, url: String, log: WarningLog) -> OPDSPublication {
        let entryID = entry.atomChild("id").map { $0.textContent.trimmingCharacters(in: .whitespacesAndNewlines) }
        let title = entry.atomChild("title")?.normalizedText
        let path = "entry \"\(title ?? entryID ?? "")\""
        if title == nil { log.append(ParsingWarning(source: url, path: path, message: "the entry has no title")) }
        var contributors: [String: [Contributor]] = [:]
        for author in entry.children("author") where author.isAtom {
            guard let contributor = person(author) else {
                log.append(ParsingWarning(source: url, path: path, message: "an author without a name; ignored"))
                continue
            }
            contributors["author", default: []].append(contributor)
        }
        for element in entry.children("contributor") where element.isAtom {
            guard let contributor = person(element) else { continue }
            let role = element.attribute("role", namespace: OPDS1Namespace.opf) ?? element.attribute(qualifiedName: "opf:role")
            contributors[role == "nrt" ? "narrator" : "contributor", default: []].append(contributor)
        }
        for element in entry.childElements where element.localName == "publisher" && element.isDublinCore {
            contributors["publisher", default: []].append(Contributor(name: .plain(element.normalizedText)))
        }
        var other = JSONObject()
        let subjects: [JSONValue] = entry.children("category").compactMap { category in
            guard let term = category.attribute("term") else { return nil }
            var subject: JSONObject = ["name": .string(category.attribute("label") ?? term), "code": .string(term)]
            if let scheme = category.attribute("scheme") { subject["scheme"] = .string(scheme) }
            return .object(subject)
        }
        if !subjects.isEmpty { other["subject"] = .array(subjects) }
        let description = (entry.atomChild("summary") ?? entry.atomChild("content"))?.textContent.trimmingCharacters(in: .whitespacesAndNewlines)
        let metadata = Metadata(
            type: entry.attribute("additionalType", namespace: OPDS1Namespace.schema) ?? entry.attribute(qualifiedName: "schema:additionalType"),
            identifier: entry.dublinCore("identifier") ?? entryID,
            title: title.map { .plain($0) },
            modified: entry.atomChild("updated").map { $0.textContent.trimmingCharacters(in: .whitespacesAndNewlines) },
            published: entry.dublinCore("issued") ?? entry.atomChild("published")?.textContent.trimmingCharacters(in: .whitespacesAndNewlines),
            languages: entry.childElements.filter { $0.localName == "language" && $0.isDublinCore }.map(\.normalizedText),
            contributors: contributors,
            description: description?.isEmpty == false ? description : nil,
            otherMetadata: other
        )
        var links: [Link] = []
        var images: [Link] = []
        for element in entry.children("link") where element.isAtom {
            guard let link = parseLink(element, url: url, log: log) else { continue }
            if link.rels.contains(where: { [OPDSRel.image, OPDSRel.thumbnail, "http://opds-spec.org/cover", "x-stanza-cover-image", "x-stanza-cover-image-thumbnail"].contains($0) }) {
                images.append(link)
            } else {
                links.append(link)
            }
        }
        var publication = OPDSPublication(metadata: metadata, links: links, images: images)
        publication.entryID = entryID
        return publication
    }

    /// An Atom person (`author`, `contributor`): its name, and its `uri` as a link; nil without a name.
    private static func person(_ element: XMLElement) -> Contributor? {
        guard let name = element.atomChild("name")?.normalizedText, !name.isEmpty else { return nil }
        let links = element.atomChild("uri").map { [Link(href: $0.textContent.trimmingCharacters(in: .whitespacesAndNewlines))] } ?? []
        return Contributor(name: .plain(name), links: links)
    }

    /// Reads an `atom:link` with its OPDS children as OPDS 2 properties; nil (with a warning) without an href.
    static func parseLink(_ element: XMLElement, url: String, log: WarningLog) -> Link? {
        guard let href = element.attribute("href")?.trimmingCharacters(in: .whitespacesAndNewlines), !href.isEmpty else {
            log.append(ParsingWarning(source: url, path: "link", message: "a link without an href; ignored"))
            return nil
        }
        var properties = JSONObject()
        let prices: [JSONValue] = element.childElements.filter { $0.localName == "price" }.compactMap { price in
            guard let value = Double(price.normalizedText) else { return nil }
            return OPDSPrice(currency: price.attribute("currencycode") ?? price.attribute("currencyCode") ?? "", value: value).json
        }
        if prices.count == 1 { properties["price"] = prices[0] } else if prices.count > 1 { properties["price"] = .array(prices) }
        let indirect = element.children("indirectAcquisition").compactMap(indirectAcquisition)
        if !indirect.isEmpty { properties["indirectAcquisition"] = .array(indirect.map(\.json)) }
        if let availability = element.firstChild("availability") {
            let state = availability.attribute("status") ?? availability.attribute("state") ?? "available"
            properties["availability"] = OPDSAvailability(state: state, since: availability.attribute("since"), until: availability.attribute("until")).json
        } else if let unavailable = element.firstChild("unavailable") {
            // Not OPDS: Feedbooks' test catalog marks holds and pre-orders so, with the date they end.
            properties["availability"] = OPDSAvailability(state: "unavailable", until: unavailable.attribute("date")).json
        }
        if let holds = element.firstChild("holds") {
            properties["holds"] = OPDSHolds(total: holds.attribute("total").flatMap { Int($0) }, position: holds.attribute("position").flatMap { Int($0) }).json
        }
        if let copies = element.firstChild("copies") {
            properties["copies"] = OPDSCopies(total: copies.attribute("total").flatMap { Int($0) }, available: copies.attribute("available").flatMap { Int($0) }).json
        }
        if let count = (element.attribute("count", namespace: OPDS1Namespace.thread) ?? element.attribute(qualifiedName: "thr:count")).flatMap({ Int($0) }) {
            properties["numberOfItems"] = .integer(Int64(count))
        }
        return Link(
            href: href, type: element.attribute("type"), title: element.attribute("title"),
            rels: [element.attribute("rel") ?? "alternate"], properties: properties
        )
    }

    private static func indirectAcquisition(_ element: XMLElement) -> OPDSAcquisition? {
        guard let type = element.attribute("type") else { return nil }
        return OPDSAcquisition(type: type, children: element.children("indirectAcquisition").compactMap(indirectAcquisition))
    }
}

extension XMLElement {
    /// Whether the element is Atom's (or in no namespace, as a careless feed writes it).
    var isAtom: Bool { namespaceURI == nil || namespaceURI == OPDS1Namespace.atom }

    var isDublinCore: Bool { namespaceURI == OPDS1Namespace.dc || namespaceURI == OPDS1Namespace.dcterms }

    /// The first Atom child named `localName`.
    func atomChild(_ localName: String) -> XMLElement? {
        childElements.first { $0.localName == localName && $0.isAtom }
    }

    /// The trimmed text of the first Dublin Core (`dc:` or `dcterms:`) child named `localName`.
    func dublinCore(_ localName: String) -> String? {
        childElements.first { $0.localName == localName && $0.isDublinCore }.map { $0.textContent.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// An `opds:` attribute, by namespace or, undeclared, by prefix.
    func opdsAttribute(_ localName: String) -> String? {
        attribute(localName, namespace: OPDS1Namespace.opds) ?? attribute(qualifiedName: "opds:\(localName)")
    }

    /// The integer text of the first child named `localName` in `namespace`.
    func integer(_ localName: String, namespace: String) -> Int? {
        firstChild(localName, namespace: namespace).flatMap { Int($0.textContent.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
