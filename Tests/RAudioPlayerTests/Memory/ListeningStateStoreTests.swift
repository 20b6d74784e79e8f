// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import RAudioState

/// The store's SQLite layer in the process: a file written by an earlier raudio (GRDB's migrator) opens
/// with its places and bookmarks, migrations run once even when several connections open a new file at
/// once, and values that are not what a column holds are damage, not a crash or a wrong place.
@Suite struct ListeningStateStoreTests {
    /// A state file made by raudio before it used SQLite directly (GRDB 7.10's migrator, WAL mode): one
    /// book of samples/gull-rock.audiobook, its place, and one bookmark "first mark".
    static let fileWrittenByGRDB = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/state-written-by-grdb.sqlite3")
    static let gullRock = "urn:uuid:8ccfd066-7146-4fad-9f6f-fe780b58300c"

    @Test func aFileWrittenThroughGRDBOpensWithItsPlaceAndBookmarks() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.copyItem(at: Self.fileWrittenByGRDB, to: folder.url.appendingPathComponent(StateDirectory.fileName))
        let opened = ListeningStateStore.open(directory: folder.url)
        #expect(opened.warnings.isEmpty, "\(opened.warnings)")
        let store = try #require(opened.store)
        let book = try #require(try store.book(key: Self.gullRock))
        #expect(book.title == "The Last Lamp of Gull Rock" && book.mode == "play" && !book.finished)
        #expect(book.locator?.contains("01-the-storm.mp3") == true)
        let bookmarks = try store.bookmarks(key: Self.gullRock)
        #expect(bookmarks.map(\.id) == [1] && bookmarks.first?.note == "first mark")
        // Writing goes on where GRDB left off: the next bookmark id, no migration run twice.
        #expect(try store.addBookmark(key: Self.gullRock, locator: "{}", note: nil, at: 1).id == 2)
        #expect(try store.deleteBookmark(id: 1, key: Self.gullRock))
        #expect(try store.integrityCheck() == "ok")
        let connection = try SQLiteConnection(path: store.file.path, busyTimeoutMilliseconds: 1000)
        #expect(try connection.read(SQLiteMigrations.applied) == ["v1: books", "v2: bookmarks", "v3: loudness", "v4: lcp passphrases", "v5: lcp loans"])
    }

    @Test func eightConnectionsOpeningOneNewFileAtOnceMigrateItOnce() throws {
        let folder = try TemporaryDirectory()
        let stores = Locked<[ListeningStateStore]>([])
        let warnings = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let opened = ListeningStateStore.open(directory: folder.url)
            warnings.withLock { $0 += opened.warnings }
            if let store = opened.store { stores.withLock { $0.append(store) } }
        }
        #expect(warnings.withLock { $0 }.isEmpty, "\(warnings.withLock { $0 })")
        let all = stores.withLock { $0 }
        try #require(all.count == 8)
        try all[0].opened(key: "book", title: "Book", path: "/b.epub", mode: "speak", at: 1)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            _ = try? all[index].addBookmark(key: "book", locator: "{\"n\":\(index)}", note: nil, at: Double(index))
        }
        #expect(try all[7].bookmarks(key: "book").count == 8)
        let connection = try SQLiteConnection(path: all[0].file.path, busyTimeoutMilliseconds: 1000)
        #expect(try connection.read(SQLiteMigrations.applied) == ["v1: books", "v2: bookmarks", "v3: loudness", "v4: lcp passphrases", "v5: lcp loans"])
    }

    @Test func aValueOfTheWrongKindInAColumnIsDamageNamingTheColumn() throws {
        let folder = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: folder.path("t.sqlite3"), busyTimeoutMilliseconds: 1000)
        try connection.withDatabase { db in
            try db.execute("CREATE TABLE t (speed REAL, finished INTEGER, title TEXT); INSERT INTO t VALUES ('fast', x'00ff', NULL)")
        }
        let row = try #require(try connection.read { try $0.rows("SELECT * FROM t") }.first)
        for (column, decode) in [("speed", { _ = try row.decode("speed", as: Double?.self) }),
                                 ("finished", { _ = try row.decode("finished", as: Bool.self) }),
                                 ("title", { _ = try row.decode("title", as: String.self) })] as [(String, () throws -> Void)] {
            let error = try #require(throws: StateStoreError.self, Comment(rawValue: column)) { try decode() }
            #expect(error.code == .stateDamaged && error.message.contains(column), "\(error)")
        }
        #expect(try row.decode("title", as: String?.self) == nil, "NULL is nil where a value may be missing")
    }

    @Test func aWriteThatFailsMidwayKeepsNothingOfIt() throws {
        let folder = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: folder.path("t.sqlite3"), busyTimeoutMilliseconds: 1000)
        try connection.withDatabase { try $0.execute("CREATE TABLE t (n INTEGER NOT NULL)") }
        #expect(throws: StateStoreError.self) {
            try connection.write { db in
                try db.execute("INSERT INTO t VALUES (?)", [Int64(1)])
                try db.execute("INSERT INTO t VALUES (?)", [Int64?.none])
            }
        }
        #expect(try connection.read { try $0.column("SELECT count(*) FROM t", as: Int64.self) } == [0])
        try connection.write { try $0.execute("INSERT INTO t VALUES (?)", [Int64(2)]) }
        #expect(try connection.read { try $0.column("SELECT n FROM t", as: Int64.self) } == [2])
    }

    @Test func aFileThatIsNotADatabaseIsDamage() throws {
        let folder = try TemporaryDirectory()
        try Data(repeating: 0x41, count: 8192).write(to: folder.url.appendingPathComponent(StateDirectory.fileName))
        let opened = ListeningStateStore.open(directory: folder.url)
        #expect(opened.store != nil)
        #expect(opened.warnings.count == 1 && opened.warnings[0].contains("moved aside"), "\(opened.warnings)")
    }
}
