// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A place in a book as a person reads it: "0:08 into Chapter 3 · 1:02:03 / 4:22:07" for audio (the time
/// into the chapter, then in the book and its length when known), "Chapter 3 · “The sentence…”" for text;
/// a file name only when nothing better is known. Used wherever raudio shows a saved place (resuming,
/// `history`, `bookmarks`), so that all of them say the same.
public enum PlaceDescription {
    /// `locator` described with the book's chapters: for audio the entry it lies in and the time into it
    /// (`ChapterMap.timeIntoEntry(of:)`), the time in the book and its length (`bookLength`, else the
    /// map's); for text the entry's title beside the quoted sentence (the locator's own title, which a
    /// session stamps when it saves, else the map's).
    public static func describe(_ locator: Locator, chapters: ChapterMap?, bookLength: Double? = nil) -> String {
        if let chapters, let place = chapters.timeIntoEntry(of: locator) {
            return describe(locator, chapter: chapters.entries[place.index].title, timeInChapter: place.seconds,
                            timeInBook: chapters.time(of: locator), bookLength: bookLength ?? chapters.length)
        }
        let isAudio = locator.type.hasPrefix("audio/")
        return describe(locator, chapter: isAudio ? nil : chapters?.title(of: locator) ?? locator.title)
    }

    /// `locator` described with the chapter title when known (else the locator's own title, else the
    /// resource's file name): with the time into the chapter (and in the book, with its length) when known,
    /// else the quoted sentence, else the progression.
    public static func describe(_ locator: Locator, chapter: String? = nil, timeInChapter: Double? = nil, timeInBook: Double? = nil,
                                bookLength: Double? = nil) -> String {
        let quote = locator.text.highlight?.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let quoted = quote.flatMap { $0.isEmpty ? nil : "“\($0.count > 50 ? $0.prefix(49) + "…" : Substring($0))”" }
        guard let title = chapter ?? locator.title else {
            // A sentence says more than a file name.
            return quoted ?? fileName(of: locator.href) + (locator.locations.totalProgression.map { " · \(percent($0))" } ?? "")
        }
        if let timeInChapter {
            let book = timeInBook.map { " · " + clock($0) + (bookLength.map { " / " + clock($0) } ?? "") } ?? ""
            return "\(clock(timeInChapter)) into \(title)\(book)"
        }
        if let quoted { return "\(title) · \(quoted)" }
        // (A time in the track is not a time in the chapter the title names: a track may hold many.)
        if let total = locator.locations.totalProgression {
            return "\(title) · \(percent(total))"
        }
        return title
    }

    /// The last path component, without a fragment or query.
    private static func fileName(of href: String) -> String {
        let path = href.split(separator: "#").first.map(String.init) ?? href
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded(.down)))%"
    }

    /// `1:02:03`, or `2:03` under an hour: the one rule for every time and duration raudio shows (the
    /// terminal player, `info --human`, places, messages), whole seconds rounded down, so that a book's
    /// length reads the same everywhere and an elapsed time never shows a second not yet heard. (Not
    /// `String(format:)`: it goes through Foundation's string machinery, and a frame formats several times.)
    public static func clock(_ seconds: Double) -> String {
        let total = seconds.isFinite ? Int(max(0, min(seconds, 1e12)).rounded(.down)) : 0
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
