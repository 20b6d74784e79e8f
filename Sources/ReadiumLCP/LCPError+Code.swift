// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import ReadiumStreamer

extension LCPError {
    /// The word programs read in an `error` event, and whose exit status docs/events.md gives.
    public var code: RAudioErrorCode {
        switch self {
        case .missingPassphrase, .licenseInteractionNotAvailable: .lcpPassphraseMissing
        case .wrongPassphrase: .lcpPassphraseWrong
        case .licenseStatus(.expired): .lcpLicenseExpired
        case .licenseStatus(.notYetValid): .lcpLicenseNotYetValid
        case .licenseStatus(.revoked): .lcpLicenseRevoked
        case .licenseStatus(.returned): .lcpLicenseReturned
        case .licenseStatus(.cancelled): .lcpLicenseCancelled
        case .licenseIntegrity(.certificateSignatureInvalid), .licenseIntegrity(.licenseSignatureInvalid),
            .licenseIntegrity(.licenseSignatureDateInvalid):
            .lcpSignatureInvalid
        case .licenseIntegrity(.certificateRevoked): .lcpCertificateRevoked
        case .licenseIntegrity(.userKeyCheckInvalid): .lcpPassphraseWrong
        case .licenseIntegrity(.licenseOutOfDate): .lcpLicenseExpired
        case .licenseIntegrity: .lcpLicenseInvalid
        case .licenseProfileNotSupported: .lcpProfileUnsupported
        case .crlFetching, .network: .lcpNetwork
        case .licenseRenew: .lcpRenewFailed
        case .licenseReturn: .lcpReturnFailed
        case .notALicenseDocument, .licenseIsBusy, .licenseContainer, .parsing, .runtime, .unknown: .lcpLicenseInvalid
        }
    }

    /// The opening error that reports this one about `path` (the book or licence file).
    public func openingError(path: String) -> OpeningError {
        OpeningError(code, path: path, message: description, cause: self)
    }
}
