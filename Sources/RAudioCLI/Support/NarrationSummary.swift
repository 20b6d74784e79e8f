// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// The media overlays of a publication for `raudio info`: per reading-order item, its SMIL href, how
/// many `par`s it narrates and for how long. Parses every SMIL file (info is the one place that needs
/// them all); a SMIL that cannot be parsed is reported on stderr and shown without counts.
struct NarrationSummary {
    struct Item {
        var index: Int
        var smilHref: String
        var overlay: MediaOverlay?
    }

    let items: [Item]

    init(publication: Publication) {
        guard let service = publication.mediaOverlays else {
            items = []
            return
        }
        var items: [Item] = []
        for (index, link) in publication.readingOrder.enumerated() {
            guard let smilHref = link.mediaOverlayHref else { continue }
            do {
                items.append(Item(index: index, smilHref: smilHref, overlay: try service.mediaOverlay(at: index)))
            } catch {
                StandardStreams.printError("raudio: warning: \(error.code.rawValue): \(error)")
                items.append(Item(index: index, smilHref: smilHref, overlay: nil))
            }
        }
        for warning in service.warnings { StandardStreams.printError("raudio: warning: \(warning)") }
        self.items = items
    }

    /// `manifest` with, on each narrated reading-order link, an `alternate` link to its SMIL file
    /// (`application/smil+xml`) whose `properties.mediaOverlay` gives `parCount`, `audioParCount`
    /// and `narratedDuration`, as Readium represents narration next to the text it reads.
    func annotating(_ manifest: Manifest) -> Manifest {
        var manifest = manifest
        for item in items {
            var alternate = Link(href: item.smilHref, type: "application/smil+xml")
            if let overlay = item.overlay {
                var summary: JSONObject = [
                    "parCount": .number(Double(overlay.pars.count)),
                    "audioParCount": .number(Double(overlay.audioParCount)),
                ]
                if let duration = overlay.narratedDuration { summary["narratedDuration"] = .number((duration * 1000).rounded() / 1000) }
                alternate.properties["mediaOverlay"] = .object(summary)
                if let duration = overlay.narratedDuration { alternate.duration = (duration * 1000).rounded() / 1000 }
            }
            manifest.readingOrder[item.index].alternates.append(alternate)
        }
        return manifest
    }

    /// Lines for `raudio info --human`.
    var lines: [String] {
        guard !items.isEmpty else { return [] }
        var lines = ["", "Narration (media overlays, \(items.count) of the reading order):"]
        for item in items {
            var line = String(format: "%4d. ", item.index + 1) + item.smilHref
            if let overlay = item.overlay {
                line += "  \(overlay.pars.count) par"
                if overlay.audioParCount < overlay.pars.count { line += " (\(overlay.pars.count - overlay.audioParCount) by text-to-speech)" }
                if let duration = overlay.narratedDuration { line += "  " + PublicationSummary.clock(duration) + String(format: " (%.3f s)", duration) }
            } else {
                line += "  unreadable"
            }
            lines.append(line)
        }
        return lines
    }
}
