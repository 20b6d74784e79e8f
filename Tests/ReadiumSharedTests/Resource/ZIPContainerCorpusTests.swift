// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct ZIPContainerCorpusTests {
    static let fixtures = "readium/swift-toolkit/StreamerTests/Fixtures"

    @Test func audiotestZABListsFilesWithJunkAndMatchesTheFolder() throws {
        let container = try ZIPContainer(url: Corpus.file("\(Self.fixtures)/audiotest.zab"))
        #expect(container.entries == [
            "Test Audiobook/.hidden", "Test Audiobook/gtr-jazz.mp3", "Test Audiobook/.DS_Store",
            "Test Audiobook/Latin.mp3", "Test Audiobook/vln-lin-cs.mp3", "Thumbs.db",
        ])
        #expect(JunkFileFilter.removingJunk(container.entries) ==
            ["Test Audiobook/gtr-jazz.mp3", "Test Audiobook/Latin.mp3", "Test Audiobook/vln-lin-cs.mp3"])
        let folder = try Corpus.file("\(Self.fixtures)/audiotest/Test Audiobook")
        for name in ["gtr-jazz.mp3", "Latin.mp3", "vln-lin-cs.mp3"] {
            let resource = try container.resource(at: "Test%20Audiobook/\(name)")
            #expect(!resource.isRandomAccessCheap)
            #expect(try resource.read() == Data(contentsOf: folder.appendingPathComponent(name)))
        }
    }

    @Test func deflatedRangesEqualSlicesOfTheWholeRead() throws {
        let container = try ZIPContainer(url: Corpus.file("\(Self.fixtures)/audiotest.zab"))
        let resource = try container.resource(at: "Test Audiobook/vln-lin-cs.mp3")
        let whole = try resource.read()
        #expect(try resource.length() == UInt64(whole.count))
        for range: Range<UInt64> in [0..<1, 100..<70_000, 150_000..<206_631, 206_000..<999_999, 70_000..<70_000] {
            let fresh = try container.resource(at: "Test Audiobook/vln-lin-cs.mp3")
            let clamped = range.clamped(to: 0..<UInt64(whole.count))
            #expect(try fresh.read(range: range) == whole[Int(clamped.lowerBound)..<Int(clamped.upperBound)])
        }
    }

    @Test func lcpaArchiveReadsItsManifest() throws {
        let container = try ZIPContainer(url: Corpus.file("\(Self.fixtures)/audiotest.lcpa"))
        #expect(container.entries.contains("manifest.json"))
        #expect(container.entries.contains("audio/gtr-jazz.mp3"))
        let manifest = try container.resource(at: "manifest.json").readString()
        #expect(manifest.contains("readingOrder"))
    }

    @Test(arguments: [
        ("ocf-zip-unreadable-empty-fatal.epub", "empty"),
        ("ocf-zip-unreadable-no-end-header-fatal.epub", "no end of central directory"),
        ("ocf-zip-unreadable-image-with-epub-extension-fatal.epub", "no ZIP signature"),
    ])
    func unreadableArchivesAreBadDataNamingTheFile(_ name: String, _ reason: String) throws {
        let url = try Corpus.file("epub/epubcheck-edge/\(name)")
        let error = caughtResourceError { try ZIPContainer(url: url) }
        #expect(error?.code == .badData)
        #expect(error?.href == url.path)
        #expect(error?.message.hasPrefix("is not a ZIP archive (") == true)
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func missingArchiveIsNotFound() {
        #expect(caughtResourceError { try ZIPContainer(url: URL(fileURLWithPath: "/nonexistent/a.zab")) }?.code == .notFound)
    }

    @Test func nonUTF8NameIsDecodedAsCodePage437AndReported() throws {
        let container = try ZIPContainer(url: Corpus.file("epub/epubcheck-edge/ocf-filename-not-utf8-error.epub"))
        #expect(container.entries.contains("EPUB/content_é.xhtml"))
        #expect(container.warnings.contains { $0.contains("not UTF-8") })
        #expect(try container.resource(at: "EPUB/content_%C3%A9.xhtml").readString().contains("<html"))
    }

    @Test func duplicateEntryNameKeepsTheFirstAndIsReported() throws {
        let container = try ZIPContainer(url: Corpus.file("epub/epubcheck-edge/ocf-filename-duplicate-zip-entry-error.epub"))
        #expect(container.entries.filter { $0 == "OPS/content_001.xhtml" }.count == 1)
        #expect(container.warnings.contains { $0.contains("OPS/content_001.xhtml") && $0.contains("more than once") })
        #expect(try container.resource(at: "OPS/content_001.xhtml").readString().contains("<html"))
    }

    @Test func utf8PathsAreAddressableEncodedOrNot() throws {
        let container = try ZIPContainer(url: Corpus.file("epub/epubcheck-edge/ocf-filepath-utf8-valid.epub"))
        #expect(container.entries.contains("EPUB/spécial/styles.css"))
        #expect(!container.entries.contains("EPUB/spécial/"))
        #expect(try container.resource(at: "EPUB/sp%C3%A9cial/styles.css").length() == 0)
        #expect(try container.resource(at: "EPUB/spécial/styles.css").read().isEmpty)
        #expect(try container.resource(at: "mimetype").readString() == "application/epub+zip")
        #expect(try container.resource(at: "mimetype").isRandomAccessCheap)
    }
}
