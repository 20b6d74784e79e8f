// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens LCP licences: profile, status, passphrase, integrity (through the client), rights. Readium's
/// `LCPService` with its `LicenseValidation`, without the network (an `LCPStatusChecking` adds it).
///
/// The passphrase is asked of `authentication` only when no stored hash opens the licence; the hash of one that
/// works is stored in `passphrases`. The passphrase itself is never kept.
public struct LCPService: Sendable {
    public var client: any LCPClient
    public var passphrases: (any LCPPassphraseRepository)?
    public var statusChecker: (any LCPStatusChecking)?
    /// The certificate revocation list handed to the client (PEM); none when nil (lcp-net: `LCPCRLService`).
    public var crl: (@Sendable () -> String)?
    /// How many times a wrong passphrase is asked again before giving up.
    public var maximumAttempts: Int
    /// The present, for the rights' `start` and `end` (never for certificates, checked at the licence's date).
    public var now: @Sendable () -> Date

    public init(
        client: any LCPClient = BasicProfileLCPClient(), passphrases: (any LCPPassphraseRepository)? = nil,
        statusChecker: (any LCPStatusChecking)? = nil, maximumAttempts: Int = 3,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.passphrases = passphrases
        self.statusChecker = statusChecker
        self.maximumAttempts = maximumAttempts
        self.now = now
    }

    /// Opens the licence `data` (read from `source`, named in errors) with a passphrase from the store or from
    /// `authentication`.
    public func retrieveLicense(
        data: Data, source: String, authentication: (any LCPAuthenticating)?
    ) throws(LCPError) -> LCPLicense {
        var document = try LicenseDocument(data: data, source: source)
        try checkProfile(of: document)
        var status = LCPStatusSummary.unknownOffline
        if let statusChecker {
            let checked = try statusChecker.check(document, source: source)
            status = checked.status
            if let newer = checked.updatedDocument {
                document = newer
                try checkProfile(of: document)
            }
        }
        // A licence that fails its signature is refused before anyone is asked a passphrase.
        if let basic = client as? BasicProfileLCPClient {
            do {
                try basic.verifySignature(of: document)
            } catch {
                throw .licenseIntegrity(error)
            }
        }
        let hash = try findPassphrase(for: document, authentication: authentication)
        let context: LCPClientContext
        do {
            context = try client.createContext(jsonLicense: document.jsonString, hashedPassphrase: hash, pemCrl: crl?() ?? "")
        } catch .userKeyCheckInvalid {
            throw .wrongPassphrase(hint: document.encryption.userKey.textHint)
        } catch {
            throw .licenseIntegrity(error)
        }
        try checkRights(of: document)
        passphrases?.addPassphrase(hash, licenseID: document.id, provider: document.provider, userID: document.user.id)
        let user = (context as? BasicProfileContext)?.user ?? document.user
        return LCPLicense(
            document: document, user: user, decryptor: LCPContentDecryptor(client: client, context: context),
            status: status)
    }

    /// The licence without opening it: what can be shown before the passphrase is known.
    public func inspectLicense(data: Data, source: String) throws(LCPError) -> LCPLicense {
        let document = try LicenseDocument(data: data, source: source)
        var user = document.user
        if user.encrypted.contains("email") { user.email = nil }
        if user.encrypted.contains("name") { user.name = nil }
        if user.encrypted.contains("id") { user.id = nil }
        return LCPLicense(document: document, user: user, decryptor: nil)
    }

    private func checkProfile(of document: LicenseDocument) throws(LCPError) {
        guard client.supportedProfiles.contains(document.encryption.profile) else {
            throw .licenseProfileNotSupported(profile: document.encryption.profile)
        }
    }

    /// The rights' period, with its dates in the error.
    func checkRights(of document: LicenseDocument) throws(LCPError) {
        let now = now()
        if let start = document.rights.start, now < start {
            throw .licenseStatus(.notYetValid(start: start, end: document.rights.end))
        }
        if let end = document.rights.end, now > end {
            throw .licenseStatus(.expired(start: document.rights.start, end: end))
        }
    }

    /// A stored hash that opens the licence, else one made from what `authentication` gives.
    private func findPassphrase(
        for document: LicenseDocument, authentication: (any LCPAuthenticating)?
    ) throws(LCPError) -> LCPPassphraseHash {
        let json = document.jsonString
        if let stored = passphrases?.candidates(for: document), !stored.isEmpty,
            let hash = client.findOneValidPassphrase(jsonLicense: json, hashedPassphrases: stored)
        {
            return hash
        }
        guard let authentication else { throw .missingPassphrase }
        let license = LCPAuthenticatedLicense(document: document)
        var reason = LCPAuthenticationReason.passphraseNotFound
        for _ in 0..<max(1, maximumAttempts) {
            guard let passphrase = authentication.retrievePassphrase(for: license, reason: reason) else { break }
            let hash = BasicProfileLCPClient.hashPassphrase(passphrase)
            if client.findOneValidPassphrase(jsonLicense: json, hashedPassphrases: [hash]) != nil { return hash }
            reason = .invalidPassphrase
        }
        if reason == .invalidPassphrase { throw .wrongPassphrase(hint: document.encryption.userKey.textHint) }
        throw .missingPassphrase
    }
}
