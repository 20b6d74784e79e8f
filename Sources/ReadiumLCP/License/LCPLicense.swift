// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// An opened licence: its document, the user in clear, its rights and status, and (once a passphrase opened
/// it) what decrypts the publication. Readium's `LCPLicense`.
///
/// A licence shown without its passphrase (`raudio info` of a book whose passphrase is not known) has no
/// `decryptor`: its rights, dates, provider and hint are readable, its encrypted user fields are not.
public struct LCPLicense: Sendable {
    public let document: LicenseDocument
    /// `document.user` with the fields of `user.encrypted` decrypted (those that could not be are nil).
    public let user: LicenseDocument.User
    /// Decrypts the publication's resources; nil while the licence is locked.
    public let decryptor: LCPContentDecryptor?
    /// What the status document says, or `.unknownOffline` when none was fetched.
    public let status: LCPStatusSummary
    /// Why a licence shown locked could not be opened (bad signature, out of its dates, a profile without a
    /// client); nil when it is merely waiting for its passphrase, or open.
    public var refusal: LCPError?

    public init(
        document: LicenseDocument, user: LicenseDocument.User, decryptor: LCPContentDecryptor?,
        status: LCPStatusSummary = .unknownOffline
    ) {
        self.document = document
        self.user = user
        self.decryptor = decryptor
        self.status = status
    }

    public var isUnlocked: Bool { decryptor != nil }
    public var rights: LicenseDocument.Rights { document.rights }
    public var provider: String { document.provider }
    public var hint: String { document.encryption.userKey.textHint }
    public var profile: String { document.encryption.profile }
    public var issued: Date { document.issued }
    public var updated: Date? { document.updated }

    /// Characters that may still be copied; nil when unlimited. What was copied is counted by the `copy` right's
    /// keeper (issue 48's network half); until then the licence's own figure.
    public var charactersToCopyLeft: Int? { document.rights.copy }
    /// Pages that may still be printed; nil when unlimited. raudio prints nothing.
    public var pagesToPrintLeft: Int? { document.rights.print }

    /// Whether the status document offers a renewal (`renew` link).
    public var canRenewLoan: Bool { status.renewLink != nil }
    /// Whether the status document offers a return (`return` link).
    public var canReturnPublication: Bool { status.returnLink != nil }
}

/// What a licence's status document says, reduced to what raudio shows and acts on (LCP License Status
/// Document). Filled by an `LCPStatusChecking`; without one, `.unknownOffline`.
public struct LCPStatusSummary: Sendable, Equatable {
    /// `ready`, `active`, `revoked`, `returned`, `cancelled`, `expired`, or `unknown` when not fetched.
    public var status: String
    public var updated: Date?
    public var message: String?
    public var renewLink: String?
    public var returnLink: String?
    /// The latest end a renewal may reach (`potential_rights.end`).
    public var potentialRightsEnd: Date?
    public var devicesCount: Int?

    public init(
        status: String, updated: Date? = nil, message: String? = nil, renewLink: String? = nil,
        returnLink: String? = nil, potentialRightsEnd: Date? = nil, devicesCount: Int? = nil
    ) {
        self.status = status
        self.updated = updated
        self.message = message
        self.renewLink = renewLink
        self.returnLink = returnLink
        self.potentialRightsEnd = potentialRightsEnd
        self.devicesCount = devicesCount
    }

    /// No status document was fetched (network fetches off, or none reachable).
    public static let unknownOffline = LCPStatusSummary(status: "unknown", message: "not fetched (offline)")
}

/// Fetches a licence's status document (and a newer licence it links): the network half of LCP, supplied to
/// `LCPService`. It must never block playback for long when offline; a status that forbids reading throws
/// `LCPError.licenseStatus`.
public protocol LCPStatusChecking: Sendable {
    /// The status of `document`, and the newer licence the status points to when there is one (written back
    /// into the package by the checker).
    func check(_ document: LicenseDocument, source: String) throws(LCPError)
        -> (status: LCPStatusSummary, updatedDocument: LicenseDocument?)
}
