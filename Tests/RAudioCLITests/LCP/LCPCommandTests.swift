// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio play/speak/text/info` of LCP books and `raudio lcp info`: the built binary on the corpus's real
/// vectors. Nothing here reaches the network (the licences' links name outside hosts; raudio fetches none).
@Suite("LCP commands", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct LCPCommandTests {
    /// The decrypted track plays sample for sample as the clear MP3 does.
    @Test func anLCPAudiobookPlaysSampleIdenticalToItsClearMP3() throws {
        let folder = try TemporaryDirectory()
        let clear = folder.path("gtr-jazz.mp3")
        try LCPFixtures.clearAudiotestTrack(to: clear)
        let passphrase = try LCPFixtures.passphraseFile("mmenu", in: folder)
        let protected = try ProcessRunner.raudio(
            ["play", try LCPFixtures.vector("audiotest.lcpa"), "--passphrase-file", passphrase, "--output", "wav:\(folder.path("lcp.wav"))",
             "--duration", "9.5"], timeout: 120)
        #expect(protected.status == 0, "\(protected.standardError)")
        let reference = try ProcessRunner.raudio(["play", clear, "--output", "wav:\(folder.path("clear.wav"))", "--duration", "9.5"], timeout: 120)
        #expect(reference.status == 0, "\(reference.standardError)")
        let decrypted = try SleepTimerTests.samples(folder.path("lcp.wav"))
        let expected = try SleepTimerTests.samples(folder.path("clear.wav"))
        #expect(decrypted.count > 48_000 * 2 * 9)
        #expect(decrypted == expected)
    }

    @Test func aWrongPassphraseIsAnErrorEventNamingTheBook() throws {
        let folder = try TemporaryDirectory()
        let book = try LCPFixtures.vector("audiotest.lcpa")
        let result = try ProcessRunner.raudio(
            ["play", book, "--passphrase-file", try LCPFixtures.passphraseFile("mmenu?", in: folder), "--output", "null"])
        #expect(result.status == 65)
        let error = try LCPFixtures.object(try #require(result.outputLines.last))
        #expect(error["type"] == "error" && error["code"] == "lcp-passphrase-wrong")
        #expect(error["message"]?.stringValue?.contains(book) == true)
        #expect(error["message"]?.stringValue?.contains("hint: mmenu") == true)
    }

    /// No passphrase, none stored, no terminal: a clear error, not a question nobody sees.
    @Test func withoutAPassphraseOrATerminalItSaysWhatIsMissing() throws {
        let result = try ProcessRunner.raudio(["play", try LCPFixtures.vector("audiotest.lcpa"), "--output", "null"], input: Data())
        #expect(result.status == 65)
        let error = try LCPFixtures.object(try #require(result.outputLines.last))
        #expect(error["code"] == "lcp-passphrase-missing")
        #expect(error["message"]?.stringValue?.contains("--passphrase-file") == true)
    }

    /// The passphrase that worked once is remembered (hashed): the next command needs none.
    @Test func aPassphraseThatWorkedIsRememberedHashed() throws {
        let folder = try TemporaryDirectory()
        let state = ["RAUDIO_STATE_DIR": folder.path("state")]
        let book = try LCPFixtures.vector("daisy.lcpdf")
        let first = try ProcessRunner.raudio(
            ["lcp", "info", book, "--passphrase-file", try LCPFixtures.passphraseFile("test", in: folder)], environment: state)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(try LCPFixtures.object(first.standardOutput)["unlocked"] == true)
        let second = try ProcessRunner.raudio(["lcp", "info", book], environment: state)
        #expect(try LCPFixtures.object(second.standardOutput)["unlocked"] == true)
    }

    /// The Moby-Dick EPUB (its own 2015 root trusted by the test build) reads its first chapter.
    @Test func textAndSpeakReadTheLCPEPUBsFirstChapter() throws {
        let folder = try TemporaryDirectory()
        let passphrase = try LCPFixtures.passphraseFile("White whales are huge!", in: folder)
        let book = try LCPFixtures.vector("moby-dick-20120118-lcp.epub")
        let text = try ProcessRunner.raudio(
            ["text", book, "--passphrase-file", passphrase, "--from", "OPS/chapter_001.xhtml"],
            environment: LCPFixtures.mobyDickEnvironment(), timeout: 120)
        #expect(text.status == 0, "\(text.standardError)")
        let first = text.outputLines.prefix(40).compactMap { try? LCPFixtures.object($0)["text"]?.stringValue }.joined(separator: " ")
        #expect(first.contains("Call me Ishmael"), "\(first.prefix(300))")
        // Without the test's trust anchor the 2015 certificate is refused.
        let untrusted = try ProcessRunner.raudio(["text", book, "--passphrase-file", passphrase])
        #expect(untrusted.status == 65)
        #expect(untrusted.standardError.contains("does not chain to a trusted LCP root"))
        let speak = try ProcessRunner.raudio(
            ["speak", book, "--passphrase-file", passphrase, "--from", "OPS/chapter_001.xhtml", "--output", "wav:\(folder.path("moby.wav"))",
             "--duration", "3"], environment: LCPFixtures.mobyDickEnvironment(), timeout: 120)
        #expect(speak.status == 0, "\(speak.standardError)")
        let utterances = try speak.outputLines.map(LCPFixtures.object).filter { $0["type"] == "utterance" }
        #expect(utterances.contains { $0["text"]?.stringValue?.contains("Ishmael") == true })
    }

    /// `info` of every LCP vector lists the licence's rights and status, with or without the passphrase.
    @Test(arguments: ["audiotest.lcpa", "daisy.lcpdf", "moby-dick-20120118-lcp.epub"])
    func infoOfEveryVectorListsRightsAndStatus(vector: String) throws {
        let result = try ProcessRunner.raudio(["info", try LCPFixtures.vector(vector)], environment: LCPFixtures.mobyDickEnvironment())
        #expect(result.status == 0, "\(result.standardError)")
        let lcp = try #require(try LCPFixtures.licenseInInfo(result.standardOutput))
        #expect(lcp["rights"]?.objectValue?.keys.sorted() == ["copy", "end", "print", "start"])
        #expect(lcp["status"]?.objectValue?["status"] == "unknown")
        #expect(lcp["unlocked"] == false)
        let human = try ProcessRunner.raudio(["info", "--human", try LCPFixtures.vector(vector)])
        #expect(human.status == 0, "\(human.standardError)")
        #expect(human.standardOutput.contains("Rights: print") && human.standardOutput.contains("Status: unknown"))
    }

    /// Without its test trust anchor the 2015 licence is refused, and `info` still shows it, saying why.
    @Test func infoShowsARefusedLicenceAndWhy() throws {
        let book = try LCPFixtures.vector("moby-dick-20120118-lcp.epub")
        let info = try ProcessRunner.raudio(["info", book])
        #expect(info.status == 0, "\(info.standardError)")
        let refused = try #require(try LCPFixtures.licenseInInfo(info.standardOutput)?["refused"]?.objectValue)
        #expect(refused["code"] == "lcp-signature-invalid")
        #expect(info.standardError.contains("cannot be played"))
        let lcpInfo = try ProcessRunner.raudio(["lcp", "info", book])
        #expect(lcpInfo.status == 65)
        #expect(try LCPFixtures.object(lcpInfo.standardOutput)["refused"]?.objectValue?["code"] == "lcp-signature-invalid")
    }

    @Test func lcpInfoShowsTheUserInClearOnceThePassphraseIsKnown() throws {
        let folder = try TemporaryDirectory()
        let book = try LCPFixtures.vector("audiotest.lcpa")
        let locked = try LCPFixtures.object(try ProcessRunner.raudio(["lcp", "info", book]).standardOutput)
        #expect(locked["unlocked"] == false)
        #expect(locked["user"]?.objectValue?["email"] == nil)
        let result = try ProcessRunner.raudio(["lcp", "info", book, "--passphrase-file", try LCPFixtures.passphraseFile("mmenu", in: folder)])
        let license = try LCPFixtures.object(result.standardOutput)
        #expect(license["id"] == "3dda6346-70b9-4571-949a-2eb7f95b7d0a")
        #expect(license["provider"] == "https://www.edrlab.org")
        #expect(license["hint"] == "mmenu")
        #expect(license["issued"] == "2020-04-30T07:42:03Z")
        #expect(license["profile"] == "http://readium.org/lcp/basic-profile")
        #expect(license["rights"]?.objectValue?["print"] == 2 && license["rights"]?.objectValue?["copy"] == 2000)
        #expect(license["user"]?.objectValue?["email"]?.stringValue?.contains("@") == true)
        let human = try ProcessRunner.raudio(["lcp", "info", "--human", book])
        #expect(human.standardOutput.contains("Provider: https://www.edrlab.org"))
        #expect(human.standardOutput.contains("Rights: print 2 pages, copy 2000 characters"))
    }

    /// Each refusal its own code, exit 65, the file named; made with licences re-signed with the test key.
    @Test func eachRefusedLicenceHasItsOwnCode() throws {
        let folder = try TemporaryDirectory()
        let passphrase = try LCPFixtures.passphraseFile("mmenu", in: folder)
        let expired = try LCPFixtures.audiotestLicenseFile(named: "expired", in: folder) {
            $0["rights"] = ["end": "2021-01-01T00:00:00Z"]
        }
        let future = try LCPFixtures.audiotestLicenseFile(named: "future", in: folder) {
            $0["rights"] = ["start": "2099-01-01T00:00:00Z"]
        }
        let tampered = try LCPFixtures.audiotestLicenseFile(named: "tampered", in: folder, sign: false) {
            $0["rights"] = ["print": 2000]
        }
        let production = try LCPFixtures.audiotestLicenseFile(named: "production", in: folder) { object in
            var encryption = object["encryption"]?.objectValue ?? JSONObject()
            encryption["profile"] = "http://readium.org/lcp/profile-2.0"
            object["encryption"] = .object(encryption)
        }
        let cases: [(String, String, String)] = [
            (expired, "lcp-license-expired", "2021-01-01T00:00:00Z"),
            (future, "lcp-license-not-yet-valid", "2099-01-01T00:00:00Z"),
            (tampered, "lcp-signature-invalid", "signature"),
            (production, "lcp-profile-unsupported", "profile-2.0"),
        ]
        for (licence, code, words) in cases {
            let result = try ProcessRunner.raudio(["play", licence, "--passphrase-file", passphrase, "--output", "null"])
            #expect(result.status == 65, "\(licence): \(result.standardError)")
            let error = try LCPFixtures.object(try #require(result.outputLines.last))
            #expect(error["code"]?.stringValue == code)
            let message = error["message"]?.stringValue ?? ""
            #expect(message.contains(words) && message.contains((licence as NSString).deletingPathExtension), "\(message)")
        }
        // The same licence, in date and signed, plays from the .lcpl beside its package.
        let good = try LCPFixtures.audiotestLicenseFile(named: "good", in: folder) { _ in }
        let result = try ProcessRunner.raudio(["play", good, "--passphrase-file", passphrase, "--output", "null", "--duration", "1"])
        #expect(result.status == 0, "\(result.standardError)")
    }

    /// render never writes an LCP book out in clear.
    @Test func renderRefusesAnLCPBook() throws {
        let folder = try TemporaryDirectory()
        let result = try ProcessRunner.raudio(
            ["render", try LCPFixtures.vector("moby-dick-20120118-lcp.epub"), "--to", "m4b", folder.path("out.m4b")],
            environment: LCPFixtures.mobyDickEnvironment())
        #expect(result.status == 65)
        #expect(result.standardError.contains("does not write a protected book out in clear"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.m4b")))
    }
}
