// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The listening state: where each book was left, its settings, in a SQLite file (`state.sqlite3`,
/// `SQLiteConnection`). WAL mode and a busy timeout, so several raudio processes share it without
/// "database is locked"; a versioned schema migrated on open.
///
/// Opening never stops playback: a directory that cannot be written gives a warning and no store; a
/// damaged file is moved aside (`state.sqlite3.corrupt-DATE`) with a warning and a new one made.
/// Calls block briefly (a write is a few hundred microseconds): make them from a task, never from the
/// render thread. Thread-safe.
public final class ListeningStateStore: Sendable {
    public let file: URL
    let database: SQLiteConnection

    private init(file: URL, database: SQLiteConnection) {
        self.file = file
        self.database = database
    }

    /// Opens (or creates) the store in `directory`; nil and warnings when it cannot be used.
    ///
    /// The folder must be the user's (it is made 0700) and the file a regular file, never followed
    /// through a symbolic link (`StateFileSafety`). A file SQLite calls damaged, one that fails
    /// `PRAGMA quick_check`, or one whose rows cannot be decoded (text where a number belongs) is
    /// moved aside and a new one made, with a warning.
    public static func open(directory: URL) -> (store: ListeningStateStore?, warnings: [String]) {
        let file = directory.appendingPathComponent(StateDirectory.fileName)
        do {
            try StateFileSafety.prepareDirectory(directory)
            try StateFileSafety.checkFile(file)
        } catch {
            return (nil, ["\(error.message); playing without it"])
        }
        do {
            let store = try ListeningStateStore(file: file, database: openDatabase(file))
            try store.checkReadable()
            return (store, [])
        } catch let error where isDamage(error) {
            let aside = file.deletingLastPathComponent().appendingPathComponent("\(StateDirectory.fileName).corrupt-\(Self.timestamp())")
            do {
                try FileManager.default.moveItem(at: file, to: aside)
                for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
                try StateFileSafety.checkFile(file)
                let store = try ListeningStateStore(file: file, database: openDatabase(file))
                return (store, ["\(file.path) was damaged (\(describeDamage(error))); moved aside to \(aside.lastPathComponent), a new one was made"])
            } catch {
                return (nil, ["\(file.path) is damaged and could not be replaced (\(Self.describe(error))); playing without listening state"])
            }
        } catch {
            return (nil, ["the listening state in \(file.path) cannot be used (\(Self.describe(error))); playing without it"])
        }
    }

    /// Whether `error` says the file is damaged rather than unreachable (locked, unwritable).
    private static func isDamage(_ error: any Error) -> Bool {
        (error as? StateStoreError)?.code == .stateDamaged
    }

    private static func describeDamage(_ error: any Error) -> String {
        (error as? StateStoreError)?.message ?? "\(error)"
    }

    /// Reads everything once: the structure (`PRAGMA quick_check`, a few milliseconds for a player's
    /// store) and every book and bookmark row, so a damaged file is found at open, not by each later
    /// command.
    private func checkReadable() throws {
        try database.read { db in
            let check = try db.column("PRAGMA quick_check", as: String.self)
            guard check == ["ok"] else {
                throw StateStoreError(.stateDamaged, subject: file.path, message: "quick_check: \(check.prefix(3).joined(separator: "; "))")
            }
            _ = try db.rows("SELECT * FROM book").map(StateSchema.book)
            _ = try db.rows("SELECT * FROM bookmark").map(StateSchema.bookmark)
        }
    }

