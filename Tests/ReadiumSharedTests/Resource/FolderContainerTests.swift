// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@Suite struct FolderContainerTests {
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func listsTheAudiotestFolderAndReadsPercentEncodedHrefs() throws {
        let root = try Corpus.file("readium/swift-toolkit/StreamerTests/Fixtures/audiotest")
        let container = try FolderContainer(url: root)
        #expect(container.entries == ["Test Audiobook/Latin.mp3", "Test Audiobook/gtr-jazz.mp3", "Test Audiobook/vln-lin-cs.mp3"])
        let resource = try container.resource(at: "Test%20Audiobook/gtr-jazz.mp3")
        #expect(resource.href == "Test Audiobook/gtr-jazz.mp3")
        let expected = try Data(contentsOf: root.appendingPathComponent("Test Audiobook/gtr-jazz.mp3"))
        #expect(try resource.read() == expected)
        #expect(try container.resource(at: "/Test Audiobook/./Latin.mp3#t=3").length() == 191_843)
    }

    @Test func missingHrefIsNotFoundAndFolderIsNotAFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Data("x".utf8), to: "sub/a.txt")
        let container = try FolderContainer(url: folder.url)
        #expect(container.entries == ["sub/a.txt"])
        #expect(caughtResourceError { try container.resource(at: "sub/b.txt") }?.code == .notFound)
        #expect(caughtResourceError { try container.resource(at: "sub") }?.code == .notFound)
    }

    @Test func dotDotAndAbsoluteEscapesAreForbiddenOrRooted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Data("inside".utf8), to: "book/a.txt")
        try folder.write(Data("secret".utf8), to: "secret.txt")
        let container = try FolderContainer(url: folder.url.appendingPathComponent("book"))
        #expect(caughtResourceError { try container.resource(at: "../secret.txt") }?.code == .forbidden)
        #expect(caughtResourceError { try container.resource(at: "%2E%2E/secret.txt") }?.code == .forbidden)
        // An absolute href is rooted at the container, never at the file system's root.
        #expect(caughtResourceError { try container.resource(at: "/etc/passwd") }?.code == .notFound)
        #expect(try container.resource(at: "/a.txt").readString() == "inside")
    }

    @Test func symlinkLeavingTheRootIsForbiddenAndUnlisted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Data("secret".utf8), to: "secret.txt")
        try folder.write(Data("track".utf8), to: "book/track.mp3")
        let book = folder.url.appendingPathComponent("book")
        try FileManager.default.createSymbolicLink(atPath: book.appendingPathComponent("escape.mp3").path,
                                                   withDestinationPath: "../secret.txt")
        try FileManager.default.createSymbolicLink(atPath: book.appendingPathComponent("etc").path,
                                                   withDestinationPath: "/etc")
        try FileManager.default.createSymbolicLink(atPath: book.appendingPathComponent("alias.mp3").path,
                                                   withDestinationPath: "track.mp3")
        let container = try FolderContainer(url: book)
        #expect(container.entries == ["alias.mp3", "track.mp3"])
        #expect(caughtResourceError { try container.resource(at: "escape.mp3") }?.code == .forbidden)
        #expect(caughtResourceError { try container.resource(at: "etc/passwd") }?.code == .forbidden)
        #expect(try container.resource(at: "alias.mp3").readString() == "track")
    }

    @Test func literalPercentInAFileNameIsFound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Data("full".utf8), to: "100%.txt")
        try folder.write(Data("encoded".utf8), to: "a%20b.txt")
        let container = try FolderContainer(url: folder.url)
        #expect(try container.resource(at: "100%.txt").readString() == "full")
        #expect(try container.resource(at: "a%2520b.txt").readString() == "encoded")
    }

    @Test func missingFolderIsNotFoundAndFileIsNotAFolder() throws {
        #expect(caughtResourceError { try FolderContainer(url: URL(fileURLWithPath: "/nonexistent/raudio")) }?.code == .notFound)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(Data("x".utf8), to: "f.txt")
        #expect(caughtResourceError { try FolderContainer(url: file) }?.code == .badData)
    }
}
