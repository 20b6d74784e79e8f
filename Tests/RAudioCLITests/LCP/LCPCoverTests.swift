// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import LCPTestSupport
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio info BOOK --cover FILE` of an LCP audiobook whose cover is encrypted: unlocked (its passphrase given),
/// the cover written is the picture in clear; locked (no passphrase), the cover is refused, saying why, and
/// nothing is written: never the encrypted bytes as a picture.
@Suite(.enabled(if: Corpus.isAvailable, "needs the shared corpus (audio/, lcp/)"))
struct LCPCoverTests {
    /// Not a real JPEG, but bytes the test knows (with the JPEG's first bytes).
    static let cover = Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })

    static func book(in folder: TemporaryDirectory) throws -> (book: String, passphraseFile: String) {
        var spec = LCPVectorMaker.License(issued: LCPVectorMaker.Provider.test2026.validIssueDate)
        spec.id = "cover-test"
        let mp3 = try Data(contentsOf: Corpus.file("audio/mp3-speech/w3c-epub-tests__mol-navigation__ch1.mp3"))
        let book = folder.path("book.lcpa")
        try LCPVectorMaker.audiobookPackage(
            license: try LCPVectorMaker().license(spec), contentKey: spec.contentKey,
            resources: [.init(href: "audio/ch1.mp3", type: "audio/mpeg", data: mp3),
                        .init(href: "images/cover.jpg", type: "image/jpeg", data: cover, rel: "cover")]
        ).write(to: URL(fileURLWithPath: book))
        let passphraseFile = folder.path("passphrase.txt")
        try (spec.passphrase + "\n").write(toFile: passphraseFile, atomically: true, encoding: .utf8)
        return (book, passphraseFile)
    }

    @Test func anEncryptedCoverIsWrittenInClearWhenUnlockedAndRefusedWhenLocked() throws {
        let folder = try TemporaryDirectory()
        let (book, passphrase) = try Self.book(in: folder)
        let environment = ["RAUDIO_STATE_DIR": folder.path("state")]

        let clear = folder.path("clear.jpg")
        let unlocked = try ProcessRunner.raudio(["info", book, "--passphrase-file", passphrase, "--cover", clear], environment: environment)
        #expect(unlocked.status == 0, "\(unlocked.standardError)")
        #expect(FileManager.default.contents(atPath: clear) == Self.cover, "the cover written is not the picture in clear")

        let lockedCover = folder.path("locked.jpg")
        let locked = try ProcessRunner.raudio(["info", book, "--cover", lockedCover], environment: ["RAUDIO_STATE_DIR": folder.path("other-state")])
        #expect(locked.status == 65, "\(locked.standardError)")
        #expect(locked.standardError.contains("images/cover.jpg") && locked.standardError.contains("passphrase"), "\(locked.standardError)")
        #expect(!FileManager.default.fileExists(atPath: lockedCover), "a locked book's encrypted cover was written")
    }
}
