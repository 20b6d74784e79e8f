// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioPlayer
import RAudioState
import ReadiumShared

/// `raudio bookmarks [BOOK]`: a book's bookmarks from the listening state, or every book's; `--delete ID` removes one.
struct BookmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "List a book's bookmarks (every book's without BOOK) as JSON lines or, with --human, a table; --delete ID removes one.",
        discussion: """
            Bookmarks are made while playing or speaking with the stdin command `bookmark [note]` (see \
            docs/events.md). Each line is an object with "id", "locator" (a Readium Locator: an audio \
            position, or a text locator quoting the sentence), "note" and "created"; without BOOK, also "book" \
            (its "title" and "path"), most recently opened book first.
            """
    )

    @Argument(help: "The book, as given to play or speak (it is known by its identifier, wherever it lies now); every book's bookmarks without it.")
    var path: String?

    @Option(help: ArgumentHelp("The listening-state directory (as play and speak take it).", valueName: "directory"))
    var stateDir: String?

    @Option(help: "Delete the bookmark with this id.")
    var delete: Int64?

    @Flag(help: "Print a readable table instead of JSON lines.")
    var human = false

    func run() throws {
        let directory = StateDirectory.resolve(option: stateDir)
        let (store, warnings) = ListeningStateStore.open(directory: directory)
        for warning in warnings { StandardStreams.printError("raudio: warning: \(warning)") }
        guard let store else {
            throw CommandFailure(.badData, code: "state-unreadable", message: "the listening state in \(directory.path) cannot be read")
        }
        guard let path else { return try listEveryBook(store) }
        // Only its identity is needed: an LCP book is not unlocked for it.
        let publication = try PublicationLoading.open(path: path, checksContentDocuments: false, opensLocked: true)
        let key = BookIdentity.key(for: publication)
        do {
            if let delete {
                guard try store.deleteBookmark(id: delete, key: key) else {
                    throw CommandFailure(.usage, code: "bookmark-not-found", message: "\(path): has no bookmark \(delete); `raudio bookmarks \(path)` lists them")
                }
                return
            }
            let bookmarks = try store.bookmarks(key: key)
            if human {
                try? StandardStreams.printLine(bookmarks.isEmpty ? "No bookmarks for \(TerminalText.printable(publication.title))." : Self.table(bookmarks, places: SavedPlaces(publication: publication)))
            } else {
                for bookmark in bookmarks { try? StandardStreams.printLine(JSONValue.object(bookmark.json).serialized()) }
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(.badData, code: "state-unreadable", message: "\(store.file.path): \(error)")
        }
    }

    /// Every book's bookmarks (the books of `history`, most recently opened first); `--delete ID` finds its book.
    private func listEveryBook(_ store: ListeningStateStore) throws {
        do {
            let books = try store.history()
            if let delete {
                for book in books where try store.deleteBookmark(id: delete, key: book.key) { return }
                throw CommandFailure(.usage, code: "bookmark-not-found", message: "there is no bookmark \(delete); `raudio bookmarks` lists them")
            }
            var sections: [String] = []
            for book in books {
                let bookmarks = try store.bookmarks(key: book.key)
                guard !bookmarks.isEmpty else { continue }
                if human {
                    sections.append(TerminalText.printable("\(book.title) (\(book.path))") + "\n" + Self.table(bookmarks, places: SavedPlaces(path: book.path)))
                } else {
                    for bookmark in bookmarks {
                        var object = bookmark.json
                        object["book"] = .object(["title": .string(book.title), "path": .string(book.path)])
                        try? StandardStreams.printLine(JSONValue.object(object).serialized())
                    }
                }
            }
            if human { try? StandardStreams.printLine(sections.isEmpty ? "No bookmarks." : sections.joined(separator: "\n\n")) }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(.badData, code: "state-unreadable", message: "\(store.file.path): \(error)")
        }
    }

    /// The bookmarks' places said as the resume line says them (`SavedPlaces`).
    static func table(_ bookmarks: [Bookmark], places: SavedPlaces = SavedPlaces(publication: nil)) -> String {
        let rows = [["ID", "CREATED", "WHERE", "NOTE"]] + bookmarks.map { bookmark in
            let place = (try? Locator(jsonString: bookmark.locator)).map(places.describe) ?? "-"
            let created = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: bookmark.created))
            // Book text and notes: without the control codes a terminal would obey (`TerminalText`).
            return [String(bookmark.id), String(created.prefix(16)).replacingOccurrences(of: "T", with: " "),
                    TerminalText.printable(place), TerminalText.printable(bookmark.note ?? "")]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in (0..<3).map { row[$0].padding(toLength: widths[$0] + 2, withPad: " ", startingAt: 0) }.joined() + row[3] }
            .joined(separator: "\n")
    }
}
