// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens a publication from its remote manifest (`https://host/book/manifest.json`): a Readium Web
/// Publication Manifest or a W3C Audiobooks manifest (`publication.json`), whose resources are fetched
/// over HTTP, relative to the manifest's URL.
struct RemoteManifestLoader {
    /// Manifests are small; anything larger is refused rather than held in memory.
    static let maximumBytes = 8 * 1024 * 1024
    /// A manifest is fetched before anything plays: retry briefly, then say what is wrong.
    static let retryDelays = [0.25, 0.5]

    let access: RemoteAccess

    func open(_ url: URL) throws(OpeningError) -> Publication {
        let address = url.absoluteString
        var briefly = access
        briefly.retryDelays = Self.retryDelays
        let fetched: (data: Data, url: String)
        do {
            fetched = try RemoteDocument.fetch(url: address, access: briefly, maximumBytes: Self.maximumBytes)
        } catch {
            throw OpeningError(error)
        }
        guard let object = try? JSONParser.parse(fetched.data).objectValue else {
            throw OpeningError(.badData, path: address, message: "is not a Readium manifest (not a JSON object); raudio streams Readium Web Publication Manifests")
        }
        if PublicationOpener.isLCPLicense(object) {
            throw OpeningError(.unsupported, path: address, message: "is an LCP license document, not a publication; it is protected by LCP, which raudio cannot decrypt yet")
        }
        let manifestURL = URL(string: fetched.url) ?? url
        let container = HTTPContainer(manifestURL: manifestURL, access: access)
        if W3CAudiobookParser.isW3CManifest(object) {
            return try W3CAudiobookParser().parse(
                manifestData: fetched.data, container: container,
                manifestHref: manifestURL.lastPathComponent.isEmpty ? W3CAudiobookParser.manifestHref : manifestURL.lastPathComponent,
                errorPath: address, mediaType: .w3cWPUBManifest
            )
        }
        return try ReadiumManifestParser().parse(
            manifestData: fetched.data, container: container, manifestHref: manifestURL.lastPathComponent.isEmpty ? "manifest.json" : manifestURL.lastPathComponent,
            format: .readiumManifest, errorPath: address
        )
    }
}
