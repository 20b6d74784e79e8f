// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// What a stretch of narration speaks: an element of a content document, or a range of its text. A writer
/// of Media Overlays (`raudio render --to epub3`) marks it in the document (an `id` on the element, or a
/// `span` around the range) and points a SMIL `text` at it.
public struct NarrationTarget: Sendable, Hashable {
    /// Where it is: the document's `href`, `locations.cssSelector` of the element, and the text quote.
    public var locator: Locator
    /// The element's text as the content extractor read it (`SpeechUtterance.elementText`), when known.
    public var elementText: ElementText?
    /// The UTF-8 byte range of `elementText.text` this narration speaks; nil for the whole element.
    public var textRange: Range<Int>?

    public init(locator: Locator, elementText: ElementText?, textRange: Range<Int>?) {
        self.locator = locator
        self.elementText = elementText
        self.textRange = textRange
    }
}

/// One `par` of a Media Overlay: a target and where it is heard in its document's audio.
public struct NarrationClip: Sendable, Hashable {
    public var target: NarrationTarget
    /// Seconds from the start of the document's audio file.
    public var begin: Double
    public var end: Double
    /// The audio file it is heard in when not its document's (`raudio align`: a narration's files, shared by
    /// documents), its media type and its decoded length; nil for the document's own `audioFile`.
    public var audio: ClipAudio?

    public init(target: NarrationTarget, begin: Double, end: Double, audio: ClipAudio? = nil) {
        self.target = target
        self.begin = begin
        self.end = end
        self.audio = audio
    }
}

/// An audio file some clips are heard in, apart from their document (`NarrationClip.audio`).
public struct ClipAudio: Sendable, Hashable {
    public var file: URL
    public var mediaType: MediaType
    /// Seconds, as decoded.
    public var duration: Double

    public init(file: URL, mediaType: MediaType, duration: Double) {
        self.file = file
        self.mediaType = mediaType
        self.duration = duration
    }
}

/// A content document read aloud: its audio, already encoded in one file, and its clips in reading order.
public struct NarratedDocument: Sendable {
    /// The content document, as its reading order link's `href`.
    public var href: String
    /// The encoded audio of the whole document.
    public var audioFile: URL
    public var audioMediaType: MediaType
    /// The audio's length in seconds, as decoded.
    public var duration: Double
    public var clips: [NarrationClip]

    public init(href: String, audioFile: URL, audioMediaType: MediaType, duration: Double, clips: [NarrationClip]) {
        self.href = href
        self.audioFile = audioFile
        self.audioMediaType = audioMediaType
        self.duration = duration
        self.clips = clips
    }
}
