// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumStreamer

private let fixtures = "readium/swift-toolkit"

@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct PublicationOpenerTests {
    let opener = PublicationOpener()

    @Test func audiobookPackageIsRecognizedByContentDespiteItsExtension() throws {
        let url = try Corpus.file("\(fixtures)/SharedTests/Fixtures/Format/audiobook-package.unknown")
        let publication = try opener.open(url: url)
        #expect(publication.mediaType == .readiumAudiobook)
        #expect(publication.protection == nil)
        // Compare with Foundation's reading of the same manifest, an independent parser.
        let data = try publication.resource(at: "manifest.json").read()
        let reference = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let readingOrder = try #require(reference["readingOrder"] as? [[String: Any]])
        #expect(publication.readingOrder.count == readingOrder.count)
        #expect(publication.readingOrder.map(\.href) == readingOrder.map { $0["href"] as? String })
        #expect(publication.readingOrder.map(\.duration) == readingOrder.map { ($0["duration"] as? NSNumber)?.doubleValue })
        #expect(publication.tableOfContents.count == (reference["toc"] as? [Any])?.count)
        #expect(publication.title == "Flatland")
    }

    @Test func epubOpenedWithoutContentChecksLeavesMalformedChaptersToTheContentService() throws {
        let url = try Corpus.file("epub/w3c-epub-tests/pub-xml-non-validating_unclosed.epub")
        let notWellFormed: (ParsingWarning) -> Bool = {
            $0.source == "EPUB/content_001.xhtml" && $0.message.contains("not well-formed")
        }
        #expect(try opener.open(url: url).warnings.contains(where: notWellFormed))
        let unchecked = try PublicationOpener(checksContentDocuments: false).open(url: url)
        #expect(unchecked.readingOrder.map(\.href) == ["EPUB/content_001.xhtml"])
        #expect(!unchecked.warnings.contains(where: notWellFormed))
        // The content service still reads the chapter, recovering it, and warns when it gets there.
        let service = try #require(unchecked.extensions[ContentServiceKey.key] as? EPUBContentService)
        let iterator = try service.content(from: nil).iterator()
        #expect(try iterator.next() != nil)
        #expect(!service.warnings.warnings.isEmpty)
    }

    @Test(arguments: [
        "\(fixtures)/SharedTests/Fixtures/Format/audiobook-lcp.unknown",
        "\(fixtures)/StreamerTests/Fixtures/audiotest.lcpa",
    ])
    func lcpPackagesAreRecognizedAsProtected(path: String) throws {
        let publication = try opener.open(url: try Corpus.file(path))
        #expect(publication.protection == .lcp)
        #expect(publication.mediaType == .lcpProtectedAudiobook)
        #expect(!publication.readingOrder.isEmpty)
    }

    @Test func lcpLicenseAloneIsRefusedAsUnsupported() throws {
        let url = try Corpus.file("\(fixtures)/SharedTests/Fixtures/Format/lcpl.unknown")
        #expect {
            try opener.open(url: url)
        } throws: { error in
            let opening = error as! OpeningError
            return opening.code == .unsupported && opening.message.contains("LCP")
        }
    }

    @Test func informalZIPAudiobookIsInNaturalOrderWithoutJunk() throws {
        let publication = try opener.open(url: try Corpus.file("\(fixtures)/StreamerTests/Fixtures/audiotest.zab"))
        #expect(publication.mediaType == .zab)
        #expect(publication.readingOrder.map(\.href) == [
            "Test%20Audiobook/gtr-jazz.mp3", "Test%20Audiobook/Latin.mp3", "Test%20Audiobook/vln-lin-cs.mp3",
        ])
        #expect(publication.readingOrder.allSatisfy { $0.type == "audio/mpeg" })
        for link in publication.readingOrder {
            #expect(try publication.resource(at: link.href).length() > 10_000)
        }
    }

    @Test func folderAudiobookListsTheSameTracksAsItsZIP() throws {
        let folder = try opener.open(url: try Corpus.file("\(fixtures)/StreamerTests/Fixtures/audiotest"))
        let zip = try opener.open(url: try Corpus.file("\(fixtures)/StreamerTests/Fixtures/audiotest.zab"))
        #expect(folder.readingOrder.map(\.href) == zip.readingOrder.map(\.href))
        let first = folder.readingOrder[0].href
        #expect(try folder.resource(at: first).read() == zip.resource(at: first).read())
    }

    @Test func informalAudiobookSkipsPlaylistsAndJunk() throws {
        let publication = try opener.open(url: try Corpus.file("\(fixtures)/SharedTests/Fixtures/Format/zab.unknown"))
        let hrefs = publication.readingOrder.map(\.href)
        #expect(!hrefs.contains { $0.hasSuffix(".m3u") || $0.hasSuffix(".pls") || $0.hasSuffix(".db") || $0.hasSuffix(".smil") })
        #expect(hrefs.contains("file.mp3") && hrefs.contains("folder/file.mp3") && hrefs.contains("file.opus"))
        #expect(publication.readingOrder.allSatisfy { $0.type != nil })
    }

    @Test func singleAudioFileIsAPublicationOfOneTrack() throws {
        let url = try Corpus.file("audio/ogg-speech/auphonic_chapters_demo.ogg")
        let publication = try opener.open(url: url)
        #expect(publication.readingOrder.map(\.href) == ["auphonic_chapters_demo.ogg"])
        #expect(publication.mediaType == .ogg)
        #expect(throws: ResourceError.self) { try publication.resource(at: "../ogg-edge/tinytag__test.ogg") }
    }

    @Test func standaloneManifestResolvesHrefsBesideIt() throws {
        let folder = try TemporaryFolder()
        try folder.write("audio/one.mp3", Data([0xFF, 0xFB, 0x90, 0x00]))
        try folder.write("book.json", Data(#"{"metadata":{"title":"T"},"readingOrder":[{"href":"./audio/../audio/one.mp3","type":"audio/mpeg"}]}"#.utf8))
        let publication = try opener.open(url: folder.url.appendingPathComponent("book.json"))
        #expect(publication.readingOrder.map(\.href) == ["audio/one.mp3"])
        #expect(try publication.resource(at: "audio/one.mp3").length() == 4)
    }

    @Test func hrefLeavingThePackageIsWarnedAndRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("secret.mp3", Data([1, 2, 3]))
        try folder.write("book/manifest.json", Data(#"{"metadata":{"title":"T"},"readingOrder":[{"href":"../secret.mp3","type":"audio/mpeg"}]}"#.utf8))
        let publication = try opener.open(url: folder.url.appendingPathComponent("book"))
        #expect(publication.warnings.contains { $0.message.contains("leaves the publication") })
        #expect {
            try publication.resource(at: publication.readingOrder[0].href)
        } throws: { error in
            (error as! ResourceError).code == .forbidden
        }
    }

    @Test func remoteHrefsAreKeptWithAWarning() throws {
        let publication = try opener.open(url: try Corpus.file("\(fixtures)/SharedTests/Fixtures/Format/audiobook.json"))
        #expect(publication.readingOrder.allSatisfy { $0.href.hasPrefix("http") })
        #expect(publication.warnings.contains { $0.message.contains("remote (http/https) resources, which cannot be fetched here") })
        #expect {
            try publication.resource(at: publication.readingOrder[0].href)
        } throws: { error in
            let code = (error as! ResourceError).code
            return code == .remote || code == .forbidden
        }
    }

    @Test(arguments: [
        ("\(fixtures)/StreamerTests/Fixtures/flatland.json", "line 33, column 3: trailing comma"),
        ("\(fixtures)/SharedTests/Fixtures/Publication/flatland-href.json", "trailing comma"),
        ("\(fixtures)/SharedTests/Fixtures/Format/w3c-wpub.json", "line 12, column 5: trailing comma"),
    ])
    func manifestsThatAreNotValidJSONNameThePlace(path: String, expected: String) throws {
        let url = try Corpus.file(path)
        #expect {
            try opener.open(url: url)
        } throws: { error in
            let opening = error as! OpeningError
            return opening.code == .badData && opening.message.contains(expected) && opening.path.hasSuffix(url.lastPathComponent)
        }
    }

    @Test(arguments: [
        ("epub/epubcheck-edge/ocf-zip-unreadable-empty-fatal.epub", OpeningError.Code.badData, "empty"),
        ("epub/epubcheck-edge/ocf-zip-unreadable-no-end-header-fatal.epub", .badData, "ZIP"),
        ("epub/epubcheck-edge/ocf-zip-unreadable-image-with-epub-extension-fatal.epub", .badData, "not a publication"),
        ("\(fixtures)/SharedTests/Fixtures/Format/json.unknown", .badData, "metadata"),
        ("\(fixtures)/SharedTests/Fixtures/Format/opds2-publication.json", .badData, "readingOrder"),
        ("audio/mp3-edge/Voice__defect.mp3", .badData, "not a publication"),
    ] as [(String, OpeningError.Code, String)])
    func badInputsGetAClearError(path: String, code: OpeningError.Code, expected: String) throws {
        let url = try Corpus.file(path)
        #expect {
            try opener.open(url: url)
        } throws: { error in
            let opening = error as! OpeningError
            return opening.code == code && opening.message.contains(expected)
        }
    }

    @Test func missingPathIsNotFound() {
        #expect {
            try opener.open(url: URL(fileURLWithPath: "/nonexistent/book.audiobook"))
        } throws: { error in
            (error as! OpeningError).code == .notFound
        }
    }

    @Test func zipWithoutManifestOrAudioIsRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes/readme.txt", Data("hello".utf8))
        let zip = folder.url.appendingPathComponent("x.audiobook")
        try folder.zip(folder: "notes", to: zip)
        #expect(throws: OpeningError.self) { try opener.open(url: zip) }
    }
}

/// A temporary folder removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-streamer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func write(_ relativePath: String, _ data: Data) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// Zips the contents of `folder` (relative) into `destination` with python's zipfile.
    func zip(folder: String, to destination: URL) throws {
        let script = """
            import os, sys, zipfile
            src, dst = sys.argv[1], sys.argv[2]
            with zipfile.ZipFile(dst, 'w') as z:
                for root, _, files in os.walk(src):
                    for f in files:
                        p = os.path.join(root, f); z.write(p, os.path.relpath(p, src))
            """
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, url.appendingPathComponent(folder).path, destination.path]
        )
        guard result.status == 0 else { throw CorpusMissing(path: "python3 zipfile: \(result.standardError)") }
    }
}
