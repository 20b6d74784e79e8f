// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import LCPTestSupport
import RAudioTestSupport
import ReadiumShared
import SwiftASN1
import Testing
import X509
import _CryptoExtras
@testable import ReadiumLCP

/// The basic client checks a licence's provider certificate against the CRL it is handed (`createContext(pemCrl:)`):
/// made here, a CA of the test's own (the trust anchor), a provider certificate it issues, a licence signed with
/// the provider key, and CRLs the CA signs. A CRL listing the provider's serial refuses the licence with Readium's
/// `certificateRevoked` (`LCPError.licenseIntegrity(.certificateRevoked)`); one listing another serial, or one no
/// trust anchor signed, changes nothing.
@Suite("LCP certificate revocation", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct LCPRevocationTests {
    struct Authority {
        let key = P256.Signing.PrivateKey()
        let name: DistinguishedName
        let certificate: Certificate

        init(name: String) throws {
            self.name = try DistinguishedName { CommonName(name) }
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey), notValidBefore: start,
                notValidAfter: start.addingTimeInterval(20 * 365 * 86_400), issuer: self.name, subject: self.name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil)) },
                issuerPrivateKey: .init(key))
        }

        var der: [UInt8] { get throws { try Self.der(certificate) } }

        static func der(_ certificate: Certificate) throws -> [UInt8] {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }

        /// A provider certificate with `serial`, for an RSA key, issued by this authority.
        func provider(serial: [UInt8], key: _RSA.Signing.PrivateKey) throws -> [UInt8] {
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            return try Self.der(Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(bytes: serial), publicKey: .init(key.publicKey),
                notValidBefore: start, notValidAfter: start.addingTimeInterval(15 * 365 * 86_400), issuer: name,
                subject: try DistinguishedName { CommonName("raudio test provider") }, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: Certificate.Extensions(), issuerPrivateKey: .init(self.key)))
        }

        /// A v2 CRL (RFC 5280 §5.1) issued by this authority, revoking `serials`, signed with `signer` (this
        /// authority's key unless another is given), as PEM.
        func crl(revoking serials: [[UInt8]], signer: P256.Signing.PrivateKey? = nil) throws -> String {
            let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
            let now = try UTCTime(year: 2026, month: 6, day: 1, hours: 0, minutes: 0, seconds: 0)
            var tbs = DER.Serializer()
            try tbs.appendConstructedNode(identifier: .sequence) { tbs in
                try tbs.serialize(1)
                try tbs.appendConstructedNode(identifier: .sequence) { try $0.serialize(ecdsaWithSHA256) }
                try tbs.serialize(name)
                try tbs.serialize(now)
                try tbs.appendConstructedNode(identifier: .sequence) { list in
                    for serial in serials {
                        try list.appendConstructedNode(identifier: .sequence) { entry in
                            entry.appendPrimitiveNode(identifier: .integer) { $0.append(contentsOf: serial) }
                            try entry.serialize(now)
                        }
                    }
                }
            }
            let tbsBytes = tbs.serializedBytes
            let signature = try (signer ?? key).signature(for: tbsBytes).derRepresentation
            var crl = DER.Serializer()
            try crl.appendConstructedNode(identifier: .sequence) { crl in
                crl.serializeRawBytes(tbsBytes)
                try crl.appendConstructedNode(identifier: .sequence) { try $0.serialize(ecdsaWithSHA256) }
                try crl.serialize(ASN1BitString(bytes: ArraySlice(signature)))
            }
            return "-----BEGIN X509 CRL-----\n" + Data(crl.serializedBytes).base64EncodedString(options: .lineLength64Characters)
                + "\n-----END X509 CRL-----\n"
        }
    }

    @Test func aRevokedProviderCertificateRefusesTheLicence() throws {
        let authority = try Authority(name: "raudio test CRL CA")
        let providerKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let serial: [UInt8] = [0x42, 0x17]
        let maker = LCPVectorMaker(privateKey: providerKey, certificateDER: try authority.provider(serial: serial, key: providerKey))
        var spec = LCPVectorMaker.License(issued: LCPVectorMaker.Provider.test2026.validIssueDate)
        spec.id = "crl-test"
        let json = String(decoding: try maker.license(spec), as: UTF8.self)
        let client = BasicProfileLCPClient(trustAnchors: LCPTrustAnchors(certificates: [try authority.der]))
        let hash = BasicProfileLCPClient.hashPassphrase(spec.passphrase)

        // No CRL, a CRL of other serials, an empty one: the licence opens.
        _ = try client.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: "")
        _ = try client.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: try authority.crl(revoking: [[0x42, 0x18], [0x01]]))
        _ = try client.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: try authority.crl(revoking: []))

        // The CA's CRL that lists the provider's serial: revoked.
        let revoking = try authority.crl(revoking: [[0x01], serial])
        #expect(throws: LCPClientError.certificateRevoked) {
            _ = try client.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: revoking)
        }

        // The same list signed by a key no trust anchor holds, or issued under another name: ignored.
        let forged = try authority.crl(revoking: [serial], signer: P256.Signing.PrivateKey())
        _ = try client.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: forged)
        let other = try Authority(name: "another CA")
        let otherClient = BasicProfileLCPClient(trustAnchors: LCPTrustAnchors(certificates: [try authority.der, try other.der]))
        _ = try otherClient.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: try other.crl(revoking: [serial]))
        #expect(throws: LCPClientError.certificateRevoked) {
            _ = try otherClient.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: try other.crl(revoking: [serial]) + revoking)
        }

        // Through the service, as Readium names it: LCPError.licenseIntegrity(.certificateRevoked), code lcp-certificate-revoked.
        var service = LCPService(client: client)
        service.crl = { revoking }
        do {
            _ = try service.retrieveLicense(data: Data(json.utf8), source: "crl-test.lcpl", authentication: LCPFixedPassphrase(spec.passphrase))
            Issue.record("a revoked provider certificate opened the licence")
        } catch {
            #expect(error == .licenseIntegrity(.certificateRevoked), "\(error)")
            #expect(error.code == .lcpCertificateRevoked)
        }
    }
}
