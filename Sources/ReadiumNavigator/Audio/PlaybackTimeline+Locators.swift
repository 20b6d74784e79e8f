// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Locators of positions, and positions of locators and links.
extension PlaybackTimeline {
    /// The Readium locator of `seconds` into `track`: href, type, title, `t=` (ms precision),
    /// `progression` in the track and `totalProgression` in the publication when durations are known.
    public func locator(track: Int, seconds: Double) -> Locator {
        let index = min(max(track, 0), max(tracks.count - 1, 0))
        guard tracks.indices.contains(index) else {
            return Locator(href: "", type: "audio/mpeg")
        }
        let entry = tracks[index]
        var time = seconds.isFinite ? max(seconds, 0) : 0
        if let duration = entry.duration { time = min(time, duration) }
        var locations = Locator.Locations(fragments: [MediaFragment(begin: time).description])
        if let duration = entry.duration, duration > 0 {
            locations.progression = Self.unit(time / duration)
        }
        if let total = totalDuration, total > 0, let start = startTime(ofTrack: index) {
            locations.totalProgression = Self.unit((start + time) / total)
        }
        return Locator(href: entry.href, type: Self.mediaType(of: entry.link), title: title(track: index, seconds: time),
                       locations: locations)
    }

    /// Where `locator` points: its track, start and clip end. Honours `t=` begin and end, else
    /// `progression`, else `totalProgression`. Throws `.unknownHref` when the href is not in the
    /// reading order and `.badLocator` when its progression cannot be placed.
    public func target(for locator: Locator) throws(AudioNavigatorError) -> AudioTarget {
        if locator.href.isEmpty, let total = locator.locations.totalProgression {
            return try target(totalProgression: total, locator: locator)
        }
        let path = Link(href: locator.href).hrefWithoutFragment
        guard let track = tracks.firstIndex(where: { $0.href == path }) else {
            throw AudioNavigatorError(.unknownHref, message: "\(locator.href) is not in the reading order")
        }
        let fragment = locator.locations.time ?? Link(href: locator.href).fragment.flatMap(MediaFragment.init(parsing:))
        if let fragment {
            return AudioTarget(track: track, seconds: fragment.begin ?? 0, clipEnd: fragment.end)
        }
        if let progression = locator.locations.progression {
            guard let duration = tracks[track].duration else {
                if progression <= 0 { return AudioTarget(track: track, seconds: 0) }
                throw AudioNavigatorError(.badLocator, message: "the duration of \(locator.href) is not known yet, so its progression cannot be placed")
            }
            return AudioTarget(track: track, seconds: Self.unit(progression) * duration)
        }
        if let total = locator.locations.totalProgression {
            return try target(totalProgression: total, locator: locator)
        }
        return AudioTarget(track: track, seconds: 0)
    }

    /// Where a table-of-contents link points (`track.mp3#t=30`).
    public func target(for link: Link) throws(AudioNavigatorError) -> AudioTarget {
        let path = link.hrefWithoutFragment
        guard let track = tracks.firstIndex(where: { $0.href == path }) else {
            throw AudioNavigatorError(.unknownHref, message: "\(link.href) is not in the reading order")
        }
        let fragment = link.fragment.flatMap(MediaFragment.init(parsing:))
        return AudioTarget(track: track, seconds: fragment?.begin ?? 0)
    }

    private func target(totalProgression: Double, locator: Locator) throws(AudioNavigatorError) -> AudioTarget {
        guard let total = totalDuration else {
            throw AudioNavigatorError(.badLocator, message: "the publication's duration is not known yet, so totalProgression \(totalProgression) cannot be placed")
        }
        let position = position(atTime: Self.unit(totalProgression) * total)
        return AudioTarget(track: position.track, seconds: position.seconds)
    }

    static func unit(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    /// The link's media type, else one guessed from the file extension.
    static func mediaType(of link: Link) -> String {
        if let type = link.type, !type.isEmpty { return type }
        let ext = link.hrefWithoutFragment.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "mp3": return "audio/mpeg"
        case "ogg", "oga": return "audio/ogg"
        case "opus": return "audio/opus"
        case "m4a", "m4b", "mp4": return "audio/mp4"
        case "aac": return "audio/aac"
        case "wav": return "audio/wav"
        case "flac": return "audio/flac"
        default: return "audio/mpeg"
        }
    }
}

/// A position to load: a track, seconds into it, and where a clip ends (nil: no end).
public struct AudioTarget: Sendable, Hashable {
    public var track: Int
    public var seconds: Double
    public var clipEnd: Double?

    public init(track: Int, seconds: Double, clipEnd: Double? = nil) {
        self.track = track
        self.seconds = seconds
        self.clipEnd = clipEnd
    }
}
