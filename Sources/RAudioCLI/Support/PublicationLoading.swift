// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioPlayer
#if canImport(ReadiumLCP)
import ReadiumLCP
#endif
#if canImport(ReadiumOPDS)
import ReadiumOPDS
#endif
import ReadiumShared
import ReadiumStreamer

/// Opens the publication a command was given, turning failures into `CommandFailure`s.
enum PublicationLoading {
    /// - Parameter checksContentDocuments: false for commands that read the text through the content
    ///   service (which warns about a malformed document when it reaches it): opening then parses no
    ///   spine document up front (`PublicationOpener.checksContentDocuments`).
    ///
    /// `path` may be an `http(s)://` URL of a remote manifest; local manifests may name remote tracks. An LCP book
    /// is unlocked with `LCPSetup`'s passphrase; `opensLocked` shows one without its passphrase still protected
    /// (`raudio info`) instead of failing. `CATALOG-URL#ENTRY` opens the best link of an OPDS catalog's entry
    /// (`CatalogEntryOpening`): an EPUB first when `prefersText` (reading aloud), an audiobook first otherwise.
    static func open(path: String, checksContentDocuments: Bool = true, opensLocked: Bool = false, prefersText: Bool = false) throws(CommandFailure) -> Publication {
        var path = path
        #if canImport(ReadiumOPDS)
        if let target = try CatalogEntryOpening.target(for: path, prefersText: prefersText) { path = target }
        #endif
        let url: URL
        if Href.isRemote(path) {
            guard let remote = URL(string: path), remote.host != nil else {
                throw CommandFailure.usage("\(path): is not a valid URL")
            }
            url = remote
        } else {
            url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        }
        var opener = PublicationOpener(
            checksContentDocuments: checksContentDocuments, audioFileInspector: FFmpegAudioFileInspector(),
            remoteAccess: RemoteAccessSetup.access, languageIdentifier: TextCatLanguageIdentifier.shared
        )
        #if canImport(ReadiumLCP)
        opener.contentProtections = [LCPSetup.contentProtection(opensLocked: opensLocked)]
        #endif
        do {
            return try opener.open(url: url)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Writes each warning of `publication` to stderr, prefixed with `warning:`.
    static func reportWarnings(of publication: Publication) {
        for warning in publication.warnings {
            StandardStreams.printError("raudio: warning: \(warning)")
        }
    }
}
