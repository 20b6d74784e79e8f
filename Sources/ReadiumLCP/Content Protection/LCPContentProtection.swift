// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// Unlocks LCP-protected packages for the `PublicationOpener` (Readium's `LCPContentProtection`): an `.lcpa` or
/// `.lcpdf` (Readium package with `license.lcpl`), an LCP EPUB (`META-INF/license.lcpl` and `encryption.xml`),
/// and an `.lcpl` whose publication is already on this machine.
///
/// The licence is opened by `service` (passphrase, signature, rights); the container returned decrypts the
/// resources the package lists as encrypted, by the blocks each read needs.
public struct LCPContentProtection: ContentProtection {
    public var service: LCPService
    public var authentication: (any LCPAuthenticating)?
    /// When no passphrase is known or can be asked, or the licence is refused for another reason than a wrong
    /// passphrase (signature, dates, profile), open the package locked (its metadata and the licence's rights
    /// readable, nothing decrypted, the refusal in `LCPLicense.refusal`) instead of failing: what `raudio info`
    /// wants.
    public var opensLockedWithoutPassphrase: Bool
    /// Opens the publication a licence links to when it is not on this machine (streaming it over HTTP); nil
    /// when there is none (the CLI's network half sets it). Given the link and the licence file's URL.
    public var remotePublication: (@Sendable (LicenseDocument.Link, URL) throws(OpeningError) -> (any Container)?)?

    public init(
        service: LCPService = LCPService(), authentication: (any LCPAuthenticating)? = nil,
        opensLockedWithoutPassphrase: Bool = false
    ) {
        self.service = service
        self.authentication = authentication
        self.opensLockedWithoutPassphrase = opensLockedWithoutPassphrase
    }

    static let epubLicenseHref = "META-INF/license.lcpl"
    static let packageLicenseHref = "license.lcpl"
    static let maximumLicenseSize = 1024 * 1024
    /// Extensions of packages a licence's publication may be saved as beside it.
    static let packageExtensions = ["lcpa", "epub", "lcpdf", "lcpau", "audiobook", "webpub", "zip"]

    public func open(container: any Container, path: String) throws(OpeningError) -> ContentProtectedAsset? {
        let entries = Set(container.entries)
        let licenseHref: String
        if entries.contains(Self.epubLicenseHref) {
            licenseHref = Self.epubLicenseHref
        } else if entries.contains(Self.packageLicenseHref) {
            licenseHref = Self.packageLicenseHref
        } else {
            return nil
        }
        let data: Data
        do {
            data = try container.resource(at: licenseHref).read(maximumSize: Self.maximumLicenseSize)
        } catch {
            throw OpeningError(.lcpLicenseInvalid, path: path, message: "\(licenseHref): \(error.message)", cause: error)
        }
        return try open(container: container, licenseData: data, licenseSource: "\(path): \(licenseHref)", path: path)
    }

    public func open(licenseAt url: URL, licenseData: Data) throws(OpeningError) -> ContentProtectedAsset? {
        let document: LicenseDocument
        do {
            document = try LicenseDocument(data: licenseData, source: url.path)
        } catch {
            throw error.openingError(path: url.path)
        }
        if let local = localPublication(of: document, licenseURL: url) {
            let container: ZIPContainer
            do {
                container = try ZIPContainer(url: local)
            } catch {
                throw OpeningError(error)
            }
            return try open(container: container, licenseData: licenseData, licenseSource: url.path, path: local.path)
        }
        guard let link = document.link("publication") else {
            throw OpeningError(.lcpLicenseInvalid, path: url.path, message: "is an LCP licence with no publication link")
        }
        if let remotePublication, let container = try remotePublication(link, url) {
            return try open(container: container, licenseData: licenseData, licenseSource: url.path, path: url.path)
        }
        let names = Self.packageExtensions.map { "\(document.id).\($0)" }.prefix(2).joined(separator: ", ")
        throw OpeningError(
            .publicationUnavailable, path: url.path,
            message: "is an LCP licence whose publication (\(link.href)) is not on this machine: "
                + "put it beside the licence (named like the licence, or \(names), ...) or download it first")
    }

