// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumOPDS.
#if canImport(ReadiumOPDS)
import Foundation
import ReadiumOPDS
import ReadiumShared

/// What `raudio catalog` prints of a feed: JSON lines (docs/OPDS.md describes them), or a readable list.
struct CatalogListing {
    /// The version of the JSON lines' shape, in each line's `v`.
    static let version = 1

    let feed: Feed
    /// The URL of the page listed, from which `entry` references are made.
    let url: String

    /// One publication with where it comes from (its group, its index among the feed's publications).
    struct Item {
        var publication: OPDSPublication
        var group: String?
        var index: Int
    }

    /// The feed's publications, its own then each group's, each with the index `CatalogEntryReference` uses.
    var items: [Item] {
        var items: [Item] = []
        var seen: [String: Int] = [:]
        let all = feed.allPublications
        for (index, publication) in all.enumerated() { seen[publication.metadata.identifier ?? publication.title] = index }
        for publication in feed.publications { items.append(Item(publication: publication, group: nil, index: seen[publication.metadata.identifier ?? publication.title] ?? 0)) }
        for group in feed.groups {
            for publication in group.publications {
                items.append(Item(publication: publication, group: group.metadata.title, index: seen[publication.metadata.identifier ?? publication.title] ?? 0))
            }
        }
        return items
    }

    /// The lines: the feed, its navigation links, its publications.
    var jsonLines: [JSONValue] {
        var lines: [JSONValue] = [feedJSON]
        for link in feed.navigation { lines.append(navigationJSON(link, group: nil)) }
        for group in feed.groups {
            for link in group.navigation { lines.append(navigationJSON(link, group: group.metadata.title)) }
        }
        for item in items { lines.append(publicationJSON(item)) }
        return lines
    }

    private var feedJSON: JSONValue {
        var object: JSONObject = ["v": .integer(Int64(Self.version)), "type": "feed", "url": .string(url), "title": .string(feed.metadata.title)]
        if let numberOfItems = feed.metadata.numberOfItems { object["numberOfItems"] = .integer(Int64(numberOfItems)) }
        if let itemsPerPage = feed.metadata.itemsPerPage { object["itemsPerPage"] = .integer(Int64(itemsPerPage)) }
        if let currentPage = feed.metadata.currentPage { object["currentPage"] = .integer(Int64(currentPage)) }
        for (key, link) in [("next", feed.nextLink), ("previous", feed.previousLink), ("first", feed.firstLink), ("last", feed.lastLink)] {
            object[key] = link.map { JSONValue.string($0.href) } ?? .null
        }
        object["search"] = feed.searchLink.map { JSONValue.string($0.href) } ?? .null
        object["authentication"] = feed.authenticationLink.map { JSONValue.string($0.href) } ?? .null
        object["facets"] = .array(feed.facets.flatMap { facet -> [JSONValue] in
            facet.links.map { link -> JSONValue in
                var item: JSONObject = ["group": .string(facet.metadata.title), "title": .string(link.title ?? ""), "href": .string(link.href), "active": .bool(link.rels.contains("self"))]
                if let count = link.numberOfItems { item["numberOfItems"] = .integer(Int64(count)) }
                return .object(item)
            }
        })
        object["groups"] = .array(feed.groups.map { group -> JSONValue in
            .object(["title": .string(group.metadata.title), "href": group.links.first.map { JSONValue.string($0.href) } ?? .null,
                     "publications": .integer(Int64(group.publications.count)), "navigation": .integer(Int64(group.navigation.count))])
        })
        object["warnings"] = .array(feed.warnings.map { .string($0.description) })
        return .object(object)
    }

    private func navigationJSON(_ link: Link, group: String?) -> JSONValue {
        var object: JSONObject = ["v": .integer(Int64(Self.version)), "type": "navigation", "title": .string(link.title ?? ""), "href": .string(link.href)]
        object["mediaType"] = link.type.map(JSONValue.string) ?? .null
        object["group"] = group.map(JSONValue.string) ?? .null
        if let count = link.numberOfItems { object["numberOfItems"] = .integer(Int64(count)) }
        return .object(object)
    }

