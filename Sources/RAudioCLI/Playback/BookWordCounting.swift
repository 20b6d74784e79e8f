// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared
import ReadiumStreamer

/// Counts the words of an EPUB's text, element by element, for the time left of speech (`BookWordCount`).
///
/// The content is iterated once more, by a content service of its own with its own warning log (the
/// reading reports a malformed chapter once, when it reaches it). Moby-Dick's 2984 elements take about
/// a quarter of a second in a release build (docs/benchmarks: content iteration).
enum BookWordCounting {
    /// Counts on a thread of its own ("raudio.words") and hands the count to `done` on that thread;
    /// nothing when the content cannot be read to its end.
    static func start(publication: Publication, skipping skippedRoles: Set<String>, _ done: @escaping @Sendable (BookWordCount) -> Void) {
        BlockingWork.startThread(named: "raudio.words", qualityOfService: .utility) {
            if let count = count(publication, skipping: skippedRoles) { done(count) }
        }
    }

    /// The words of `publication`'s text elements, each at its `totalProgression`, as the reading says
    /// them: elements of `skippedRoles` (endnotes, page breaks by default) and inline runs of them
    /// (note references) left out, as `--skip` and the synthesizer's `skippedRoles` leave them out.
    static func count(_ publication: Publication, skipping skippedRoles: Set<String>) -> BookWordCount? {
        let service = EPUBContentService(publication: publication, warnings: WarningLog())
        guard let content = try? service.content(from: nil) else { return nil }
        let iterator = content.iterator()
        var elements: [(progression: Double, words: Int)] = []
        while true {
            let next: (any ContentElement)?
            do {
                next = try iterator.next()
            } catch {
                return nil  // a count that stops early would say less is left than is
            }
            guard let element = next else { break }
            guard let text = element as? TextContentElement, let progression = text.locator.locations.totalProgression else { continue }
            let spoken = skippedRoles.contains(text.role.name) ? "" : text.removingInlineRuns(withRoles: skippedRoles).text
            elements.append((progression, SpeechPace.words(in: spoken)))
        }
        return elements.isEmpty ? nil : BookWordCount(elements: elements)
    }
}
