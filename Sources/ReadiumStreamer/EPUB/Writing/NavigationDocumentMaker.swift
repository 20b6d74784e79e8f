// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The EPUB 3 navigation document of an EPUB 2 book, made from its NCX (which stays in the book): the
/// `navMap` as the `toc` nav, the `pageList` as `page-list`.
enum NavigationDocumentMaker {
    /// The navigation document at `path` (components from the container's root) for the NCX at `ncxPath`.
    static func document(ncx data: Data, ncxPath: String, path: [String], title: String, language: String?) -> String? {
        guard let ncx = try? XMLDocument(data: data, href: ncxPath, mode: .recovering) else { return nil }
        let escape = XHTMLNarrationMarker.escape
        func href(_ source: String) -> String? {
            guard let resolved = try? Href(source, relativeTo: ncxPath) else { return nil }
            let relative = MediaOverlayEPUBWriter.relativeHref(from: path, to: resolved.path.split(separator: "/").map(String.init))
            return resolved.fragment.map { relative + "#" + $0 } ?? relative
        }
        func list(_ points: [XMLElement], indent: String) -> String {
            let items = points.compactMap { point -> String? in
                let label = point.firstChild("navLabel")?.firstChild("text")?.normalizedText ?? ""
                guard let source = point.firstChild("content")?.attribute("src"), let target = href(source) else { return nil }
                let children = point.children("navPoint")
                let nested = children.isEmpty ? "" : "\n" + list(children, indent: indent + "    ") + indent + "  "
                return "\(indent)  <li><a href=\"\(escape(target))\">\(escape(label.isEmpty ? target : label))</a>\(nested)</li>\n"
            }
            return items.isEmpty ? "" : "\(indent)<ol>\n" + items.joined() + "\(indent)</ol>\n"
        }
        let points = ncx.root.firstChild("navMap")?.children("navPoint") ?? []
        let toc = list(points, indent: "      ")
        guard !toc.isEmpty else { return nil }
        var pages = ""
        if let pageTargets = ncx.root.firstChild("pageList")?.children("pageTarget"), !pageTargets.isEmpty {
            let items = pageTargets.compactMap { target -> String? in
                guard let source = target.firstChild("content")?.attribute("src"), let link = href(source) else { return nil }
                let label = target.firstChild("navLabel")?.firstChild("text")?.normalizedText ?? ""
                return "        <li><a href=\"\(escape(link))\">\(escape(label))</a></li>\n"
            }
            if !items.isEmpty { pages = "    <nav epub:type=\"page-list\" hidden=\"\">\n      <ol>\n" + items.joined() + "      </ol>\n    </nav>\n" }
        }
        let lang = language.map { " xml:lang=\"\(escape($0))\" lang=\"\(escape($0))\"" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"\(lang)>
              <head>
                <title>\(escape(title))</title>
              </head>
              <body>
                <nav epub:type="toc" id="toc">

            """ + toc + "    </nav>\n" + pages + "  </body>\n</html>\n"
    }
}
