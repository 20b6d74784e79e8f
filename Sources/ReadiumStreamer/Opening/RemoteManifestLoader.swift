// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens a publication from its remote manifest (`https://host/book/manifest.json`): a Readium Web
/// Publication Manifest or a W3C Audiobooks manifest (`publication.json`), whose resources are fetched
/// over HTTP, relative to the manifest's URL; from one remote audio file (`https://host/book.m4b`),
/// recognized by its first bytes and streamed as a one-track book; or from a remote ZIP package (an
/// `.audiobook`, an EPUB), read in place with range requests (`ZIPContainer(remote:access:)`); or from a web
/// page or text file (`https://host/article.html`, a Project Gutenberg `.txt`), fetched whole and read aloud
/// as a local one (`TextDocumentParser`).
struct RemoteManifestLoader {
    /// Manifests are small; anything larger is refused rather than held in memory.
    static let maximumBytes = 8 * 1024 * 1024
    /// A manifest is fetched before anything plays: retry briefly, then say what is wrong.
    static let retryDelays = [0.25, 0.5]
    /// What is read of anything but a manifest to recognize it; a shorter answer was read whole.
    static let headLength = 4096

    let access: RemoteAccess
    /// Reads the tags, chapters and cover of a URL that is one audio file.
    var audioFileInspector: (any AudioFileInspector)?
    /// What finds the language of a page or text that declares none.
    var languageIdentifier: (any LanguageIdentifier)?
    /// Opens the container of a URL that is a ZIP package (an `.audiobook`, an EPUB), as a local package is.
    var openPackage: (any Container) throws(OpeningError) -> Publication

    func open(_ url: URL) throws(OpeningError) -> Publication {
        let address = url.absoluteString
        var briefly = access
        briefly.retryDelays = Self.retryDelays
        let fetched: (data: Data, url: String)
        do {
            // Only a manifest is read whole: past its first bytes, anything else is recognized and left unread.
            fetched = try RemoteDocument.fetch(url: address, access: briefly, maximumBytes: Self.maximumBytes, headLength: Self.headLength) { head in
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
            if kind == .html || kind == .text {
                // Its href is its URL without a fragment (`page.html#Plot` is the page).
                var page = URLComponents(url: servedURL, resolvingAgainstBaseURL: false)
                page?.fragment = nil
                return try openDocument(page?.url ?? servedURL, isHTML: kind == .html, address: address,
                                        whole: fetched.data.count < Self.headLength ? fetched.data : nil)
            }
            throw Self.notAManifest(address)
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

    /// A web page or text file, fetched whole (as large as a local one may be; `whole` when the first answer
    /// was all of it) and read from memory. One served under a package's or an audio file's name is an error
    /// page, not the book: refused, naming it.
    private func openDocument(_ url: URL, isHTML: Bool, address: String, whole: Data?) throws(OpeningError) -> Publication {
        let fileExtension = url.pathExtension.lowercased()
        guard !PublicationOpener.packageOrAudioExtensions.contains(fileExtension) else {
            throw OpeningError(
                .badData, path: address,
                message: "is \(isHTML ? "a web page" : "text"), not the .\(fileExtension) file its name says (a page about the book, or an error page?)"
            )
        }
        var data = whole ?? Data()
        if whole == nil {
            do {
                data = try RemoteDocument.fetch(url: url.absoluteString, access: access, maximumBytes: XMLDocument.defaultMaximumSize,
                                                what: isHTML ? "a web page to read" : "a text to read").data
            } catch {
                throw OpeningError(error)
            }
        }
        return try TextDocumentParser(languageIdentifier: languageIdentifier).parse(remote: url, data: data, access: access, isHTML: isHTML)
    }

    /// Why what `address` served cannot be opened: what it is, and what to do instead.
    static func notAManifest(_ address: String) -> OpeningError {
        OpeningError(.badData, path: address, message: "is not a Readium manifest (not a JSON object), a package, an audio file, a web page nor text; raudio streams manifests, ZIP packages and audio files, and reads pages and text aloud")
    }
}
