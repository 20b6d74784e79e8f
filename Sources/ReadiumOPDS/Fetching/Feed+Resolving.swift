// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

extension Feed {
    /// The feed with every href made absolute against `baseURL`, the URL that served it after redirects.
    ///
    /// A templated href keeps its `{...}` expressions; an href that is not a valid URI reference (`http://
    /// clearly not valid`) is kept as written, with a warning.
    public func resolved(against baseURL: String) -> Feed {
        guard let base = URL(string: baseURL) else { return self }
        var feed = self
        var invalid: [String] = []
        let resolve = { (link: Link) -> Link in
            var link = link
            if let absolute = Self.resolve(link.href, against: base) { link.href = absolute } else { invalid.append(link.href) }
            link.alternates = link.alternates.map { alternate in
                var alternate = alternate
                alternate.href = Self.resolve(alternate.href, against: base) ?? alternate.href
                return alternate
            }
            return link
        }
        let resolvePublication = { (publication: OPDSPublication) -> OPDSPublication in
            var publication = publication
            publication.links = publication.links.map(resolve)
            publication.images = publication.images.map(resolve)
            return publication
        }
        feed.links = links.map(resolve)
        feed.navigation = navigation.map(resolve)
        feed.facets = facets.map { Facet(metadata: $0.metadata, links: $0.links.map(resolve)) }
        feed.groups = groups.map { group in
            Group(metadata: group.metadata, links: group.links.map(resolve), publications: group.publications.map(resolvePublication),
                  navigation: group.navigation.map(resolve))
        }
        feed.publications = publications.map(resolvePublication)
        feed.catalogs = catalogs.map(resolvePublication)
        for href in Set(invalid).sorted() {
            feed.warnings.append(ParsingWarning(source: baseURL, path: "link", message: "\"\(href)\" is not a valid URL; kept as written"))
        }
        return feed
    }

    /// `href` made absolute against `base`; nil when it is not a URI reference. Templates are resolved with their
    /// braces escaped, then given them back.
    static func resolve(_ href: String, against base: URL) -> String? {
        let escaped = href.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
        guard !href.contains(" "), let url = URL(string: escaped, relativeTo: base)?.absoluteURL,
              url.scheme != nil else { return nil }
        // A data: or mailto: URI is absolute already; an http one must have a host.
        if ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host == nil { return nil }
        var absolute = url.absoluteString
        if href.contains("{") {
            absolute = absolute.replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}")
        }
        return absolute
    }
}
