// SPDX-License-Identifier: GPL-3.0-or-later
import CSQLite
import Foundation
import ReadiumShared

/// The domain of `StateStoreError`; its codes are words of `RAudioErrorCode`.
public enum StateStoreErrorDomain: RAudioErrorDomain {}

/// An error of the listening state's store: the file as its subject, SQLite's extended result code as
/// its status.
public typealias StateStoreError = RAudioError<StateStoreErrorDomain>

/// One connection to a SQLite file, its calls made one at a time under a lock: the store's few small
/// reads and writes need no pool. Opened with `SQLITE_OPEN_NOFOLLOW` (a symbolic link in place of the file
/// is refused by SQLite itself too), extended result codes and a busy timeout.
final class SQLiteConnection: @unchecked Sendable {
    let path: String
    private let handle: OpaquePointer
    private let lock = NSLock()

    init(path: String, busyTimeoutMilliseconds: Int32) throws(StateStoreError) {
        self.path = path
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw Self.error(status: status, message: message, path: path)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `body` alone on the connection, outside any transaction.
    func withDatabase<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(SQLiteDatabase(handle: handle, path: path))
    }

    /// Runs `body` in a transaction that sees one state of the file.
    func read<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try transaction("BEGIN DEFERRED", body)
    }

    /// Runs `body` in a write transaction (taken at once, so two processes never deadlock upgrading a
    /// read to a write); everything or nothing of it is kept.
    func write<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    private func transaction<T>(_ begin: String, _ body: (SQLiteDatabase) throws -> T) throws -> T {
        try withDatabase { database in
            try database.execute(begin)
            do {
                let result = try body(database)
                try database.execute("COMMIT")
                return result
            } catch {
                if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
                throw error
            }
        }
    }

    static func error(status: Int32, message: String, path: String) -> StateStoreError {
        let code: StateStoreError.Code = switch status & 0xff {
        case SQLITE_CORRUPT, SQLITE_NOTADB: .stateDamaged
        case SQLITE_BUSY, SQLITE_LOCKED: .stateBusy
        default: .stateFailed
        }
        return StateStoreError(code, subject: path, message: message, underlyingStatus: status)
    }
}

/// A value as SQLite stores it.
enum SQLiteValue: Equatable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    var description: String {
        switch self {
        case .null: "NULL"
        case let .integer(value): "the integer \(value)"
        case let .real(value): "the real \(value)"
        case let .text(value): "the text '\(value.prefix(40))'"
        case let .blob(value): "a blob of \(value.count) bytes"
        }
    }
}

/// A Swift type stored in a column: how it is bound, and read back (nil when the stored value is not
/// one: text where a number belongs, a blob where a flag does).
protocol SQLiteColumnValue {
    var sqliteValue: SQLiteValue { get }
    static func fromSQLite(_ value: SQLiteValue) -> Self?
}

extension String: SQLiteColumnValue {
    var sqliteValue: SQLiteValue { .text(self) }
    static func fromSQLite(_ value: SQLiteValue) -> String? {
        if case let .text(text) = value { return text }
        return nil
    }
}

extension Double: SQLiteColumnValue {
    var sqliteValue: SQLiteValue { .real(self) }
    static func fromSQLite(_ value: SQLiteValue) -> Double? {
        switch value {
        case let .real(number): number
        case let .integer(number): Double(number)
        default: nil
        }
    }
}

extension Int64: SQLiteColumnValue {
    var sqliteValue: SQLiteValue { .integer(self) }
    static func fromSQLite(_ value: SQLiteValue) -> Int64? {
        switch value {
        case let .integer(number): number
        case let .real(number): Int64(exactly: number)
        default: nil
        }
    }
}

extension Bool: SQLiteColumnValue {
    var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    static func fromSQLite(_ value: SQLiteValue) -> Bool? {
        switch value {
        case let .integer(number): number != 0
        case let .real(number): number != 0
        default: nil
        }
    }
}

extension Optional: SQLiteColumnValue where Wrapped: SQLiteColumnValue {
    var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    static func fromSQLite(_ value: SQLiteValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.fromSQLite(value).map { .some($0) }
    }
}

/// One row of a query's result: its columns' names and values, in the query's order.
struct SQLiteRow {
    var names: [String]
    var values: [SQLiteValue]
    var path: String

