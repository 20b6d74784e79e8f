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

    /// A publication of one audio file.
    public func parse(singleFile url: URL, mediaType: MediaType) -> Publication {
        let container = SingleFileContainer(url: url)
        let title = url.deletingPathExtension().lastPathComponent
        let href = (try? Href(container.href, decodingPercentEscapes: false).string) ?? container.href
        let link = Link(href: href, type: mediaType.string, title: title)
        let metadata = Metadata(
            type: "http://schema.org/Audiobook",
            conformsTo: ["https://readium.org/webpub-manifest/profiles/audiobook"],
            title: .plain(title)
        )
        let manifest = Manifest(metadata: metadata, readingOrder: [link], tableOfContents: [link])
        return Publication(manifest: manifest, container: container, mediaType: mediaType)
    }
}
