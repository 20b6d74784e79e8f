// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A narrated audiobook lined up with its ebook (`raudio align`): where each sentence of the text is heard in the
/// audio, how sure that is, each chapter's coverage, and what of either side has no counterpart in the other.
///
/// Versioned JSON (`Codable`; `formatVersion`): what `raudio align` writes beside its EPUB (`--alignment`), and what
/// `raudio play AUDIOBOOK --text BOOK.epub` caches and reads back. The sentences are the book's utterances as
/// `raudio render` reads it (`SpeechUtterances` with the same skipped roles and language), in reading order, each
/// with its index among them (`utterance`): the same targets, so the EPUB written from an alignment marks the same
/// ids and spans as a render of the book. A sentence that could not be placed has no audio (`audioHref`, `begin`,
/// `end` nil): it gets no `par`, never a guessed one.
public struct BookAlignment: Codable, Sendable, Hashable {
    /// The version of this JSON layout; a reader refuses a later one.
    public static let formatVersion = 1

    public var version: Int
    /// How the times were found: `dtw` (synthesis, MFCC, multi-level dynamic time warping).
    public var method: String
    public var book: Book
    /// The audio files in the order they are heard, with their decoded length.
    public var audio: [AudioFile]
    /// Every sentence (utterance) of the text, in reading order, placed or not.
    public var sentences: [Sentence]
    /// Each narrated-or-not content document, in reading order.
    public var chapters: [ChapterCoverage]
    /// Narration with no text: announcements, "End of chapter 3", credits, music.
    public var unmatchedAudio: [AudioSpan]
    /// Text with no narration: runs of consecutive sentences not found in the audio.
    public var unmatchedText: [TextSpan]
    /// The audio's chapter marks (an M4B's chapters), when it has any: how many, and how many parts of the text were
    /// located at one because their narration starts there (the others were searched for in the whole narration).
    public var chapterMarks: ChapterMarks?

    public struct ChapterMarks: Codable, Sendable, Hashable {
        public var given: Int
        public var confirmed: Int

        public init(given: Int, confirmed: Int) {
            self.given = given
            self.confirmed = confirmed
        }
    }

    public init(method: String = "dtw", book: Book, audio: [AudioFile], sentences: [Sentence], chapters: [ChapterCoverage],
                unmatchedAudio: [AudioSpan], unmatchedText: [TextSpan]) {
        version = Self.formatVersion
        self.method = method
        self.book = book
        self.audio = audio
        self.sentences = sentences
        self.chapters = chapters
        self.unmatchedAudio = unmatchedAudio
        self.unmatchedText = unmatchedText
    }

    /// The book the text came from.
    public struct Book: Codable, Sendable, Hashable {
        public var title: String
        public var identifier: String?
        /// The main language (BCP-47) the reference was synthesized in.
        public var language: String?

        public init(title: String, identifier: String?, language: String?) {
            self.title = title
            self.identifier = identifier
            self.language = language
        }
    }

    /// One audio file of the narration.
    public struct AudioFile: Codable, Sendable, Hashable {
        /// Its href in the audiobook (or its path, for files given one by one).
        public var href: String
        /// Seconds, as decoded.
        public var duration: Double

        public init(href: String, duration: Double) {
            self.href = href
            self.duration = duration
        }
    }

    /// One sentence of the text and where it is heard.
    public struct Sentence: Codable, Sendable, Hashable {
        /// Its index among the book's utterances (`SpeechUtterances`, the same configuration).
        public var utterance: Int
        /// The content document (the reading order link's href, without a fragment).
        public var href: String
        /// The text locator of the sentence, as a render's Media Overlays and `raudio speak` give it.
        public var cssSelector: String?
        public var progression: Double?
        public var textBefore: String?
        public var highlight: String?
        public var textAfter: String?
        /// The UTF-8 range of the element's text it reads (`NarrationTarget.textRange`), when known.
        public var textRange: [Int]?
        /// What is spoken (white space collapsed), for reports.
        public var text: String
        /// The audio file it is heard in (`AudioFile.href`) and where; nil when not found.
        public var audioHref: String?
        public var begin: Double?
        public var end: Double?
        /// 0 (a guess) to 1 (certain). Sentences below the aligner's threshold have no audio.
        public var confidence: Double