    /// The column's value as a `T`; a `damaged` error when the column is missing or holds what a `T`
    /// cannot be (text in a number's column, NULL where a value belongs).
    func decode<T: SQLiteColumnValue>(_ column: String, as type: T.Type = T.self) throws(StateStoreError) -> T {
        try decode(at: names.firstIndex(of: column), named: column)
    }

    /// The first column's value as a `T` (a `damaged` error as `decode(_:as:)`).
    func first<T: SQLiteColumnValue>(as type: T.Type = T.self) throws(StateStoreError) -> T {
        try decode(at: values.isEmpty ? nil : 0, named: names.first ?? "1")
    }

    private func decode<T: SQLiteColumnValue>(at index: Int?, named column: String) throws(StateStoreError) -> T {
        let value = index.map { values[$0] } ?? .null
        guard let decoded = T.fromSQLite(value) else {
            throw StateStoreError(.stateDamaged, subject: path, message: "the column \(column) holds \(value) where \(T.self) belongs")
        }
        return decoded
    }
}

/// The connection while its lock is held: statements run, rows read.
struct SQLiteDatabase {
    fileprivate let handle: OpaquePointer
    let path: String

    /// Runs `sql` (several statements when there are no arguments); returns nothing.
    func execute(_ sql: String, _ arguments: [any SQLiteColumnValue] = []) throws(StateStoreError) {
        if arguments.isEmpty {
            var message: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(handle, sql, nil, nil, &message)
            defer { sqlite3_free(message) }
            guard status == SQLITE_OK else {
                throw SQLiteConnection.error(status: status, message: message.map { String(cString: $0) } ?? errorMessage, path: path)
            }
            return
        }
        _ = try rows(sql, arguments)
    }

    /// Runs one statement and returns its rows.
    func rows(_ sql: String, _ arguments: [any SQLiteColumnValue] = []) throws(StateStoreError) -> [SQLiteRow] {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil))
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            let status: Int32 = switch argument.sqliteValue {
            case .null: sqlite3_bind_null(statement, position)
            case let .integer(value): sqlite3_bind_int64(statement, position, value)
            case let .real(value): sqlite3_bind_double(statement, position, value)
            case let .text(value): sqlite3_bind_text(statement, position, value, -1, raudio_sqlite_transient())
            case let .blob(value): value.withUnsafeBytes {
                    sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), raudio_sqlite_transient())
                }
            }
            try check(status)
        }
        var result: [SQLiteRow] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return result }
            guard status == SQLITE_ROW else { throw SQLiteConnection.error(status: status, message: errorMessage, path: path) }
            let columns = 0..<sqlite3_column_count(statement)
            result.append(SQLiteRow(names: columns.map { String(cString: sqlite3_column_name(statement, $0)) },
                                    values: columns.map { Self.value(statement, $0) }, path: path))
        }
    }

    /// The first column of each row, as `T`.
    func column<T: SQLiteColumnValue>(_ sql: String, _ arguments: [any SQLiteColumnValue] = [], as type: T.Type = T.self) throws(StateStoreError) -> [T] {
        var values: [T] = []
        for row in try rows(sql, arguments) { values.append(try row.first(as: T.self)) }
        return values
    }

    /// The row id of the last row inserted.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// The rows the last statement changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    private func check(_ status: Int32) throws(StateStoreError) {
        guard status == SQLITE_OK else { throw SQLiteConnection.error(status: status, message: errorMessage, path: path) }
    }

    private static func value(_ statement: OpaquePointer?, _ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, column)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob([UInt8](UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}

/// Versioned migrations: each runs once, in order, recorded by its identifier in the table
/// `grdb_migrations` (the name and layout GRDB's migrator gave it, so files written by raudio 0.x with
/// GRDB open unchanged). All of them run in one write transaction: a second process opening the same
/// new file waits for it, then finds nothing left to do.
struct SQLiteMigrations {
    var steps: [(identifier: String, sql: String)] = []

    mutating func register(_ identifier: String, sql: String) {
        steps.append((identifier, sql))
    }

    /// The identifiers applied to the file, in the order they were.
    static func applied(_ database: SQLiteDatabase) throws(StateStoreError) -> [String] {
        try database.column("SELECT identifier FROM grdb_migrations ORDER BY rowid", as: String.self)
    }

    func migrate(_ connection: SQLiteConnection) throws {
        try connection.write { database in
            try database.execute("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = Set(try Self.applied(database))
            for step in steps where !applied.contains(step.identifier) {
                try database.execute(step.sql)
                try database.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", [step.identifier])
            }
        }
    }
}
