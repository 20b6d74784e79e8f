// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens a publication from its remote manifest (`https://host/book/manifest.json`): a Readium Web
/// Publication Manifest or a W3C Audiobooks manifest (`publication.json`), whose resources are fetched
/// over HTTP, relative to the manifest's URL; from one remote audio file (`https://host/book.m4b`),
/// recognized by its first bytes and streamed as a one-track book; or from a remote ZIP package (an
/// `.audiobook`, an EPUB), read in place with range requests (`ZIPContainer(remote:access:)`).
struct RemoteManifestLoader {
    /// Manifests are small; anything larger is refused rather than held in memory.
    static let maximumBytes = 8 * 1024 * 1024
    /// A manifest is fetched before anything plays: retry briefly, then say what is wrong.
    static let retryDelays = [0.25, 0.5]

    let access: RemoteAccess
    /// Reads the tags, chapters and cover of a URL that is one audio file.
    var audioFileInspector: (any AudioFileInspector)?
    /// Opens the container of a URL that is a ZIP package (an `.audiobook`, an EPUB), as a local package is.
    var openPackage: (any Container) throws(OpeningError) -> Publication

    func open(_ url: URL) throws(OpeningError) -> Publication {
        let address = url.absoluteString
        var briefly = access
        briefly.retryDelays = Self.retryDelays
        let fetched: (data: Data, url: String)
        do {
            // Only a manifest is read whole: past its first bytes, anything else is recognized and left unread.
            fetched = try RemoteDocument.fetch(url: address, access: briefly, maximumBytes: Self.maximumBytes) { head in
                ContentSniffer.kind(of: head) == .json || head.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
            }
        } catch {
            throw OpeningError(error)
        }
        // The URL that served it, after redirects.
        let servedURL = URL(string: fetched.url) ?? url
        guard let object = try? JSONParser.parse(fetched.data).objectValue else {
            let kind = ContentSniffer.kind(of: fetched.data.prefix(ContentSniffer.headerLength))
            if case .audio(let mediaType) = kind {
                return InformalAudiobookParser().parse(remoteFile: servedURL, mediaType: mediaType, access: access, inspector: audioFileInspector)
            }
            if kind == .zip {
                let container: ZIPContainer
                do {
                    container = try ZIPContainer(remote: servedURL, access: access)
                } catch {
                    throw OpeningError(error)
                }
                return try openPackage(container)
            }
            throw Self.notAManifest(address, kind: kind)
        }
        if PublicationOpener.isLCPLicense(object) {
            throw OpeningError(.unsupported, path: address, message: "is an LCP license document, not a publication; it is protected by LCP, which raudio cannot decrypt yet")
        }
        let manifestURL = servedURL
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

    /// Why what `address` served cannot be opened: what it is, and what to do instead.
    static func notAManifest(_ address: String, kind: ContentSniffer.Kind) -> OpeningError {
        let what = kind == .html
            ? "is a web page, not a publication (the page about a book, not its manifest or audio file?)"
            : "is not a Readium manifest (not a JSON object), a package nor an audio file; raudio streams manifests, ZIP packages and audio files"
        return OpeningError(.badData, path: address, message: what)
    }
}
