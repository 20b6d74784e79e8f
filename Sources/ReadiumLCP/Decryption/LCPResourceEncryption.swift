// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// How one resource of a protected publication is encrypted: from `META-INF/encryption.xml` (EPUB) or a link's
/// `properties.encrypted` (RWPM packages).
public struct LCPResourceEncryption: Sendable, Equatable {
    /// The XML-Encryption algorithm (`http://www.w3.org/2001/04/xmlenc#aes256-cbc` for LCP).
    public var algorithm: String
    /// Whether the resource was DEFLATE-compressed (raw, no zlib header) before it was encrypted.
    public var isCompressed: Bool
    /// The length of the resource in clear (after inflating), when the publication says it.
    public var originalLength: UInt64?

    public static let aes256CBC = "http://www.w3.org/2001/04/xmlenc#aes256-cbc"

    public init(algorithm: String = aes256CBC, isCompressed: Bool = false, originalLength: UInt64? = nil) {
        self.algorithm = algorithm
        self.isCompressed = isCompressed
        self.originalLength = originalLength
    }

    /// `compression` as encryption.xml (`Method="8"`) or RWPM (`"deflate"`) writes it.
    static func isDeflate(_ method: String?) -> Bool {
        guard let method = method?.lowercased() else { return false }
        return method == "8" || method == "deflate"
    }
}
