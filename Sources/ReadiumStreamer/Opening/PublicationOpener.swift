// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Opens a publication from a local path, whatever its kind, recognizing it by content.
///
/// Accepts a Readium audiobook package (`.audiobook`, `.lcpa`; also misnamed), an exploded package
/// folder, a standalone RWPM manifest whose hrefs point to files beside it, an informal audiobook (a
/// ZIP or folder of audio files), a single audio file, W3C Audiobooks (`publication.json`, `.lpf`), EPUBs, and a lone HTML page or
/// text file (to read aloud). Errors name the path and say what
/// was wrong. A protected publication is unlocked by the first of `contentProtections` that handles it (its
/// resources then read in clear, `protection` is nil and `contentProtectionRights` tells the rights); without
/// one it still opens, its metadata readable, with `protection == .lcp`.
public struct PublicationOpener: Sendable {
    /// Whether EPUBs have every spine document parsed at opening to warn about those that are not
    /// well-formed (`EPUBParser.checksContentDocuments`). Readers that go through the content service,
    /// which warns about a document when it reaches it, turn it off: it costs a parse of the whole
    /// book before the first word (most of the opening time of a long book).
    public var checksContentDocuments: Bool
    /// Reads a lone audio file's tags, chapters and cover (raudio's reads them with FFmpeg); without
    /// one, a lone audio file is titled by its name and has no chapters.
    public var audioFileInspector: (any AudioFileInspector)?
    /// How remote manifests and `http(s)://` hrefs are fetched; without it, `open` reads local files
    /// only and remote hrefs of a manifest are kept with a warning.
    public var remoteAccess: RemoteAccess?

    /// What finds the language of EPUB content that declares none (`EPUBParser.languageIdentifier`).
    public var languageIdentifier: (any LanguageIdentifier)?

    /// The DRM schemes this opener unlocks (ReadiumLCP's `LCPContentProtection`); none by default.
    public var contentProtections: [any ContentProtection]

    public init(
        checksContentDocuments: Bool = true, audioFileInspector: (any AudioFileInspector)? = nil, remoteAccess: RemoteAccess? = nil,
        languageIdentifier: (any LanguageIdentifier)? = nil, contentProtections: [any ContentProtection] = []
    ) {
        self.checksContentDocuments = checksContentDocuments
        self.contentProtections = contentProtections
        self.languageIdentifier = languageIdentifier
        self.audioFileInspector = audioFileInspector
        self.remoteAccess = remoteAccess
    }

