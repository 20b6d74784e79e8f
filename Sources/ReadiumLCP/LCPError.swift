// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// What can go wrong with an LCP licence or publication, with Readium's case names (swift-toolkit `LCPError`).
///
/// Every case that a user can meet carries what the message needs: the dates of a licence out of its rights,
/// the profile nobody can read, the file or href. `description` is the one place they turn into text.
public enum LCPError: Error, Sendable, Equatable {
    /// No passphrase was given and none stored matches the licence.
    case missingPassphrase
    /// The passphrase given (or every one stored) fails the licence's key check.
    case wrongPassphrase(hint: String?)
    /// The file is not an LCP licence document (`.lcpl`).
    case notALicenseDocument(String)
    /// Another licence operation is running.
    case licenseIsBusy
    /// The licence's integrity check failed (signature, certificate, key check, dates): the client's verdict.
    case licenseIntegrity(LCPClientError)
    /// The licence's status or rights forbid reading now.
    case licenseStatus(StatusError)
    /// The licence cannot be read from or written to its container.
    case licenseContainer(ContainerError)
    /// A passphrase is needed but nobody can be asked (no terminal, no file, nothing stored).
    case licenseInteractionNotAvailable
    /// The licence's encryption profile has no client here: an app must supply a certified `LCPClient`.
    case licenseProfileNotSupported(profile: String)
    case licenseRenew(RenewError)
    case licenseReturn(ReturnError)
    /// The certificate revocation list could not be fetched.
    case crlFetching
    case parsing(ParsingError)
    /// A network fetch failed (status document, licence, publication).
    case network(String)
    case runtime(String)
    case unknown(String)

    /// Why a licence's status or rights refuse it; Readium's `StatusError`.
    public enum StatusError: Sendable, Equatable {
        case cancelled(Date)
        case returned(Date)
        /// Out of its rights' period: `start` in the future or `end` past. Either may be unknown.
        case expired(start: Date?, end: Date?)
        case revoked(Date, devicesCount: Int)
        /// Readium has no such case (it folds it into `expired`); raudio tells "not yet valid" apart.
        case notYetValid(start: Date, end: Date?)
    }

    public enum RenewError: Sendable, Equatable {
        case renewFailed
        case invalidRenewalPeriod(maxRenewDate: Date?)
        case unexpectedServerError(String)
    }

    public enum ReturnError: Sendable, Equatable {
        case returnFailed
        case alreadyReturnedOrExpired
        case unexpectedServerError(String)
    }

    public enum ParsingError: Sendable, Equatable {
        case malformedJSON(String)
        case licenseDocument(String)
        case statusDocument(String)
        case link(String)
        case encryption(String)
        case signature(String)
        case url(rel: String)
    }

    public enum ContainerError: Sendable, Equatable {
        case openFailed(String)
        case fileNotFound(String)
        case readFailed(path: String)
        case writeFailed(path: String)
    }
}

extension LCPError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .missingPassphrase:
            return "the LCP passphrase is needed (--passphrase-file FILE, a terminal prompt, or a stored passphrase)"
        case .wrongPassphrase(let hint):
            let hintText = hint.map { " (hint: \($0))" } ?? ""
            return "the LCP passphrase is wrong\(hintText)"
        case .notALicenseDocument(let source):
            return "\(source) is not an LCP licence document"
        case .licenseIsBusy:
            return "another operation on this LCP licence is running"
        case .licenseIntegrity(let error):
            return "the LCP licence fails its integrity check: \(error)"
        case .licenseStatus(let status):
            return status.description
        case .licenseContainer(let error):
            return "the LCP licence's container: \(error)"
        case .licenseInteractionNotAvailable:
            return "the LCP passphrase is needed and there is no terminal to ask it on (use --passphrase-file FILE)"
        case .licenseProfileNotSupported(let profile):
            return "the LCP licence uses the encryption profile \(profile), which only a certified LCP client reads: "
                + "an app must supply its own LCPClient (raudio's open client reads http://readium.org/lcp/basic-profile)"
        case .licenseRenew(let error):
            return "the LCP loan could not be renewed: \(error)"
        case .licenseReturn(let error):
            return "the LCP loan could not be returned: \(error)"
        case .crlFetching:
            return "the LCP certificate revocation list could not be fetched"
        case .parsing(let error):
            return "the LCP document is malformed: \(error)"
        case .network(let message):
            return "LCP network error: \(message)"
        case .runtime(let message), .unknown(let message):
            return message
        }
    }
}

extension LCPError.StatusError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cancelled(let date): "the LCP licence was cancelled on \(LCPDate.format(date))"
        case .returned(let date): "the LCP loan was returned on \(LCPDate.format(date))"
        case .expired(let start, let end):
            "the LCP licence expired on \(end.map(LCPDate.format) ?? "an unknown date")"
                + (start.map { " (valid from \(LCPDate.format($0)))" } ?? "")
        case .revoked(let date, let devicesCount):
            "the LCP licence was revoked on \(LCPDate.format(date)) after \(devicesCount) device(s) registered"
        case .notYetValid(let start, let end):
            "the LCP licence is not valid before \(LCPDate.format(start))"
                + (end.map { " (valid until \(LCPDate.format($0)))" } ?? "")
        }
    }
}

extension LCPError.RenewError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .renewFailed: "the server refused the renewal"
        case .invalidRenewalPeriod(let date):
            "the renewal period is invalid" + (date.map { " (latest possible end: \(LCPDate.format($0)))" } ?? "")
        case .unexpectedServerError(let message): "unexpected server error: \(message)"
        }
    }
}

extension LCPError.ReturnError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .returnFailed: "the server refused the return"
        case .alreadyReturnedOrExpired: "the loan is already returned or expired"
        case .unexpectedServerError(let message): "unexpected server error: \(message)"
        }
    }
}

extension LCPError.ParsingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformedJSON(let where_): "malformed JSON in \(where_)"
        case .licenseDocument(let message): "licence document: \(message)"
        case .statusDocument(let message): "status document: \(message)"
        case .link(let message): "link: \(message)"
        case .encryption(let message): "encryption: \(message)"
        case .signature(let message): "signature: \(message)"
        case .url(let rel): "the link \(rel) has no valid URL"
        }
    }
}

extension LCPError.ContainerError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .openFailed(let path): "cannot open \(path)"
        case .fileNotFound(let path): "\(path) not found"
        case .readFailed(let path): "cannot read \(path)"
        case .writeFailed(let path): "cannot write \(path)"
        }
    }
}
