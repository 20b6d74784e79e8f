// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Decrypts a publication's resources with a licence's client context: by blocks when the context can
/// (`LCPBlockDecrypting`, the basic profile), else whole values through `LCPClient.decrypt(data:using:)`.
public struct LCPContentDecryptor: Sendable {
    let client: any LCPClient
    let context: LCPClientContext

    public init(client: any LCPClient, context: LCPClientContext) {
        self.client = client
        self.context = context
    }

    /// Whether ranges can be decrypted from only the blocks they cover.
    var decryptsBlocks: Bool { context is any LCPBlockDecrypting }

    /// Decrypts whole blocks (`iv` is the ciphertext block before them); nil if the context cannot.
    func decryptBlocks(_ blocks: Data, iv: Data) throws(LCPClientError) -> Data? {
        guard let blockDecrypting = context as? any LCPBlockDecrypting else { return nil }
        return try blockDecrypting.decryptBlocks(blocks, iv: iv)
    }

    /// Decrypts a whole AES value (IV then ciphertext), padding removed.
    func decrypt(_ value: Data) -> Data? {
        client.decrypt(data: value, using: context)
    }
}
