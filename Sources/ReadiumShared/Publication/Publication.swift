// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// An opened publication: its manifest, the container its resources are read from, and what was
/// noticed while opening it.
///
/// Made by the streamer (`PublicationOpener`) for audiobooks, EPUBs and folders of audio files alike;
/// navigators read everything through it. Safe to share between threads and actors.
public final class Publication: Sendable {
    public let manifest: Manifest
    /// Where the resources are read from.
    public let container: any Container
    /// The media type of the publication as opened (`application/audiobook+zip`, `application/epub+zip`...).
    public let mediaType: MediaType
    /// The DRM protecting the publication, if any; such a publication cannot be played yet.
    public let protection: Protection?
    /// Mistakes in the publication that were worked around while opening it.
    public let warnings: [ParsingWarning]
    /// Format-specific data the parsers attach (EPUB media overlays, ...), by key.
    public let extensions: [String: any Sendable]

    /// A DRM scheme detected on a publication.
    public enum Protection: String, Sendable {
        /// Readium LCP (`license.lcpl`, resources encrypted with `http://readium.org/2014/01/lcp`).
        case lcp
        /// Audible's DRM: an `.aa` file, or an AAX/AAXC (MP4 brand `aax `/`aaxc`, `aavd` sample entries).
        case audible
        /// Apple FairPlay: MP4 audio in encrypted `drms`/`enca` sample entries.
        case fairPlay
        /// Another DRM (Adobe ADEPT, an unknown encryption algorithm, ...).
        case unknown

        /// The scheme's name in messages: "LCP", "Audible DRM", "FairPlay DRM", "an unknown DRM".
        public var name: String {
            switch self {
            case .lcp: "LCP"
            case .audible: "Audible DRM"
            case .fairPlay: "FairPlay DRM"
            case .unknown: "an unknown DRM"
            }
        }
    }

    public init(
        manifest: Manifest, container: any Container, mediaType: MediaType, protection: Protection? = nil,
        warnings: [ParsingWarning] = [], extensions: [String: any Sendable] = [:]
    ) {
        self.manifest = manifest
        self.container = container
        self.mediaType = mediaType
        self.protection = protection
        self.warnings = warnings
        self.extensions = extensions
    }

    public var metadata: Metadata { manifest.metadata }
    public var readingOrder: [Link] { manifest.readingOrder }
    public var tableOfContents: [Link] { manifest.tableOfContents }

    /// The title to show: the manifest's, else the file name of the source.
    public var title: String {
        manifest.metadata.title?.string ?? container.sourceURL.deletingPathExtension().lastPathComponent
    }

    /// The resource at `href` (relative to the manifest, fragment ignored).
    public func resource(at href: String) throws(ResourceError) -> any Resource {
        try container.resource(at: href)
    }

    /// The reading-order link of `href`, fragment ignored.
    public func readingOrderLink(forHref href: String) -> Link? {
        manifest.readingOrderIndex(ofHref: href).map { manifest.readingOrder[$0] }
    }
}