        public init(utterance: Int, href: String, cssSelector: String?, progression: Double?, textBefore: String?, highlight: String?,
                    textAfter: String?, textRange: [Int]?, text: String, audioHref: String?, begin: Double?, end: Double?, confidence: Double) {
            self.utterance = utterance
            self.href = href
            self.cssSelector = cssSelector
            self.progression = progression
            self.textBefore = textBefore
            self.highlight = highlight
            self.textAfter = textAfter
            self.textRange = textRange
            self.text = text
            self.audioHref = audioHref
            self.begin = begin
            self.end = end
            self.confidence = confidence
        }

        /// Whether the sentence was found in the audio.
        public var isPlaced: Bool { audioHref != nil && begin != nil && end != nil }

        /// The sentence's locator in its content document (`type` XHTML).
        public var locator: Locator {
            var locations = Locator.Locations()
            locations.progression = progression
            locations.cssSelector = cssSelector
            return Locator(href: href, type: MediaType.xhtml.string, title: nil, locations: locations,
                           text: Locator.Text(before: textBefore, highlight: highlight, after: textAfter))
        }
    }

    /// How much of one content document was found in the audio.
    public struct ChapterCoverage: Codable, Sendable, Hashable {
        public var href: String
        public var title: String?
        public var sentences: Int
        public var aligned: Int
        /// Where its narration is: the audio file its first placed sentence is in, and the span of its placed sentences there.
        public var audioHref: String?
        public var begin: Double?
        public var end: Double?

        public init(href: String, title: String?, sentences: Int, aligned: Int, audioHref: String?, begin: Double?, end: Double?) {
            self.href = href
            self.title = title
            self.sentences = sentences
            self.aligned = aligned
            self.audioHref = audioHref
            self.begin = begin
            self.end = end
        }

        public var notFound: Int { sentences - aligned }
    }

    /// A stretch of audio with no text.
    public struct AudioSpan: Codable, Sendable, Hashable {
        public var audioHref: String
        public var begin: Double
        public var end: Double
        /// `no-text` (speech, music or silence the text does not hold).
        public var reason: String

        public init(audioHref: String, begin: Double, end: Double, reason: String = "no-text") {
            self.audioHref = audioHref
            self.begin = begin
            self.end = end
            self.reason = reason
        }

        public var duration: Double { max(0, end - begin) }
    }

    /// Consecutive sentences of one content document with no narration.
    public struct TextSpan: Codable, Sendable, Hashable {
        public var href: String
        /// The first and last sentence (`Sentence.utterance`), inclusive.
        public var firstUtterance: Int
        public var lastUtterance: Int
        /// `not-narrated` (the whole document: notes, front matter) or `not-found` (a part of a narrated one).
        public var reason: String

        public init(href: String, firstUtterance: Int, lastUtterance: Int, reason: String) {
            self.href = href
            self.firstUtterance = firstUtterance
            self.lastUtterance = lastUtterance
            self.reason = reason
        }
    }

    // MARK: Summary

    public var alignedSentenceCount: Int { sentences.lazy.filter(\.isPlaced).count }
    public var unplacedSentenceCount: Int { sentences.count - alignedSentenceCount }
    /// Seconds of audio found to hold no text.
    public var unmatchedAudioSeconds: Double { unmatchedAudio.reduce(0) { $0 + $1.duration } }

    // MARK: JSON

    /// The alignment as JSON text: keys sorted, so the same alignment gives the same bytes.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads an alignment; throws on JSON that is not one, or of a later `version` than this raudio reads.
    public init(jsonData data: Data) throws {
        let decoded = try JSONDecoder().decode(BookAlignment.self, from: data)
        guard decoded.version >= 1, decoded.version <= Self.formatVersion else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "alignment version \(decoded.version): this raudio reads versions 1 to \(Self.formatVersion)"))
        }
        self = decoded
    }
}
