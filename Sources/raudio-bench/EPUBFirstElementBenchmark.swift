// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import ReadiumStreamer

/// `epub-first-element EPUB [--repeat N] [--href HREF]`: the time from `publication.content(from:)` with a locator
/// in the last chapter to the first element the iterator returns.
///
/// The chapter is `--href` when given, else the last reading-order resource that the table of
/// contents points to (a non-linear trailing navigation document is not taken for one); the locator
/// has that href and `progression` 0.5, so the iterator must parse the chapter and find the middle.
/// Each repetition opens a fresh `Publication`, outside the timed part, so nothing parsed is reused.
struct EPUBFirstElementBenchmark {
    let path: String
    let repetitions: Int
    let href: String?
    let progression = 0.5

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        path = try arguments.path("EPUB")
        repetitions = try arguments.integer("repeat", default: 50)
        href = arguments.string("href")
    }

    func run() throws(BenchmarkError) {
        let clock = ContinuousClock()
        var timings: [Double] = []
        var firstText: String?
        var chapter: Link?
        for _ in 0..<repetitions {
            let publication = try EPUBOpening.open(path)
            let link = href.map { publication.readingOrderLink(forHref: $0) } ?? Self.lastChapter(of: publication)
            guard let link else { throw .failed("\(path): \(href.map { "\($0) is not in the reading order" } ?? "the reading order is empty")") }
            chapter = link
            let locator = Locator(
                href: link.href, type: link.type ?? "application/xhtml+xml",
                locations: Locator.Locations(progression: progression)
            )
            let start = clock.now
            let element: (any ContentElement)?
            do {
                element = try publication.content(from: locator).iterator().next()
            } catch {
                throw .failed("\(path): \(error)")
            }
            let end = clock.now
            guard let element else { throw .failed("\(path): no element after \(link.href) at progression \(progression)") }
            guard element.locator.href == link.href else {
                throw .failed("\(path): the first element is in \(element.locator.href), not in \(link.href)")
            }
            timings.append((end - start).milliseconds)
            firstText = element.spokenText
        }
        BenchmarkRunner.emit([
            "measurement": "epub-first-element",
            "file": .string(path),
            "href": .string(chapter?.href ?? ""),
            "progression": .number(of: progression),
            "firstText": .string(String((firstText ?? "").prefix(60))),
            "ms": Statistics(timings).json,
        ])
    }

    /// The last reading-order link whose href (without fragment) the table of contents points to;
    /// the last reading-order link when the table of contents names none.
    static func lastChapter(of publication: Publication) -> Link? {
        var tocHrefs: Set<String> = []
        func collect(_ links: [Link]) {
            for link in links {
                tocHrefs.insert(withoutFragment(link.href))
                collect(link.children)
            }
        }
        collect(publication.tableOfContents)
        return publication.readingOrder.last { tocHrefs.contains(withoutFragment($0.href)) } ?? publication.readingOrder.last
    }

    private static func withoutFragment(_ href: String) -> String {
        String(href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
