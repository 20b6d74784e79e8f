// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import SwiftASN1
import X509

/// The certificate revocation lists handed to `createContext(pemCrl:)` (one or more `X509 CRL` PEM blocks), read
/// with SwiftASN1 (swift-certificates has no CRL type): a provider certificate is revoked when a CRL issued by its
/// issuer, whose signature verifies with a trust anchor of that name, lists its serial number.
///
/// A CRL that does not parse, or that no trust anchor signed, is ignored: it can only take rights away, and one
/// written into the cache by anyone else must not be able to. The CRL's dates are not checked (an old CRL still
/// says which certificates were revoked; Readium's clients use the cached one whatever its age).
struct LCPRevocationList {
    struct Entry {
        /// The DER of the CRL's issuer `Name`.
        var issuer: [UInt8]
        /// The DER contents of each revoked certificate's serial number.
        var serials: Set<[UInt8]>
    }

    var entries: [Entry]

    /// The CRLs of `pem` that one of `anchors` signed.
    init(pem: String, anchors: LCPTrustAnchors) {
        let blocks = Self.derBlocks(ofPEM: pem)
        guard !blocks.isEmpty else {
            entries = []
            return
        }
        let anchorCertificates: [(subject: [UInt8], certificate: Certificate)] = anchors.certificates.compactMap { der in
            guard let certificate = try? Certificate(derEncoded: der), let subject = try? Self.names(ofCertificate: der).subject else { return nil }
            return (subject, certificate)
        }
        entries = blocks.compactMap { der in
            guard let crl = try? Self.parse(der) else { return nil }
            let signed = anchorCertificates.contains { anchor in
                anchor.subject == crl.issuer
                    && anchor.certificate.publicKey.isValidSignature(crl.signature, for: crl.tbs, signatureAlgorithm: crl.algorithm)
            }
            return signed ? Entry(issuer: crl.issuer, serials: crl.serials) : nil
        }
    }

    /// Whether the certificate `der` is listed by a CRL of its issuer.
    func revokes(certificateDER der: [UInt8]) -> Bool {
        guard !entries.isEmpty, let certificate = try? Self.names(ofCertificate: der) else { return false }
        return entries.contains { $0.issuer == certificate.issuer && $0.serials.contains(certificate.serial) }
    }

    // MARK: DER

    private struct Parsed {
        var tbs: [UInt8]
        var issuer: [UInt8]
        var serials: Set<[UInt8]>
        var algorithm: Certificate.SignatureAlgorithm
        var signature: [UInt8]
    }

    /// CertificateList ::= SEQUENCE { tbsCertList, signatureAlgorithm, signatureValue BIT STRING } (RFC 5280 §5.1).
    private static func parse(_ der: [UInt8]) throws -> Parsed {
        let root = try DER.parse(der)
        guard case .constructed(let top) = root.content else { throw ASN1Error.invalidASN1Object(reason: "CRL") }
        let parts = Array(top)
        guard parts.count == 3, case .constructed(let tbsNodes) = parts[0].content else {
            throw ASN1Error.invalidASN1Object(reason: "CRL")
        }
        guard case .constructed(let algorithmFields) = parts[1].content, let oidNode = Array(algorithmFields).first,
            let algorithm = Self.signatureAlgorithms[try ASN1ObjectIdentifier(derEncoded: oidNode)]
        else { throw ASN1Error.invalidASN1Object(reason: "CRL signature algorithm") }
        let signature = try ASN1BitString(derEncoded: parts[2])
        var fields = Array(tbsNodes)
        // version INTEGER OPTIONAL (v2 CRLs), then signature AlgorithmIdentifier, issuer Name, thisUpdate, ...
        if let first = fields.first, first.identifier == .integer { fields.removeFirst() }
        guard fields.count >= 3 else { throw ASN1Error.invalidASN1Object(reason: "TBSCertList") }
        let issuer = Array(fields[1].encodedBytes)
        var serials: Set<[UInt8]> = []
        // thisUpdate, nextUpdate OPTIONAL, revokedCertificates SEQUENCE OF SEQUENCE OPTIONAL, [0] extensions OPTIONAL.
        for field in fields.dropFirst(3) where field.identifier == .sequence {
            guard case .constructed(let revoked) = field.content else { continue }
            for entry in revoked {
                guard case .constructed(let entryFields) = entry.content, let serial = Array(entryFields).first,
                    serial.identifier == .integer, case .primitive(let bytes) = serial.content
                else { continue }
                serials.insert(Array(bytes))
            }
        }
        return Parsed(tbs: Array(parts[0].encodedBytes), issuer: issuer, serials: serials, algorithm: algorithm,
                      signature: Array(signature.bytes))
    }

    /// The signature algorithms a CRL may be signed with, by OID (RFC 4055, RFC 5758).
    private static let signatureAlgorithms: [ASN1ObjectIdentifier: Certificate.SignatureAlgorithm] = [
        [1, 2, 840, 113549, 1, 1, 5]: .sha1WithRSAEncryption, [1, 2, 840, 113549, 1, 1, 11]: .sha256WithRSAEncryption,
        [1, 2, 840, 113549, 1, 1, 12]: .sha384WithRSAEncryption, [1, 2, 840, 113549, 1, 1, 13]: .sha512WithRSAEncryption,
        [1, 2, 840, 10045, 4, 3, 2]: .ecdsaWithSHA256, [1, 2, 840, 10045, 4, 3, 3]: .ecdsaWithSHA384,
        [1, 2, 840, 10045, 4, 3, 4]: .ecdsaWithSHA512,
    ]

    /// The issuer and subject `Name`s (DER) and the serial number (the INTEGER's contents) of a certificate.
    private static func names(ofCertificate der: [UInt8]) throws -> (issuer: [UInt8], subject: [UInt8], serial: [UInt8]) {
        let root = try DER.parse(der)
        guard case .constructed(let certificate) = root.content, let tbs = Array(certificate).first,
            case .constructed(let tbsFields) = tbs.content
        else { throw ASN1Error.invalidASN1Object(reason: "certificate") }
        var fields = Array(tbsFields)
        if let first = fields.first, first.identifier.tagClass == .contextSpecific { fields.removeFirst() }
        // serialNumber, signature, issuer, validity, subject, ...
        guard fields.count >= 5, fields[0].identifier == .integer, case .primitive(let serial) = fields[0].content else {
            throw ASN1Error.invalidASN1Object(reason: "certificate")
        }
        return (Array(fields[2].encodedBytes), Array(fields[4].encodedBytes), Array(serial))
    }

    /// The DER bytes of each `X509 CRL` block of a PEM text.
    private static func derBlocks(ofPEM pem: String) -> [[UInt8]] {
        var blocks: [[UInt8]] = []
        var body: String?
        for line in pem.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line == "-----BEGIN X509 CRL-----" {
                body = ""
            } else if line == "-----END X509 CRL-----", let text = body {
                if let data = Data(base64Encoded: text) { blocks.append(Array(data)) }
                body = nil
            } else if body != nil {
                body! += line
            }
        }
        return blocks
    }
}
