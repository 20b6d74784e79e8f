// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import RAudioTestSupport
import ReadiumLCP
import ReadiumShared
import ReadiumStreamer
import _CryptoExtras

/// The corpus's LCP vectors for the command-line tests: licence files beside a copy of their package, licences
/// re-signed with EDRLab's published TEST provider key (so that they still chain to the real test root).
enum LCPFixtures {
    static func vector(_ name: String) throws -> String { try Corpus.file("lcp/\(name)").path }

    /// The environment under which the debug binary trusts the 2015 Moby-Dick book's own certificate.
    static func mobyDickEnvironment() throws -> [String: String] {
        ["RAUDIO_LCP_TEST_TRUST_ANCHORS": try vector("moby-dick-20120118-root.pem")]
    }

    static func passphraseFile(_ passphrase: String, in folder: TemporaryDirectory, name: String = "passphrase") throws -> String {
        let path = folder.path(name)
        try Data((passphrase + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `audiotest.lcpa`'s licence as a JSON object.
    static func audiotestLicense() throws -> JSONObject {
        let publication = try PublicationOpener().open(url: URL(fileURLWithPath: vector("audiotest.lcpa")))
        let data = try publication.container.resource(at: "license.lcpl").read()
        guard let object = try JSONParser.parse(data).objectValue else { throw CocoaError(.fileReadCorruptFile) }
        return object
    }

    /// `object` signed again with the 2016 test provider key.
    static func signed(_ object: JSONObject) throws -> Data {
        let key = try _RSA.Signing.PrivateKey(
            pemRepresentation: String(contentsOfFile: vector("test-provider-2016-key.pem"), encoding: .utf8))
        let signature = try key.signature(
            for: SHA256.hash(data: CanonicalJSON.licenseBytes(of: .object(object))), padding: .insecurePKCS1v1_5)
        var object = object
        var signatureObject = object["signature"]?.objectValue ?? JSONObject()
        signatureObject["value"] = .string(signature.rawRepresentation.base64EncodedString())
        object["signature"] = .object(signatureObject)
        return Data(JSONValue.object(object).serialized().utf8)
    }

    /// A licence file `name.lcpl` (the audiotest licence changed by `edit`, re-signed unless `sign` is false)
    /// beside a copy of the package as `name.lcpa`; returns the licence's path.
    static func audiotestLicenseFile(
        named name: String, in folder: TemporaryDirectory, sign: Bool = true, _ edit: (inout JSONObject) -> Void
    ) throws -> String {
        var object = try audiotestLicense()
        edit(&object)
        let data = sign ? try signed(object) : Data(JSONValue.object(object).serialized().utf8)
        try data.write(to: folder.url.appendingPathComponent("\(name).lcpl"))
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: vector("audiotest.lcpa")), to: folder.url.appendingPathComponent("\(name).lcpa"))
        return folder.path("\(name).lcpl")
    }

    /// The clear MP3 of audiotest.lcpa's track, decrypted in the test with the library.
    static func clearAudiotestTrack(to path: String) throws {
        let protection = LCPContentProtection(authentication: LCPFixedPassphrase("mmenu"))
        let publication = try PublicationOpener(contentProtections: [protection])
            .open(url: URL(fileURLWithPath: vector("audiotest.lcpa")))
        try publication.resource(at: "audio/gtr-jazz.mp3").read().write(to: URL(fileURLWithPath: path))
    }

    /// The licence `raudio info` shows: the properties of the manifest's `license` link.
    static func licenseInInfo(_ output: String) throws -> JSONObject? {
        let links = try object(output)["links"]?.arrayValue ?? []
        return links.compactMap(\.objectValue).first { $0["rel"] == "license" }?["properties"]?.objectValue?["lcp"]?.objectValue
    }

    static func object(_ line: some StringProtocol) throws -> JSONObject {
        guard let object = try JSONParser.parse(String(line)).objectValue else { throw CocoaError(.fileReadCorruptFile) }
        return object
    }
}
