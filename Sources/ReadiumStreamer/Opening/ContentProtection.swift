// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A DRM scheme the opener can unlock (Readium's `ContentProtection`): given a protected package's container,
/// it checks the rights and returns a container whose resources read in clear.
///
/// `PublicationOpener.contentProtections` lists them; ReadiumLCP's `LCPContentProtection` is the one raudio has.
public protocol ContentProtection: Sendable {
    /// Unlocks `container` when this scheme protects it (nil when it does not); errors name `path`.
    func open(container: any Container, path: String) throws(OpeningError) -> ContentProtectedAsset?

    /// Opens what the licence file at `url` (an `.lcpl`) links to, unlocked; nil when `url` is not this scheme's.
    func open(licenseAt url: URL, licenseData: Data) throws(OpeningError) -> ContentProtectedAsset?
}

/// A protected package as a content protection opened it.
public struct ContentProtectedAsset: Sendable {
    /// The container to parse: decrypting when unlocked, the package itself when not.
    public var container: any Container
    /// Whether `container` reads in clear; a locked asset still shows its metadata and rights (`raudio info`).
    public var isUnlocked: Bool
    /// The scheme's record of the rights (ReadiumLCP's `LCPLicense`), put in `Publication.extensions`.
    public var rights: any Sendable

    /// The key of `rights` in `Publication.extensions`.
    public static let extensionKey = "contentProtection"

    public init(container: any Container, isUnlocked: Bool, rights: any Sendable) {
        self.container = container
        self.isUnlocked = isUnlocked
        self.rights = rights
    }
}

extension Publication {
    /// What the content protection that opened this publication says of its rights (an `LCPLicense`), if any.
    public var contentProtectionRights: (any Sendable)? { extensions[ContentProtectedAsset.extensionKey] }
}
