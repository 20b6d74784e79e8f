// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// The publication's table of contents, flattened in reading order, and which entry a locator lies in:
/// for an audiobook by publication time (`track.mp3`, `track.mp3#t=120`, a lone M4B's chapters), for an
/// EPUB by the resource in the reading order and, for an entry `chapter.xhtml#id` (Project Gutenberg puts
/// many chapters in one file), by where its element starts in the resource (`placingFragments(of:)`).
public struct ChapterMap: Sendable {
    public struct Entry: Sendable {
        public let title: String
        public let href: String
        /// Nesting depth in the table of contents (0 at the top).
        public let depth: Int
        /// Where it starts: the reading-order index of its resource, and its time in the publication
        /// for an audiobook whose durations are known.
        public let readingOrderIndex: Int
        public let start: Double?
        /// Where `chapter N` goes: for text, the entry's element (its `#id` as the locator's fragment).
        public let locator: Locator
        /// Text: the element id of a `chapter.xhtml#id` entry.
        public var fragment: String? { locator.locations.fragments.first { !$0.contains("=") } }
        /// Text: where the entry's element starts in its resource (`progression`, 0...1): 0 for an entry
        /// without a fragment, nil for one whose fragment is not placed yet (or designates nothing).
        public var progression: Double?

        public init(title: String, href: String, depth: Int, readingOrderIndex: Int, start: Double?, locator: Locator, progression: Double? = nil) {
            (self.title, self.href, self.depth, self.readingOrderIndex, self.start, self.locator) = (title, href, depth, readingOrderIndex, start, locator)
            self.progression = progression
        }
    }

    public private(set) var entries: [Entry]
    /// Whether an entry starts inside a resource (`track.mp3#t=120`, `chapter.xhtml#id`): only then can a
    /// position event, and not only a track change, begin a chapter.
    public let hasEntriesInsideResources: Bool
    /// Each reading-order resource's index and, for an audiobook, its start in the publication: the
    /// lookups of every position event are then constant time, not a walk of the book.
    private let resourceIndex: [String: Int]
    private let trackStarts: [Double?]
    /// The publication's length, for an audiobook whose durations are known.
    private let totalDuration: Double?
    /// Whether entries are placed by time (an audiobook) rather than by element (text).
    private let isTimed: Bool

    /// Text entries whose `#id` is not placed yet: `placingFragments(of:)` places them.
    public var hasUnplacedFragments: Bool { !isTimed && entries.contains { $0.progression == nil && $0.fragment != nil } }

    /// A copy with every text entry's `#id` placed in its resource, through the publication's content
    /// service (an id that designates nothing counts from its resource's start, as before).
    ///
    /// Reads and parses each resource that holds such an entry: call it from a thread you own.
    public func placingFragments(of publication: Publication) -> ChapterMap {
        placingFragments(of: publication, inResource: nil)
    }

    /// Whether entries of `locator`'s resource are not placed yet (`placingFragments(of:inResourceOf:)` places them).
    public func hasUnplacedFragments(inResourceOf locator: Locator) -> Bool {
        guard !isTimed, let resource = resourceIndex[locator.hrefWithoutFragment] else { return false }
        return entries.contains { $0.readingOrderIndex == resource && $0.progression == nil && $0.fragment != nil }
    }

    /// A copy with the `#id`s of the entries of `locator`'s resource placed: what a position in it needs to be
    /// given its chapter, without waiting for the whole book's. Reads and parses that resource: call it from a
    /// thread you own.
    public func placingFragments(of publication: Publication, inResourceOf locator: Locator) -> ChapterMap {
        guard let resource = resourceIndex[locator.hrefWithoutFragment] else { return self }
        return placingFragments(of: publication, inResource: resource)
    }

    /// Places the entries of `resource`, or of every resource when it is nil.
    private func placingFragments(of publication: Publication, inResource resource: Int?) -> ChapterMap {
        guard hasUnplacedFragments, let service = publication.extensions[ContentServiceKey.key] as? any ContentService else { return self }
        var placed = self
        let unplaced = entries.indices.filter { entries[$0].progression == nil && (resource == nil || entries[$0].readingOrderIndex == resource) }
        let byResource = Dictionary(grouping: unplaced) { entries[$0].readingOrderIndex }
        for (_, indices) in byResource {
            let href = entries[indices[0]].locator.href
            let progressions = service.progressions(ofFragments: indices.compactMap { entries[$0].fragment }, in: href)
            for index in indices {
                placed.entries[index].progression = entries[index].fragment.flatMap { progressions[$0] } ?? 0
            }
        }
        return placed
    }

