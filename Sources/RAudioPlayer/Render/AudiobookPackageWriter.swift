// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import ZIPFoundation

/// Writes a rendered book as a Readium audiobook (`raudio render --to audiobook OUT.audiobook`): a ZIP with
/// `manifest.json` (an RWPM audiobook: metadata, readingOrder of the documents' audio files with their
/// durations, the table of contents as time fragments, the cover) and the audio files under `audio/`.
///
/// Deterministic: entries in a fixed order with a fixed date, the manifest's keys in a fixed order. Written
/// under a temporary name beside the output and renamed at the end.
public enum AudiobookPackageWriter {
    /// The ZIP entries' date (the epoch of ZIP's DOS dates is 1980).

    /// The manifest of `book` rendered from `publication`, narrated by `narrator`.
    public static func manifest(of book: RenderedBook, publication: Publication, narrator: String?, coverPath: String?) -> Manifest {
        var readingOrder: [Link] = []
        var documentStarts: [(start: Double, href: String)] = []
        var start = 0.0
        for document in book.documents {
            let href = audioPath(of: document)
            let title = publication.manifest.readingOrder.first { $0.hrefWithoutFragment == document.href }?.title
                ?? book.chapters.last { $0.start <= start + 1e-6 }?.title
            readingOrder.append(Link(href: href, type: document.audioMediaType.string, title: title, duration: document.duration))
            documentStarts.append((start, href))
            start += document.duration
        }
        let toc: [Link] = book.chapters.compactMap { chapter in
            guard let document = documentStarts.last(where: { $0.start <= chapter.start + 1e-6 }) else { return nil }
            let offset = max(0, chapter.start - document.start)
            return Link(href: document.href + "#t=" + Self.seconds(offset), type: nil, title: chapter.title)
        }
        var contributors: [String: [Contributor]] = [:]
        if !publication.metadata.authors.isEmpty { contributors["author"] = publication.metadata.authors }
        if let narrator { contributors["narrator"] = [Contributor(name: .plain(narrator))] }
        let metadata = Metadata(type: "http://schema.org/Audiobook", conformsTo: ["https://readium.org/webpub-manifest/profiles/audiobook"],
                                identifier: publication.metadata.identifier, title: .plain(publication.title),
                                languages: publication.metadata.languages, contributors: contributors, duration: book.duration)
        var resources: [Link] = []
        if let coverPath, let cover = publication.manifest.coverLink {
            resources.append(Link(href: coverPath, type: cover.type, rels: ["cover"]))
        }
        return Manifest(metadata: metadata, links: [Link(href: "manifest.json", type: "application/audiobook+json", rels: ["self"])],
                        readingOrder: readingOrder, resources: resources, tableOfContents: toc)
    }

    /// `audio/NAME`: where a document's audio file goes in the package.
    static func audioPath(of document: NarratedDocument) -> String {
        "audio/" + document.audioFile.lastPathComponent
    }

    /// Seconds with at most three decimals, no trailing zeros (`12.5`, `0`).
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int64((value * 1000).rounded())
        let whole = milliseconds / 1000, fraction = milliseconds % 1000
        guard fraction != 0 else { return "\(whole)" }
        var digits = String(format: "%03d", fraction)
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// Writes the package at `path`. Throws `AudioSinkError` (`.cannotCreate`, `.writeFailed`).
    public static func write(_ book: RenderedBook, publication: Publication, narrator: String?, to path: String) throws(AudioSinkError) {
        var cover: (path: String, data: Data)?
        if let link = publication.manifest.coverLink, let data = try? publication.resource(at: link.href).read() {
            cover = ("cover." + ((link.hrefWithoutFragment as NSString).pathExtension.isEmpty ? "jpg" : (link.hrefWithoutFragment as NSString).pathExtension), data)
        }
        let manifest = manifest(of: book, publication: publication, narrator: narrator, coverPath: cover?.path)
        let manifestData = Data(manifest.json.serialized(.pretty).utf8)
        try RenderArchive.write(to: path) { archive in
            try RenderArchive.add(manifestData, as: "manifest.json", compressed: true, to: archive)
            if let cover { try RenderArchive.add(cover.data, as: cover.path, compressed: false, to: archive) }
            for document in book.documents {
                let size = (try? FileManager.default.attributesOfItem(atPath: document.audioFile.path)[.size] as? Int64) ?? 0
                let handle = try FileHandle(forReadingFrom: document.audioFile)
                defer { try? handle.close() }
                try archive.addEntry(with: audioPath(of: document), type: .file, uncompressedSize: size, modificationDate: RenderArchive.entryDate,
                                     permissions: 0o644, compressionMethod: .none) { position, count in
                    try handle.seek(toOffset: UInt64(position))
                    return try handle.read(upToCount: count) ?? Data()
                }
            }
        }
    }
}
