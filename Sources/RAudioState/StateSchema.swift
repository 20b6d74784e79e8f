// SPDX-License-Identifier: GPL-3.0-or-later
import GRDB

/// The store's tables, created and upgraded by versioned migrations (never edit a shipped one: add
/// the next).
enum StateSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: books") { db in
            try db.execute(sql: """
                CREATE TABLE book (
                    key TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    path TEXT NOT NULL,
                    mode TEXT NOT NULL,
                    locator TEXT,
                    audioLocator TEXT,
                    progression REAL,
                    lastOpened REAL NOT NULL,
                    savedAt REAL,
                    finished INTEGER NOT NULL DEFAULT 0,
                    speed REAL,
                    volume REAL,
                    voice TEXT,
                    pitch REAL
                );
                CREATE INDEX book_lastOpened ON book(lastOpened);
                """)
        }
        migrator.registerMigration("v2: bookmarks") { db in
            try db.execute(sql: """
                CREATE TABLE bookmark (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    bookKey TEXT NOT NULL REFERENCES book(key) ON DELETE CASCADE,
                    locator TEXT NOT NULL,
                    note TEXT,
                    created REAL NOT NULL
                );
                CREATE INDEX bookmark_bookKey ON bookmark(bookKey);
                """)
        }
        migrator.registerMigration("v3: loudness") { db in
            try db.execute(sql: """
                CREATE TABLE loudness (
                    bookKey TEXT NOT NULL REFERENCES book(key) ON DELETE CASCADE,
                    href TEXT NOT NULL,
                    integrated REAL NOT NULL,
                    samplePeak REAL NOT NULL,
                    PRIMARY KEY (bookKey, href)
                );
                """)
        }
        return migrator
    }

    /// A bookmark row; throws `RowDecodingError` when a column holds what it cannot (a damaged file).
    static func bookmark(_ row: Row) throws -> Bookmark {
        try Bookmark(id: row.decode(forColumn: "id"), locator: row.decode(forColumn: "locator"),
                     note: row.decode(forColumn: "note"), created: row.decode(forColumn: "created"))
    }

    /// A book row; throws `RowDecodingError` when a column holds what it cannot (a damaged file).
    static func book(_ row: Row) throws -> BookRecord {
        var book = try BookRecord(key: row.decode(forColumn: "key"), title: row.decode(forColumn: "title"), path: row.decode(forColumn: "path"),
                                  mode: row.decode(forColumn: "mode"), lastOpened: row.decode(forColumn: "lastOpened"))
        book.locator = try row.decode(forColumn: "locator")
        book.audioLocator = try row.decode(forColumn: "audioLocator")
        book.progression = try row.decode(forColumn: "progression")
        book.savedAt = try row.decode(forColumn: "savedAt")
        book.finished = try row.decode(forColumn: "finished")
        book.speed = try row.decode(forColumn: "speed")
        book.volume = try row.decode(forColumn: "volume")
        book.voice = try row.decode(forColumn: "voice")
        book.pitch = try row.decode(forColumn: "pitch")
        return book
    }
}
