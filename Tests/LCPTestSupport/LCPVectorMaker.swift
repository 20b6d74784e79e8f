// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import RAudioTestSupport
import ReadiumShared
import ZIPFoundation
import _CryptoExtras

/// Makes LCP test vectors at test time with the published EDRLab TEST provider keys (`../shared/corpus/lcp`,
/// README "The private keys"), so that they chain to the real test roots: licences signed over their canonical
/// JSON (RSA-SHA256, PKCS#1 v1.5), their key check, content key and encrypted user fields under the user key
/// (SHA-256 of the passphrase), resources in AES-256-CBC with W3C padding (random pad bytes, last byte the pad
/// length, as real servers write them), deflated before encryption when asked, and packages around them.
///
/// Independent of ReadiumLCP on purpose (its own canonical JSON and encryption), so that the module is tested
/// against another implementation, not against itself.
public struct LCPVectorMaker: Sendable {
    /// Which test provider signs: the 2016 pair (certificate valid 2016-03-25...2026-03-23, chains to the 2016
    /// root) or the 2026 pair (2026-03-23...2036-03-20, the 2026 root).
    public enum Provider: String, Sendable {
        case test2016 = "2016", test2026 = "2026"

        /// A signing date inside the certificate's validity.
        public var validIssueDate: String { self == .test2016 ? "2020-01-01T00:00:00Z" : "2026-06-01T00:00:00Z" }
    }

    public static let basicProfile = "http://readium.org/lcp/basic-profile"
    public static let aes256CBC = "http://www.w3.org/2001/04/xmlenc#aes256-cbc"

    /// What goes into a licence; the defaults make a valid basic-profile licence.
    public struct License: Sendable {
        public var id = UUID().uuidString.lowercased()
        public var provider = "https://provider.test.raudio"
        public var issued: String
        public var updated: String?
        public var profile = LCPVectorMaker.basicProfile
        public var passphrase = "raudio test passphrase"
        public var hint = "the test passphrase"
        /// The publication's AES-256 key.
        public var contentKey = Data((0..<32).map { UInt8(($0 * 7 + 3) & 0xFF) })
        /// `user` in clear, then the fields encrypted with the user key (listed in `user.encrypted`).
        public var userID: String? = "user-1"
        public var userName: String? = "Test User"
        public var userEmail: String? = "user@example.org"
        public var encryptedUserFields: [String] = ["email"]
        public var print: Int? = 10
        public var copy: Int? = 100
        public var start: String?
        public var end: String?
        /// `links` (each an object: rel, href, type, ...).
        public var links: [JSONValue] = []

        public init(issued: String) {
            self.issued = issued
        }
    }

    public let provider: Provider
    private let privateKey: _RSA.Signing.PrivateKey
    /// The provider certificate, DER in Base64 (what `signature.certificate` holds).
    public let certificateBase64: String

    public init(provider: Provider = .test2026) throws {
        self.provider = provider
        let folder = try Corpus.file("lcp")
        let keyPEM = try String(contentsOf: folder.appendingPathComponent("test-provider-\(provider.rawValue)-key.pem"), encoding: .utf8)
        privateKey = try _RSA.Signing.PrivateKey(unsafePEMRepresentation: keyPEM)
        let certificatePEM = try String(contentsOf: folder.appendingPathComponent("test-provider-\(provider.rawValue)-cert.pem"), encoding: .utf8)
        certificateBase64 = certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    }

    /// The user key: SHA-256 of the passphrase's UTF-8 bytes.
    /// A maker that signs with a provider key and certificate of the test's own (a CA made at test time, for a CRL
    /// the test signs); `provider` then only names the dates its licences are valid at.
    public init(privateKey: _RSA.Signing.PrivateKey, certificateDER: [UInt8], provider: Provider = .test2026) {
        self.provider = provider
        self.privateKey = privateKey
        certificateBase64 = Data(certificateDER).base64EncodedString()
    }

