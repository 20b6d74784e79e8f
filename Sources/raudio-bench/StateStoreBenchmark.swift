// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioState
import ReadiumShared

/// `state-store DIR [--books 10000] [--saves 500]`: fills a listening-state store in DIR with BOOKS
/// books (each with a position; then 3 bookmarks each, measured apart), then times one position save (what a playing session
/// does every 15 s) and the opening of the store with a book lookup (what `play` does before the first
/// audio), and reports the file's size.
struct StateStoreBenchmark {
    let directory: URL
    let books: Int
    let saves: Int

    init(arguments: BenchmarkArguments) throws(BenchmarkError) {
        directory = URL(fileURLWithPath: try arguments.path("state DIRECTORY"))
        books = try arguments.integer("books", default: 10_000)
        saves = try arguments.integer("saves", default: 500)
    }

    func run() throws(BenchmarkError) {
        try? FileManager.default.removeItem(at: directory)
        let (opened, warnings) = ListeningStateStore.open(directory: directory)
        guard let store = opened else { throw .failed("the store could not be opened: \(warnings.joined(separator: "; "))") }
        let locator = #"{"href":"track-042.mp3","type":"audio/mpeg","title":"Chapter 42","locations":{"fragments":["t=1234.567"],"progression":0.4,"totalProgression":0.42}}"#
        let clock = ContinuousClock()
        let fillStart = clock.now
        do {
            for index in 0..<books {
                let key = "urn:uuid:book-\(index)"
                try store.opened(key: key, title: "Book \(index): a title of ordinary length", path: "/home/listener/Audiobooks/book-\(index).audiobook", mode: "play",
                                 at: 1_700_000_000 + Double(index))
                try store.save(SavedPosition(locator: locator, progression: 0.42), key: key)
            }
            try store.checkpoint()
        } catch {
            throw .failed("filling the store failed: \(error)")
        }
        let booksBytes = size()
        do {
            for index in 0..<books {
                for _ in 0..<3 { _ = try store.addBookmark(key: "urn:uuid:book-\(index)", locator: locator, note: "a note") }
            }
            try store.checkpoint()
        } catch {
            throw .failed("adding bookmarks failed: \(error)")
        }
        let withBookmarksBytes = size()
        let fillSeconds = (clock.now - fillStart).milliseconds / 1000
        var saveTimes: [Double] = []
        do {
            for index in 0..<saves {
                let start = clock.now
                try store.save(SavedPosition(locator: locator, progression: Double(index) / Double(saves)), key: "urn:uuid:book-\(index % books)")
                saveTimes.append((clock.now - start).milliseconds)
            }
        } catch {
            throw .failed("a save failed: \(error)")
        }
        // What `play` does before the first audio: open the store, find the book, record the opening.
        var openTimes: [Double] = []
        for _ in 0..<20 {
            let start = clock.now
            let (again, _) = ListeningStateStore.open(directory: directory)
            _ = try? again?.book(key: "urn:uuid:book-\(books / 2)")
            try? again?.opened(key: "urn:uuid:book-\(books / 2)", title: "Book", path: "/p", mode: "play")
            openTimes.append((clock.now - start).milliseconds)
        }
        BenchmarkRunner.emit([
            "measurement": "state-store",
            "books": .integer(Int64(books)),
            "bookmarks": .integer(Int64(books * 3)),
            "fillSeconds": .number(of: fillSeconds),
            "saveMs": Statistics(saveTimes).json,
            "openAndLookupMs": Statistics(openTimes).json,
            "bytes": .integer(Int64(booksBytes)),
            "bytesWithBookmarks": .integer(Int64(withBookmarksBytes)),
        ])
    }

    /// The store's files on disk: the database, its WAL and shared-memory index.
    private func size() -> Int {
        let file = directory.appendingPathComponent(StateDirectory.fileName).path
        return ["", "-wal", "-shm"].compactMap { try? FileManager.default.attributesOfItem(atPath: file + $0)[.size] as? Int }.reduce(0, +)
    }
}
