// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// One step of a narrated book: a media overlay `par` (an audio clip, or text-to-speech when it has
/// no usable audio) or, for a content document without an overlay, a passage read with text-to-speech.
public struct NarrationItem: Sendable, Hashable {
    /// The reading-order item narrated.
    public var readingOrderIndex: Int
    /// The `par`, for media overlay items.
    public var par: MediaOverlayPar?
    /// The text position: href with the fragment, `cssSelector` `#id`, the text with context.
    public var locator: Locator
    /// What text-to-speech says when there is no audio (the `par`'s text, or the passage).
    public var spokenText: String?
    /// The language of `spokenText`, when declared.
    public var language: Language?
    /// How `spokenText` lines up with `locator.text.highlight`, the page's own text (for word locators).
    public var quoteMap: TextQuoteMap?
    /// The selected element's whole text, where `quoteMap`'s quote begins (for word locators).
    public var elementText: ElementText?

    public init(readingOrderIndex: Int, par: MediaOverlayPar?, locator: Locator, spokenText: String?, language: Language?, quoteMap: TextQuoteMap? = nil,
                elementText: ElementText? = nil) {
        self.elementText = elementText
        self.readingOrderIndex = readingOrderIndex
        self.par = par
        self.locator = locator
        self.spokenText = spokenText
        self.language = language
        self.quoteMap = quoteMap
    }

    /// The audio clip, when the item is narrated by a recording.
    public var clip: MediaOverlayClip? { par?.audio }

    /// Whether a human narration (a media overlay `par`) covers this item, with or without audio.
    public var isNarration: Bool { par != nil }

    /// The audio position for `seconds` into this item's clip: the audio href with `t=begin,end`.
    public func audioLocator(atSeconds seconds: Double, clipEnd: Double?) -> Locator? {
        guard let clip else { return nil }
        let begin = clip.begin + max(seconds, 0)
        var fragment = "t=" + MediaFragment.format(begin)
        if let end = clipEnd ?? clip.end { fragment += "," + MediaFragment.format(max(end, begin)) }
        let type = MediaType.forFileExtension(String(clip.href.split(separator: ".").last ?? ""))?.string ?? "audio/mpeg"
        return Locator(href: clip.href, type: type, locations: Locator.Locations(fragments: [fragment]))
    }
}