    public static func userKey(_ passphrase: String) -> Data { Data(SHA256.hash(data: Data(passphrase.utf8))) }

    /// The licence's JSON: its fields as `license` says, signed unless `signs` is false (then the signature is
    /// that of other bytes: a bad signature). `tamper` changes the object after signing (a field altered in transit).
    public func license(_ license: License, signs: Bool = true, tamper: ((inout JSONObject) -> Void)? = nil) throws -> Data {
        let userKey = Self.userKey(license.passphrase)
        var object = JSONObject()
        object["id"] = .string(license.id)
        object["provider"] = .string(license.provider)
        object["issued"] = .string(license.issued)
        if let updated = license.updated { object["updated"] = .string(updated) }
        object["encryption"] = .object(JSONObject([
            ("profile", .string(license.profile)),
            ("content_key", .object(JSONObject([
                ("algorithm", .string(Self.aes256CBC)),
                ("encrypted_value", .string(try Self.encrypt(license.contentKey, key: userKey).base64EncodedString())),
            ]))),
            ("user_key", .object(JSONObject([
                ("algorithm", .string("http://www.w3.org/2001/04/xmlenc#sha256")),
                ("text_hint", .string(license.hint)),
                ("key_check", .string(try Self.encrypt(Data(license.id.utf8), key: userKey).base64EncodedString())),
            ]))),
        ]))
        object["links"] = .array(license.links)
        var user = JSONObject()
        for (field, value) in [("id", license.userID), ("name", license.userName), ("email", license.userEmail)] {
            guard let value else { continue }
            user[field] = license.encryptedUserFields.contains(field)
                ? .string(try Self.encrypt(Data(value.utf8), key: userKey).base64EncodedString()) : .string(value)
        }
        if !license.encryptedUserFields.isEmpty { user["encrypted"] = .array(license.encryptedUserFields.map { .string($0) }) }
        object["user"] = .object(user)
        var rights = JSONObject()
        if let print = license.print { rights["print"] = .integer(Int64(print)) }
        if let copy = license.copy { rights["copy"] = .integer(Int64(copy)) }
        if let start = license.start { rights["start"] = .string(start) }
        if let end = license.end { rights["end"] = .string(end) }
        object["rights"] = .object(rights)
        var signed = Self.canonical(.object(object))
        if !signs { signed += Array("tampered".utf8) }
        let signature = try privateKey.signature(for: signed, padding: .insecurePKCS1v1_5)
        object["signature"] = .object(JSONObject([
            ("algorithm", .string("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")),
            ("certificate", .string(certificateBase64)),
            ("value", .string(signature.rawRepresentation.base64EncodedString())),
        ]))
        tamper?(&object)
        return Data(JSONValue.object(object).serialized(.pretty).utf8)
    }

