// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumStreamer

/// Package documents parsed standalone: each is put in a temporary folder EPUB with its own
/// `META-INF/container.xml`, then opened through `EPUBParser` like any book.
@Suite("EPUB package documents from the Readium fixtures")
struct EPUBPackageFixtureTests {
    static let opfFolder = "readium/swift-toolkit/StreamerTests/Fixtures/OPF/"

    /// Opens `opf` (text) as the package document `OPS/package.opf` of a folder EPUB holding `files`.
    static func open(opf: String, files: [String: String] = [:]) throws -> Publication {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-opf-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var all = files
        all["mimetype"] = "application/epub+zip"
        all["META-INF/container.xml"] = """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """
        all["OPS/package.opf"] = opf
        for (path, text) in all {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        // Every spine document the fixture names exists, so that the book is readable.
        let items = (try? XMLDocument(string: opf, href: "OPS/package.opf"))?.root.descendants("item") ?? []
        for item in items {
            guard let href = item.attribute("href"), let path = try? Href(href, relativeTo: "OPS/package.opf").path else { continue }
            let url = root.appendingPathComponent(path)
            if !FileManager.default.fileExists(atPath: url.path) {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>x</p></body></html>".utf8).write(to: url)
            }
        }
        return try EPUBParser().parse(container: FolderContainer(url: root))
    }

    static func fixture(_ name: String) throws -> Publication {
        try open(opf: String(contentsOf: Corpus.file(opfFolder + name), encoding: .utf8))
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func contributorsMapMARCRolesToRWPMKeys() throws {
        let metadata = try Self.fixture("contributors.opf").metadata
        func names(_ key: String) -> [String] { metadata.contributors[key]?.map(\.name.string) ?? [] }
        #expect(names("author") == ["Author 1", "Author 2", "Cameleon 1", "Author 3", "Author 4", "Author A", "Cameleon A"])
        #expect(names("publisher") == ["Publisher 1", "Publisher 2", "Publisher A", "Publisher B"])
        #expect(names("translator") == ["Translator"])
        #expect(names("editor") == ["Editor"])
        #expect(names("artist") == ["Artist"])
        #expect(names("illustrator") == ["Illustrator 1", "Illustrator 2", "Illustrator A"])
        #expect(names("colorist") == ["Colorist"])
        #expect(names("narrator") == ["Narrator"])
        #expect(names("contributor") == ["Contributor 1", "Unknown", "Contributor A"])
        #expect(metadata.contributors["illustrator"]?[1].sortAs == "sorting")
        #expect(metadata.contributors["contributor"]?[1].roles == ["unknown"])
    }

    /// A package naming its author twice (israelsailing: an EPUB 3 `dc:creator` and an EPUB 2 one with
    /// `opf:file-as`) lists the author once, with the sort name; a namesake in another role stays.
    @Test func aContributorNamedTwiceInOneRoleIsListedOnce() throws {
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
                <dc:identifier id="id">urn:uuid:1</dc:identifier><dc:title>Sailing</dc:title><dc:language>en</dc:language>
                <dc:creator id="c1">Dana Levi</dc:creator>
                <dc:creator opf:file-as="Levi, Dana">Dana  Levi</dc:creator>
                <dc:creator id="c3">Sam Cohen</dc:creator>
                <dc:creator id="c4">Dana Levi</dc:creator>
                <meta refines="#c4" property="role" scheme="marc:relators">ill</meta>
                <dc:publisher>Harbour</dc:publisher><dc:publisher>Harbour</dc:publisher>
                <meta property="dcterms:modified">2024-01-01T00:00:00Z</meta>
              </metadata>
              <manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>
              <spine><itemref idref="c"/></spine>
            </package>
            """
        let metadata = try Self.open(opf: opf).metadata
        #expect(metadata.contributors["author"]?.map(\.name.string) == ["Dana Levi", "Sam Cohen"])
        #expect(metadata.contributors["author"]?.first?.sortAs == "Levi, Dana")
        #expect(metadata.contributors["illustrator"]?.map(\.name.string) == ["Dana Levi"])
        #expect(metadata.contributors["publisher"]?.map(\.name.string) == ["Harbour"])
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func subtitleIsTheOneWithTheLowestDisplaySequence() throws {
        let metadata = try Self.fixture("title-multiple-subtitles.opf").metadata
        #expect(metadata.title?.string == "Alice's Adventures in Wonderland")
        #expect(metadata.subtitle?.string == "Subtitle 2")
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func epub2DatesComeFromOPFEvents() throws {
        let metadata = try Self.fixture("dates-epub2.opf").metadata
        #expect(metadata.published == "1865-07-04")
        #expect(metadata.modified == "2012-04-02T12:47:00Z")
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func pageProgressionDirectionBecomesReadingProgression() throws {
        #expect(try Self.fixture("progression-rtl.opf").metadata.readingProgression == "rtl")
        #expect(try Self.fixture("progression-ltr.opf").metadata.readingProgression == "ltr")
        #expect(try Self.fixture("progression-default.opf").metadata.readingProgression == nil)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage), arguments: [
        "accessibility-epub3.opf", "collections-epub3.opf", "cover-epub2.opf", "cover-epub3.opf", "full-metadata.opf",
        "links.opf", "links-spine.opf", "links-properties.opf", "media-overlays.opf", "rendition-metadata.opf",
        "subjects-multiple.opf", "sortAs-epub2.opf", "sortAs-epub3.opf", "title-localized.opf", "version-epub2.opf",
    ])
    func fixturePackageOpensToAValidManifest(name: String) throws {
        let publication = try Self.fixture(name)
        if EPUBTestSupport.validatorAvailable {
            let failure = try EPUBTestSupport.validationFailure(of: publication.manifest, name: name)
            #expect(failure == nil, "\(name): \(failure ?? "")")
        } else {
            #expect(!Corpus.isCI, "python3 with jsonschema is needed to validate manifests in CI")
        }
    }

    static let minimalOPF = """
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title><dc:identifier id="id">x</dc:identifier>
        <dc:language>en</dc:language><meta property="dcterms:modified">yesterday</meta></metadata>
        <manifest><item id="c" href="c%201.xhtml" media-type="application/xhtml+xml"/>
        <item id="escape" href="../../etc/passwd" media-type="text/plain"/><item id="u" href="data.bin" media-type="application/x-unknown"/></manifest>
        <spine><itemref idref="c"/><itemref idref="ghost"/></spine></package>
        """

    @Test func hrefsAreDecodedEscapesRefusedUnknownTypesKeptAndBadDatesWarned() throws {
        let publication = try Self.open(opf: Self.minimalOPF)
        #expect(publication.readingOrder.map(\.href) == ["OPS/c%201.xhtml"])
        #expect(publication.manifest.resources.map(\.type) == ["application/x-unknown"])
        #expect(publication.metadata.modified == "yesterday")
        let messages = publication.warnings.map(\.message)
        #expect(messages.contains { $0.contains("leaves the publication's root") })
        #expect(messages.contains { $0.contains("not an ISO 8601 date") })
        #expect(messages.contains { $0.contains("names no manifest item") })
    }

    @Test(arguments: ["2020", "2020-05", "2020-05-01", "2020-05-01T10:30", "2020-05-01T10:30Z", "2020-05-01T10:30:15",
                      "2020-05-01T10:30:15.250Z", "2020-05-01T10:30:15+02:00", "2020-05-01T10:30-0500"])
    func iso8601DatesAreRecognized(_ date: String) {
        #expect(EPUBMetadataParser.isISO8601(date))
    }

    @Test(arguments: ["", "yesterday", "20", "2020-5", "2020-05-1", "2020/05/01", "2020-05-01T10", "2020-05-01T10:30:1",
                      "2020-05-01T10:30:15.", "2020-05-01T10:30+2", "2020-05-01T10:30Zx", "2020-05-01 ", "٢٠٢٠"])
    func otherDatesAreNot(_ date: String) {
        #expect(!EPUBMetadataParser.isISO8601(date))
    }

    @Test func billionLaughsInThePackageDocumentIsRefused() {
        let opf = """
            <?xml version="1.0"?><!DOCTYPE package [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest/><spine/></package>
            """
        #expect { try Self.open(opf: opf) } throws: { error in
            guard let error = error as? EPUBError else { return false }
            return error.code == .invalidPackage && error.message.contains("<!ENTITY") && error.href == "OPS/package.opf"
        }
    }

    @Test func externalEntityInThePackageDocumentIsRefused() {
        let opf = """
            <?xml version="1.0"?><!DOCTYPE package [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata><title xmlns="http://purl.org/dc/elements/1.1/">&xxe;</title></metadata></package>
            """
        #expect { try Self.open(opf: opf) } throws: { ($0 as? EPUBError)?.code == .invalidPackage }
    }

    @Test func folderWithoutContainerXMLIsNotAnEPUB() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-notepub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("x".utf8).write(to: root.appendingPathComponent("a.txt"))
        #expect { try EPUBParser().parse(container: FolderContainer(url: root)) } throws: { error in
            (error as? EPUBError)?.message == "not an EPUB: META-INF/container.xml is missing"
        }
    }
}
