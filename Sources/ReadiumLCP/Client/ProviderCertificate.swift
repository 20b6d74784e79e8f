// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// A licence's provider certificate: its validity and RSA key, and whether it chains to a trust anchor.
///
/// Validity and key are read from the DER with SwiftASN1 (so that the pinned RSA-1024 certificate of the 2015
/// vector, which swift-certificates refuses to load, can still be used when a test pins it); the chain is checked
/// with swift-certificates: the issuer is found among the anchors with the same subject by its signature.
struct ProviderCertificate {
    let der: [UInt8]
    let notValidBefore: Date
    let notValidAfter: Date
    let publicKey: _RSA.Signing.PublicKey

    init(der: [UInt8]) throws(LCPClientError) {
        self.der = der
        do {
            let root = try DER.parse(der)
            guard case .constructed(let certificate) = root.content,
                let tbs = Array(certificate).first, case .constructed(let tbsFields) = tbs.content
            else { throw LCPClientError.certificateSignatureInvalid }
            var fields = Array(tbsFields)
            // [0] EXPLICIT version is optional.
            if let first = fields.first, first.identifier.tagClass == .contextSpecific { fields.removeFirst() }
            // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo
            guard fields.count >= 6, case .constructed(let validity) = fields[3].content else {
                throw LCPClientError.certificateSignatureInvalid
            }
            let times = Array(validity)
            guard times.count == 2 else { throw LCPClientError.certificateSignatureInvalid }
            notValidBefore = try Self.date(of: times[0])
            notValidAfter = try Self.date(of: times[1])
            publicKey = try _RSA.Signing.PublicKey(unsafeDERRepresentation: Array(fields[5].encodedBytes))
        } catch let error as LCPClientError {
            throw error
        } catch {
            throw .certificateSignatureInvalid
        }
    }

    func isValid(at date: Date) -> Bool {
        notValidBefore <= date && date <= notValidAfter
    }

    /// Checks that this certificate is one of `anchors` or is signed by one of them, and that both were valid
    /// at `date` (the licence's `updated`, else `issued`; never now).
    func verifyChain(to anchors: LCPTrustAnchors, at date: Date) throws(LCPClientError) {
        if anchors.certificates.contains(der) {
            guard isValid(at: date) else { throw .licenseSignatureDateInvalid }
            return
        }
        guard let leaf = try? Certificate(derEncoded: der) else { throw .certificateSignatureInvalid }
        for anchorDER in anchors.certificates {
            guard let anchor = try? Certificate(derEncoded: anchorDER), anchor.subject == leaf.issuer,
                anchor.publicKey.isValidSignature(leaf.signature, for: leaf)
            else { continue }
            guard isValid(at: date), anchor.notValidBefore <= date, date <= anchor.notValidAfter else {
                throw .licenseSignatureDateInvalid
            }
            return
        }
        throw .certificateSignatureInvalid
    }

    /// Verifies an RSA PKCS#1 v1.5 signature over the SHA-256 of `message`.
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: message),
            padding: .insecurePKCS1v1_5)
    }

    private static func date(of node: ASN1Node) throws -> Date {
        var components = DateComponents()
        if node.identifier == UTCTime.defaultIdentifier {
            let time = try UTCTime(derEncoded: node)
            (components.year, components.month, components.day) = (time.year, time.month, time.day)
            (components.hour, components.minute, components.second) = (time.hours, time.minutes, time.seconds)
        } else {
            let time = try GeneralizedTime(derEncoded: node)
            (components.year, components.month, components.day) = (time.year, time.month, time.day)
            (components.hour, components.minute, components.second) = (time.hours, time.minutes, time.seconds)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components) else { throw LCPClientError.certificateSignatureInvalid }
        return date
    }
}
