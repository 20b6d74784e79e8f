// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// What kind of publication a file or folder holds, recognized by content rather than by extension.
public enum PublicationFormat: String, Sendable, CaseIterable {
    /// A standalone RWPM manifest (`manifest.json`, `*.json`) whose hrefs point to files beside it.
    case readiumManifest = "readium-manifest"
    /// A ZIP (or folder) with `manifest.json` at its root: `.audiobook`, `.webpub`.
    case readiumPackage = "readium-package"
    /// A Readium package protected by LCP (`license.lcpl` inside): `.lcpa`, `.lcpdf`.
    case lcpProtectedPackage = "lcp-package"
    /// An LCP license document alone (`.lcpl`): it points to a publication, it is not one.
    case lcpLicense = "lcp-license"
    /// An EPUB (ZIP or exploded folder with `META-INF/container.xml`).
    case epub
    /// An informal audiobook: a ZIP (`.zab`) or folder of audio files, no manifest.
    case informalAudiobook = "informal-audiobook"
    /// One audio file.
    case audioFile = "audio-file"
    /// One HTML or XHTML page, read aloud like an EPUB's document.
    case htmlDocument = "html-document"
    /// One plain text file, read aloud a paragraph at a time.
    case textDocument = "text-document"

    /// The media type reported for a publication of this format.
    public var mediaType: MediaType {
        switch self {
        case .readiumManifest: .readiumAudiobookManifest
        case .readiumPackage: .readiumAudiobook
        case .lcpProtectedPackage: .lcpProtectedAudiobook
        case .lcpLicense: .lcpLicenseDocument
        case .epub: .epub
        case .informalAudiobook: .zab
        case .audioFile: .mp3
        case .htmlDocument: .html
        case .textDocument: .text
        }
    }
}
