// SPDX-License-Identifier: GPL-3.0-or-later

/// The store's tables, created and upgraded by versioned migrations (never edit a shipped one: add
/// the next).
enum StateSchema {
    static var migrations: SQLiteMigrations {
        var migrations = SQLiteMigrations()
        migrations.register("v1: books", sql: """
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
        migrations.register("v2: bookmarks", sql: """
            CREATE TABLE bookmark (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                bookKey TEXT NOT NULL REFERENCES book(key) ON DELETE CASCADE,
                locator TEXT NOT NULL,
                note TEXT,
                created REAL NOT NULL
            );
            CREATE INDEX bookmark_bookKey ON bookmark(bookKey);
            """)
        migrations.register("v3: loudness", sql: """
            CREATE TABLE loudness (
                bookKey TEXT NOT NULL REFERENCES book(key) ON DELETE CASCADE,
                href TEXT NOT NULL,
                integrated REAL NOT NULL,
                samplePeak REAL NOT NULL,
                PRIMARY KEY (bookKey, href)
            );
            """)
        // Readium LCP: the SHA-256 of each passphrase that opened a licence (64 hexadecimal digits), never the
        // passphrase itself; looked up by licence id, then user and provider, then all.
        migrations.register("v4: lcp passphrases", sql: """
            CREATE TABLE lcp_passphrase (
                licenseID TEXT PRIMARY KEY NOT NULL,
                hash TEXT NOT NULL CHECK (length(hash) = 64),
                provider TEXT NOT NULL,
                userID TEXT,
                created REAL NOT NULL
            );
            CREATE INDEX lcp_passphrase_user ON lcp_passphrase(userID, provider);
            """)
        // Readium LCP's network part: this device's id, the licences it registered for, the characters copied
        // out of each licence (its `copy` right).
        migrations.register("v5: lcp loans", sql: """
            CREATE TABLE lcp_setting (
                name TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );
            CREATE TABLE lcp_registration (
                licenseID TEXT PRIMARY KEY NOT NULL,
                registered REAL NOT NULL
            );
            CREATE TABLE lcp_copy (
                licenseID TEXT PRIMARY KEY NOT NULL,
                copied INTEGER NOT NULL
            );
            """)
        return migrations
    }

    /// A bookmark row; throws a `damaged` error when a column holds what it cannot (a damaged file).
    static func bookmark(_ row: SQLiteRow) throws(StateStoreError) -> Bookmark {
        try Bookmark(id: row.decode("id"), locator: row.decode("locator"),
                     note: row.decode("note"), created: row.decode("created"))
    }

    /// A book row; throws a `damaged` error when a column holds what it cannot (a damaged file).
    static func book(_ row: SQLiteRow) throws(StateStoreError) -> BookRecord {
        var book = try BookRecord(key: row.decode("key"), title: row.decode("title"), path: row.decode("path"),
                                  mode: row.decode("mode"), lastOpened: row.decode("lastOpened"))
        book.locator = try row.decode("locator")
        book.audioLocator = try row.decode("audioLocator")
        book.progression = try row.decode("progression")
        book.savedAt = try row.decode("savedAt")
        book.finished = try row.decode("finished")
        book.speed = try row.decode("speed")
        book.volume = try row.decode("volume")
        book.voice = try row.decode("voice")
        book.pitch = try row.decode("pitch")
        return book
    }
}
