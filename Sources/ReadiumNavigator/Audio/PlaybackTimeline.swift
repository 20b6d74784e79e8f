// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Publication time across the tracks of an audiobook, and the locators of positions in it.
///
/// A pure value: per-track durations come from the manifest (`Link.duration`), else are filled in
/// later (`setDuration`) from a probe. Publication time is the sum of the durations of the tracks
/// before a position; where one of them is unknown it is unknown too (nil).
public struct PlaybackTimeline: Sendable, Hashable {
    /// One track of the reading order.
    public struct Track: Sendable, Hashable {
        public var link: Link
        public var href: String { link.hrefWithoutFragment }
        public var duration: Double?
    }

    /// A table-of-contents entry that starts at `start` seconds into track `track`.
    struct Mark: Sendable, Hashable {
        var track: Int
        var start: Double
        var depth: Int
        var order: Int
        var title: String?
    }

    public private(set) var tracks: [Track]
    private var marks: [Mark]

    /// Builds the timeline of `readingOrder`, with titles from `tableOfContents`.
    public init(readingOrder: [Link], tableOfContents: [Link] = []) {
        tracks = readingOrder.map { Track(link: $0, duration: $0.duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }) }
        marks = []
        var order = 0
        func visit(_ links: [Link], depth: Int) {
            for link in links {
                let path = link.hrefWithoutFragment
                if let track = readingOrder.firstIndex(where: { $0.hrefWithoutFragment == path }) {
                    let begin = link.fragment.flatMap(MediaFragment.init(parsing:))?.begin ?? 0
                    marks.append(Mark(track: track, start: begin, depth: depth, order: order, title: link.title))
                    order += 1
                }
                visit(link.children, depth: depth + 1)
            }
        }
        visit(tableOfContents, depth: 0)
    }

    public var count: Int { tracks.count }

    /// Records a probed duration for `track`.
    public mutating func setDuration(_ seconds: Double, ofTrack track: Int) {
        guard tracks.indices.contains(track), seconds.isFinite, seconds >= 0 else { return }
        tracks[track].duration = seconds
    }

    /// The length of `track` in seconds, when known.
    public func duration(ofTrack track: Int) -> Double? {
        tracks.indices.contains(track) ? tracks[track].duration : nil
    }

    /// The length of the publication, when every track's duration is known.
    public var totalDuration: Double? {
        var total = 0.0
        for track in tracks {
            guard let duration = track.duration else { return nil }
            total += duration
        }
        return total
    }

    /// Publication time at which `track` starts, when the durations before it are known.
    public func startTime(ofTrack track: Int) -> Double? {
        var total = 0.0
        for index in 0..<min(max(track, 0), tracks.count) {
            guard let duration = tracks[index].duration else { return nil }
            total += duration
        }
        return total
    }

    /// Publication time of `seconds` into `track`, when the durations before it are known.
    public func time(track: Int, seconds: Double) -> Double? {
        startTime(ofTrack: track).map { $0 + seconds }
    }

    /// The track and seconds into it of publication time `time`, clamped to the publication: before
    /// the start is (0, 0), at or past the end is the end of the last track. Where a duration is
    /// unknown, the time is taken to fall in that track (clamped to it only when known).
    public func position(atTime time: Double) -> (track: Int, seconds: Double) {
        guard !tracks.isEmpty else { return (0, 0) }
        var remaining = time.isNaN ? 0 : max(time, 0)
        for (index, track) in tracks.enumerated() {
            guard let duration = track.duration else { return (index, remaining) }
            if remaining < duration || index == tracks.count - 1 {
                return (index, min(remaining, duration))
            }
            remaining -= duration
        }
        return (tracks.count - 1, tracks.last?.duration ?? 0)
    }

    /// The title of the deepest, latest table-of-contents entry that starts at or before `seconds` in
    /// `track`; else the reading-order link's title.
    public func title(track: Int, seconds: Double) -> String? {
        var best: Mark?
        for mark in marks where mark.track == track && mark.start <= seconds + 0.0005 {
            guard let current = best else {
                best = mark
                continue
            }
            if (mark.start, mark.depth, mark.order) > (current.start, current.depth, current.order) { best = mark }
        }
        return best?.title ?? (tracks.indices.contains(track) ? tracks[track].link.title : nil)
    }
}
