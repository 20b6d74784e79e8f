// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import X509

/// The root certificates a licence's provider certificate must chain to (DER).
///
/// The default is EDRLab's two public test roots (2016 and 2026). Tests add the Moby-Dick vector's self-signed
/// "Mantano" certificate: a trust anchor may also be the provider certificate itself (pinned), which is how a
/// certificate too old for a chain check (RSA-1024, SHA-1) can be trusted on purpose and never by accident.
public struct LCPTrustAnchors: Sendable {
    public var certificates: [[UInt8]]

    public init(certificates: [[UInt8]]) {
        self.certificates = certificates
    }

    /// EDRLab's Readium LCP test CAs of 2016 and 2026.
    public static let edrlabTest = LCPTrustAnchors(
        certificates: [edrlabTestRoot2016PEM, edrlabTestRoot2026PEM].compactMap { try? derBytes(ofPEM: $0).first })

    /// These anchors and the certificates of `pem` (one or more PEM blocks).
    public func adding(pem: String) throws(LCPError) -> LCPTrustAnchors {
        let added = try Self.derBytes(ofPEM: pem)
        guard !added.isEmpty else { throw .parsing(.signature("no certificate in the PEM text")) }
        return LCPTrustAnchors(certificates: certificates + added)
    }

    /// The DER bytes of each `CERTIFICATE` block of a PEM text.
    public static func derBytes(ofPEM pem: String) throws(LCPError) -> [[UInt8]] {
        var blocks: [[UInt8]] = []
        var body: String?
        for line in pem.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line == "-----BEGIN CERTIFICATE-----" {
                body = ""
            } else if line == "-----END CERTIFICATE-----", let text = body {
                guard let data = Data(base64Encoded: text) else {
                    throw .parsing(.signature("a PEM certificate is not valid Base64"))
                }
                blocks.append(Array(data))
                body = nil
            } else if body != nil {
                body! += line
            }
        }
        return blocks
    }
}