    /// Opens the connection, retrying for up to 5 s while another process holds a lock that SQLite's busy
    /// handler does not wait for (two players creating the file, or switching it to WAL, at once).
    private static func openDatabase(_ file: URL) throws -> SQLiteConnection {
        var attempt = 0
        while true {
            do {
                return try openDatabaseOnce(file)
            } catch let error as StateStoreError where error.code == .stateBusy && attempt < 50 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    private static func openDatabaseOnce(_ file: URL) throws -> SQLiteConnection {
        // One connection, waiting up to 10 s for another process's lock: a player makes a few small writes.
        let connection = try SQLiteConnection(path: file.path, busyTimeoutMilliseconds: 10_000)
        try connection.withDatabase { db in
            // WAL with NORMAL sync: readers and one writer of several processes at once, and a killed
            // process loses nothing committed.
            try db.execute("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = NORMAL")
            // The WAL is truncated to 1 MB after each checkpoint rather than kept at its largest.
            try db.execute("PRAGMA journal_size_limit = 1048576")
            try db.execute("PRAGMA foreign_keys = ON")
        }
        try StateSchema.migrations.migrate(connection)
        return connection
    }

    // MARK: - Books

    public func book(key: String) throws -> BookRecord? {
        try database.read { db in try db.rows("SELECT * FROM book WHERE key = ?", [key]).first.map(StateSchema.book) }
    }

    /// Records that a book was opened now from `path` (its title and path updated), keeping its position.
    public func opened(key: String, title: String, path: String, mode: String, at time: Double = Date().timeIntervalSince1970) throws {
        try database.write { db in
            try db.execute("""
                INSERT INTO book (key, title, path, mode, lastOpened) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(key) DO UPDATE SET title = excluded.title, path = excluded.path, mode = excluded.mode, lastOpened = excluded.lastOpened
                """, [key, title, path, mode, time])
        }
    }

    public func save(_ position: SavedPosition, key: String, at time: Double = Date().timeIntervalSince1970) throws {
        try database.write { db in
            try db.execute("""
                UPDATE book SET locator = ?, audioLocator = ?, progression = ?, finished = ?, savedAt = ? WHERE key = ?
                """, [position.locator, position.audioLocator, position.progression, position.finished, time, key])
        }
    }

    public func save(_ settings: BookSettings, key: String) throws {
        try database.write { db in
            try db.execute("""
                UPDATE book SET speed = coalesce(?, speed), volume = coalesce(?, volume), voice = coalesce(?, voice), pitch = coalesce(?, pitch) WHERE key = ?
                """, [settings.speed, settings.volume, settings.voice, settings.pitch, key])
        }
    }

    // MARK: - Bookmarks

    /// Adds a bookmark to the book `key` (which `opened` must have recorded).
    public func addBookmark(key: String, locator: String, note: String?, at time: Double = Date().timeIntervalSince1970) throws -> Bookmark {
        try database.write { db in
            try db.execute("INSERT INTO bookmark (bookKey, locator, note, created) VALUES (?, ?, ?, ?)", [key, locator, note, time])
            return Bookmark(id: db.lastInsertedRowID, locator: locator, note: note, created: time)
        }
    }

    /// The book's bookmarks, oldest first.
    public func bookmarks(key: String) throws -> [Bookmark] {
        try database.read { db in
            try db.rows("SELECT * FROM bookmark WHERE bookKey = ? ORDER BY id", [key]).map(StateSchema.bookmark)
        }
    }

    /// Deletes bookmark `id` of the book `key`; false when it has none of that id.
    public func deleteBookmark(id: Int64, key: String) throws -> Bool {
        try database.write { db in
            try db.execute("DELETE FROM bookmark WHERE id = ? AND bookKey = ?", [id, key])
            return db.changes > 0
        }
    }

    // MARK: - Loudness

    /// The measured loudness of the book's tracks, by href: (integrated LUFS, sample peak).
    public func loudness(key: String) throws -> [String: (integrated: Double, samplePeak: Double)] {
        try database.read { db in
            var result: [String: (integrated: Double, samplePeak: Double)] = [:]
            for row in try db.rows("SELECT href, integrated, samplePeak FROM loudness WHERE bookKey = ?", [key]) {
                result[try row.decode("href", as: String.self)] = try (row.decode("integrated"), row.decode("samplePeak"))
            }
            return result
        }
    }

    public func saveLoudness(key: String, href: String, integrated: Double, samplePeak: Double) throws {
        try database.write { db in
            try db.execute("INSERT OR REPLACE INTO loudness (bookKey, href, integrated, samplePeak) VALUES (?, ?, ?, ?)",
                           [key, href, integrated, samplePeak])
        }
    }

    /// Every book, the most recently opened first.
    public func history() throws -> [BookRecord] {
        try database.read { db in try db.rows("SELECT * FROM book ORDER BY lastOpened DESC").map(StateSchema.book) }
    }

    /// Moves the WAL's pages into the database file and truncates the WAL (for measurements, backups).
    public func checkpoint() throws {
        try database.withDatabase { db in try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// `PRAGMA integrity_check`: "ok" when the file is sound.
    public func integrityCheck() throws -> String {
        try database.read { db in try db.column("PRAGMA integrity_check", as: String.self).first ?? "no answer" }
    }

    // MARK: - Words

    static func describe(_ error: any Error) -> String {
        if let error = error as? StateStoreError { return error.message }
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return (error as NSError).localizedDescription
    }

    private static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: Date())
    }
}
