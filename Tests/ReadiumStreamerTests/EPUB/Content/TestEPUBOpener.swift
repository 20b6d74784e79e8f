import Foundation
import ReadiumShared
@testable import ReadiumStreamer

/// Opens an EPUB for content tests with just what content iteration needs: the spine as reading
/// order, media types and the language. (The full `EPUBParser` is tested on its own.)
enum TestEPUBOpener {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func open(_ url: URL, onResourceParsed: (@Sendable (String) -> Void)? = nil) throws -> Publication {
        let container = try ZIPContainer(url: url)
        let containerXML = try XMLDocument(data: container.resource(at: "META-INF/container.xml").read(), href: "META-INF/container.xml")
        guard let opfPath = containerXML.root.firstDescendant("rootfile")?.attribute("full-path") else {
            throw Failure(description: "\(url.lastPathComponent): no rootfile")
        }
        let opf = try XMLDocument(data: container.resource(at: opfPath).read(), href: opfPath)
        var manifest: [String: (href: String, type: String?)] = [:]
        for item in opf.root.descendants("item") {
            guard let id = item.attribute("id"), let href = item.attribute("href") else { continue }
            manifest[id] = (try Href(href, relativeTo: opfPath).path, item.attribute("media-type"))
        }
        let readingOrder = opf.root.descendants("itemref").compactMap { itemref -> Link? in
            guard let item = itemref.attribute("idref").flatMap({ manifest[$0] }) else { return nil }
            return Link(href: item.href, type: item.type)
        }
        let languages = opf.root.descendants("language").map(\.normalizedText)
        let metadata = Metadata(languages: languages)
        let publication = Publication(
            manifest: Manifest(metadata: metadata, readingOrder: readingOrder), container: container, mediaType: .epub
        )
        return EPUBContentService.attach(to: publication, onResourceParsed: onResourceParsed)
    }
}
