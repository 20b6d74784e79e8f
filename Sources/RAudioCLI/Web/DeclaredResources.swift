// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// The resources a publication declares, by the hrefs its manifest gives them: what the page server may
/// serve, and nothing else.
///
/// Gathered from the reading order, the resources, the links, the table of contents, the page list
/// and the landmarks, with each link's children and alternates. A relative href is kept as its
/// normalized path (`Href`), an absolute `http(s)://` href (a remote track) as written, without its
/// fragment. A request is matched against these keys only, so an href the manifest does not name (the
/// package's `META-INF/container.xml`, its OPF, any URL a request makes up) is never read or fetched.
struct DeclaredResources: Sendable {
    private var links: [String: Link] = [:]

    /// The resources `manifest` declares; none without a manifest.
    init(_ manifest: Manifest?) {
        guard let manifest else { return }
        let roots = manifest.readingOrder + manifest.resources + manifest.links + manifest.tableOfContents
            + manifest.pageList + manifest.landmarks
        var pending = roots
        while let link = pending.popLast() {
            pending += link.children + link.alternates
            guard !link.templated, let key = Self.key(link.hrefWithoutFragment) else { continue }
            if links[key] == nil { links[key] = link }
        }
    }

    /// The declared link that `requested` (an href from a request, percent-encoded or not) names; nil
    /// when the manifest does not declare it. The resource is then read by the link's own href.
    func link(forRequested requested: String) -> Link? {
        let candidates = [requested, requested.removingPercentEncoding].compactMap { $0 }
        for candidate in candidates {
            if let key = Self.key(candidate), let link = links[key] { return link }
        }
        return nil
    }

    var count: Int { links.count }

    /// The lookup key of an href: its normalized path, or the absolute URL as written.
    private static func key(_ href: String) -> String? {
        let withoutFragment = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? href
        if Href.isRemote(withoutFragment) { return "remote:" + withoutFragment }
        guard let normalized = try? Href(withoutFragment), !normalized.path.isEmpty else { return nil }
        return "local:" + normalized.path + (normalized.query.map { "?" + $0 } ?? "")
    }
}
