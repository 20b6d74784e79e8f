// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioPlayer
/// What MPRIS calls the "track": the table-of-contents entry being heard, else the whole book.
///
/// An audiobook whose entries have times (`track.mp3#t=120`, M4B chapters) makes each entry a track:
/// `Position` and `mpris:length` count within the entry, so a desktop widget's bar shows the chapter
/// and Next/Previous move between entries. Speech and narration have entries but no times: the entry
/// still names the track, without a length. A book without a table of contents is one track.
struct MPRISTrack: Equatable, Sendable {
    /// The `mpris:trackid` of nothing loaded yet.
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    /// The `mpris:trackid` of a whole book (no table of contents).
    static let wholeBook = "/org/mpris/MediaPlayer2/raudio/book"

    /// `mpris:trackid`: `/org/mpris/MediaPlayer2/raudio/chapter/N` (N as `chapter N` takes it).
    var id: String
    var title: String
    /// Where the track starts, in publication seconds (0 for the whole book or when unknown).
    var start: Double
    /// Its length in seconds, when known (audio).
    var length: Double?

    static func id(ofChapter index: Int) -> String { "/org/mpris/MediaPlayer2/raudio/chapter/\(index + 1)" }

    init(status: PlayerStatus) {
        if let index = Self.chapterIndex(status), status.chapters.indices.contains(index) {
            let chapter = status.chapters[index]
            id = Self.id(ofChapter: index)
            title = chapter.title.isEmpty ? status.title : chapter.title
            let end = status.chapters[(index + 1)...].first { $0.start != nil }?.start ?? status.duration
            if let start = chapter.start, let end, end >= start {
                self.start = start
                length = end - start
            } else {
                start = 0
                length = nil
            }
        } else if status.title.isEmpty && status.locatorCount == 0 {
            id = Self.noTrack
            title = ""
            start = 0
            length = nil
        } else {
            id = Self.wholeBook
            title = status.title
            start = 0
            length = status.duration
        }
    }

    /// The entry heard: found by time when entries have times, so that the track always agrees with
    /// the position (a `state` event after a jump comes before the `chapter` event); else the last
    /// `chapter` event's.
    private static func chapterIndex(_ status: PlayerStatus) -> Int? {
        if status.duration != nil, let elapsed = status.elapsed, status.chapters.contains(where: { $0.start != nil }) {
            return status.chapters.lastIndex { ($0.start ?? .infinity) <= elapsed + 0.001 } ?? status.chapterIndex
        }
        return status.chapterIndex
    }

    /// `position` (publication seconds) made relative to the track and kept inside it.
    func relative(_ position: Double) -> Double {
        let offset = max(0, position - start)
        return length.map { min($0, offset) } ?? offset
    }
}
