// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// EPUBs made by tests, as folders (an EPUB's layout unzipped; `FolderContainer` and `raudio` open them).
public enum TestBooks {
    /// An EPUB 3 folder whose spine is `pages` (file name, media type, source), in the package language
    /// `language` (no `dc:language` when nil), with `resources` (file name, media type, bytes) in its
    /// manifest beside them. Remove it when done.
    public static func epub(pages: [(name: String, mediaType: String, source: String)], language: String?,
                            resources: [(name: String, mediaType: String, data: Data)] = []) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-book-\(UUID().uuidString)")
        func write(_ path: String, _ text: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write("mimetype", "application/epub+zip")
        try write("META-INF/container.xml", """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>\
            <rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """)
        let items = pages.enumerated().map { "<item id=\"p\($0.offset)\" href=\"\($0.element.name)\" media-type=\"\($0.element.mediaType)\"/>" }.joined()
            + resources.enumerated().map { "<item id=\"r\($0.offset)\" href=\"\($0.element.name)\" media-type=\"\($0.element.mediaType)\"/>" }.joined()
        let spine = pages.indices.map { "<itemref idref=\"p\($0)\"/>" }.joined()
        try write("EPUB/package.opf", """
            <?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:\(UUID().uuidString)</dc:identifier>\
            <dc:title>Test book</dc:title>\(language.map { "<dc:language>\($0)</dc:language>" } ?? "")\
            <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>\
            <manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\(items)</manifest>\
            <spine>\(spine)</spine></package>
            """)
        try write("EPUB/nav.xhtml", """
            <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">\
            <head><title>Contents</title></head><body><nav epub:type="toc"><ol><li><a href="\(pages[0].name)">Start</a></li></ol></nav></body></html>
            """)
        for page in pages { try write("EPUB/\(page.name)", page.source) }
        for resource in resources { try resource.data.write(to: folder.appendingPathComponent("EPUB/\(resource.name)")) }
        return folder
    }

    /// An XHTML page of `paragraphs`, with `lang` on its root element when given.
    public static func xhtml(_ paragraphs: [String], lang: String? = nil) -> String {
        let declared = lang.map { " xml:lang=\"\($0)\" lang=\"\($0)\"" } ?? ""
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"\(declared)><head><title>t</title></head><body>"
            + paragraphs.map { "<p>\($0)</p>" }.joined() + "</body></html>"
    }

    /// A 16-bit mono WAV file of `seconds` of a square wave at `sampleRate`, its samples ±`amplitude`
    /// (of 32767): a clip whose every sample is known.
    public static func squareWaveWAV(seconds: Double, sampleRate: Int = 22_050, amplitude: Int16 = 16_384) -> Data {
        let frames = Int(seconds * Double(sampleRate))
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + frames * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(frames * 2))
        for frame in 0..<frames { append(frame / 50 % 2 == 0 ? amplitude : -amplitude) }
        return data
    }
}
