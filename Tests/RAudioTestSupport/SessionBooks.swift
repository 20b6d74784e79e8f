// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Books made by the tests, as the session sees them.
public enum SessionBooks {
    /// A text publication whose reading order and table of contents are `hrefs`, one entry each.
    public static func textPublication(_ hrefs: [String]) -> Publication {
        let links = hrefs.map { Link(href: $0, type: "application/xhtml+xml", title: "Title of \($0)") }
        let manifest = Manifest(metadata: Metadata(title: .plain("Test")), readingOrder: links, tableOfContents: links)
        return Publication(manifest: manifest, container: SessionBooks.EmptyContainer(), mediaType: .epub)
    }

    /// A text locator in `href` at `progression`.
    public static func text(_ href: String, _ progression: Double, _ sentence: String = "A sentence.") -> Locator {
        Locator(href: href, type: "application/xhtml+xml", locations: .init(progression: progression), text: .init(highlight: sentence))
    }

    public struct EmptyContainer: Container {
        public init() {}
        public var sourceURL: URL { URL(fileURLWithPath: "/test") }
        public var entries: [String] { [] }
        public func resource(at href: String) throws(ResourceError) -> any Resource {
            throw ResourceError(.notFound, href: href, message: "not found")
        }
    }

    /// An EPUB laid out as Project Gutenberg's: a licence header, then three chapters in one XHTML file,
    /// each after an empty `<a id>` anchor inside its heading, then an epilogue in a second file; the
    /// navigation document points at `book.xhtml#chN`. Written as a folder, opened with the content service.
    public static func gutenbergLayout() throws -> (publication: Publication, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-pg-\(UUID().uuidString)")
        func write(_ path: String, _ text: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let page = { (body: String) in
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\"><head><title>t</title></head><body>\(body)</body></html>"
        }
        let chapters = [(1, "Loomings", "Call me Ishmael."), (2, "The Carpet-Bag", "I stuffed a shirt or two into my old carpet-bag."),
                        (3, "The Spouter-Inn", "Entering that gable-ended Spouter-Inn, you found yourself in a wide entry.")]
        let body = "<p>The Project Gutenberg eBook of a test book. This ebook is for the use of anyone anywhere.</p>"
            + chapters.map { number, title, text in
                "<div class=\"chapter\"><h2><a id=\"ch\(number)\"></a>CHAPTER \(number). \(title)</h2><p>\(text)</p><p>The second paragraph of chapter \(number).</p></div>"
            }.joined()
        try write("mimetype", "application/epub+zip")
        try write("META-INF/container.xml", """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>\
            <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """)
        try write("OEBPS/content.opf", """
            <?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:pg-layout</dc:identifier>\
            <dc:title>PG layout</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>\
            <manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\
            <item id="book" href="book.xhtml" media-type="application/xhtml+xml"/><item id="end" href="end.xhtml" media-type="application/xhtml+xml"/></manifest>\
            <spine><itemref idref="book"/><itemref idref="end"/></spine></package>
            """)
        let items = [("book.xhtml", "Front")] + chapters.map { ("book.xhtml#ch\($0.0)", "Chapter \($0.0). \($0.1)") } + [("end.xhtml#end", "Epilogue")]
        try write("OEBPS/nav.xhtml", """
            <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">\
            <head><title>Contents</title></head><body><nav epub:type="toc"><ol>\
            \(items.map { "<li><a href=\"\($0.0)\">\($0.1)</a></li>" }.joined())</ol></nav></body></html>
            """)
        try write("OEBPS/book.xhtml", page(body))
        try write("OEBPS/end.xhtml", page("<h2 id=\"end\">Epilogue</h2><p>The drama is done.</p>"))
        let publication = try EPUBParser().parse(container: FolderContainer(url: folder))
        return (EPUBContentService.attach(to: publication), folder)
    }
}
