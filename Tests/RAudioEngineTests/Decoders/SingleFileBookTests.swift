// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import RAudioEngine

/// A lone audio file is a book: metadata from its tags, the table of contents from its embedded
/// chapters, its cover as a resource, for every container FFmpeg reads.
@Suite("Single-file books")
struct SingleFileBookTests {
    static func open(_ url: URL) throws -> Publication {
        try PublicationOpener(audioFileInspector: FFmpegAudioFileInspector()).open(url: url)
    }

    struct Expected: Sendable, CustomStringConvertible {
        var path: String
        var title: String
        var author: String?
        var chapters: [String]
        var starts: [Double]
        var cover: MediaType?
        var description: String { path }
    }

    static let corpus: [Expected] = [
        Expected(path: "audio/formats/antennapod__auphonic.m4a", title: "Title", author: "Artist",
                 chapters: ["Chapter 1 - ❤️😊", "Chapter 2 - ßöÄ", "Chapter 3 - 爱", "Chapter 4"], starts: [0, 3, 6, 9], cover: .png),
        // (Its cover is its `covr` item, a PNG; FFmpeg would show chapter 1's JPEG from the chapter image track.)
        Expected(path: "audio/formats/antennapod__nero-chapters.m4a", title: "Nero Chapters", author: nil,
                 chapters: ["Chapter 1 - ❤️😊", "Chapter 2 - ßöÄ", "Chapter 3 - 爱", "Chapter 4"], starts: [0, 3, 6, 9], cover: nil),
        Expected(path: "audio/formats/antennapod__auphonic.opus", title: "Title", author: "Artist",
                 chapters: ["Chapter 1 - ❤️😊", "Chapter 2 - ßöÄ", "Chapter 3 - 爱", "Chapter 4"], starts: [0, 3, 6, 9], cover: .jpeg),
        Expected(path: "audio/formats/antennapod__auphonic.ogg", title: "Title", author: "Artist",
                 chapters: ["Chapter 1 - ❤️😊", "Chapter 2 - ßöÄ", "Chapter 3 - 爱", "Chapter 4"], starts: [0, 3, 6, 9], cover: .jpeg),
        Expected(path: "audio/formats/mm__chapters.mp3", title: "mm__chapters", author: "Borewit",
                 chapters: ["Introduction", "New chapter", "Chapter 1"], starts: [0, 1, 2], cover: nil),
        // (Its cue sheet's tracks are untitled; FFmpeg titled the first with its ISRC, "123456789012".)
        Expected(path: "audio/formats/mutagen__silence-44-s.flac", title: "Silence", author: "piman",
                 chapters: ["Chapter 1", "Chapter 2", "Chapter 3"], starts: [0, 1, 2], cover: .png),
        Expected(path: "audio/formats/mutagen__ep7.m4b", title: "mutagen__ep7", author: nil, chapters: ["Chapter 1"], starts: [0], cover: nil),
    ]

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: corpus)
    func corpusFilesBecomeBooksWithChaptersAndCovers(expected: Expected) throws {
        let url = try Corpus.file(expected.path)
        let publication = try Self.open(url)
        let name = url.lastPathComponent
        #expect(publication.manifest.metadata.title?.string == expected.title)
        #expect(publication.manifest.metadata.authors.first?.name.string == expected.author)
        #expect(publication.manifest.readingOrder.map(\.href) == [name])
        let duration = try #require(publication.manifest.readingOrder[0].duration)
        let decoded = DecoderTestSupport.decodeAll(try RAudioDecoderFactory().makeDecoder(for: try publication.container.resource(at: name), mediaType: nil))
        #expect(abs(duration - Double(decoded.frameCount) / Double(decoded.format.sampleRate)) < 0.1, "\(duration) s")
        let toc = publication.manifest.tableOfContents
        #expect(toc.map(\.title) == expected.chapters)
        #expect(toc.map(\.href) == expected.starts.map { "\(name)#t=\(MediaFragment.format($0))" })
        let cover = publication.manifest.resources.first { $0.rels.contains("cover") }
        #expect(cover?.type == expected.cover?.string)
        if let cover {
            let bytes = try publication.container.resource(at: cover.href).read(range: nil)
            #expect(FFmpegAudioFileInspector.pictureType(bytes) == expected.cover)
        }
        if ReadiumValidator.isAvailable {
            try ReadiumValidator.validate(.publication, publication.manifest.json.serialized())
        }
    }

    /// ffmpeg writes chapters and tags from an FFMETADATA file into each container; they come back.
    @Test func chaptersAndTagsWrittenByFFmpegComeBackFromEachContainer() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let metadata = directory.appendingPathComponent("meta.txt")
        try """
            ;FFMETADATA1
            title=The Lighthouse
            artist=A. Keeper
            album=The Lighthouse
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1500
            title=Dusk
            [CHAPTER]
            TIMEBASE=1/1000
            START=1500
            END=3300
            title=Night
            """.write(to: metadata, atomically: true, encoding: .utf8)
        // FFmpeg 5.1 writes Ogg chapter comments with wrong times: the Opus file gets its comments
        // written as tags, in mixed case as some taggers write them.
        let opusChapters = ["-metadata", "chapter000=00:00:00.000", "-metadata", "chapter000name=Dusk",
                            "-metadata", "Chapter001=00:00:01.500", "-metadata", "Chapter001Name=Night", "-map_chapters", "-1"]
        for (name, codec) in [("book.m4b", ["-c:a", "aac", "-f", "ipod"]), ("book.opus", ["-c:a", "libopus"] + opusChapters),
                              ("book.mp3", ["-c:a", "libmp3lame"])] {
            let url = directory.appendingPathComponent(name)
            let status = try DecoderTestSupport.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=frequency=300:duration=3.3",
                                                               "-i", metadata.path, "-map_metadata", "1", "-map_chapters", "1"] + codec + [url.path])
            try #require(status == 0, "ffmpeg could not make \(name)")
            let publication = try Self.open(url)
            #expect(publication.manifest.metadata.title?.string == "The Lighthouse", "\(name)")
            #expect(publication.manifest.metadata.authors.map(\.name.string) == ["A. Keeper"], "\(name)")
            #expect(publication.manifest.tableOfContents.map(\.title) == ["Dusk", "Night"], "\(name)")
            #expect(publication.manifest.tableOfContents.map(\.href) == ["\(name)#t=0", "\(name)#t=1.5"], "\(name)")
        }
    }

    @Test func aFileWithoutTagsIsTitledByItsName() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let url = directory.appendingPathComponent("plain track.m4a")
        try #require(try DecoderTestSupport.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", "-map_metadata", "-1", url.path]) == 0)
        let publication = try Self.open(url)
        #expect(publication.manifest.metadata.title?.string == "plain track")
        #expect(publication.manifest.tableOfContents.map(\.href) == ["plain%20track.m4a"])
        #expect(publication.manifest.resources.isEmpty)
    }
}