    /// Entries whose resource is not in the reading order are left out.
    public init(publication: Publication, timeline: PlaybackTimeline? = nil) {
        let readingOrder = publication.readingOrder.map(\.hrefWithoutFragment)
        var entries: [Entry] = []
        func walk(_ links: [Link], depth: Int) {
            for link in links {
                if let index = readingOrder.firstIndex(of: link.hrefWithoutFragment) {
                    let type = link.type ?? publication.readingOrder[index].type ?? "application/octet-stream"
                    var locator = Locator(href: link.hrefWithoutFragment, type: type, title: link.title)
                    var start: Double?
                    var progression: Double?
                    if let timeline {
                        let seconds = link.fragment.flatMap(MediaFragment.init(parsing:))?.begin ?? 0
                        start = timeline.time(track: index, seconds: seconds)
                        locator.locations.fragments = ["t=\(seconds.formatted)"]
                    } else if let fragment = link.fragment, !fragment.isEmpty, !fragment.contains("=") {
                        locator.locations.fragments = [fragment]
                    } else {
                        progression = 0
                    }
                    entries.append(Entry(title: link.title ?? link.href, href: link.href, depth: depth, readingOrderIndex: index, start: start,
                                         locator: locator, progression: progression))
                }
                walk(link.children, depth: depth + 1)
            }
        }
        walk(publication.tableOfContents, depth: 0)
        // In reading order (a table of contents may list them otherwise), stable for equal starts.
        self.entries = entries.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.readingOrderIndex, lhs.element.start ?? 0, lhs.offset)
            let right = (rhs.element.readingOrderIndex, rhs.element.start ?? 0, rhs.offset)
            return left < right
        }.map(\.element)
        hasEntriesInsideResources = self.entries.contains { $0.href.contains("#") }
        isTimed = timeline != nil
        var index: [String: Int] = [:]
        for (position, href) in readingOrder.enumerated() where index[href] == nil { index[href] = position }
        resourceIndex = index
        trackStarts = timeline.map { timeline in readingOrder.indices.map { timeline.startTime(ofTrack: $0) } } ?? []
        totalDuration = timeline?.totalDuration
    }

    /// Where entry `index` ends in the publication (the next entry's start, or the end), for an audiobook.
    public func end(ofEntry index: Int) -> Double? {
        guard entries.indices.contains(index) else { return nil }
        return index + 1 < entries.count ? entries[index + 1].start : totalDuration
    }

    /// The publication time of an audio locator, when durations are known.
    public func time(of locator: Locator) -> Double? {
        guard let resource = resourceIndex[locator.hrefWithoutFragment], resource < trackStarts.count, let start = trackStarts[resource] else { return nil }
        return start + (locator.locations.time?.begin ?? 0)
    }

    /// The publication's length, for an audiobook whose durations are known.
    public var length: Double? { totalDuration }

    /// Audio: the entry an audio locator lies in and how far into it, in seconds, from the entries of its
    /// own track (`track.mp3#t=120`, a lone M4B's chapters): no durations needed. Nil for a text map, a
    /// locator without a time, or a track no entry points into.
    public func timeIntoEntry(of locator: Locator) -> (index: Int, seconds: Double)? {
        guard isTimed, let begin = locator.locations.time?.begin, let resource = resourceIndex[locator.hrefWithoutFragment] else { return nil }
        var found: (index: Int, start: Double)?
        for index in entries.indices where entries[index].readingOrderIndex == resource {
            let start = entries[index].locator.locations.time?.begin ?? 0
            // The last listed of equal starts, as `index(of:)` finds it.
            if start <= begin + 0.001, start >= (found?.start ?? -1) { found = (index, start) }
        }
        return found.map { ($0.index, max(0, begin - $0.start)) }
    }

    /// The title of the entry `locator` lies in.
    public func title(of locator: Locator) -> String? {
        index(of: locator).map { entries[$0].title }
    }

    /// The entry `locator` lies in: the last one starting at or before it; nil before the first.
    /// `hint` (the entry last found) makes the usual answer, the same entry or the next, immediate.
    public func index(of locator: Locator, hint: Int? = nil) -> Int? {
        guard let resource = resourceIndex[locator.hrefWithoutFragment] else { return nil }
        if !trackStarts.isEmpty, let time = time(of: locator) {
            let starts = { (index: Int) in entries[index].start ?? .infinity }
            if let hint, entries.indices.contains(hint), starts(hint) <= time + 0.001 {
                let next = hint + 1
                if next == entries.count || starts(next) > time + 0.001 { return hint }
                if next + 1 == entries.count || starts(next + 1) > time + 0.001 { return next }
            }
            return entries.lastIndex { ($0.start ?? .infinity) <= time + 0.001 }
        }
        return textIndex(resource: resource, progression: locator.locations.progression ?? 0)
    }

    /// Text: the entry of `resource` whose element starts last at or before `progression` (the last
    /// listed of equals), else the last entry of an earlier resource. Nil while an entry of the resource
    /// is not placed yet: a wrong chapter would be announced and then taken back.
    private func textIndex(resource: Int, progression: Double) -> Int? {
        var found: Int?
        var foundStart = -Double.infinity
        for index in entries.indices where entries[index].readingOrderIndex == resource {
            guard let start = entries[index].progression else { return nil }
            if start <= progression + 1e-9, start >= foundStart {
                found = index
                foundStart = start
            }
        }
        return found ?? entries.lastIndex { $0.readingOrderIndex < resource }
    }
}

private extension Locator {
    /// `href` without its fragment; the same string (no copy) when it has none, as positions do.
    var hrefWithoutFragment: String {
        guard let hash = href.firstIndex(of: "#") else { return href }
        return String(href[..<hash])
    }
}
