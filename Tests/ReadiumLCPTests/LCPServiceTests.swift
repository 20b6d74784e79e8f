// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import ReadiumLCP

/// An in-memory passphrase repository that records what is asked of it.
final class MemoryPassphrases: LCPPassphraseRepository, @unchecked Sendable {
    struct Row { var hash: String; var licenseID: String; var provider: String; var userID: String? }
    private let lock = NSLock()
    private(set) var rows: [Row] = []

    init(_ rows: [Row] = []) { self.rows = rows }

    func passphrase(forLicenseID licenseID: String) -> LCPPassphraseHash? {
        lock.withLock { rows.first { $0.licenseID == licenseID }?.hash }
    }
    func passphrases(forUserID userID: String, provider: String) -> [LCPPassphraseHash] {
        lock.withLock { rows.filter { $0.userID == userID && $0.provider == provider }.map(\.hash) }
    }
    func allPassphrases() -> [LCPPassphraseHash] { lock.withLock { rows.map(\.hash) } }
    func addPassphrase(_ hash: LCPPassphraseHash, licenseID: String, provider: String, userID: String?) {
        lock.withLock { rows.append(Row(hash: hash, licenseID: licenseID, provider: provider, userID: userID)) }
    }
}

/// Answers a prompt with each of `answers` in turn, counting the questions.
final class ScriptedAuthentication: LCPAuthenticating, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String]
    private(set) var reasons: [LCPAuthenticationReason] = []

    init(_ answers: [String]) { self.answers = answers }

    func retrievePassphrase(for license: LCPAuthenticatedLicense, reason: LCPAuthenticationReason) -> String? {
        lock.withLock {
            reasons.append(reason)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
    }
}

@Suite("LCP service", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct LCPServiceTests {
    private let audiotest: Data
    init() throws { audiotest = try LCPTestVectors.license(of: "audiotest.lcpa") }

    @Test func aGoodPassphraseOpensTheLicenceAndOnlyItsHashIsStored() throws {
        let store = MemoryPassphrases()
        let service = LCPService(passphrases: store)
        let license = try service.retrieveLicense(data: audiotest, source: "a.lcpa", authentication: LCPFixedPassphrase("mmenu"))
        #expect(license.isUnlocked)
        #expect(license.rights.print == 2)
        #expect(license.user.email?.contains("@") == true)
        #expect(license.status == .unknownOffline)
        #expect(store.rows.map(\.hash) == [BasicProfileLCPClient.hashPassphrase("mmenu")])
        #expect(!store.rows.contains { $0.hash.contains("mmenu") })
        // The next time the store opens it, and nobody is asked.
        let asked = ScriptedAuthentication([])
        _ = try service.retrieveLicense(data: audiotest, source: "a.lcpa", authentication: asked)
        #expect(asked.reasons.isEmpty)
    }

    /// Stored hashes are tried by licence id, then user and provider, then all.
    @Test func storedPassphrasesAreLookedUpByLicenceThenUserThenAll() throws {
        let good = BasicProfileLCPClient.hashPassphrase("mmenu")
        let document = try LicenseDocument(data: audiotest)
        let store = MemoryPassphrases([
            .init(hash: "other", licenseID: "x", provider: "p", userID: nil),
            .init(hash: good, licenseID: "y", provider: document.provider, userID: document.user.id),
            .init(hash: "mine", licenseID: document.id, provider: "q", userID: nil),
        ])
        #expect(store.candidates(for: document) == ["mine", good, "other"])
        _ = try LCPService(passphrases: store).retrieveLicense(data: audiotest, source: "a.lcpa", authentication: nil)
    }

    @Test func aWrongPassphraseIsAskedAgainThenRefusedWithTheHint() throws {
        let asked = ScriptedAuthentication(["nope", "still no"])
        #expect(throws: LCPError.wrongPassphrase(hint: "mmenu")) {
            _ = try LCPService().retrieveLicense(data: audiotest, source: "a.lcpa", authentication: asked)
        }
        #expect(asked.reasons == [.passphraseNotFound, .invalidPassphrase, .invalidPassphrase])
        let retried = ScriptedAuthentication(["nope", "mmenu"])
        _ = try LCPService().retrieveLicense(data: audiotest, source: "a.lcpa", authentication: retried)
        #expect(LCPError.wrongPassphrase(hint: "mmenu").code == .lcpPassphraseWrong)
    }

    @Test func noPassphraseAnywhereIsMissing() {
        #expect(throws: LCPError.missingPassphrase) {
            _ = try LCPService().retrieveLicense(data: audiotest, source: "a.lcpa", authentication: nil)
        }
    }

    /// `rights.start`/`end` against now, the dates in the message.
    @Test func rightsOutsideTheirPeriodAreRefusedWithTheirDates() throws {
        let ended = try LCPTestVectors.resignedAudiotestLicense { object in
            object["rights"] = ["print": 2, "copy": 2000, "start": "2020-04-30T07:42:03Z", "end": "2020-05-30T07:42:03Z"]
        }
        #expect {
            _ = try LCPService().retrieveLicense(data: ended, source: "a.lcpa", authentication: LCPFixedPassphrase("mmenu"))
        } throws: { error in
            guard let error = error as? LCPError, case .licenseStatus(.expired) = error else { return false }
            return error.code == .lcpLicenseExpired && error.description.contains("2020-05-30T07:42:03Z")
        }
        let future = try LCPTestVectors.resignedAudiotestLicense { object in
            object["rights"] = ["start": "2099-01-01T00:00:00Z"]
        }
        #expect {
            _ = try LCPService().retrieveLicense(data: future, source: "a.lcpa", authentication: LCPFixedPassphrase("mmenu"))
        } throws: { error in
            (error as? LCPError)?.code == .lcpLicenseNotYetValid && "\(error)".contains("2099-01-01T00:00:00Z")
        }
        // Inside its period (the clock injected), it opens.
        let service = LCPService(now: { LCPDate.parse("2020-05-01T00:00:00Z")! })
        _ = try service.retrieveLicense(data: ended, source: "a.lcpa", authentication: LCPFixedPassphrase("mmenu"))
    }

    /// A profile without a client is refused before a passphrase is asked, naming the profile.
    @Test func anUnknownProfileNamesItselfAndAsksNothing() throws {
        let production = try LCPTestVectors.resignedAudiotestLicense { object in
            var encryption = object["encryption"]?.objectValue ?? JSONObject()
            encryption["profile"] = "http://readium.org/lcp/profile-2.5"
            object["encryption"] = .object(encryption)
        }
        let asked = ScriptedAuthentication(["mmenu"])
        #expect {
            _ = try LCPService().retrieveLicense(data: production, source: "a.lcpa", authentication: asked)
        } throws: { error in
            (error as? LCPError)?.code == .lcpProfileUnsupported && "\(error)".contains("profile-2.5")
                && "\(error)".contains("LCPClient")
        }
        #expect(asked.reasons.isEmpty)
    }

    @Test func aBadSignatureIsRefusedBeforeThePassphrase() throws {
        guard var object = try JSONParser.parse(audiotest).objectValue else { return }
        object["provider"] = "https://example.org"
        let asked = ScriptedAuthentication(["mmenu"])
        #expect {
            _ = try LCPService().retrieveLicense(
                data: Data(JSONValue.object(object).serialized().utf8), source: "a.lcpa", authentication: asked)
        } throws: { error in
            (error as? LCPError)?.code == .lcpSignatureInvalid
        }
        #expect(asked.reasons.isEmpty)
    }
}
