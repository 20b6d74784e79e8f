// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import RAudioTestSupport
import ReadiumShared
import ZIPFoundation
import _CryptoExtras
@testable import ReadiumLCP

/// The LCP vectors of the shared corpus (`lcp/README.md`) and licences re-signed with EDRLab's published TEST
/// provider key, so that they still chain to the real test root.
enum LCPTestVectors {
    static let audiotestPassphrase = "mmenu"
    static let daisyPassphrase = "test"
    static let mobyDickPassphrase = "White whales are huge!"

    static func file(_ name: String) throws -> URL { try Corpus.file("lcp/\(name)") }

    /// An entry of a ZIP of the corpus, as stored (still encrypted).
    static func entry(_ path: String, of package: String) throws -> Data {
        let archive = try Archive(url: try file(package), accessMode: .read)
        guard let entry = archive[path] else { throw CocoaError(.fileNoSuchFile) }
        var data = Data()
        _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
        return data
    }

    static func license(of package: String) throws -> Data {
        try entry(package.hasSuffix(".epub") ? "META-INF/license.lcpl" : "license.lcpl", of: package)
    }

    static func sha256Hex(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The Moby-Dick vector's own root (a self-signed "Mantano" certificate) added to the EDRLab test roots.
    static func anchorsWithMobyDickRoot() throws -> LCPTrustAnchors {
        try LCPTrustAnchors.edrlabTest.adding(pem: String(contentsOf: file("moby-dick-20120118-root.pem"), encoding: .utf8))
    }

    /// The context of a corpus licence opened with `passphrase`.
    static func context(
        of package: String, passphrase: String, anchors: LCPTrustAnchors = .edrlabTest
    ) throws -> BasicProfileContext {
        let json = String(decoding: try license(of: package), as: UTF8.self)
        let context = try BasicProfileLCPClient(trustAnchors: anchors).createContext(
            jsonLicense: json, hashedPassphrase: BasicProfileLCPClient.hashPassphrase(passphrase), pemCrl: "")
        return context as! BasicProfileContext
    }

    static func decryptor(of package: String, passphrase: String, anchors: LCPTrustAnchors = .edrlabTest) throws
        -> LCPContentDecryptor
    {
        LCPContentDecryptor(
            client: BasicProfileLCPClient(trustAnchors: anchors),
            context: try context(of: package, passphrase: passphrase, anchors: anchors))
    }

    /// `audiotest.lcpa`'s licence changed by `edit`, then signed again with the 2016 test provider key (valid
    /// 2016-03-25..2026-03-23, so `issued` must stay in that period for the chain to hold).
    static func resignedAudiotestLicense(_ edit: (inout JSONObject) -> Void) throws -> Data {
        guard var object = try JSONParser.parse(license(of: "audiotest.lcpa")).objectValue else {
            throw CocoaError(.fileReadCorruptFile)
        }
        edit(&object)
        let key = try _RSA.Signing.PrivateKey(
            pemRepresentation: String(contentsOf: file("test-provider-2016-key.pem"), encoding: .utf8))
        let signature = try key.signature(
            for: SHA256.hash(data: CanonicalJSON.licenseBytes(of: .object(object))), padding: .insecurePKCS1v1_5)
        var signatureObject = object["signature"]?.objectValue ?? JSONObject()
        signatureObject["value"] = .string(signature.rawRepresentation.base64EncodedString())
        object["signature"] = .object(signatureObject)
        return Data(JSONValue.object(object).serialized().utf8)
    }

    /// `plain` encrypted as LCP resources are: a random IV, AES-256-CBC, W3C padding of 1...16 bytes.
    static func encrypt(_ plain: Data, key: SymmetricKey, generator: inout SplitMix64) throws -> Data {
        let padding = 16 - plain.count % 16
        var padded = plain
        for _ in 0..<(padding - 1) { padded.append(UInt8.random(in: 0...255, using: &generator)) }
        padded.append(UInt8(padding))
        let iv = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let cipher = try AES._CBC.encrypt(padded, using: key, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        return Data(iv) + cipher
    }

    /// Raw DEFLATE of `data` (no zlib header), as encryption.xml's `Compression Method="8"` means.
    static func deflate(_ data: Data) throws -> Data {
        var output = Data()
        _ = try Data.compress(
            size: Int64(data.count), bufferSize: 16 * 1024,
            provider: { position, size in data.subdata(in: Int(position)..<min(Int(position) + size, data.count)) },
            consumer: { output.append($0) })
        return output
    }
}

/// A resource that counts the bytes read from it: what a decryption read costs.
final class CountingResource: Resource, @unchecked Sendable {
    let base: any Resource
    private let lock = NSLock()
    private var ranges: [Range<UInt64>] = []

    init(_ base: any Resource) { self.base = base }

    var href: String { base.href }
    var isRandomAccessCheap: Bool { true }
    func length() throws(ResourceError) -> UInt64 { try base.length() }
    func read(range: Range<UInt64>?) throws(ResourceError) -> Data {
        let data = try base.read(range: range)
        lock.withLock { ranges.append(range ?? 0..<UInt64(data.count)) }
        return data
    }

    var bytesRead: UInt64 { lock.withLock { ranges.reduce(0) { $0 + UInt64($1.count) } } }
    func reset() { lock.withLock { ranges = [] } }

    /// Read sessions opened on this resource (a decoder's reader opens one and keeps it).
    var sessionsOpened: Int { lock.withLock { sessions } }
    private var sessions = 0

    func openReadSession() throws(ResourceError) -> any ResourceReadSession {
        lock.withLock { sessions += 1 }
        return Session(resource: self)
    }

    private final class Session: ResourceReadSession {
        let resource: CountingResource
        init(resource: CountingResource) { self.resource = resource }
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ResourceError) -> Int {
            try resource.read(into: buffer, at: offset)
        }
    }
}
