// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
@testable import RAudioPlayer
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

/// What `--web` serves: the page from `web/`, the publication's resources from its package, its manifest
/// and cover; everything else 404.
@Suite struct ReadAlongSiteTests {
    let site: ReadAlongSite

    init() throws {
        let publication = try EPUBParser().parse(container: ZIPContainer(url: URL(fileURLWithPath: SpeakCommandTests.sampleEPUB)))
        site = ReadAlongSite(publication: publication, pageFolder: Corpus.projectRoot.appendingPathComponent("web"))
    }

    @Test func thePageAndItsScriptsComeFromTheWebFolder() throws {
        let page = site.response(to: "/")
        #expect(page.status == 200)
        #expect(page.contentType == "text/html; charset=utf-8")
        #expect(String(decoding: page.body, as: UTF8.self).contains("/raudio/readalong.js"))
        let script = site.response(to: "/raudio/resolver.js?v=1")
        #expect(script.status == 200)
        #expect(script.contentType.hasPrefix("text/javascript"))
        #expect(String(decoding: script.body, as: UTF8.self).contains("RAudioResolver"))
        #expect(!script.isPublicationContent)
    }

    @Test func aResourceIsServedFromThePackageAsDeclared() throws {
        let chapter = site.response(to: "/publication/EPUB/chapter-1.xhtml")
        #expect(chapter.status == 200)
        #expect(chapter.contentType == "application/xhtml+xml")
        #expect(chapter.body.isEmpty, "a resource is streamed, not read into the answer")
        let stream = try #require(chapter.stream)
        #expect(String(decoding: try stream.resource.read(range: stream.range), as: UTF8.self).contains("She watched it until the rain hid everything."))
        #expect(chapter.isPublicationContent, "its scripts are disabled by the server")
        let manifest = site.response(to: "/publication/manifest.json")
        #expect(manifest.status == 200)
        let json = try JSONParser.parse(manifest.body)
        #expect(json.objectValue?["metadata"]?.objectValue?["title"]?.stringValue == "The Lighthouse Keeper")
    }

    @Test(arguments: ["/publication/EPUB/missing.xhtml", "/publication/../../etc/passwd", "/publication/EPUB/%2E%2E/%2E%2E/%2E%2E/etc/passwd",
                      "/raudio/../Package.swift", "/raudio/.hidden", "/raudio/", "/elsewhere", "/cover"])
    func anythingElseIsNotFound(path: String) {
        let response = site.response(to: path)
        #expect(response.status == 404, "\(path)")
        #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("raudio: not found"))
    }

    /// A text file read aloud is shown as the paragraphs its locators select (`#line-N`), not as raw text.
    @Test func aTextFileIsServedAsTheDocumentItsLocatorsPointInto() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-site-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("CHAPTER 1.\n\nCaf\u{E9} <ouvert> & chaud.\n".utf8).write(to: file)
        let publication = try PublicationOpener().open(url: file)
        let site = ReadAlongSite(publication: publication, pageFolder: site.pageFolder)
        let response = site.response(to: "/publication/notes.txt")
        #expect(response.status == 200 && response.contentType == "application/xhtml+xml; charset=utf-8" && response.isPublicationContent)
        let page = try XMLDocument(data: response.body, href: "notes.txt", mode: .strict)
        let body = try #require(page.root.firstChild("body"))
        #expect(body.childElements.map { $0.attribute("id") ?? "" } == ["line-0", "line-2"])
        #expect(body.childElements.map(\.textContent) == ["CHAPTER 1.", "Caf\u{E9} <ouvert> & chaud."])
        // Where the content service says the second paragraph is, the page has it.
        let iterator = try publication.content(from: nil).iterator()
        _ = try iterator.next()
        #expect(try iterator.next()?.locator.locations.cssSelector == "#line-2")
    }

    /// A page of a remote EPUB has no URL of its own: it is read in place from the package the listener
    /// opened (range requests to the package's URL), while a remote manifest's file is a redirect.
    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipMessage))
    func aFileOfARemotePackageIsReadInPlaceForThePage() throws {
        let server = try NginxServer()
        defer { server.stop() }
        try server.add(URL(fileURLWithPath: SpeakCommandTests.sampleEPUB), as: "lighthouse.epub")
        let opener = PublicationOpener(checksContentDocuments: false, remoteAccess: RemoteAccessSetup.access)
        let publication = try opener.open(url: try #require(URL(string: server.url("lighthouse.epub"))))
        let site = ReadAlongSite(publication: publication, pageFolder: site.pageFolder)
        let chapter = site.response(to: "/publication/EPUB/chapter-1.xhtml")
        #expect(chapter.status == 200 && chapter.isPublicationContent)
        let stream = try #require(chapter.stream)
        #expect(String(decoding: try stream.resource.read(range: stream.range), as: UTF8.self).contains("She watched it until the rain hid everything."))
        // Its bytes came from the package's URL, by range (the sample is smaller than the first range read).
        #expect(server.accessLog.contains { $0.contains("lighthouse.epub") && $0.contains(" 206 ") }, "\(server.accessLog)")
    }

    @Test func withoutAPublicationOnlyThePageIsServed() {
        let bare = ReadAlongSite(publication: nil, pageFolder: site.pageFolder)
        #expect(bare.response(to: "/").status == 200)
        #expect(bare.response(to: "/publication/EPUB/chapter-1.xhtml").status == 404)
        #expect(bare.response(to: "/publication/manifest.json").status == 404)
    }

    @Test func theWebFolderIsFoundLikeTheVoicePresets() throws {
        let found = try #require(ReadAlongSite(publication: nil, environment: [:]))
        #expect(found.pageFolder.lastPathComponent == "web")
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-web-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let chosen = try #require(ReadAlongSite(publication: nil, environment: ["RAUDIO_WEB": elsewhere.path]))
        #expect(chosen.pageFolder.standardizedFileURL.path.trimmingSuffix("/") == elsewhere.standardizedFileURL.path.trimmingSuffix("/"))
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
