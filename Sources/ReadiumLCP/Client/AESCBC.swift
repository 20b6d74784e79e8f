// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import _CryptoExtras

/// AES-256-CBC of the basic profile (swift-crypto's `AES._CBC`), with the W3C XML-Encryption padding LCP uses.
enum AESCBC {
    /// Decrypts whole blocks with no padding handling.
    static func decryptBlocks(_ blocks: some DataProtocol, key: SymmetricKey, iv: some Collection<UInt8>) throws -> Data {
        try AES._CBC.decrypt(blocks, using: key, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
    }

    /// Decrypts an AES value (16-byte IV then ciphertext) and drops its padding; nil if it is not one.
    static func decryptValue(_ value: Data, key: SymmetricKey) -> Data? {
        let bytes = Array(value)
        guard bytes.count >= 32, bytes.count % 16 == 0,
            let plain = try? decryptBlocks(bytes[16...], key: key, iv: bytes[0..<16])
        else { return nil }
        return removingPadding(plain)
    }

    /// W3C XML-Encryption padding: the last byte is the pad length (1...16); the other pad bytes are arbitrary
    /// (random in the real licences, so a strict PKCS#7 check would refuse them).
    static func removingPadding(_ plain: Data) -> Data? {
        guard let last = plain.last, (1...16).contains(last), Int(last) <= plain.count else { return nil }
        return plain.dropLast(Int(last))
    }
}