    /// Unlocks `container` with the licence `licenseData` (which may be newer than the one inside); nil when the
    /// package is to be shown locked and its licence cannot even be read (it then opens as protected, no rights).
    func open(
        container: any Container, licenseData: Data, licenseSource: String, path: String
    ) throws(OpeningError) -> ContentProtectedAsset? {
        let license: LCPLicense
        do {
            license = try service.retrieveLicense(data: licenseData, source: licenseSource, authentication: authentication)
        } catch {
            switch error {
            case .missingPassphrase, .licenseInteractionNotAvailable:
                guard opensLockedWithoutPassphrase else { throw error.openingError(path: path) }
                return try lockedAsset(container: container, licenseData: licenseData, licenseSource: licenseSource, path: path)
            case .licenseIntegrity, .licenseStatus, .licenseProfileNotSupported:
                guard opensLockedWithoutPassphrase else { throw error.openingError(path: path) }
                return try lockedAsset(
                    container: container, licenseData: licenseData, licenseSource: licenseSource, path: path, refusal: error)
            case .parsing, .notALicenseDocument:
                guard opensLockedWithoutPassphrase else { throw error.openingError(path: path) }
                return nil
            default:
                throw error.openingError(path: path)
            }
        }
        guard let decryptor = license.decryptor else {
            throw OpeningError(.lcpLicenseInvalid, path: path, message: "the LCP licence did not open")
        }
        let encryption = try encryptionMap(of: container, path: path)
        return ContentProtectedAsset(
            container: LCPDecryptingContainer(base: container, encryption: encryption, decryptor: decryptor),
            isUnlocked: true, rights: license)
    }

    private func lockedAsset(
        container: any Container, licenseData: Data, licenseSource: String, path: String, refusal: LCPError? = nil
    ) throws(OpeningError) -> ContentProtectedAsset {
        do {
            var license = try service.inspectLicense(data: licenseData, source: licenseSource)
            license.refusal = refusal
            // Its encrypted resources refuse to be read rather than give their encrypted bytes out.
            let encryption = (try? encryptionMap(of: container, path: path)) ?? LCPEncryptionMap()
            return ContentProtectedAsset(
                container: LCPLockedContainer(base: container, encryption: encryption), isUnlocked: false, rights: license)
        } catch {
            throw error.openingError(path: path)
        }
    }

    /// What `container` says is encrypted: `META-INF/encryption.xml` of an EPUB, else the Readium manifest.
    func encryptionMap(of container: any Container, path: String) throws(OpeningError) -> LCPEncryptionMap {
        let entries = Set(container.entries)
        do {
            if entries.contains("META-INF/encryption.xml") {
                let data = try container.resource(at: "META-INF/encryption.xml").read(maximumSize: 16 * 1024 * 1024)
                return try LCPEncryptionMap.epub(encryptionXML: data, source: path)
            }
            if entries.contains(ReadiumManifestParser.manifestHref) {
                let data = try container.resource(at: ReadiumManifestParser.manifestHref)
                    .read(maximumSize: ReadiumManifestParser.maximumManifestSize)
                return LCPEncryptionMap.readium(
                    manifest: data, manifestHref: ReadiumManifestParser.manifestHref, entries: entries)
            }
        } catch let error as ResourceError {
            throw OpeningError(error)
        } catch let error as LCPError {
            throw error.openingError(path: path)
        } catch {
            throw OpeningError(.lcpLicenseInvalid, path: path, message: "\(error)")
        }
        return LCPEncryptionMap()
    }

    /// The package a licence's publication was saved as on this machine: the `publication` link when it is a
    /// `file:` URL or a relative path, else a file beside the licence named like it or after the licence id.
    func localPublication(of document: LicenseDocument, licenseURL: URL) -> URL? {
        let folder = licenseURL.deletingLastPathComponent()
        var candidates: [URL] = []
        if let href = document.link("publication")?.href {
            if let url = URL(string: href), url.isFileURL {
                candidates.append(url)
            } else if !Href.isRemote(href), Href.scheme(of: href) == nil, !href.isEmpty {
                candidates.append(folder.appendingPathComponent(href))
            }
        }
        let stem = licenseURL.deletingPathExtension().lastPathComponent
        for name in [stem, document.id] {
            for fileExtension in Self.packageExtensions {
                candidates.append(folder.appendingPathComponent("\(name).\(fileExtension)"))
            }
        }
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
