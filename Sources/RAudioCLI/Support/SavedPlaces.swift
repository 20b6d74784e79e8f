// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared

/// A book's saved places (`history`, `bookmarks`) said as the resume line says them (`PlaceDescription`):
/// for audio the chapter and the time into it, for text the chapter beside the sentence. The chapters
/// come from the book, opened again (a local file only; nothing is fetched) when a place needs them.
final class SavedPlaces {
    private let publication: Publication?

    /// Audio: the table of contents on the reading order's timeline (the manifest's durations; none probed).
    private lazy var audioChapters: ChapterMap? = publication.map { publication in
        ChapterMap(publication: publication,
                   timeline: PlaybackTimeline(readingOrder: publication.readingOrder, tableOfContents: publication.tableOfContents))
    }

    /// Text: the table of contents with its `#id` entries placed (parses the documents that hold them).
    private lazy var textChapters: ChapterMap? = publication.map { ChapterMap(publication: $0).placingFragments(of: $0) }

    init(publication: Publication?) {
        self.publication = publication
    }

    /// The places of the book at `path` (a file or folder; a URL or a book that cannot be opened any more
    /// gives the places as their locators say them).
    convenience init(path: String) {
        var publication: Publication?
        if !Href.isRemote(path), FileManager.default.fileExists(atPath: path) {
            publication = try? PublicationLoading.open(path: path, checksContentDocuments: false, opensLocked: true)
        }
        self.init(publication: publication)
    }

    func describe(_ locator: Locator) -> String {
        if locator.type.hasPrefix("audio/") { return PlaceDescription.describe(locator, chapters: audioChapters) }
        // A text place saved with its chapter's title needs no document parsed.
        return PlaceDescription.describe(locator, chapters: locator.title == nil ? textChapters : nil)
    }
}
