// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import ReadiumLCP

@Suite("LCP licence document")
struct LicenseDocumentTests {
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func audiotestLicenceDecodesItsLinksUserRightsAndSignature() throws {
        let document = try LicenseDocument(data: LCPTestVectors.license(of: "audiotest.lcpa"), source: "audiotest.lcpa")
        #expect(document.id == "3dda6346-70b9-4571-949a-2eb7f95b7d0a")
        #expect(document.provider == "https://www.edrlab.org")
        #expect(LCPDate.format(document.issued) == "2020-04-30T07:42:03Z")
        #expect(document.updated == nil)
        #expect(document.signatureDate == document.issued)
        #expect(document.encryption.profile == LicenseDocument.basicProfile)
        #expect(document.encryption.userKey.textHint == "mmenu")
        #expect(document.rights == LicenseDocument.Rights(print: 2, copy: 2000))
        #expect(document.user.encrypted == ["email", "name"])
        #expect(document.links.count == 3)
        #expect(document.link("publication")?.length == 2_636_036)
        #expect(document.link("status")?.type == "application/vnd.readium.license.status.v1.0+json")
        #expect(document.signature.algorithm == "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
    }

    /// The 2015 licence: `links` an object keyed by rel, nine fractional digits and an offset, extra rights.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func mobyDickLicenceDecodesThePreOneZeroForm() throws {
        let document = try LicenseDocument(
            data: LCPTestVectors.license(of: "moby-dick-20120118-lcp.epub"), source: "moby-dick")
        #expect(document.encryption.profile == LicenseDocument.legacyProfile10)
        #expect(document.link("hint")?.href == "http://example.com/hint")
        #expect(document.link("publication")?.type == "application/epub+zip")
        #expect(document.rights == LicenseDocument.Rights())
        #expect(document.user.id == "mmenu")
        // 13:32:39.905384033+01:00 is 12:32:39.905 UTC.
        let updated = try #require(document.updated)
        #expect(abs(updated.timeIntervalSince1970 - 1_448_368_359.905384) < 0.001)
    }

    @Test func canonicalFormSortsKeysAtEveryLevelAndKeepsNonASCIIRaw() throws {
        let value = try JSONParser.parse(#"{"z":1,"signature":{"value":"x"},"a":{"é":"Zoé \"q\"\n","b":[true,null,2]}}"#)
        let canonical = CanonicalJSON.licenseBytes(of: value)
        #expect(String(decoding: canonical, as: UTF8.self) == #"{"a":{"b":[true,null,2],"é":"Zoé \"q\"\n"},"z":1}"#)
        // é is two raw UTF-8 bytes, never \u00e9.
        #expect(canonical.contains(0xC3))
        #expect(!String(decoding: canonical, as: UTF8.self).contains("\\u"))
    }

    @Test func aMalformedLicenceNamesItsSource() {
        #expect {
            _ = try LicenseDocument(data: Data(#"{"id":"x"}"#.utf8), source: "book.lcpl")
        } throws: { error in
            "\(error)".contains("book.lcpl") && "\(error)".contains("issued")
        }
        #expect(throws: LCPError.self) { _ = try LicenseDocument(data: Data("{".utf8), source: "book.lcpl") }
    }

    @Test func datesParseWithFractionsAndOffsets() {
        #expect(LCPDate.parse("2020-04-30T07:42:03Z").map(LCPDate.format) == "2020-04-30T07:42:03Z")
        #expect(LCPDate.parse("2020-04-30T09:42:03+02:00").map(LCPDate.format) == "2020-04-30T07:42:03Z")
        #expect(LCPDate.parse("2020-04-30T07:42:03.5Z") != nil)
        #expect(LCPDate.parse("2020-04-30") == nil)
        #expect(LCPDate.parse("2020-04-30T07:42:03") == nil)
    }
}
