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

    static func bookmark(_ row: Row) -> Bookmark {
        Bookmark(id: row["id"], locator: row["locator"], note: row["note"], created: row["created"])
    }

    static func book(_ row: Row) -> BookRecord {
        var book = BookRecord(key: row["key"], title: row["title"], path: row["path"], mode: row["mode"], lastOpened: row["lastOpened"])
        book.locator = row["locator"]
        book.audioLocator = row["audioLocator"]
        book.progression = row["progression"]
        book.savedAt = row["savedAt"]
        book.finished = row["finished"]
        book.speed = row["speed"]
        book.volume = row["volume"]
        book.voice = row["voice"]
        book.pitch = row["pitch"]
        return book
    }
}
