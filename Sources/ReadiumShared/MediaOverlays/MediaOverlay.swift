// SPDX-License-Identifier: GPL-3.0-or-later
/// The narration of one content document: the `par`s of its SMIL media overlay, in playback order.
///
/// Made by the EPUB streamer (`EPUBMediaOverlayService`) from the SMIL file a reading-order link
/// names in `properties["mediaOverlay"]`. When one SMIL narrates several content documents, each
/// document's overlay holds only the `par`s whose text points into it. Hrefs are relative to the
/// publication root (already resolved against the SMIL file's folder).
public struct MediaOverlay: Sendable, Hashable {
    /// The SMIL file this narration comes from.
    public var smilHref: String
    /// The content document narrated (a reading-order href, without fragment).
    public var documentHref: String
    /// The `par`s, depth-first in SMIL order.
    public var pars: [MediaOverlayPar]

    public init(smilHref: String, documentHref: String, pars: [MediaOverlayPar]) {
        self.smilHref = smilHref
        self.documentHref = documentHref
        self.pars = pars
    }

    /// The sum of the audio clips whose end is known (`clipEnd` given), in seconds; nil when no
    /// `par` has a clip with a known end.
    public var narratedDuration: Double? {
        let lengths = pars.compactMap { $0.audio?.duration }
        return lengths.isEmpty ? nil : lengths.reduce(0, +)
    }

    /// How many `par`s have audio (the others are read with text-to-speech).
    public var audioParCount: Int { pars.count { $0.audio != nil } }
}

/// One synchronized unit of a media overlay: a text fragment and the audio clip that reads it.
public struct MediaOverlayPar: Sendable, Hashable {
    /// The `par`'s `id`, if any.
    public var id: String?
    /// The text `src`, resolved: `chapter1.xhtml#para3`. Nil when the `par` has no `text` (nothing to
    /// highlight; its audio still plays).
    public var textHref: String?
    /// The audio clip; nil when the `par` has no `audio` (read with text-to-speech).
    public var audio: MediaOverlayClip?
    /// The `epub:type` tokens of the `par` itself (`pagebreak`, `note`, ...).
    public var types: [String]
    /// The enclosing `seq`s, outermost first (the `body` is not one).
    public var ancestors: [MediaOverlaySeq]
    /// The text of the element the fragment names, with context, once resolved against the content
    /// document (nil when not resolved or not found).
    public var text: Locator.Text?

    public init(id: String?, textHref: String?, audio: MediaOverlayClip?, types: [String] = [], ancestors: [MediaOverlaySeq] = []) {
        self.id = id
        self.textHref = textHref
        self.audio = audio
        self.types = types
        self.ancestors = ancestors
        self.text = nil
    }

    /// The fragment of the text `src` (`para3`), if any.
    public var textFragment: String? {
        guard let textHref, let hash = textHref.firstIndex(of: "#") else { return nil }
        let fragment = String(textHref[textHref.index(after: hash)...])
        return fragment.isEmpty ? nil : fragment
    }

    /// The text href without its fragment.
    public var textPath: String? {
        textHref.map { String($0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "") }
    }

    /// The `epub:type` tokens of the `par` and of every enclosing `seq`.
    public var allTypes: [String] { ancestors.flatMap(\.types) + types }
}

/// A `seq` enclosing `par`s: a structure such as a table, a list, a note or a sidebar.
public struct MediaOverlaySeq: Sendable, Hashable {
    /// Unique within its SMIL file (document order of `seq` elements), so that two `seq`s with the
    /// same `id` (or none) are still told apart.
    public var index: Int
    public var id: String?
    /// `epub:type` tokens (`table`, `list`, `note`, `aside`...).
    public var types: [String]
    /// `epub:textref`, resolved.
    public var textHref: String?

    public init(index: Int, id: String?, types: [String], textHref: String?) {
        self.index = index
        self.id = id
        self.types = types
        self.textHref = textHref
    }
}

/// An audio clip: a file and the time range of it that reads a `par`.
public struct MediaOverlayClip: Sendable, Hashable {
    /// The audio file, relative to the publication root, without fragment.
    public var href: String
    /// Seconds; 0 when `clipBegin` is absent.
    public var begin: Double
    /// Seconds; nil when `clipEnd` is absent (to the end of the file).
    public var end: Double?

    public init(href: String, begin: Double, end: Double?) {
        self.href = href
        self.begin = begin
        self.end = end
    }

    /// `end - begin`, when the end is known.
    public var duration: Double? { end.map { max($0 - begin, 0) } }
}
