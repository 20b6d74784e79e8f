// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// What an audio file says of itself in its tags: the book's metadata, its chapters and its cover.
///
/// Made by an `AudioFileInspector` (raudio's reads the tags with FFmpeg) for a lone audio file opened
/// as a publication, and for each track of a folder or `.zab` of audio files.
public struct AudioFileDescription: Sendable, Hashable {
    public var title: String?
    /// The authors: the `artist` tag (or `album_artist`, `author`).
    public var authors: [String] = []
    public var narrators: [String] = []
    /// The album: a book's title when the title tag names a chapter or part.
    public var album: String?
    public var language: String?
    public var description: String?
    /// The date tag as written (`2019`, `2019-05-02`).
    public var date: String?
    public var publisher: String?
    /// The length in seconds, when known.
    public var duration: Double?
    /// Embedded chapters, in order, repaired (see `AudioFileChapter.repaired`).
    public var chapters: [AudioFileChapter] = []
    /// The embedded cover picture.
    public var cover: Cover?
    /// The DRM the file is protected by, when it is (its tags may still be readable).
    public var protection: Publication.Protection?
    /// What was wrong in the tags and was repaired or left out, for warnings.
    public var warnings: [String] = []

    public struct Cover: Sendable, Hashable {
        public var data: Data
        public var mediaType: MediaType

        public init(data: Data, mediaType: MediaType) {
            self.data = data
            self.mediaType = mediaType
        }
    }

    public init() {}
}

/// A chapter embedded in an audio file: where it starts and ends (seconds), its title, its sub-chapters.
public struct AudioFileChapter: Sendable, Hashable {
    public var title: String?
    public var start: Double
    public var end: Double?
    public var children: [AudioFileChapter]

    public init(title: String?, start: Double, end: Double? = nil, children: [AudioFileChapter] = []) {
        self.title = title
        self.start = start
        self.end = end
        self.children = children
    }

    /// `chapters` sorted by start, without those that start past `duration` or have no length (a
    /// duplicate start keeps the titled one), each ending where the next starts; with a warning for each
    /// repair, never an error.
    public static func repaired(_ chapters: [AudioFileChapter], duration: Double?) -> (chapters: [AudioFileChapter], warnings: [String]) {
        var warnings: [String] = []
        var sorted = chapters.filter { $0.start.isFinite }
        if sorted.count < chapters.count { warnings.append("\(chapters.count - sorted.count) chapter(s) without a start time left out") }
        if zip(sorted, sorted.dropFirst()).contains(where: { $0.start > $1.start }) {
            warnings.append("the chapters are not in time order; sorted")
            sorted.sort { $0.start < $1.start }
        }
        var kept: [AudioFileChapter] = []
        // Chapters starting with the one before (within a millisecond): said once, with their count.
        var simultaneous: [Double] = []
        for var chapter in sorted {
            chapter.start = max(0, chapter.start)
            if let duration, chapter.start >= duration {
                warnings.append("chapter \(Self.describe(chapter)) starts at \(Self.seconds(chapter.start)), past the end of the audio (\(Self.seconds(duration))); left out")
                continue
            }
            if let last = kept.last, abs(last.start - chapter.start) < 0.001 {
                // Two chapters at one time: the titled one stays.
                if last.title == nil || last.title?.isEmpty == true, chapter.title?.isEmpty == false {
                    kept[kept.count - 1] = chapter
                }
                simultaneous.append(chapter.start)
                continue
            }
            if let end = chapter.end, end <= chapter.start {
                chapter.end = nil
            }
            kept.append(chapter)
        }
        if let first = simultaneous.first {
            warnings.append(simultaneous.count == 1
                ? "two chapters start at \(Self.seconds(first)), less than 1 ms apart; one left out"
                : "\(simultaneous.count) chapters start less than 1 ms after an earlier one (the first at \(Self.seconds(first))); left out")
        }
        for index in kept.indices {
            let next = index + 1 < kept.count ? kept[index + 1].start : duration
            if let end = kept[index].end, let next, end > next + 0.001 {
                warnings.append("chapter \(Self.describe(kept[index])) overlaps the next one; it ends where the next starts")
            }
            kept[index].end = next ?? kept[index].end
        }
        return (kept, warnings)
    }

    private static func describe(_ chapter: AudioFileChapter) -> String {
        chapter.title.map { "'\($0)'" } ?? "at \(seconds(chapter.start))"
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
}

/// Reads an audio file's tags, chapters and cover. Blocking I/O.
public protocol AudioFileInspector: Sendable {
    /// The description of the audio file `resource`; throws when it cannot be read as audio.
    func inspect(_ resource: any Resource) throws -> AudioFileDescription

    /// The audio format of `resource` when its first bytes alone do not tell (`ContentSniffer` found nothing):
    /// an MP3 whose first frame comes after junk, found by looking further. Nil: not audio.
    func audioMediaType(lookingFurtherInto resource: any Resource) -> MediaType?
}

extension AudioFileInspector {
    /// Looks no further than `ContentSniffer`.
    public func audioMediaType(lookingFurtherInto resource: any Resource) -> MediaType? { nil }
}
