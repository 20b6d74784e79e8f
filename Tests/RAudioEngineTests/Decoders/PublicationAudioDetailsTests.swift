// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import RAudioEngine

/// What the manifest leaves out comes from the files: durations, and for a folder of audio files its
/// tracks' titles, chapters and album.
@Suite struct PublicationAudioDetailsTests {
    @Test func aFolderOfTaggedTracksGetsTitlesChaptersDurationsAndItsAlbum() throws {
        let directory = try DecoderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeAllItems(at: directory) }
        let metadata = directory.appendingPathComponent("chapters.txt")
        try ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1000\ntitle=Opening\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1000\nEND=2500\ntitle=Storm\n"
            .write(to: metadata, atomically: true, encoding: .utf8)
        let book = directory.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let tracks: [(String, [String])] = [
            ("01.m4a", ["-i", metadata.path, "-map", "0", "-map_chapters", "1", "-c:a", "aac", "-metadata", "title=The Storm"]),
            ("02.opus", ["-c:a", "libopus", "-metadata", "title=The Ship"]),
            ("03.flac", ["-c:a", "flac", "-metadata", "title=Morning"]),
        ]
        for (name, arguments) in tracks {
            let status = try DecoderTestSupport.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=500:duration=2.5"]
                + arguments + ["-metadata", "album=Gull Rock", "-metadata", "artist=A. Keeper", book.appendingPathComponent(name).path])
            try #require(status == 0, "ffmpeg could not make \(name)")
        }
        let opened = try PublicationOpener().open(url: book)
        #expect(opened.readingOrder.allSatisfy { $0.duration == nil })
        let publication = PublicationAudioDetails.completed(opened)
        let manifest = publication.manifest
        #expect(manifest.metadata.title?.string == "Gull Rock")
        #expect(manifest.metadata.authors.map(\.name.string) == ["A. Keeper"])
        #expect(manifest.readingOrder.map(\.title) == ["The Storm", "The Ship", "Morning"])
        for link in manifest.readingOrder {
            let duration = try #require(link.duration, "\(link.href)")
            #expect(abs(duration - 2.5) < 0.05, "\(link.href): \(duration) s")
        }
        #expect(abs((manifest.metadata.duration ?? 0) - 7.5) < 0.15)
        #expect(manifest.tableOfContents.map(\.title) == ["The Storm", "The Ship", "Morning"])
        #expect(manifest.tableOfContents[0].children.map(\.title) == ["Opening", "Storm"])
        #expect(manifest.tableOfContents[0].children.map(\.href) == ["01.m4a#t=0", "01.m4a#t=1"])
        if ReadiumValidator.isAvailable { try ReadiumValidator.validate(.publication, manifest.json.serialized()) }
    }

    @Test func aManifestWithDurationsIsLeftAlone() throws {
        let manifest = NavigatorSampleBook.manifestURL
        let opened = try PublicationOpener().open(url: manifest)
        try #require(opened.readingOrder.allSatisfy { $0.duration != nil })
        #expect(PublicationAudioDetails.completed(opened) === opened)
    }
}

/// The sample audiobook of the project.
enum NavigatorSampleBook {
    static var manifestURL: URL { Corpus.projectRoot.appendingPathComponent("samples/gull-rock/manifest.json") }
}
