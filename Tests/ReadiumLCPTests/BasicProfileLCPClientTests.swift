// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import ReadiumLCP

@Suite("LCP basic profile client", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct BasicProfileLCPClientTests {
    private func hex(_ key: SymmetricKey) -> String {
        key.withUnsafeBytes { Data($0) }.map { String(format: "%02x", $0) }.joined()
    }

    @Test func passphraseHashIsTheUserKey() {
        #expect(BasicProfileLCPClient.hashPassphrase("mmenu") == "9c073f48821c8a2212ec63414d5bd7324c7706ff7b57cb9822156a7200199aeb")
        #expect(BasicProfileLCPClient.hashPassphrase("test") == "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
    }

    /// A and B: W3C padding with random bytes (strict PKCS#7 would refuse the key check and content key).
    @Test func audiotestAndDaisyOpenToTheirContentKeys() throws {
        let audiotest = try LCPTestVectors.context(of: "audiotest.lcpa", passphrase: LCPTestVectors.audiotestPassphrase)
        #expect(hex(audiotest.contentKey) == "30330b3a75bd8c9873536b12a42b15605fb14f24569abdd4aea4b9c477ea42b7")
        let daisy = try LCPTestVectors.context(of: "daisy.lcpdf", passphrase: LCPTestVectors.daisyPassphrase)
        #expect(hex(daisy.contentKey) == "a91ea9476b84ba4914cb2a0e7cb7a66e2cd8367e86df4fcdf0004a51691c0ffb")
    }

    @Test func encryptedUserFieldsDecryptWithTheUserKey() throws {
        let context = try LCPTestVectors.context(of: "audiotest.lcpa", passphrase: LCPTestVectors.audiotestPassphrase)
        let email = try #require(context.user.email)
        let name = try #require(context.user.name)
        #expect(email.contains("@"))
        #expect(!name.isEmpty && !name.hasSuffix("="))
        #expect(context.user.encrypted.isEmpty)
    }

    @Test func aWrongPassphraseFailsTheKeyCheck() throws {
        let json = String(decoding: try LCPTestVectors.license(of: "audiotest.lcpa"), as: UTF8.self)
        let client = BasicProfileLCPClient()
        #expect(throws: LCPClientError.userKeyCheckInvalid) {
            _ = try client.createContext(
                jsonLicense: json, hashedPassphrase: BasicProfileLCPClient.hashPassphrase("mmenU"), pemCrl: "")
        }
        let hashes = ["wrong", "mmenu"].map(BasicProfileLCPClient.hashPassphrase)
        #expect(client.findOneValidPassphrase(jsonLicense: json, hashedPassphrases: hashes) == hashes[1])
        #expect(client.findOneValidPassphrase(jsonLicense: json, hashedPassphrases: [hashes[0]]) == nil)
    }

    /// D is signed by a self-signed 2015 certificate: refused unless a test pins it; then the right passphrase
    /// opens it and its near miss does not.
    @Test func mobyDickOpensOnlyWithItsRootPinned() throws {
        let json = String(decoding: try LCPTestVectors.license(of: "moby-dick-20120118-lcp.epub"), as: UTF8.self)
        let hash = BasicProfileLCPClient.hashPassphrase(LCPTestVectors.mobyDickPassphrase)
        #expect(hash == "b5cd1260cd3dbdd29a57873ffd2dddd64c79c40e9eaf3425423d6aaf19d31385")
        #expect(throws: LCPClientError.certificateSignatureInvalid) {
            _ = try BasicProfileLCPClient().createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: "")
        }
        let pinned = BasicProfileLCPClient(trustAnchors: try LCPTestVectors.anchorsWithMobyDickRoot())
        let context = try #require(try pinned.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: "") as? BasicProfileContext)
        #expect(hex(context.contentKey) == "e542db50a5a889684fa81401c042803ad74af6fe3f27fb111b300a4434f8b25d")
        #expect(throws: LCPClientError.userKeyCheckInvalid) {
            _ = try pinned.createContext(
                jsonLicense: json, hashedPassphrase: BasicProfileLCPClient.hashPassphrase("White whales are not huge!"),
                pemCrl: "")
        }
    }

    /// The two test roots share one subject DN: the 2016 provider certificate chains to the 2016 root only.
    @Test func theIssuerIsPickedBySignatureNotByName() throws {
        let document = try LicenseDocument(data: LCPTestVectors.license(of: "audiotest.lcpa"))
        let anchors2026 = try LCPTrustAnchors(
            certificates: LCPTrustAnchors.derBytes(
                ofPEM: String(contentsOf: LCPTestVectors.file("edrlab-test-root-2026.pem"), encoding: .utf8)))
        #expect(throws: LCPClientError.certificateSignatureInvalid) {
            try BasicProfileLCPClient(trustAnchors: anchors2026).verifySignature(of: document)
        }
        try BasicProfileLCPClient().verifySignature(of: document)
    }

    /// The 2016 provider certificate expired on 2026-03-23: a licence stays valid by its own date, never now.
    @Test func theCertificateIsCheckedAtTheLicenceDateNotNow() throws {
        let issuedLate = try LCPTestVectors.resignedAudiotestLicense { $0["issued"] = "2026-06-01T00:00:00Z" }
        #expect(throws: LCPClientError.licenseSignatureDateInvalid) {
            try BasicProfileLCPClient().verifySignature(of: LicenseDocument(data: issuedLate))
        }
        let updatedInTime = try LCPTestVectors.resignedAudiotestLicense { $0["updated"] = "2025-12-31T23:00:00Z" }
        try BasicProfileLCPClient().verifySignature(of: LicenseDocument(data: updatedInTime))
    }

    @Test func aChangedLicenceFailsItsSignature() throws {
        guard var object = try JSONParser.parse(LCPTestVectors.license(of: "audiotest.lcpa")).objectValue else {
            Issue.record("not an object")
            return
        }
        object["rights"] = ["print": 2, "copy": 2_000_000]
        let tampered = try LicenseDocument(data: Data(JSONValue.object(object).serialized().utf8))
        #expect(throws: LCPClientError.licenseSignatureInvalid) { try BasicProfileLCPClient().verifySignature(of: tampered) }
    }

    /// Signed over raw UTF-8: a licence with accented user fields verifies (it would not in the \u00e9 form).
    @Test func aLicenceWithNonASCIIUserFieldsVerifies() throws {
        let data = try LCPTestVectors.resignedAudiotestLicense { object in
            var user = object["user"]?.objectValue ?? JSONObject()
            user["id"] = "Zoé Ñúñez-Łukasiewicz 読者"
            object["user"] = .object(user)
        }
        let document = try LicenseDocument(data: data)
        #expect(document.user.id == "Zoé Ñúñez-Łukasiewicz 読者")
        try BasicProfileLCPClient().verifySignature(of: document)
        _ = try BasicProfileLCPClient().createContext(
            jsonLicense: document.jsonString, hashedPassphrase: BasicProfileLCPClient.hashPassphrase("mmenu"), pemCrl: "")
    }
}
