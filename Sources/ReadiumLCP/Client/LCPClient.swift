// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The SHA-256 of a passphrase's UTF-8 bytes, as 64 lowercase hexadecimal digits (Readium's `LCPPassphraseHash`).
///
/// Only this hash is ever stored; the passphrase itself never leaves the call that hashed it.
public typealias LCPPassphraseHash = String

/// A client's per-licence state: the content key and whatever else it needs to decrypt (Readium's `LCPClientContext`).
public typealias LCPClientContext = any Sendable

/// The three calls of Readium's `LCPClient`: what a certified (EDRLab) client supplies for production profiles.
///
/// raudio's open `BasicProfileLCPClient` implements the basic profile; an app embedding raudio passes its own
/// client for the others.
public protocol LCPClient: Sendable {
    /// The encryption profiles this client can read (`encryption.profile` of a licence).
    var supportedProfiles: Set<String> { get }

    /// Checks a licence (signature, certificate chain, dates, key check) with a hashed passphrase and returns the
    /// context that decrypts its resources.
    func createContext(jsonLicense: String, hashedPassphrase: LCPPassphraseHash, pemCrl: String) throws(LCPClientError)
        -> LCPClientContext

    /// Decrypts one AES value (IV then ciphertext) with the context's content key, padding removed; nil if it fails.
    func decrypt(data: Data, using context: LCPClientContext) -> Data?

    /// The first of `hashedPassphrases` that opens the licence's key check, if any.
    func findOneValidPassphrase(jsonLicense: String, hashedPassphrases: [LCPPassphraseHash]) -> LCPPassphraseHash?
}

/// A context that also decrypts whole 16-byte blocks without touching padding: what streaming a resource by the
/// blocks a read needs requires. A client whose context lacks it still works, by decrypting whole resources.
public protocol LCPBlockDecrypting: Sendable {
    /// Decrypts `blocks` (a multiple of 16 bytes) in CBC mode with `iv` as the previous ciphertext block.
    func decryptBlocks(_ blocks: Data, iv: Data) throws(LCPClientError) -> Data
}

/// Why a client refused a licence or a decryption: Readium's `LCPClientError` (the C++ client's status codes).
public enum LCPClientError: Int, Error, Sendable, Equatable, CustomStringConvertible {
    case licenseOutOfDate = 0
    case certificateRevoked
    case certificateSignatureInvalid
    case licenseSignatureDateInvalid
    case licenseSignatureInvalid
    case contextInvalid
    case contentKeyDecryptError
    case userKeyCheckInvalid
    case contentDecryptError
    case unknown

    public var description: String {
        switch self {
        case .licenseOutOfDate: "the licence is out of date"
        case .certificateRevoked: "the provider certificate is revoked"
        case .certificateSignatureInvalid:
            "the provider certificate does not chain to a trusted LCP root"
        case .licenseSignatureDateInvalid:
            "the provider certificate was not valid at the licence's date"
        case .licenseSignatureInvalid: "the licence signature does not verify"
        case .contextInvalid: "the licence cannot be read"
        case .contentKeyDecryptError: "the content key does not decrypt"
        case .userKeyCheckInvalid: "the passphrase is wrong (key check failed)"
        case .contentDecryptError: "the content does not decrypt"
        case .unknown: "unknown LCP client error"
        }
    }
}
