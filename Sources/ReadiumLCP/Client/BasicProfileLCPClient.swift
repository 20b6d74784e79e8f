// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import ReadiumShared

/// An open `LCPClient` for the basic profile (`http://readium.org/lcp/basic-profile`), whose crypto is public.
///
/// - user key = SHA-256 of the passphrase; the key check (the licence id under the user key) tells a wrong one;
/// - content key = `encryption.content_key` under the user key; resources are AES-256-CBC under it;
/// - the signature is RSA-SHA256 (PKCS#1 v1.5) of the canonical licence, by the embedded provider certificate,
///   which must chain to a trust anchor and be valid at the licence's `updated`, else `issued`, and must not be
///   listed by the CRL handed to `createContext` (one its issuer, a trust anchor, signed: `LCPRevocationList`).
///
/// It also reads `http://readium.org/lcp/profile-1.0` licences whose key check opens with the plain SHA-256
/// user key, as Readium's and Thorium's clients did for the licences of 2015-2016 (the Moby-Dick vector): a
/// production profile-1.0 licence derives its user key otherwise, so its key check fails here as a wrong passphrase
/// would. Any other profile is refused before a client is asked (`LCPError.licenseProfileNotSupported`).
public struct BasicProfileLCPClient: LCPClient {
    public let trustAnchors: LCPTrustAnchors

    public var supportedProfiles: Set<String> { [LicenseDocument.basicProfile, LicenseDocument.legacyProfile10] }

    public init(trustAnchors: LCPTrustAnchors = .edrlabTest) {
        self.trustAnchors = trustAnchors
    }

    /// The hash a passphrase is known by: SHA-256 of its UTF-8 bytes, in hexadecimal.
    public static func hashPassphrase(_ passphrase: String) -> LCPPassphraseHash {
        SHA256.hash(data: Data(passphrase.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    public func createContext(jsonLicense: String, hashedPassphrase: LCPPassphraseHash, pemCrl: String)
        throws(LCPClientError) -> LCPClientContext
    {
        guard let license = try? LicenseDocument(data: Data(jsonLicense.utf8)) else { throw .contextInvalid }
        try verifySignature(of: license)
        // The provider certificate against the CRL (Readium's `certificateRevoked`).
        if let certificateDER = Data(base64Encoded: license.signature.certificate),
            LCPRevocationList(pem: pemCrl, anchors: trustAnchors).revokes(certificateDER: Array(certificateDER)) {
            throw .certificateRevoked
        }
        guard let userKey = Self.userKey(hashedPassphrase) else { throw .userKeyCheckInvalid }
        guard checkKey(userKey, of: license) else { throw .userKeyCheckInvalid }
        guard let encryptedKey = Data(base64Encoded: license.encryption.contentKey.encryptedValue),
            let contentKey = AESCBC.decryptValue(encryptedKey, key: userKey), contentKey.count == 32
        else { throw .contentKeyDecryptError }
        return BasicProfileContext(
            contentKeyBytes: Array(contentKey), user: Self.decryptUserFields(license.user, userKey: userKey))
    }

    public func decrypt(data: Data, using context: LCPClientContext) -> Data? {
        guard let context = context as? BasicProfileContext else { return nil }
        return AESCBC.decryptValue(data, key: context.contentKey)
    }

    public func findOneValidPassphrase(jsonLicense: String, hashedPassphrases: [LCPPassphraseHash])
        -> LCPPassphraseHash?
    {
        guard let license = try? LicenseDocument(data: Data(jsonLicense.utf8)) else { return nil }
        return hashedPassphrases.first { hash in
            Self.userKey(hash).map { checkKey($0, of: license) } ?? false
        }
    }

    /// Checks the provider certificate's chain and date, then the licence's signature.
    public func verifySignature(of license: LicenseDocument) throws(LCPClientError) {
        guard let certificateDER = Data(base64Encoded: license.signature.certificate),
            let signature = Data(base64Encoded: license.signature.value)
        else { throw .licenseSignatureInvalid }
        let certificate = try ProviderCertificate(der: Array(certificateDER))
        try certificate.verifyChain(to: trustAnchors, at: license.signatureDate)
        guard license.signature.algorithm == "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
            certificate.isValidSignature(Array(signature), for: license.canonicalBytes)
        else { throw .licenseSignatureInvalid }
    }

    private func checkKey(_ userKey: SymmetricKey, of license: LicenseDocument) -> Bool {
        guard let keyCheck = Data(base64Encoded: license.encryption.userKey.keyCheck),
            let plain = AESCBC.decryptValue(keyCheck, key: userKey)
        else { return false }
        return plain == Data(license.id.utf8)
    }

    private static func userKey(_ hash: LCPPassphraseHash) -> SymmetricKey? {
        let digits = Array(hash.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return SymmetricKey(data: bytes)
    }

    /// The user's fields named in `user.encrypted`, decrypted with the user key; a field that does not decrypt is
    /// left out rather than shown as Base64.
    static func decryptUserFields(_ user: LicenseDocument.User, userKey: SymmetricKey) -> LicenseDocument.User {
        var clear = user
        for field in user.encrypted {
            func reveal(_ value: String?) -> String? {
                guard let value, let data = Data(base64Encoded: value),
                    let plain = AESCBC.decryptValue(data, key: userKey)
                else { return nil }
                return String(data: plain, encoding: .utf8)
            }
            switch field {
            case "email": clear.email = reveal(user.email)
            case "name": clear.name = reveal(user.name)
            case "id": clear.id = reveal(user.id)
            default: break
            }
        }
        clear.encrypted = []
        return clear
    }
}

/// The basic profile's context: the content key, and the user's fields in clear.
public struct BasicProfileContext: LCPBlockDecrypting {
    /// The raw content key (`SymmetricKey` is not `Sendable` in swift-crypto 3).
    let contentKeyBytes: [UInt8]
    var contentKey: SymmetricKey { SymmetricKey(data: contentKeyBytes) }
    /// `user` with the fields of `user.encrypted` decrypted.
    public let user: LicenseDocument.User

    public func decryptBlocks(_ blocks: Data, iv: Data) throws(LCPClientError) -> Data {
        guard blocks.count % 16 == 0, iv.count == 16,
            let plain = try? AESCBC.decryptBlocks(blocks, key: contentKey, iv: iv)
        else { throw .contentDecryptError }
        return plain
    }
}
