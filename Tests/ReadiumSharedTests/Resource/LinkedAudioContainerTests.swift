// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// The sidecar of `raudio align --link-audio` (`LinkedAudio`) and the container that serves its files
/// (`LinkedAudioContainer`): only hrefs the package lacks, only audio, only regular files, relative to the sidecar.
@Suite struct LinkedAudioContainerTests {
    /// A folder with `book.zip` (an archive holding `EPUB/a.xhtml` and `EPUB/raudio/kept.mp3`) and `audio/001.mp3`.
    static func fixture() throws -> (folder: TemporaryFolder, package: URL, zip: ZIPContainer) {
        let folder = try TemporaryFolder()
        try folder.write(Data("narration".utf8), to: "audio/one 001.mp3")
        try folder.runPython("""
            import zipfile
            with zipfile.ZipFile("book.zip", "w") as z:
                z.writestr("EPUB/a.xhtml", "<html/>")
                z.writestr("EPUB/raudio/kept.mp3", "inside")
            """)
        let package = folder.url.appendingPathComponent("book.zip")
        return (folder, package, try ZIPContainer(url: package))
    }

    @Test func servesTheLinkedFileRelativeToTheSidecarAndRoundTrips() throws {
        let (folder, package, zip) = try Self.fixture()
        defer { folder.remove() }
        let reference = LinkedAudio.relativeReference(from: folder.url.appendingPathComponent("out"), to: folder.url.appendingPathComponent("audio/one 001.mp3"))
        #expect(reference == "../audio/one%20001.mp3")
        let linked = LinkedAudio(links: [.init(href: "EPUB/raudio/narration-1.mp3", file: "audio/one%20001.mp3")])
        try linked.jsonData().write(to: LinkedAudio.sidecarURL(of: package))
        #expect(LinkedAudio.sidecarURL(of: package).lastPathComponent == "book.zip.audio.json")
        let loaded = try #require(try LinkedAudio.load(besides: package))
        #expect(loaded == linked)
        let container = try LinkedAudioContainer(base: zip, linked: loaded, packageURL: package)
        #expect(container.entries.contains("EPUB/raudio/narration-1.mp3"))
        #expect(try container.resource(at: "EPUB/raudio/narration-1.mp3").read() == Data("narration".utf8))
        #expect(try container.resource(at: "EPUB/a.xhtml").read() == Data("<html/>".utf8))
    }

    @Test func neverReplacesWhatThePackageHolds() throws {
        let (folder, package, zip) = try Self.fixture()
        defer { folder.remove() }
        let linked = LinkedAudio(links: [.init(href: "EPUB/raudio/kept.mp3", file: "audio/one%20001.mp3")])
        let container = try LinkedAudioContainer(base: zip, linked: linked, packageURL: package)
        #expect(try container.resource(at: "EPUB/raudio/kept.mp3").read() == Data("inside".utf8))
        #expect(container.entries.filter { $0 == "EPUB/raudio/kept.mp3" }.count == 1)
    }

    @Test func linksOnlyAudioHrefsAndRegularFilesThatExist() throws {
        let (folder, package, zip) = try Self.fixture()
        defer { folder.remove() }
        let document = Data(#"{"raudioLinkedAudio": 1, "audio": [{"href": "EPUB/b.xhtml", "file": "audio/one%20001.mp3"}]}"#.utf8)
        #expect(caughtResourceError { try LinkedAudio(data: document, path: "s.json") }?.code == .forbidden)
        let escape = Data(#"{"raudioLinkedAudio": 1, "audio": [{"href": "../x.mp3", "file": "audio/one%20001.mp3"}]}"#.utf8)
        #expect(caughtResourceError { try LinkedAudio(data: escape, path: "s.json") }?.code == .forbidden)
        #expect(caughtResourceError { try LinkedAudio(data: Data("[]".utf8), path: "s.json") }?.code == .badData)
        let missing = LinkedAudio(links: [.init(href: "EPUB/raudio/narration-1.mp3", file: "audio/moved.mp3")])
        let notFound = caughtResourceError { try LinkedAudioContainer(base: zip, linked: missing, packageURL: package) }
        #expect(notFound?.code == .notFound)
        #expect(notFound?.href.hasSuffix("audio/moved.mp3") == true)
        let folderLink = LinkedAudio(links: [.init(href: "EPUB/raudio/narration-1.mp3", file: "audio")])
        #expect(caughtResourceError { try LinkedAudioContainer(base: zip, linked: folderLink, packageURL: package) }?.code == .forbidden)
    }
}
