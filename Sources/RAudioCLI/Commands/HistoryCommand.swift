// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Foundation
import RAudioPlayer
import RAudioState
import ReadiumShared

/// `raudio history`: the books the listening state remembers, most recently opened first.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the books raudio remembers (where each was left) as JSON lines or, with --human, a table.",
        discussion: """
            Each line is an object with "title", "path", "mode" (play, speak or narration), "locator" (where \
            it was left, a Readium Locator), "progression" (0 to 1, when known), "lastOpened" (ISO 8601), \
            "finished", and the remembered "speed", "volume", "voice" and "pitch". The store is at \
            $RAUDIO_STATE_DIR, else $XDG_STATE_HOME/raudio, else ~/.local/state/raudio; delete its \
            state.sqlite3 to forget everything.
            """
    )

    @Option(help: ArgumentHelp("The listening-state directory (as play and speak take it).", valueName: "directory"))
    var stateDir: String?

    @Flag(help: "Print a readable table instead of JSON lines.")
    var human = false

    func run() throws {
        let directory = StateDirectory.resolve(option: stateDir)
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(StateDirectory.fileName).path) else {
            if human { try? StandardStreams.printLine("No books yet: raudio remembers a book once it has played it (\(directory.path)).") }
            return
        }
        let (store, warnings) = ListeningStateStore.open(directory: directory)
        for warning in warnings { StandardStreams.printError("raudio: warning: \(warning)") }
        guard let store else {
            throw CommandFailure(.badData, code: "state-unreadable", message: "the listening state in \(directory.path) cannot be read")
        }
        let books: [BookRecord]
        do {
            books = try store.history()
        } catch {
            throw CommandFailure(.badData, code: "state-unreadable", message: "\(store.file.path): \(error)")
        }
        do {
            if human {
                try StandardStreams.printLine(books.isEmpty ? "No books yet: raudio remembers each book it plays or reads aloud." : Self.table(books))
            } else {
                for book in books { try StandardStreams.printLine(Self.json(book).serialized()) }
            }
        } catch {
            // The reader of stdout went away.
        }
    }

    static func json(_ book: BookRecord) -> JSONValue {
        var object = JSONObject()
        object["title"] = .string(book.title)
        object["path"] = .string(book.path)
        object["identifier"] = .string(book.key)
        object["mode"] = .string(book.mode)
        object["locator"] = book.locator.flatMap { try? JSONParser.parse($0) } ?? .null
        if let audio = book.audioLocator.flatMap({ try? JSONParser.parse($0) }) { object["audioLocator"] = audio }
        object["progression"] = book.progression.map(JSONValue.number) ?? .null
        object["lastOpened"] = .string(isoDate(book.lastOpened))
        object["finished"] = .bool(book.finished)
        if let speed = book.speed { object["speed"] = .number(speed) }
        if let volume = book.volume { object["volume"] = .number(volume) }
        if let voice = book.voice { object["voice"] = .string(voice) }
        if let pitch = book.pitch { object["pitch"] = .number(pitch) }
        return .object(object)
    }

    static func table(_ books: [BookRecord]) -> String {
        let rows = [["LAST OPENED", "DONE", "WHERE", "TITLE"]] + books.map { book in
            let done = book.finished ? "100%" : book.progression.map { String(format: "%.0f%%", $0 * 100) } ?? "-"
            // Book text: without the control codes a terminal would obey (`TerminalText`).
            return [String(isoDate(book.lastOpened).prefix(16)).replacingOccurrences(of: "T", with: " "), done,
                    TerminalText.printable(place(book)), TerminalText.printable(book.title)]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in (0..<3).map { row[$0].padding(toLength: widths[$0] + 2, withPad: " ", startingAt: 0) }.joined() + row[3] }
            .joined(separator: "\n")
    }

    /// The saved place, as a person reads it and as the resume line says it (`SavedPlaces`).
    private static func place(_ book: BookRecord) -> String {
        guard let json = book.locator, let locator = try? Locator(jsonString: json) else { return "-" }
        return SavedPlaces(path: book.path).describe(locator)
    }

    private static func isoDate(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
