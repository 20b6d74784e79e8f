// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared

/// A book read into files by `BookRenderer`: each narrated content document's audio and clips, the book's
/// chapters on the whole narration's timeline, and how the audio was obtained.
public struct RenderedBook: Sendable {
    /// The narrated content documents in reading order, each with its audio file (in the renderer's audio
    /// folder) and its clips: what `MediaOverlayEPUBWriter` writes into an EPUB 3.
    public var documents: [NarratedDocument]
    /// The table of contents flattened, each entry's start on the whole narration (the documents' audio one
    /// after another), in order; entries that start where the one before does are left out.
    public var chapters: [M4BWriter.Chapter]
    /// The whole narration in seconds.
    public var duration: Double
    public var format: PCMFormat
    public var counts: RenderCounts
    public var warnings: [RenderWarning]
}

/// How many utterances a render spoke, and how: read back from the cache or synthesized.
public struct RenderCounts: Sendable, Hashable {
    public var utterances = 0
    public var cacheHits = 0
    public var synthesized = 0
    /// Embedded audio or video decoded into the narration, and left out (undecodable).
    public var mediaDecoded = 0
    public var mediaSkipped = 0

    public init() {}
}

/// Something a render left out or changed, and went on: a stable `code`, a message naming the href.
public struct RenderWarning: Sendable, Hashable {
    public var code: String
    public var message: String
    public var href: String?

    public init(code: String, message: String, href: String?) {
        self.code = code
        self.message = message
        self.href = href
    }
}

/// Where a render is, reported after each utterance: on the render thread.
public struct RenderProgressReport: Sendable {
    public var utterancesDone: Int
    public var utteranceCount: Int
    /// Seconds of narration made so far.
    public var audioSeconds: Double
    public var counts: RenderCounts
    /// The content document being read.
    public var href: String

    /// The fraction of utterances done, 0 to 1.
    public var fraction: Double { utteranceCount == 0 ? 1 : Double(utterancesDone) / Double(utteranceCount) }
}
