// SPDX-License-Identifier: GPL-3.0-or-later
/// Gives the narration (SMIL media overlay) of the reading-order items; attached by the streamer.
///
/// The EPUB streamer stores its implementation in `Publication.extensions[MediaOverlayServiceKey.key]`.
/// A SMIL file is parsed only when an overlay that uses it is first asked for, then kept.
/// Safe to call from any thread; parsing blocks (resource reads), so call it off the cooperative pool
/// for large books, or accept a few milliseconds.
public protocol MediaOverlayService: Sendable {
    /// Whether reading-order item `index` has a media overlay (no parsing).
    func hasMediaOverlay(at index: Int) -> Bool

    /// The narration of reading-order item `index`, or nil when it has no media overlay.
    ///
    /// - Throws: `MediaOverlayError` when its SMIL cannot be read or parsed at all.
    func mediaOverlay(at index: Int) throws(MediaOverlayError) -> MediaOverlay?

    /// What was worked around in SMIL files parsed so far (each naming its SMIL href).
    var warnings: [ParsingWarning] { get }
}

/// The key of the media overlay service in `Publication.extensions`.
public enum MediaOverlayServiceKey {
    public static let key = "readium.mediaOverlayService"
}

/// A SMIL media overlay that cannot be used; the subject is the SMIL href.
public typealias MediaOverlayError = RAudioError<MediaOverlayErrorDomain>

/// The domain of `MediaOverlayError`; its codes are words of `RAudioErrorCode`.
public enum MediaOverlayErrorDomain: RAudioErrorDomain {}

extension Publication {
    /// The media overlay service the streamer attached, if the publication has any overlay.
    public var mediaOverlays: (any MediaOverlayService)? {
        extensions[MediaOverlayServiceKey.key] as? any MediaOverlayService
    }
}
