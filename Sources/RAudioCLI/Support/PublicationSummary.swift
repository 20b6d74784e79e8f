// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// A readable summary of a publication, for `raudio info --human`.
struct PublicationSummary {
    let publication: Publication
    /// Each reading-order track's codec, rate and channels, when known (`AudioTrackDescription`).
    var trackFormats: [String?] = []

    var text: String {
        let metadata = publication.metadata
        var lines: [String] = []
        lines.append(publication.title)
        if let subtitle = metadata.subtitle?.string { lines.append(subtitle) }
        lines.append("")
        func contributors(_ role: String, _ label: String) {
            let names = (metadata.contributors[role] ?? []).map(\.name.string)
            if !names.isEmpty { lines.append("\(label): \(names.joined(separator: ", "))") }
        }
        contributors("author", "Author")
        contributors("narrator", "Narrator")
        contributors("translator", "Translator")
        contributors("publisher", "Publisher")
        if !metadata.languages.isEmpty { lines.append("Language: \(metadata.languages.joined(separator: ", "))") }
        if let published = metadata.published { lines.append("Published: \(published)") }
        if let identifier = metadata.identifier { lines.append("Identifier: \(identifier)") }
        lines.append("Format: \(publication.mediaType.string)")
        if let protection = publication.protection { lines.append("Protected by: \(protection.name)") }
        // Whether there is a cover (what the desktop and the read-along page show).
        let cover = publication.manifest.coverLink
        lines.append("Cover: " + (cover.map { "\($0.href)" + ($0.type.map { " (\($0))" } ?? "") } ?? "none"))
        let total = metadata.duration ?? sumOfDurations
        if let total { lines.append("Duration: \(Self.clock(total))") }
        lines.append("")
        lines.append("Reading order (\(publication.readingOrder.count)):")
        let tocTitles = Self.firstTitles(publication.tableOfContents)
        for (index, link) in publication.readingOrder.enumerated() {
            let duration = link.duration.map { "  \(Self.clock($0))" } ?? ""
            let format = (index < trackFormats.count ? trackFormats[index] : nil).map { "  (\($0))" } ?? ""
            // An EPUB's spine items have no titles: the first toc entry in the file names it, else its href alone.
            let title = link.title ?? tocTitles[link.hrefWithoutFragment]
            lines.append(String(format: "%4d. ", index + 1) + (title.map { "\($0)\(duration)  [\(link.href)]" } ?? "\(link.href)\(duration)") + format)
        }
        if !publication.tableOfContents.isEmpty {
            lines.append("")
            lines.append("Table of contents:")
            appendTOC(publication.tableOfContents, depth: 1, into: &lines)
        }
        if let description = metadata.description {
            lines.append("")
            lines.append(description)
        }
        return lines.joined(separator: "\n")
    }

    private var sumOfDurations: Double? {
        let durations = publication.readingOrder.compactMap(\.duration)
        guard durations.count == publication.readingOrder.count, !durations.isEmpty else { return nil }
        return durations.reduce(0, +)
    }

    /// The title of the first entry (in reading order of the toc) of each file the toc points into.
    private static func firstTitles(_ links: [Link]) -> [String: String] {
        var titles: [String: String] = [:]
        func visit(_ links: [Link]) {
            for link in links {
                if let title = link.title, titles[link.hrefWithoutFragment] == nil { titles[link.hrefWithoutFragment] = title }
                visit(link.children)
            }
        }
        visit(links)
        return titles
    }

    private func appendTOC(_ links: [Link], depth: Int, into lines: inout [String]) {
        for link in links {
            lines.append(String(repeating: "  ", count: depth) + "- " + (link.title ?? link.href) + "  [\(link.href)]")
            appendTOC(link.children, depth: depth + 1, into: &lines)
        }
    }

    /// `1:02:03` or `2:03`, by the one rule of every time shown (`PlaceDescription.clock`).
    static func clock(_ seconds: Double) -> String {
        PlaceDescription.clock(seconds)
    }
}
