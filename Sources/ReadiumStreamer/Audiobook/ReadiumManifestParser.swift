// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens publications described by a Readium Web Publication Manifest: audiobook packages
/// (`.audiobook`, `.lcpa`: a ZIP with `manifest.json`), exploded packages, and standalone manifests.
public struct ReadiumManifestParser: Sendable {
    /// The href of the manifest in a package.
    public static let manifestHref = "manifest.json"
    /// The href of an LCP license in a package.
    public static let licenseHref = "license.lcpl"
    /// The encryption scheme URI of Readium LCP.
    public static let lcpScheme = "http://readium.org/2014/01/lcp"

    /// The largest manifest read from a package or folder (a remote one is limited by `RemoteManifestLoader`).
    public static let maximumManifestSize = 32 * 1024 * 1024

    public init() {}

    /// Parses the manifest at `manifestHref` in `container`.
    public func parse(
        container: any Container, manifestHref: String = ReadiumManifestParser.manifestHref, format: PublicationFormat
    ) throws(OpeningError) -> Publication {
        let data: Data
        do {
            data = try container.resource(at: manifestHref).read(maximumSize: Self.maximumManifestSize)
        } catch {
            throw OpeningError(error)
        }
        // A standalone manifest is named by its own path; a packaged one by the package and its entry.
        let errorPath = format == .readiumManifest
            ? container.sourceURL.appendingPathComponent(manifestHref).path
            : "\(container.sourceURL.path): \(manifestHref)"
        return try parse(manifestData: data, container: container, manifestHref: manifestHref, format: format, errorPath: errorPath)
    }

    /// Parses `data`, the manifest at `manifestHref` in `container` (already read: a remote manifest);
    /// errors name `errorPath`.
    public func parse(
        manifestData data: Data, container: any Container, manifestHref: String, format: PublicationFormat, errorPath: String
    ) throws(OpeningError) -> Publication {
        let log = WarningLog()
        var manifest: Manifest
        do {
            manifest = try Manifest(jsonData: data, source: manifestHref, log: log)
        } catch {
            throw OpeningError(.badData, path: errorPath, message: error.message)
        }
        let fetchesRemoteHrefs = container is HTTPContainer || container is RemoteLinkContainer
        let packageEntries: Set<String> = format == .readiumManifest ? [] : Set(container.entries)
        var normalizer = ManifestHrefNormalizer(
            manifestHref: manifestHref, log: log, fetchesRemoteHrefs: fetchesRemoteHrefs, packageEntries: packageEntries)
        manifest = normalizer.normalize(manifest)
        let protection = Self.protection(of: manifest, in: container)
        var mediaType = format.mediaType
        if protection == .lcp {
            mediaType = .lcpProtectedAudiobook
        } else if format != .readiumManifest, !manifest.conformsToAudiobook {
            mediaType = .readiumWebPub
        } else if format == .readiumManifest, !manifest.conformsToAudiobook {
            mediaType = .readiumWebPubManifest
        }
        return Publication(
            manifest: manifest, container: container, mediaType: mediaType, protection: protection,
            warnings: log.warnings
        )
    }

    /// LCP when the package holds a license or a resource declares the LCP encryption scheme.
    static func protection(of manifest: Manifest, in container: any Container) -> Publication.Protection? {
        if container.entries.contains(licenseHref) { return .lcp }
        let links = manifest.readingOrder + manifest.resources
        let schemes = links.compactMap { $0.properties["encrypted"]?.objectValue?["scheme"]?.stringValue }
        if schemes.contains(lcpScheme) { return .lcp }
        return schemes.isEmpty ? nil : .unknown
    }
}