    private func publicationJSON(_ item: Item) -> JSONValue {
        let publication = item.publication
        let metadata = publication.metadata
        var object: JSONObject = ["v": .integer(Int64(Self.version)), "type": "publication"]
        object["entry"] = .string(entryReference(item))
        object["id"] = (publication.entryID ?? metadata.identifier).map(JSONValue.string) ?? .null
        object["title"] = .string(publication.title)
        object["authors"] = .array(metadata.authors.map { .string($0.name.string) })
        object["narrators"] = .array(metadata.narrators.map { .string($0.name.string) })
        object["duration"] = metadata.duration.map { JSONValue.number(of: $0) } ?? .null
        object["language"] = metadata.language.map(JSONValue.string) ?? .null
        object["format"] = .string(Self.format(of: publication))
        object["group"] = item.group.map(JSONValue.string) ?? .null
        let best = CatalogEntryChoice.best(for: publication, prefersText: false)
        object["opens"] = best.map { JSONValue.string($0.word) } ?? .null
        object["acquisitions"] = .array(publication.acquisitionLinks.map { link -> JSONValue in
            var acquisition: JSONObject = ["kind": .string(link.acquisitionKind ?? "acquisition"), "href": .string(link.href)]
            acquisition["mediaType"] = link.type.map(JSONValue.string) ?? .null
            acquisition["chain"] = .array((link.acquisitionChains.first ?? []).map(JSONValue.string))
            if link.templated { acquisition["templated"] = true }
            if let availability = link.availability { acquisition["availability"] = availability.json }
            if let holds = link.holds { acquisition["holds"] = holds.json }
            if let copies = link.copies { acquisition["copies"] = copies.json }
            if !link.prices.isEmpty { acquisition["price"] = .array(link.prices.map(\.json)) }
            acquisition["raudio"] = CatalogEntryChoice.of(link).map { JSONValue.string($0.word) } ?? .null
            return .object(acquisition)
        })
        return .object(object)
    }

    /// `URL#ENTRY`, what `raudio play|speak|info` take.
    func entryReference(_ item: Item) -> String {
        var components = URLComponents(string: url)
        components?.fragment = nil
        return "\(components?.string ?? url)#\(CatalogEntryReference.fragment(for: item.publication, index: item.index))"
    }

    /// `audiobook`, `epub`, `pdf`, the essence of another type the acquisitions end in, else the publication's
    /// `@type` in lower case (`ebook`, `publicationissue`); `unknown` without either. A loan document's type (an OPDS
    /// publication or entry) says nothing of the book and is passed over.
    static func format(of publication: OPDSPublication) -> String {
        if publication.isAudiobook { return "audiobook" }
        let types = publication.acquisitionLinks.flatMap(\.acquisitionMediaTypes).filter { !OPDSMediaType.isOPDS2($0) && !OPDSMediaType.isAtom($0) }
            .map(OPDSMediaType.essence)
        if types.contains(OPDSMediaType.epub) { return "epub" }
        if types.contains("application/pdf") { return "pdf" }
        if let type = types.first { return type }
        if let type = publication.metadata.type, let name = type.split(separator: "/").last { return name.lowercased() }
        return "unknown"
    }

    /// The readable list, for a terminal.
    var lines: [String] {
        var lines = [feed.metadata.title.isEmpty ? url : feed.metadata.title]
        var about: [String] = []
        if let page = feed.metadata.currentPage { about.append("page \(page)") }
        if let count = feed.metadata.numberOfItems { about.append("\(count) items") }
        if !about.isEmpty { lines[0] += " (\(about.joined(separator: ", ")))" }
        if !feed.navigation.isEmpty || feed.groups.contains(where: { !$0.navigation.isEmpty }) {
            lines.append("")
            for link in feed.navigation + feed.groups.flatMap(\.navigation) {
                lines.append("  > \(link.title ?? link.href)  \(link.href)")
            }
        }
        var group: String?? = .none
        for item in items {
            if group != .some(item.group) {
                group = .some(item.group)
                lines.append("")
                if let name = item.group { lines.append("\(name):") }
            }
            let publication = item.publication
            var line = "  * \(publication.title)"
            let authors = publication.metadata.authors.map(\.name.string)
            if !authors.isEmpty { line += " - \(authors.joined(separator: ", "))" }
            let narrators = publication.metadata.narrators.map(\.name.string)
            if !narrators.isEmpty { line += "; read by \(narrators.joined(separator: ", "))" }
            if let duration = publication.metadata.duration { line += "; \(Self.duration(duration))" }
            let kinds = Array(Set(publication.acquisitionLinks.compactMap(\.acquisitionKind))).sorted()
            line += " [\(Self.format(of: publication))\(kinds.isEmpty ? "" : ", " + kinds.joined(separator: ", "))]"
            lines.append(line)
            if CatalogEntryChoice.best(for: publication, prefersText: false) != nil { lines.append("      \(entryReference(item))") }
        }
        if !feed.facets.isEmpty {
            lines.append("")
            for facet in feed.facets {
                let names = facet.links.map { link in (link.rels.contains("self") ? "[\(link.title ?? "")]" : link.title ?? "") + (link.numberOfItems.map { " (\($0))" } ?? "") }
                lines.append("\(facet.metadata.title): \(names.joined(separator: ", "))")
            }
        }
        var paging: [String] = []
        if feed.nextLink != nil { paging.append("next page: --page N") }
        if feed.searchLink != nil { paging.append("search: --search TEXT") }
        if !paging.isEmpty { lines.append(""); lines.append(paging.joined(separator: "; ")) }
        return lines
    }

    private static func duration(_ seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(max(1, minutes)) min"
    }
}
#endif
