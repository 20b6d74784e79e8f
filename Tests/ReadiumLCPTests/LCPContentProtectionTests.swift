// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import ReadiumLCP

@Suite("LCP content protection", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct LCPContentProtectionTests {
    private func opener(_ passphrase: String?, anchors: LCPTrustAnchors = .edrlabTest, locked: Bool = false) -> PublicationOpener {
        let protection = LCPContentProtection(
            service: LCPService(client: BasicProfileLCPClient(trustAnchors: anchors)),
            authentication: passphrase.map(LCPFixedPassphrase.init), opensLockedWithoutPassphrase: locked)
        return PublicationOpener(checksContentDocuments: false, contentProtections: [protection])
    }

    @Test func anLCPAudiobookOpensUnlockedAndItsTrackReadsInClear() throws {
        let publication = try opener("mmenu").open(url: LCPTestVectors.file("audiotest.lcpa"))
        #expect(publication.protection == nil)
        #expect(publication.mediaType == .lcpProtectedAudiobook)
        let license = try #require(publication.contentProtectionRights as? LCPLicense)
        #expect(license.isUnlocked && license.rights.copy == 2000)
        let track = try publication.resource(at: publication.readingOrder[0].href)
        #expect(LCPTestVectors.sha256Hex(try track.read()) == "078319fa8a6f02a4e3ae94bde7759ee700e048898651277b3f72fdfba586bab4")
        // The cover is not encrypted and reads as it is.
        #expect(try publication.resource(at: "cover/audiobook-cover.webp").read().starts(with: Data("RIFF".utf8)))
    }

    /// EDRLab's packager wrote the track's href as `http://readium.org/audio/gtr-jazz.mp3`: inside the package it
    /// is the entry `audio/gtr-jazz.mp3`, never a URL to fetch.
    @Test func aReadiumBaseHrefNamesThePackagesEntry() throws {
        let publication = try opener("mmenu").open(url: LCPTestVectors.file("audiotest.lcpa"))
        #expect(publication.readingOrder.map(\.href) == ["audio/gtr-jazz.mp3", "audio/Latin.mp3", "audio/oboe-bassoon.mp3"])
        #expect(!publication.warnings.contains { "\($0)".contains("remote") }, "\(publication.warnings)")
    }

    @Test func anLCPEPUBOpensWithItsChaptersInClear() throws {
        let publication = try opener(LCPTestVectors.mobyDickPassphrase, anchors: LCPTestVectors.anchorsWithMobyDickRoot())
            .open(url: LCPTestVectors.file("moby-dick-20120118-lcp.epub"))
        #expect(publication.protection == nil)
        let expected = try Data(contentsOf: LCPTestVectors.file("moby-dick-20120118-chapter_001.expected.xhtml"))
        #expect(try publication.resource(at: "OPS/chapter_001.xhtml").read() == expected)
    }

    @Test func aWrongPassphraseIsAnOpeningErrorNamingTheBook() throws {
        #expect {
            _ = try opener("not it").open(url: LCPTestVectors.file("audiotest.lcpa"))
        } throws: { error in
            guard let error = error as? OpeningError else { return false }
            return error.code == .lcpPassphraseWrong && error.description.contains("audiotest.lcpa")
        }
    }

    /// Without a passphrase `info` still reads the metadata and the licence's rights.
    @Test func withoutAPassphraseItOpensLockedWhenAskedTo() throws {
        let publication = try opener(nil, locked: true).open(url: LCPTestVectors.file("daisy.lcpdf"))
        #expect(publication.protection == .lcp)
        let license = try #require(publication.contentProtectionRights as? LCPLicense)
        #expect(!license.isUnlocked && license.hint == "test")
        #expect { _ = try opener(nil).open(url: LCPTestVectors.file("daisy.lcpdf")) } throws: { error in
            (error as? OpeningError)?.code == .lcpPassphraseMissing
        }
    }

    /// A `.lcpl` whose publication was saved beside it, under the licence's id, opens that publication.
    @Test func aLicenceFileOpensItsPublicationSavedBesideIt() throws {
        let folder = try TemporaryDirectory()
        let document = try LicenseDocument(data: LCPTestVectors.license(of: "audiotest.lcpa"))
        let licenseURL = folder.url.appendingPathComponent("loan.lcpl")
        try LCPTestVectors.license(of: "audiotest.lcpa").write(to: licenseURL)
        #expect { _ = try opener("mmenu").open(url: licenseURL) } throws: { error in
            (error as? OpeningError)?.code == .publicationUnavailable && "\(error)".contains("not on this machine")
        }
        try FileManager.default.copyItem(
            at: LCPTestVectors.file("audiotest.lcpa"), to: folder.url.appendingPathComponent("\(document.id).lcpa"))
        let publication = try opener("mmenu").open(url: licenseURL)
        #expect(publication.protection == nil)
        #expect(try publication.resource(at: publication.readingOrder[0].href).length() == 152_381)
    }
}