    /// Opens `url`: a local path, or with `remoteAccess` an `http(s)://` manifest URL. Blocks on file
    /// and network I/O; call it off the cooperative pool.
    public func open(url: URL) throws(OpeningError) -> Publication {
        if let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            guard let remoteAccess else {
                throw OpeningError(.unsupported, path: url.absoluteString, message: "is a remote URL, and this opener reads local files only")
            }
            // A remote package's documents are read when reached, not all at opening (a request each).
            var remote = self
            remote.checksContentDocuments = false
            return try RemoteManifestLoader(access: remoteAccess, audioFileInspector: audioFileInspector, languageIdentifier: languageIdentifier) { container throws(OpeningError) in
                try remote.open(container: container, kindDescription: "ZIP archive")
            }.open(url)
        }
        if let problem = PathLength.problem(url.path) {
            throw OpeningError(.nameTooLong, path: PathLength.abbreviated(url.path), message: problem)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw OpeningError(.notFound, path: url.path, message: "does not exist")
        }
        if isDirectory.boolValue {
            return try openFolder(url)
        }
        let header: Data
        do {
            header = try FileResource(url: url).read(range: 0..<UInt64(ContentSniffer.headerLength))
        } catch {
            throw OpeningError(error)
        }
        let kind = ContentSniffer.kind(of: header)
        switch kind {
        case .empty:
            throw OpeningError(.badData, path: url.path, message: "is an empty file, not a publication")
        case .zip:
            return try openZIP(url)
        case .json:
            return try openManifestFile(url)
        case .audio(let mediaType):
            return InformalAudiobookParser().parse(singleFile: url, mediaType: mediaType, inspector: audioFileInspector)
        case .html, .text:
            let isHTML = kind == .html
            let fileExtension = url.pathExtension.lowercased()
            guard !Self.packageOrAudioExtensions.contains(fileExtension) else {
                // Audio whose first kilobytes happen to be text (tags or junk before the first frame).
                if ContentSniffer.audioExtensions.contains(fileExtension), let audioFileInspector,
                   let mediaType = audioFileInspector.audioMediaType(lookingFurtherInto: FileResource(url: url)) {
                    return InformalAudiobookParser().parse(singleFile: url, mediaType: mediaType, inspector: audioFileInspector)
                }
                // An error page saved under the book's name is not the book to read aloud.
                throw OpeningError(
                    .badData, path: url.path,
                    message: "is not a publication raudio can open: it holds \(isHTML ? "an HTML page" : "text"), not the .\(fileExtension) file its name says (a download that failed?)"
                )
            }
            return try TextDocumentParser(languageIdentifier: languageIdentifier).parse(url: url, isHTML: isHTML)
        case .other:
            // Audio whose first bytes do not say so (an MP3 with junk before its first frame).
            if let audioFileInspector, let mediaType = audioFileInspector.audioMediaType(lookingFurtherInto: FileResource(url: url)) {
                return InformalAudiobookParser().parse(singleFile: url, mediaType: mediaType, inspector: audioFileInspector)
            }
            throw OpeningError(
                .badData, path: url.path,
                message: "is not a publication raudio can open (not a ZIP package, not a Readium manifest, not an audio file, not an HTML page or text)"
            )
        }
    }

    private func openFolder(_ url: URL) throws(OpeningError) -> Publication {
        let container: FolderContainer
        do {
            container = try FolderContainer(url: url)
        } catch {
            throw OpeningError(error)
        }
        return try open(container: container, kindDescription: "folder")
    }

    /// Whether the file's first bytes are audio (or, with an inspector, bytes further in): what a linked file must be.
    private func isAudioFile(_ url: URL) -> Bool {
        guard let header = try? FileResource(url: url).read(range: 0..<UInt64(ContentSniffer.headerLength)) else { return false }
        if case .audio = ContentSniffer.kind(of: header) { return true }
        return audioFileInspector?.audioMediaType(lookingFurtherInto: FileResource(url: url)) != nil
    }

    private func openZIP(_ url: URL) throws(OpeningError) -> Publication {
        let container: ZIPContainer
        do {
            container = try ZIPContainer(url: url)
        } catch {
            throw OpeningError(error)
        }
        // The audio `raudio align --link-audio` linked instead of copying in: a sidecar beside the package.
        let linked: LinkedAudio?
        do {
            linked = try LinkedAudio.load(besides: url)
        } catch {
            throw OpeningError(error)
        }
        if let linked {
            let linking: LinkedAudioContainer
            do {
                linking = try LinkedAudioContainer(base: container, linked: linked, packageURL: url) { file in isAudioFile(file) }
            } catch {
                throw OpeningError(error)
            }
            return try open(container: linking, kindDescription: "ZIP archive")
        }
        return try open(container: container, kindDescription: "ZIP archive")
    }

    /// Unlocks the container with the first content protection that handles it, then parses it.
    private func open(container: any Container, kindDescription: String) throws(OpeningError) -> Publication {
        for protection in contentProtections {
            if let asset = try protection.open(container: container, path: container.sourceURL.path) {
                return try parse(asset, kindDescription: kindDescription)
            }
        }
        return try parse(container: container, kindDescription: kindDescription)
    }

    /// Parses a protected asset's container; an unlocked one opens unprotected, with its rights in the extensions.
    private func parse(_ asset: ContentProtectedAsset, kindDescription: String) throws(OpeningError) -> Publication {
        let publication = try parse(container: asset.container, kindDescription: kindDescription)
        var extensions = publication.extensions
        extensions[ContentProtectedAsset.extensionKey] = asset.rights
        return Publication(
            manifest: publication.manifest, container: publication.container, mediaType: publication.mediaType,
            protection: asset.isUnlocked ? nil : publication.protection, warnings: publication.warnings,
            extensions: extensions)
    }

    /// Chooses the parser from what the container holds.
    private func parse(container: any Container, kindDescription: String) throws(OpeningError) -> Publication {
        let entries = Set(container.entries)
        if entries.contains(ReadiumManifestParser.manifestHref) {
            let hasLicense = entries.contains(ReadiumManifestParser.licenseHref)
            return try ReadiumManifestParser().parse(container: linkingRemoteHrefs(container), format: hasLicense ? .lcpProtectedPackage : .readiumPackage)
        }
        if entries.contains(W3CAudiobookParser.manifestHref) {
            return try W3CAudiobookParser().parse(
                container: container, manifestHref: W3CAudiobookParser.manifestHref,
                errorPath: "\(container.sourceURL.path): \(W3CAudiobookParser.manifestHref)", mediaType: .lpf
            )
        }
        if entries.contains("META-INF/container.xml") {
            return try EPUBOpening.parse(container: container, checksContentDocuments: checksContentDocuments, languageIdentifier: languageIdentifier)
        }
        if InformalAudiobookParser.hasAudio(container.entries) {
            return try InformalAudiobookParser().parse(container: container)
        }
        if entries.contains("mimetype") {
            throw OpeningError(.badData, path: container.sourceURL.path, message: "looks like an EPUB but has no META-INF/container.xml")
        }
        throw OpeningError(
            .badData, path: container.sourceURL.path,
            message: "is a \(kindDescription) with no publication in it (no manifest.json, no META-INF/container.xml, no audio file)"
        )
    }

    private func openManifestFile(_ url: URL) throws(OpeningError) -> Publication {
        let data: Data
        do {
            data = try FileResource(url: url).read()
        } catch {
            throw OpeningError(error)
        }
        if let object = try? JSONParser.parse(data).objectValue, Self.isLCPLicense(object) {
            for protection in contentProtections {
                if let asset = try protection.open(licenseAt: url, licenseData: data) {
                    return try parse(asset, kindDescription: "ZIP archive")
                }
            }
            throw OpeningError(
                .unsupported, path: url.path,
                message: "is an LCP license document, not a publication; it is protected by LCP, which raudio cannot decrypt yet"
            )
        }
        let folder: FolderContainer
        do {
            folder = try FolderContainer(url: url.deletingLastPathComponent())
        } catch {
            throw OpeningError(error)
        }
        if let object = try? JSONParser.parse(data).objectValue, W3CAudiobookParser.isW3CManifest(object) {
            return try W3CAudiobookParser().parse(container: folder, manifestHref: url.lastPathComponent, errorPath: url.path, mediaType: .w3cWPUBManifest)
        }
        return try ReadiumManifestParser().parse(container: linkingRemoteHrefs(folder), manifestHref: url.lastPathComponent, format: .readiumManifest)
    }

    /// `container`, with its manifest's `http(s)://` hrefs fetched over HTTP when `remoteAccess` is set.
    private func linkingRemoteHrefs(_ container: any Container) -> any Container {
        remoteAccess.map { RemoteLinkContainer(local: container, access: $0) } ?? container
    }

    /// Extensions of packages and audio files: a file named so that holds text or HTML is a broken one, not
    /// a page to read aloud.
    static let packageOrAudioExtensions: Set<String> = ContentSniffer.audioExtensions.union([
        "epub", "epub3", "audiobook", "lcpa", "lcpau", "lcpl", "zab", "lpf", "webpub", "zip", "json",
    ])

    /// An LCP license has `provider`, `encryption` and `links` but no `metadata`.
    static func isLCPLicense(_ object: JSONObject) -> Bool {
        object["metadata"] == nil && object["provider"] != nil && object["encryption"] != nil
    }
}

/// Opens EPUBs with `EPUBParser`, reporting its errors as opening errors.
enum EPUBOpening {
    static func parse(
        container: any Container, checksContentDocuments: Bool, languageIdentifier: (any LanguageIdentifier)? = nil
    ) throws(OpeningError) -> Publication {
        do {
            return try EPUBParser(checksContentDocuments: checksContentDocuments, languageIdentifier: languageIdentifier).parse(container: container)
        } catch {
            throw OpeningError(.badData, path: container.sourceURL.path, message: error.openingMessage)
        }
    }
}
