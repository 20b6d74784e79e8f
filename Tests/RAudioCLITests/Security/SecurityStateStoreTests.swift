// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioState
import RAudioTestSupport
import ReadiumShared
import Testing

/// The listening-state store is never opened through a symbolic link, lives in a private folder, and
/// a damaged file (garbage in its pages, rows that cannot be decoded) is moved aside with a warning and
/// replaced, instead of disabling the store on every run.
@Suite struct SecurityStateStoreTests {
    static func raudio(_ arguments: [String], state: URL) throws -> ProcessResult {
        try ProcessRunner.raudio(arguments, environment: ["RAUDIO_STATE_DIR": state.path], timeout: 60)
    }

    /// A state folder with one book in its store (made by a real run).
    static func stateWithOneBook() throws -> TemporaryDirectory {
        let state = try TemporaryDirectory()
        let first = try raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--duration", "1", "--json", "--no-mpris"], state: state.url)
        try #require(first.status == 0, "\(first.standardError)")
        return state
    }

    static func sqlite(_ file: URL, _ sql: String) throws {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [file.path, sql])
        try #require(result.status == 0, "\(result.standardError)")
    }

    @Test func aSymbolicLinkInPlaceOfTheStoreIsNotFollowed() throws {
        let state = try TemporaryDirectory(), elsewhere = try TemporaryDirectory()
        let target = elsewhere.url.appendingPathComponent("planted.sqlite3")
        try FileManager.default.createSymbolicLink(atPath: state.path(StateDirectory.fileName), withDestinationPath: target.path)
        let result = try Self.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--duration", "1", "--json", "--no-mpris"], state: state.url)
        #expect(result.status == 0, "playback goes on without the store: \(result.standardError)")
        #expect(result.standardError.contains("symbolic link"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: target.path), "raudio created the file the link points to")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).isEmpty)
    }

    @Test func aSymbolicLinkInPlaceOfTheWALIsRefused() throws {
        let state = try Self.stateWithOneBook(), elsewhere = try TemporaryDirectory()
        try? FileManager.default.removeItem(atPath: state.path(StateDirectory.fileName) + "-wal")
        try FileManager.default.createSymbolicLink(atPath: state.path(StateDirectory.fileName) + "-wal",
                                                   withDestinationPath: elsewhere.path("planted-wal"))
        let result = try Self.raudio(["history"], state: state.url)
        #expect(result.standardError.contains("not a regular file"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path("planted-wal")))
    }

    @Test func anOpenStateFolderIsMadePrivate() throws {
        let state = try Self.stateWithOneBook()
        chmod(state.url.path, 0o777)
        let result = try Self.raudio(["history"], state: state.url)
        #expect(result.status == 0, "\(result.standardError)")
        var info = stat()
        #expect(stat(state.url.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700, "mode \(String(info.st_mode & 0o777, radix: 8))")
    }

    @Test(arguments: ["UPDATE book SET lastOpened = 'yesterday'", "UPDATE book SET speed = 'fast'", "UPDATE book SET finished = x'00ff'"])
    func aRowThatCannotBeDecodedIsDamageMovedAside(sql: String) throws {
        let state = try Self.stateWithOneBook()
        try Self.sqlite(state.url.appendingPathComponent(StateDirectory.fileName), "PRAGMA ignore_check_constraints=1; " + sql)
        let history = try Self.raudio(["history"], state: state.url)
        #expect(history.status == 0, "\(sql): \(history.standardError)")
        #expect(history.standardError.contains("moved aside"), "\(sql): \(history.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: state.url.path)
        #expect(files.contains { $0.hasPrefix("state.sqlite3.corrupt-") }, "\(files)")
        let again = try Self.raudio(["history"], state: state.url)
        #expect(again.status == 0 && !again.standardError.contains("damaged"), "the new store is sound: \(again.standardError)")
    }

    @Test func garbageInTheStoresPagesIsDamageMovedAside() throws {
        let state = try Self.stateWithOneBook()
        let file = state.url.appendingPathComponent(StateDirectory.fileName)
        try Self.sqlite(file, "PRAGMA wal_checkpoint(TRUNCATE)")
        var bytes = try [UInt8](Data(contentsOf: file))
        try #require(bytes.count > 8192)
        var generator = SplitMix64(seed: 35)
        // Page 1 (the header and schema) stays; every later page is overwritten.
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
        try Data(bytes).write(to: file)
        let history = try Self.raudio(["history"], state: state.url)
        #expect(history.status == 0, "\(history.standardError)")
        #expect(history.standardError.contains("moved aside"), "\(history.standardError)")
        let bookmarks = try Self.raudio(["bookmarks", PlayCommandTests.sampleBook], state: state.url)
        #expect(bookmarks.status == 0, "\(bookmarks.standardError)")
    }
}
