// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// The narration `BookAligner` lines a book up with: its audio files in the order they are heard, each opened
/// with the engine's decoders, and the chapters an M4B or a manifest names (hints, never trusted blindly).
public struct AlignmentAudio: Sendable {
    public struct Track: Sendable {
        /// Its href in the audiobook, or its file name: what the alignment names it by.
        public var href: String
        /// The file, when it is one on disk (copied into the written EPUB).
        public var file: URL?
        public var mediaType: MediaType?
        /// Opens a decoder at its first frame (blocking).
        public var open: @Sendable () throws(AudioDecoderError) -> any AudioDecoder
        /// Its resource (blocking): to copy a track that is no file of its own (in a ZIP, on a server), a range at a time.
        public var resource: (@Sendable () throws(ResourceError) -> any Resource)?

        public init(href: String, file: URL?, mediaType: MediaType?, open: @escaping @Sendable () throws(AudioDecoderError) -> any AudioDecoder,
                    resource: (@Sendable () throws(ResourceError) -> any Resource)? = nil) {
            self.href = href
            self.file = file
            self.mediaType = mediaType
            self.open = open
            self.resource = resource
        }
    }

    /// A chapter a track's metadata names: a hint for where a content document's narration starts.
    public struct ChapterHint: Sendable, Hashable {
        public var trackHref: String
        public var start: Double
        public var title: String?
    }

    public var tracks: [Track]
    public var chapterHints: [ChapterHint]

    public init(tracks: [Track], chapterHints: [ChapterHint] = []) {
        self.tracks = tracks
        self.chapterHints = chapterHints
    }

    /// The tracks of an audiobook publication (a Readium audiobook, a manifest, an M4B, a folder of audio files in
    /// natural order, one audio file) in its reading order, each once; its table of contents' `#t=` links as hints.
    public init(publication: Publication, file: URL?) {
        var seen: Set<String> = []
        var tracks: [Track] = []
        let folder = file.flatMap { url -> URL? in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue ? url : nil
        }
        for link in publication.readingOrder {
            let href = link.hrefWithoutFragment
            guard seen.insert(href).inserted else { continue }
            let local: URL?
            if let folder {
                local = folder.appendingPathComponent(href.removingPercentEncoding ?? href)
            } else if let file, publication.readingOrder.count == 1, !file.pathExtension.lowercased().hasSuffix("audiobook") {
                local = file
            } else {
                local = nil
            }
            let mediaType = link.mediaType
            tracks.append(Track(href: href, file: local.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }, mediaType: mediaType) { () throws(AudioDecoderError) in
                let resource: any Resource
                do throws(ResourceError) {
                    resource = try publication.resource(at: href)
                } catch {
                    throw AudioDecoderError(reading: error, href: href)
                }
                return try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: mediaType)
            } resource: { () throws(ResourceError) in
                try publication.resource(at: href)
            })
        }
        var hints: [ChapterHint] = []
        func visit(_ links: [Link]) {
            for link in links {
                if let fragment = link.href.split(separator: "#", maxSplits: 1).dropFirst().first, fragment.hasPrefix("t="),
                   let start = Double(fragment.dropFirst(2).split(separator: ",").first ?? "") {
                    hints.append(ChapterHint(trackHref: link.hrefWithoutFragment, start: start, title: link.title))
                }
                visit(link.children)
            }
        }
        visit(publication.tableOfContents)
        self.init(tracks: tracks, chapterHints: hints)
    }
}
