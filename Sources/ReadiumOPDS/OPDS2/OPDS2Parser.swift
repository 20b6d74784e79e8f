// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Reads OPDS 2.0 feeds (`application/opds+json`) and publication documents (`application/opds-publication+json`).
///
/// Lenient as the manifest parser is: what the feed's author got wrong is worked around with a warning. A
/// publication without a title or without any link cannot be listed or had: it is left out, with a warning.
/// A directory of catalogs (`catalogs`, as Aldiko's registry writes it) is read as publications in `catalogs`.
public enum OPDS2Parser {
    static let feedKeys: Set<String> = ["@context", "metadata", "links", "facets", "groups", "publications", "navigation", "catalogs"]
    static let feedMetadataKeys: Set<String> = ["title", "identifier", "@type", "subtitle", "modified", "language", "numberOfItems", "itemsPerPage", "currentPage"]

    /// Parses the JSON document `data` served at `url`: a feed, or a single publication (a feed of one).
    public static func parse(data: Data, url: String) throws(OPDSError) -> Feed {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw OPDSError(.catalogMalformed, url: url, message: "is not valid JSON (\(error)), so not an OPDS 2 feed", cause: error)
        }
        guard let object = value.objectValue else {
            throw OPDSError(.catalogNotAFeed, url: url, message: "is JSON whose top level is \(value.kindName), not an OPDS 2 feed")
        }
        let log = WarningLog()
        let reader = LenientJSONReader(object, source: url, log: log)
        if object["metadata"] == nil, object["authentication"] != nil {
            throw OPDSError(.catalogAuthenticationFailed, url: url, message: "is an OPDS authentication document: the catalog asks to sign in first")
        }
        if object["readingOrder"] != nil || object["spine"] != nil {
            throw OPDSError(.catalogNotAFeed, url: url, message: "is a Readium manifest (it has a reading order), not an OPDS feed")
        }
        guard let metadataReader = reader.child("metadata") else {
            throw OPDSError(.catalogNotAFeed, url: url, message: "is JSON without \"metadata\", not an OPDS 2 feed")
        }
        let isFeed = ["publications", "navigation", "groups", "facets", "catalogs"].contains { object[$0] != nil }
        if !isFeed, let publication = parsePublication(reader, log: log) {
            return Feed(metadata: FeedMetadata(title: publication.title, identifier: publication.metadata.identifier),
                        links: [], publications: [publication], warnings: log.warnings)
        }
        var feed = Feed(
            metadata: feedMetadata(metadataReader),
            links: Link.links(in: reader, key: "links"),
            facets: reader.objects("facets").map { facet in
                Facet(metadata: facet.child("metadata").map(feedMetadata) ?? FeedMetadata(title: ""), links: Link.links(in: facet, key: "links"))
            },
            groups: reader.objects("groups").map { group in
                Group(
                    metadata: group.child("metadata").map(feedMetadata) ?? FeedMetadata(title: ""),
                    links: Link.links(in: group, key: "links"),
                    publications: group.objects("publications").compactMap { parsePublication($0, log: log) },
                    navigation: Link.links(in: group, key: "navigation")
                )
            },
            publications: reader.objects("publications").compactMap { parsePublication($0, log: log) },
            navigation: Link.links(in: reader, key: "navigation"),
            catalogs: reader.objects("catalogs").compactMap { parsePublication($0, log: log) },
            context: reader.strings("@context")
        )
        feed.metadata.otherMetadata = metadataReader.otherKeys(excluding: feedMetadataKeys)
        feed.warnings = log.warnings
        return feed
    }

    static func feedMetadata(_ reader: LenientJSONReader) -> FeedMetadata {
        let title = LocalizedString.parse(reader, key: "title")?.string
        if title == nil { reader.warn("title", "no title") }
        return FeedMetadata(
            title: title ?? "", identifier: reader.string("identifier"), type: reader.string("@type"),
            subtitle: LocalizedString.parse(reader, key: "subtitle")?.string, modified: reader.string("modified"),
            language: reader.strings("language").first, numberOfItems: reader.integer("numberOfItems"),
            itemsPerPage: reader.integer("itemsPerPage"), currentPage: reader.integer("currentPage"),
            otherMetadata: reader.otherKeys(excluding: feedMetadataKeys)
        )
    }

    /// One publication; nil (with a warning) without a title or without links.
    static func parsePublication(_ reader: LenientJSONReader, log: WarningLog) -> OPDSPublication? {
        guard let metadataReader = reader.child("metadata") else {
            reader.warn(nil, "a publication without metadata; left out")
            return nil
        }
        let metadata = Metadata(json: metadataReader)
        guard metadata.title != nil else {
            reader.warn(nil, "a publication without a title; left out")
            return nil
        }
        let links = Link.links(in: reader, key: "links")
        guard !links.isEmpty else {
            reader.warn(nil, "the publication \"\(metadata.title?.string ?? "")\" has no links, so it cannot be had; left out")
            return nil
        }
        // A single image object (as some registries write) is taken as a list of one.
        var images = Link.links(in: reader, key: "images")
        if images.isEmpty, let image = reader.child("image"), let link = Link(json: image) { images = [link] }
        return OPDSPublication(metadata: metadata, links: links, images: images)
    }
}

extension Feed {
    /// The OPDS 2 JSON of the feed (an OPDS 1 feed is written as its OPDS 2 equivalent).
    public var json: JSONValue {
        var object = JSONObject()
        if !context.isEmpty { object["@context"] = context.count == 1 ? .string(context[0]) : .array(context.map(JSONValue.string)) }
        object["metadata"] = metadata.json
        object["links"] = .array(links.map(\.json))
        if !facets.isEmpty {
            object["facets"] = .array(facets.map { .object(["metadata": $0.metadata.json, "links": .array($0.links.map(\.json))]) })
        }
        if !navigation.isEmpty { object["navigation"] = .array(navigation.map(\.json)) }
        if !publications.isEmpty { object["publications"] = .array(publications.map(\.json)) }
        if !groups.isEmpty {
            object["groups"] = .array(groups.map { group in
                var item: JSONObject = ["metadata": group.metadata.json]
                if !group.links.isEmpty { item["links"] = .array(group.links.map(\.json)) }
                if !group.navigation.isEmpty { item["navigation"] = .array(group.navigation.map(\.json)) }
                if !group.publications.isEmpty { item["publications"] = .array(group.publications.map(\.json)) }
                return .object(item)
            })
        }
        if !catalogs.isEmpty { object["catalogs"] = .array(catalogs.map(\.json)) }
        return .object(object)
    }
}

extension FeedMetadata {
    public var json: JSONValue {
        var object = JSONObject()
        if let identifier { object["identifier"] = .string(identifier) }
        if let type { object["@type"] = .string(type) }
        object["title"] = .string(title)
        if let subtitle { object["subtitle"] = .string(subtitle) }
        if let modified { object["modified"] = .string(modified) }
        if let language { object["language"] = .string(language) }
        if let numberOfItems { object["numberOfItems"] = .integer(Int64(numberOfItems)) }
        if let itemsPerPage { object["itemsPerPage"] = .integer(Int64(itemsPerPage)) }
        if let currentPage { object["currentPage"] = .integer(Int64(currentPage)) }
        for (key, value) in otherMetadata { object[key] = value }
        return .object(object)
    }
}

extension OPDSPublication {
    public var json: JSONValue {
        var object: JSONObject = ["metadata": metadata.json, "links": .array(links.map(\.json))]
        if !images.isEmpty { object["images"] = .array(images.map(\.json)) }
        return .object(object)
    }
}
