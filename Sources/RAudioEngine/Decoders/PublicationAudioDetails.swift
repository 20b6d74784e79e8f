// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Fills in what an audiobook's manifest leaves out, from the audio files themselves.
///
/// - Durations: every reading-order track without one is probed (`AudioDurationProbe`: headers and
///   sample tables, a frame scan only for an MP3 without a trustworthy header), two tracks at a time;
///   the publication's duration is their sum once all are known.
/// - For a folder or `.zab` of audio files, which has no manifest at all, each track's title comes from
///   its tags, its embedded chapters nest under it in the table of contents, and an album that every
///   track names titles the book.
///
/// Blocking I/O: call it off the cooperative pool. A track that cannot be read keeps what it had.
public enum PublicationAudioDetails {
    public static func completed(_ publication: Publication, inspector: any AudioFileInspector = FFmpegAudioFileInspector()) -> Publication {
        let readingOrder = publication.manifest.readingOrder
        let isInformal = publication.mediaType == .zab
        let needsProbe = readingOrder.map { $0.duration == nil && ($0.type?.hasPrefix("audio/") ?? true) }
        guard needsProbe.contains(true) || isInformal, publication.protection == nil else { return publication }

        let durations = Locked<[Int: Double]>([:])
        let descriptions = Locked<[Int: AudioFileDescription]>([:])
        DispatchQueue.concurrentPerform(iterations: readingOrder.count) { index in
            let link = readingOrder[index]
            guard needsProbe[index] || isInformal, let resource = try? publication.container.resource(at: link.hrefWithoutFragment) else { return }
            if needsProbe[index], let duration = try? AudioDurationProbe.duration(of: resource) {
                durations.withLock { $0[index] = duration.seconds }
            }
            if isInformal, let description = try? inspector.inspect(resource) {
                descriptions.withLock { $0[index] = description }
            }
        }
        var manifest = publication.manifest
        let probed = durations.withLock { $0 }
        let described = descriptions.withLock { $0 }
        for index in manifest.readingOrder.indices {
            if let seconds = probed[index] { manifest.readingOrder[index].duration = seconds }
            if let title = described[index]?.title { manifest.readingOrder[index].title = title }
        }
        if isInformal {
            manifest.tableOfContents = manifest.readingOrder.enumerated().map { index, link in
                var entry = Link(href: link.href, title: link.title)
                entry.children = InformalAudiobookParser.tableOfContents(described[index]?.chapters ?? [], href: link.href)
                return entry
            }
            // Tracks that all name one album name the book.
            let albums = Set(described.values.compactMap(\.album))
            if albums.count == 1, described.count == manifest.readingOrder.count, let album = albums.first {
                manifest.metadata.title = .plain(album)
            }
            if manifest.metadata.authors.isEmpty, let authors = described.sorted(by: { $0.key < $1.key }).first?.value.authors, !authors.isEmpty {
                manifest.metadata.contributors["author"] = authors.map { Contributor(name: .plain($0)) }
            }
        }
        let all = manifest.readingOrder.compactMap(\.duration)
        if manifest.metadata.duration == nil, all.count == manifest.readingOrder.count {
            manifest.metadata.duration = all.reduce(0, +)
        }
        return Publication(manifest: manifest, container: publication.container, mediaType: publication.mediaType,
                           protection: publication.protection, warnings: publication.warnings, extensions: publication.extensions)
    }
}
