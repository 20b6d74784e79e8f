// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumOPDS.
#if canImport(ReadiumOPDS)
import Foundation
import RAudioPlayer
import ReadiumOPDS
import ReadiumShared

/// The page of a catalog `raudio catalog` lists: the feed at a URL, narrowed by a facet, searched, then paged
/// through its `next` links.
enum CatalogBrowsing {
    /// The most pages followed through `next` links (`--page`): past it, the links are taken for a loop.
    static let maximumPages = 1000

    /// The feed to list and the URL it is at (what `URL#ENTRY` references are made from).
    static func page(
        at url: String, facet: String?, search: String?, page: Int, access: inout CatalogAccess
    ) throws(CommandFailure) -> (feed: Feed, url: String) {
        var current = url
        var feed = try access.feed(at: current)
        if let facet {
            current = try facetURL(named: facet, in: feed, url: current)
            feed = try access.feed(at: current)
        }
        if let search {
            current = try searchURL(for: search, in: feed, url: current, access: access)
            feed = try access.feed(at: current)
        }
        var seen: Set<String> = [current]
        var number = 1
        while number < page {
            guard let next = feed.nextLink?.href else {
                throw CommandFailure(.usage, code: "usage", message: "\(current): is the last page (page \(number)); --page \(page) does not exist")
            }
            guard seen.insert(next).inserted, number < maximumPages else {
                throw CommandFailure(OPDSError(.catalogPageLoop, url: next, message: "the next link of page \(number) (\(current)) leads back to a page already read: the catalog's pages loop"))
            }
            current = next
            feed = try access.feed(at: current)
            number += 1
        }
        return (feed, current)
    }

    /// The href of the facet `name` (`Title`, or `Sort by:Title` to say which group), ignoring case.
    static func facetURL(named name: String, in feed: Feed, url: String) throws(CommandFailure) -> String {
        let parts = name.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let (group, title) = parts.count == 2 ? (Optional(parts[0]), parts[1]) : (nil, name.trimmingCharacters(in: .whitespaces))
        for facet in feed.facets where group.map({ $0.caseInsensitiveCompare(facet.metadata.title) == .orderedSame }) ?? true {
            if let link = facet.links.first(where: { ($0.title ?? "").caseInsensitiveCompare(title) == .orderedSame }) { return link.href }
        }
        let known = feed.facets.flatMap { facet in facet.links.compactMap { $0.title.map { "\(facet.metadata.title):\($0)" } } }
        throw CommandFailure.usage("\(url): has no facet \"\(name)\"" + (known.isEmpty ? " (it has no facets)" : "; its facets: \(known.joined(separator: ", "))"))
    }

    /// The URL of the search for `terms`: the feed's templated search link expanded (`{?query}`, `{searchTerms}`),
    /// or its OpenSearch description's OPDS template.
    static func searchURL(for terms: String, in feed: Feed, url: String, access: CatalogAccess) throws(CommandFailure) -> String {
        guard let link = feed.searchLink else {
            throw CommandFailure.usage("\(url): offers no search (it has no search link)")
        }
        if link.templated || link.href.contains("{") {
            let variables = URITemplate.variables(of: link.href)
            var values = ["query": terms, "searchTerms": terms, "q": terms]
            if variables.count == 1, let only = variables.first { values[only] = terms }
            return URITemplate.expand(link.href, values)
        }
        let description: OpenSearchDescription
        do {
            description = try access.fetcher.openSearchDescription(at: link.href)
        } catch {
            throw CommandFailure(error)
        }
        guard let searchURL = description.searchURL(terms: terms) else {
            throw CommandFailure(OPDSError(.catalogNotAFeed, url: link.href, message: "the OpenSearch description has no template answering with an OPDS feed"))
        }
        return searchURL
    }
}
#endif
