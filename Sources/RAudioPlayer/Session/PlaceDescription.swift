// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A place in a book as a person reads it: "Chapter 3 · 1:02:03 / 4:22:07" for audio (or "2:03 into Chapter 3"
/// without the book's timeline), "Chapter 3 · “The sentence…”" for text; a file name only when nothing
/// better is known. Used wherever raudio shows a saved place (resuming, `history`, `bookmarks`).
public enum PlaceDescription {
    /// `locator` described with the chapter title when known (else the locator's own title, else the
    /// resource's file name), the time in the book and its length when known, else the progression or
    /// the quoted sentence.
    public static func describe(_ locator: Locator, chapter: String? = nil, timeInBook: Double? = nil, bookLength: Double? = nil) -> String {
        let quote = locator.text.highlight?.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let quoted = quote.flatMap { $0.isEmpty ? nil : "“\($0.count > 50 ? $0.prefix(49) + "…" : Substring($0))”" }
        guard let title = chapter ?? locator.title else {
            // A sentence says more than a file name.
            return quoted ?? fileName(of: locator.href) + (locator.locations.totalProgression.map { " · \(Int(($0 * 100).rounded(.down)))%" } ?? "")
        }
        if let timeInBook {
            let length = bookLength.map { " / " + PlaceDescription.clock($0) } ?? ""
            return "\(title) · \(PlaceDescription.clock(timeInBook))\(length)"
        }
        if let quoted { return "\(title) · \(quoted)" }
        if let begin = locator.locations.time?.begin {
            // A time in the track only (the book's timeline is not at hand).
            return "\(PlaceDescription.clock(begin)) into \(title)"
        }
        if let total = locator.locations.totalProgression {
            return "\(title) · \(Int((total * 100).rounded(.down)))%"
        }
        return title
    }

    /// The last path component, without a fragment or query.
    private static func fileName(of href: String) -> String {
        let path = href.split(separator: "#").first.map(String.init) ?? href
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `1:02:03`, or `2:03` under an hour.
    public static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let hours = total / 3600
        let minutes = total / 60 % 60
        let secs = total % 60
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }
}
