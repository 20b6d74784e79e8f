// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Reads the table of contents, page list and landmarks of an EPUB 3 navigation document or an EPUB 2 NCX.
///
/// Hrefs are resolved against the navigation document's href and written percent-encoded, as the
/// other links of the manifest. An entry without an href (an EPUB 3 `<span>` heading) takes the href
/// of its first descendant; one without any is dropped with a warning.
struct EPUBNavigationParser {
    struct Navigation {
        var tableOfContents: [Link] = []
        var pageList: [Link] = []
        var landmarks: [Link] = []
    }

    let warnings: WarningLog

    /// The navigation of an EPUB 3 navigation document (`<nav epub:type="toc|page-list|landmarks">`).
    func parseNavigationDocument(_ document: XMLDocument) -> Navigation {
        var navigation = Navigation()
        for nav in document.root.descendants("nav") {
            let types = EPUBPackageDocument.tokens(nav.attribute("type", namespace: XMLNamespace.ops) ?? nav.attribute(qualifiedName: "epub:type"))
            guard let list = nav.firstChild("ol") else { continue }
            let links = listLinks(list, href: document.href)
            if types.contains("toc") && navigation.tableOfContents.isEmpty {
                navigation.tableOfContents = links
            } else if types.contains("page-list") && navigation.pageList.isEmpty {
                navigation.pageList = links
            } else if types.contains("landmarks") && navigation.landmarks.isEmpty {
                navigation.landmarks = links
            }
        }
        if navigation.tableOfContents.isEmpty {
            warnings.append(ParsingWarning(source: document.href, path: "nav", message: "no <nav epub:type=\"toc\"> with entries"))
        }
        return navigation
    }

    private func listLinks(_ list: XMLElement, href base: String) -> [Link] {
        list.children("li").compactMap { item -> Link? in
            let children = item.firstChild("ol").map { listLinks($0, href: base) } ?? []
            let anchor = item.firstChild("a") ?? item.firstChild("span")
            let title = anchor?.normalizedText ?? ""
            var link: Link
            if let raw = anchor?.attribute("href"), let href = resolve(raw, base: base, element: anchor!) {
                link = Link(href: href, title: title.isEmpty ? nil : title, children: children)
            } else if let first = children.first {
                link = Link(href: first.href, title: title.isEmpty ? nil : title, children: children)
            } else {
                warnings.append(ParsingWarning(source: base, path: "li (line \(item.line))", message: "a navigation entry without href or children; ignored"))
                return nil
            }
            if let types = anchor?.attribute("type", namespace: XMLNamespace.ops) {
                link.rels = EPUBPackageDocument.tokens(types)
            }
            return link
        }
    }

    /// The navigation of an EPUB 2 NCX (`navMap` and `pageList`).
    func parseNCX(_ document: XMLDocument) -> Navigation {
        var navigation = Navigation()
        if let navMap = document.root.firstChild("navMap") {
            navigation.tableOfContents = navPoints(navMap, childName: "navPoint", href: document.href)
        } else {
            warnings.append(ParsingWarning(source: document.href, path: "ncx", message: "no <navMap>"))
        }
        if let pageList = document.root.firstChild("pageList") {
            navigation.pageList = navPoints(pageList, childName: "pageTarget", href: document.href)
        }
        return navigation
    }

    private func navPoints(_ parent: XMLElement, childName: String, href base: String) -> [Link] {
        parent.children(childName).compactMap { point -> Link? in
            let children = navPoints(point, childName: childName, href: base)
            let title = point.firstChild("navLabel")?.firstChild("text")?.normalizedText ?? ""
            if let raw = point.firstChild("content")?.attribute("src"), let href = resolve(raw, base: base, element: point) {
                return Link(href: href, title: title.isEmpty ? nil : title, children: children)
            }
            guard let first = children.first else {
                warnings.append(ParsingWarning(source: base, path: "\(childName) (line \(point.line))", message: "an entry without <content src>; ignored"))
                return nil
            }
            return Link(href: first.href, title: title.isEmpty ? nil : title, children: children)
        }
    }

    private func resolve(_ raw: String, base: String, element: XMLElement) -> String? {
        do {
            return try Href(raw, relativeTo: base).string
        } catch {
            warnings.append(ParsingWarning(source: base, path: "line \(element.line)", message: "href '\(raw)' \(error.message); ignored"))
            return nil
        }
    }
}
