import ReadiumNavigator
import ReadiumShared

/// The publication's table of contents, flattened in reading order, and which entry a locator lies in:
/// for an audiobook by publication time (`track.mp3`, `track.mp3#t=120`, a lone M4B's chapters), for an
/// EPUB by the resource in the reading order (an entry `#fragment` counts from its resource's start).
struct ChapterMap: Sendable {
    struct Entry: Sendable {
        let title: String
        let href: String
        /// Nesting depth in the table of contents (0 at the top).
        let depth: Int
        /// Where it starts: the reading-order index of its resource, and its time in the publication
        /// for an audiobook whose durations are known.
        let readingOrderIndex: Int
        let start: Double?
        /// Where `chapter N` goes.
        let locator: Locator
    }

    let entries: [Entry]
    private let timeline: PlaybackTimeline?
    private let readingOrder: [String]

    /// Entries whose resource is not in the reading order are left out.
    init(publication: Publication, timeline: PlaybackTimeline? = nil) {
        let readingOrder = publication.readingOrder.map(\.hrefWithoutFragment)
        var entries: [Entry] = []
        func walk(_ links: [Link], depth: Int) {
            for link in links {
                if let index = readingOrder.firstIndex(of: link.hrefWithoutFragment) {
                    let type = link.type ?? publication.readingOrder[index].type ?? "application/octet-stream"
                    var locator = Locator(href: link.hrefWithoutFragment, type: type, title: link.title)
                    var start: Double?
                    if let timeline {
                        let seconds = link.fragment.flatMap(MediaFragment.init(parsing:))?.begin ?? 0
                        start = timeline.time(track: index, seconds: seconds)
                        locator.locations.fragments = ["t=\(seconds.formatted)"]
                    }
                    entries.append(Entry(title: link.title ?? link.href, href: link.href, depth: depth, readingOrderIndex: index, start: start, locator: locator))
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
        self.timeline = timeline
        self.readingOrder = readingOrder
    }

    /// The publication time of an audio locator, when durations are known.
    func time(of locator: Locator) -> Double? {
        guard let timeline, let resource = readingOrder.firstIndex(of: locator.hrefWithoutFragment) else { return nil }
        return timeline.time(track: resource, seconds: locator.locations.time?.begin ?? 0)
    }

    /// The entry `locator` lies in: the last one starting at or before it; nil before the first.
    func index(of locator: Locator) -> Int? {
        guard let resource = readingOrder.firstIndex(of: locator.hrefWithoutFragment) else { return nil }
        if let timeline, let time = timeline.time(track: resource, seconds: locator.locations.time?.begin ?? 0) {
            return entries.lastIndex { ($0.start ?? .infinity) <= time + 0.001 }
        }
        // Text: the first entry of the resource, else the last of an earlier one.
        return entries.firstIndex { $0.readingOrderIndex == resource } ?? entries.lastIndex { $0.readingOrderIndex < resource }
    }
}

private extension Locator {
    var hrefWithoutFragment: String { href.split(separator: "#", maxSplits: 1).first.map(String.init) ?? href }
}
