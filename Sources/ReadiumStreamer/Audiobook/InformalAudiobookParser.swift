// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Builds a publication from a ZIP or folder of audio files that has no manifest (`.zab`).
///
/// The reading order is every audio file (by extension; playlists and junk such as `.DS_Store`,
/// `Thumbs.db` and dotfiles left out) in natural sort order of their paths, so `track2` comes before
/// `track10`. The title is the archive's or folder's name; each track is titled by its file name.
public struct InformalAudiobookParser: Sendable {
    public init() {}

    /// Whether `entries` hold at least one audio file, which makes them an informal audiobook.
    public static func hasAudio(_ entries: [String]) -> Bool {
        !audioEntries(entries).isEmpty
    }

    static func audioEntries(_ entries: [String]) -> [String] {
        JunkFileFilter.removingJunk(entries).filter {
            ContentSniffer.audioExtensions.contains(($0 as NSString).pathExtension.lowercased())
        }
    }

    public func parse(container: any Container) throws(OpeningError) -> Publication {
        let tracks = NaturalSort.sorted(Self.audioEntries(container.entries))
        guard !tracks.isEmpty else {
            throw OpeningError(.badData, path: container.sourceURL.path, message: "holds no audio file, so there is nothing to play")
        }
        let readingOrder = tracks.map { path in
            let fileExtension = (path as NSString).pathExtension
            let title = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let href = (try? Href(path, decodingPercentEscapes: false).string) ?? path
            // RWPM requires a type on reading-order links; the bytes decide the codec at play time anyway.
            let type = MediaType.forFileExtension(fileExtension)?.string ?? "application/octet-stream"
            return Link(href: href, type: type, title: title)
        }
        let name = container.sourceURL.deletingPathExtension().lastPathComponent
        let metadata = Metadata(
            type: "http://schema.org/Audiobook",
            conformsTo: ["https://readium.org/webpub-manifest/profiles/audiobook"],
            title: .plain(name)
        )
        let manifest = Manifest(metadata: metadata, readingOrder: readingOrder, tableOfContents: readingOrder)
        return Publication(manifest: manifest, container: container, mediaType: .zab)
    }

    /// A publication of one audio file: titled by its file name, or, with `inspector`, described by
    /// its tags (title, authors, narrators, language, description, date), its embedded chapters as the
    /// table of contents (`href#t=START`) and its cover as a `cover` resource. A file whose tags cannot
    /// be read still opens, with a warning: the decoder says at play time what is wrong with it.
    public func parse(singleFile url: URL, mediaType: MediaType, inspector: (any AudioFileInspector)? = nil) -> Publication {
        let name = url.lastPathComponent
        let (description, warnings) = Self.describe(FileResource(url: url, href: name), name: name, inspector: inspector)
        let href = (try? Href(name, decodingPercentEscapes: false).string) ?? name
        return publication(of: description, warnings: warnings, href: href, mediaType: mediaType, untitled: url.deletingPathExtension().lastPathComponent) {
            SingleFileContainer(url: url, extracted: $0)
        }
    }

    /// A publication of one remote audio file (`https://host/book.m4b`), streamed as a remote manifest's
    /// tracks are (range requests, read-ahead, retries): its href is its URL, its tags, chapters and cover
    /// read through `access` by `inspector`.
    public func parse(remoteFile url: URL, mediaType: MediaType, access: RemoteAccess, inspector: (any AudioFileInspector)? = nil) -> Publication {
        let address = url.absoluteString
        let name = url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
        let (description, warnings) = Self.describe(access.resource(url: address), name: address, inspector: inspector)
        return publication(of: description, warnings: warnings, href: address, mediaType: mediaType, untitled: (name as NSString).deletingPathExtension) {
            SingleFileContainer(remote: url, access: access, extracted: $0)
        }
    }

    /// The tags, chapters and cover of `resource`, and what was wrong with them; nothing without an inspector.
    private static func describe(_ resource: any Resource, name: String, inspector: (any AudioFileInspector)?) -> (AudioFileDescription, [ParsingWarning]) {
        var description = AudioFileDescription()
        var warnings: [ParsingWarning] = []
        if let inspector {
            do {
                description = try inspector.inspect(resource)
            } catch {
                // The warning names the file already: the error's own message, without its subject again.
                let reason = (error as? any ReportableError)?.message ?? "\(error)"
                warnings.append(ParsingWarning(source: name, path: "", message: "its tags could not be read: \(reason)"))
            }
        }
        warnings += description.warnings.map { ParsingWarning(source: name, path: "", message: $0) }
        return (description, warnings)
    }

    /// The publication of the file at `href` that `description` tells of, in the container `makeContainer` makes
    /// around it with its cover picture as a resource (`cover.jpg`: its bytes).
    private func publication(
        of description: AudioFileDescription, warnings: [ParsingWarning], href: String, mediaType: MediaType, untitled: String,
        makeContainer: ([String: Data]) -> SingleFileContainer
    ) -> Publication {
        let cover = description.cover.map { (href: "cover." + Self.pictureExtension($0.mediaType), picture: $0) }
        let container = makeContainer(cover.map { [$0.href: $0.picture.data] } ?? [:])
        let title = description.title ?? description.album ?? untitled
        let link = Link(href: href, type: mediaType.string, title: title, duration: description.duration)
        var contributors: [String: [Contributor]] = [:]
        if !description.authors.isEmpty { contributors["author"] = description.authors.map { Contributor(name: .plain($0)) } }
        if !description.narrators.isEmpty { contributors["narrator"] = description.narrators.map { Contributor(name: .plain($0)) } }
        if let publisher = description.publisher { contributors["publisher"] = [Contributor(name: .plain(publisher))] }
        let metadata = Metadata(
            type: "http://schema.org/Audiobook",
            conformsTo: ["https://readium.org/webpub-manifest/profiles/audiobook"],
            title: .plain(title), published: description.date,
            languages: description.language.map { [$0] } ?? [], contributors: contributors,
            description: description.description, duration: description.duration
        )
        let toc = description.chapters.isEmpty ? [link] : Self.tableOfContents(description.chapters, href: href)
        let resources = cover.map { [Link(href: $0.href, type: $0.picture.mediaType.string, rels: ["cover"])] } ?? []
        let manifest = Manifest(metadata: metadata, readingOrder: [link], resources: resources, tableOfContents: toc)
        return Publication(manifest: manifest, container: container, mediaType: mediaType, protection: description.protection, warnings: warnings)
    }

    private static func pictureExtension(_ type: MediaType) -> String {
        switch type {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .webp: "webp"
        default: "bin"
        }
    }

    /// Chapters as table-of-contents links into the track at `href` (`href#t=START`), nested as they nest.
    public static func tableOfContents(_ chapters: [AudioFileChapter], href: String) -> [Link] {
        chapters.enumerated().map { index, chapter in
            Link(href: "\(href)#t=\(MediaFragment.format(chapter.start))", title: chapter.title ?? "Chapter \(index + 1)",
                 children: tableOfContents(chapter.children, href: href))
        }
    }
}
