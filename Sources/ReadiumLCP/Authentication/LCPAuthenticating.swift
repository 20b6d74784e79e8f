// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// How a passphrase is obtained when none stored opens a licence (Readium's `LCPAuthenticating`): a prompt
/// without echo on a terminal, a file (`--passphrase-file`), an app's dialog.
public protocol LCPAuthenticating: Sendable {
    /// The passphrase for `license`, or nil when the user gives none (cancelled, no terminal).
    ///
    /// `reason` says whether this is the first question or a retry after a wrong one. The passphrase returned is
    /// hashed at once and never stored, logged or put in an event.
    func retrievePassphrase(for license: LCPAuthenticatedLicense, reason: LCPAuthenticationReason) -> String?
}

/// Why a passphrase is asked for.
public enum LCPAuthenticationReason: Sendable, Equatable {
    /// No stored passphrase opens the licence.
    case passphraseNotFound
    /// The passphrase given before was wrong.
    case invalidPassphrase
}

/// What a passphrase prompt may show of a licence before it is opened: its hint, provider and user.
public struct LCPAuthenticatedLicense: Sendable {
    public let document: LicenseDocument

    public var hint: String { document.encryption.userKey.textHint }
    /// The `hint` link: a page of the provider's that helps find the passphrase.
    public var hintLink: String? { document.link("hint")?.href }
    public var provider: String { document.provider }
    /// The user's id when it is not encrypted.
    public var user: String? { document.user.encrypted.contains("id") ? nil : document.user.id }
}

/// Gives a passphrase read once (from `--passphrase-file`): asked a second time, after it was wrong, it has
/// nothing more to give.
public struct LCPFixedPassphrase: LCPAuthenticating {
    let passphrase: String

    public init(_ passphrase: String) {
        self.passphrase = passphrase
    }

    public func retrievePassphrase(for license: LCPAuthenticatedLicense, reason: LCPAuthenticationReason) -> String? {
        reason == .passphraseNotFound ? passphrase : nil
    }
}