    /// The canonical form LCP signs: keys sorted by code point at every level, no whitespace, minimal escaping,
    /// non-ASCII as raw UTF-8 (Python's `json.dumps(sort_keys=True, separators=(',', ':'), ensure_ascii=False)`).
    public static func canonical(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        func string(_ text: String) {
            out.append(UInt8(ascii: "\""))
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += Array("\\\"".utf8)
                case "\\": out += Array("\\\\".utf8)
                case "\n": out += Array("\\n".utf8)
                case "\r": out += Array("\\r".utf8)
                case "\t": out += Array("\\t".utf8)
                case "\u{08}": out += Array("\\b".utf8)
                case "\u{0C}": out += Array("\\f".utf8)
                case _ where scalar.value < 0x20: out += Array(String(format: "\\u%04x", scalar.value).utf8)
                default: out += Array(String(scalar).utf8)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        func write(_ value: JSONValue) {
            switch value {
            case .null: out += Array("null".utf8)
            case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
            case .integer(let number): out += Array(String(number).utf8)
            case .number(let number): out += Array(String(number).utf8)
            case .string(let text): string(text)
            case .array(let items):
                out.append(UInt8(ascii: "["))
                for (index, item) in items.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    write(item)
                }
                out.append(UInt8(ascii: "]"))
            case .object(let object):
                out.append(UInt8(ascii: "{"))
                let keys = object.keys.sorted { Array($0.unicodeScalars.map(\.value)).lexicographicallyPrecedes($1.unicodeScalars.map(\.value)) }
                for (index, key) in keys.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    string(key)
                    out.append(UInt8(ascii: ":"))
                    write(object[key]!)
                }
                out.append(UInt8(ascii: "}"))
            }
        }
        write(value)
        return out
    }

    /// IV (random unless given) + AES-256-CBC of `plaintext` with W3C padding: `padLength - 1` random bytes, then
    /// the pad length (1...16).
    public static func encrypt(_ plaintext: Data, key: Data, iv: Data? = nil) throws -> Data {
        let padLength = 16 - plaintext.count % 16
        var padded = plaintext
        padded += Data((0..<(padLength - 1)).map { _ in UInt8.random(in: 0...255) })
        padded.append(UInt8(padLength))
        let ivBytes = iv ?? Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let ciphertext = try AES._CBC.encrypt(padded, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: ivBytes), noPadding: true)
        return ivBytes + ciphertext
    }

    /// Raw DEFLATE (no zlib header), as LCP's `compression: deflate` resources are deflated before encryption.
    public static func deflate(_ data: Data) throws -> Data {
        var output = Data()
        _ = try Data.compress(size: Int64(data.count), bufferSize: 64 * 1024, provider: { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }, consumer: { output.append($0) })
        return output
    }

    /// A resource of a package: its href, media type, and whether it is encrypted (deflated first when `deflates`).
    /// With a `rel` (`cover`) it is listed in the manifest's `resources` rather than its reading order.
    public struct Resource: Sendable {
        public var href: String
        public var type: String
        public var data: Data
        public var encrypted: Bool
        public var deflates: Bool
        public var rel: String?

        public init(href: String, type: String, data: Data, encrypted: Bool = true, deflates: Bool = false, rel: String? = nil) {
            (self.href, self.type, self.data, self.encrypted, self.deflates, self.rel) = (href, type, data, encrypted, deflates, rel)
        }
    }

    /// An LCP audiobook package (`.lcpa`): `manifest.json` (RWPM, each encrypted resource with its `encrypted`
    /// properties), `license.lcpl` at the root (none when nil: what a server serves for `acquire`), the resources
    /// encrypted with `contentKey`. Entries are stored.
    public static func audiobookPackage(license: Data?, contentKey: Data, title: String = "LCP test audiobook", resources: [Resource]) throws -> Data {
        let archive = try Archive(data: Data(), accessMode: .create)
        var readingOrder: [JSONValue] = []
        var others: [JSONValue] = []
        var entries: [(String, Data)] = license.map { [("license.lcpl", $0)] } ?? []
        for resource in resources {
            var link = JSONObject([("href", .string(resource.href)), ("type", .string(resource.type))])
            var bytes = resource.data
            if resource.encrypted {
                var properties = JSONObject([("algorithm", .string(aes256CBC)), ("scheme", .string("http://readium.org/2014/01/lcp")),
                                             ("profile", .string(basicProfile))])
                if resource.deflates {
                    bytes = try deflate(bytes)
                    properties["compression"] = .string("deflate")
                    properties["originalLength"] = .integer(Int64(resource.data.count))
                }
                bytes = try encrypt(bytes, key: contentKey)
                link["properties"] = .object(JSONObject([("encrypted", .object(properties))]))
            }
            if let rel = resource.rel {
                link["rel"] = .string(rel)
                others.append(.object(link))
            } else {
                readingOrder.append(.object(link))
            }
            entries.append((resource.href, bytes))
        }
        var manifestObject = JSONObject([
            ("@context", .string("https://readium.org/webpub-manifest/context.jsonld")),
            ("metadata", .object(JSONObject([("@type", .string("http://schema.org/Audiobook")), ("title", .string(title)),
                                             ("conformsTo", .string("https://readium.org/webpub-manifest/profiles/audiobook"))]))),
            ("readingOrder", .array(readingOrder)),
        ])
        if !others.isEmpty { manifestObject["resources"] = .array(others) }
        let manifest: JSONValue = .object(manifestObject)
        entries.insert(("manifest.json", Data(manifest.serialized(.pretty).utf8)), at: 0)
        for (path, bytes) in entries {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .none) { position, size in
                bytes.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return archive.data ?? Data()
    }

    /// An LCP EPUB made from the EPUB at `source`: its XHTML documents encrypted with `contentKey` (listed in
    /// `META-INF/encryption.xml`), `META-INF/license.lcpl` added, every other entry as it was (`mimetype` first).
    public static func epubPackage(from source: URL, license: Data, contentKey: Data) throws -> Data {
        let input = try Archive(url: source, accessMode: .read)
        let output = try Archive(data: Data(), accessMode: .create)
        var encrypted: [String] = []
        var entries: [(String, Data)] = []
        for entry in input where entry.type == .file {
            var data = Data()
            _ = try input.extract(entry) { data.append($0) }
            if entry.path.hasSuffix(".xhtml") || entry.path.hasSuffix(".html") {
                data = try encrypt(data, key: contentKey)
                encrypted.append(entry.path)
            }
            entries.append((entry.path, data))
        }
        entries.sort { ($0.0 == "mimetype" ? 0 : 1) < ($1.0 == "mimetype" ? 0 : 1) }
        let references = encrypted.map { path in
            """
            <enc:EncryptedData><enc:EncryptionMethod Algorithm="\(aes256CBC)"/><ds:KeyInfo><ds:RetrievalMethod URI="license.lcpl#/encryption/content_key" \
            Type="http://readium.org/2014/01/lcp#EncryptedContentKey"/></ds:KeyInfo><enc:CipherData><enc:CipherReference URI="\(path)"/></enc:CipherData></enc:EncryptedData>
            """
        }.joined(separator: "\n")
        let encryptionXML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
            \(references)
            </encryption>
            """
        entries.append(("META-INF/encryption.xml", Data(encryptionXML.utf8)))
        entries.append(("META-INF/license.lcpl", license))
        for (path, bytes) in entries {
            try output.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: path == "mimetype" ? .none : .deflate) { position, size in
                bytes.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return output.data ?? Data()
    }

    /// A status document (LSD) for `licenseID`.
    public static func statusDocument(licenseID: String, status: String, licenseUpdated: String, statusUpdated: String,
                                      links: [JSONValue] = [], potentialEnd: String? = nil, events: [JSONValue] = [], message: String? = nil) -> Data {
        var object = JSONObject([
            ("id", .string(licenseID)), ("status", .string(status)),
            ("updated", .object(JSONObject([("license", .string(licenseUpdated)), ("status", .string(statusUpdated))]))),
            ("links", .array(links)),
        ])
        if let message { object["message"] = .string(message) }
        if let potentialEnd { object["potential_rights"] = .object(JSONObject([("end", .string(potentialEnd))])) }
        if !events.isEmpty { object["events"] = .array(events) }
        return Data(JSONValue.object(object).serialized().utf8)
    }

    /// A link object.
    public static func link(_ rel: String, _ href: String, type: String? = nil, templated: Bool = false, length: Int? = nil, hash: String? = nil) -> JSONValue {
        var object = JSONObject([("rel", .string(rel)), ("href", .string(href))])
        if let type { object["type"] = .string(type) }
        if templated { object["templated"] = .bool(true) }
        if let length { object["length"] = .integer(Int64(length)) }
        if let hash { object["hash"] = .string(hash) }
        return .object(object)
    }
}
