// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import LCPTestSupport
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import ReadiumLCP

/// raudio's own LCP vectors, made at test time by `LCPVectorMaker` with EDRLab's published test provider keys (so
/// that they chain to the real test roots), each with its expected outcome: what the corpus' real vectors cannot
/// show (no real licence is expired on purpose, has non-ASCII text, deflates before encrypting...).
@Suite(.enabled(if: Corpus.isAvailable, "needs the shared corpus (lcp/)"))
struct LCPOwnVectorTests {
    static let passphrase = "raudio test passphrase"

    /// Opens `license` as the opener does (no network), with the right passphrase unless told otherwise.
    static func open(_ license: Data, passphrase: String = LCPOwnVectorTests.passphrase, now: Date = Date()) throws(LCPError) -> LCPLicense {
        let service = LCPService(client: BasicProfileLCPClient(), now: { now })
        return try service.retrieveLicense(data: license, source: "own.lcpl", authentication: LCPFixedPassphrase(passphrase))
    }

    static func spec(_ provider: LCPVectorMaker.Provider = .test2026) -> LCPVectorMaker.License {
        LCPVectorMaker.License(issued: provider.validIssueDate)
    }

    @Test(arguments: [LCPVectorMaker.Provider.test2016, .test2026])
    func aLicenceSignedWithEitherTestProviderKeyOpens(provider: LCPVectorMaker.Provider) throws {
        let license = try Self.open(try LCPVectorMaker(provider: provider).license(Self.spec(provider)))
        #expect(license.isUnlocked && license.rights.copy == 100 && license.rights.print == 10)
        #expect(license.user.email == "user@example.org", "the encrypted e-mail decrypts with the user key")
        #expect(throws: LCPError.self) { try Self.open(try LCPVectorMaker(provider: provider).license(Self.spec(provider)), passphrase: "wrong") }
    }

    @Test func anExpiredLicenceIsRefusedWithItsEndDate() throws {
        var spec = Self.spec()
        spec.start = "2026-06-01T00:00:00Z"
        spec.end = "2026-06-30T00:00:00Z"
        let data = try LCPVectorMaker().license(spec)
        let error = #expect(throws: LCPError.self) { try Self.open(data, now: LCPDate.parse("2026-07-01T00:00:00Z")!) }
        #expect(error?.code == .lcpLicenseExpired)
        #expect(error?.description.contains("2026-06-30T00:00:00Z") == true, "\(error?.description ?? "")")
        // Inside its period it opens.
        #expect(try Self.open(data, now: LCPDate.parse("2026-06-15T00:00:00Z")!).isUnlocked)
    }

    @Test func aLicenceNotYetValidIsRefusedWithItsStartDate() throws {
        var spec = Self.spec()
        spec.start = "2027-01-01T00:00:00Z"
        let error = #expect(throws: LCPError.self) { try Self.open(try LCPVectorMaker().license(spec), now: LCPDate.parse("2026-07-01T00:00:00Z")!) }
        #expect(error?.code == .lcpLicenseNotYetValid)
        #expect(error?.description.contains("2027-01-01T00:00:00Z") == true, "\(error?.description ?? "")")
    }

    @Test func aBadOrBrokenSignatureIsRefused() throws {
        let maker = try LCPVectorMaker()
        let badSignature = #expect(throws: LCPError.self) { try Self.open(try maker.license(Self.spec(), signs: false)) }
        #expect(badSignature?.code == .lcpSignatureInvalid)
        // Signed, then its copy right raised in transit.
        let tampered = try maker.license(Self.spec()) { object in
            object["rights"] = .object(JSONObject([("print", 10), ("copy", 1_000_000)]))
        }
        #expect((#expect(throws: LCPError.self) { try Self.open(tampered) })?.code == .lcpSignatureInvalid)
        // The 2016 provider certificate ended on 2026-03-23: a licence it signs later does not hold.
        var late = Self.spec(.test2016)
        late.issued = "2026-06-01T00:00:00Z"
        #expect((#expect(throws: LCPError.self) { try Self.open(try LCPVectorMaker(provider: .test2016).license(late)) })?.code == .lcpSignatureInvalid)
    }

    /// Canonical JSON keeps non-ASCII as raw UTF-8: a licence with accented and CJK user fields verifies, and its
    /// encrypted name decrypts to the same text.
    @Test func aLicenceWithNonASCIIUserFieldsVerifies() throws {
        var spec = Self.spec()
        spec.userName = "Émilie Zoë Brontë 東京"
        spec.userEmail = "zoë@exämple.org"
        spec.encryptedUserFields = ["name"]
        spec.hint = "le mot de passe é"
        let data = try LCPVectorMaker().license(spec)
        #expect(String(decoding: data, as: UTF8.self).contains("zoë@exämple.org"), "written as raw UTF-8")
        let license = try Self.open(data)
        #expect(license.user.name == "Émilie Zoë Brontë 東京" && license.user.email == "zoë@exämple.org")
        #expect(license.hint == "le mot de passe é")
        // Signed over raw UTF-8: a canonical form that escaped it (\u00eb) would not verify. Another name does not.
        let renamed = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "zoë@exämple.org", with: "zoe@exämple.org")
        #expect((#expect(throws: LCPError.self) { try Self.open(Data(renamed.utf8)) })?.code == .lcpSignatureInvalid)
    }

    @Test func aProductionProfileLicenceWithoutAClientSaysWhatIsMissing() throws {
        var spec = Self.spec()
        spec.profile = "http://readium.org/lcp/profile-2.9"
        let error = #expect(throws: LCPError.self) { try Self.open(try LCPVectorMaker().license(spec)) }
        #expect(error?.code == .lcpProfileUnsupported)
        #expect(error?.description.contains("http://readium.org/lcp/profile-2.9") == true && error?.description.contains("LCPClient") == true,
                "\(error?.description ?? "")")
    }

    /// A resource deflated before encryption (`compression: deflate`, `originalLength`) reads back inflated, whole
    /// and by ranges; one encrypted without deflating beside it too.
    @Test func deflatedThenEncryptedResourcesReadInClear() throws {
        let spec = Self.spec()
        let text = Data(String(repeating: "Call me Ishmael. Some years ago, never mind how long precisely. ", count: 400).utf8)
        let audio = Data((0..<70_001).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let package = try LCPVectorMaker.audiobookPackage(license: try LCPVectorMaker().license(spec), contentKey: spec.contentKey, resources: [
            .init(href: "text/chapter.txt", type: "text/plain", data: text, deflates: true),
            .init(href: "audio/track.mp3", type: "audio/mpeg", data: audio),
        ])
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("own.lcpa")
        try package.write(to: url)
        let protection = LCPContentProtection(service: LCPService(client: BasicProfileLCPClient()), authentication: LCPFixedPassphrase(Self.passphrase))
        let publication = try PublicationOpener(checksContentDocuments: false, contentProtections: [protection]).open(url: url)
        let chapter = try publication.resource(at: "text/chapter.txt")
        #expect(try chapter.read() == text)
        #expect(try chapter.length() == UInt64(text.count))
        #expect(try chapter.read(range: 1000..<1500) == text.subdata(in: 1000..<1500))
        let track = try publication.resource(at: "audio/track.mp3")
        #expect(try track.read() == audio)
        #expect(try track.read(range: 65_530..<70_001) == audio.subdata(in: 65_530..<70_001))
    }
}
