// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared
import Testing

/// `--cache-size`: the speech cache trimmed to a size, the utterances used longest ago first (a load counts as a
/// use), and nothing of the folder but the cache's own files touched.
@Suite struct UtteranceAudioCacheTrimTests {
    /// Five utterances stored one a minute apart (oldest first), their keys in that order.
    static func filledCache(in folder: URL) throws -> (UtteranceAudioCache, [UtteranceAudioCache.Key]) {
        let cache = UtteranceAudioCache(folder: folder)
        var keys: [UtteranceAudioCache.Key] = []
        let start = Date().addingTimeInterval(-3600)
        for number in 0..<5 {
            let text = "Sentence \(number)"
            let key = UtteranceAudioCache.Key(TTSUtterance(text: text, voiceOrLanguage: .voice(UtteranceAudioCacheTests.voice)), engine: "test 1")
            try cache.store(UtteranceAudioCacheTests.utterance(text), for: key)
            try setModificationDate(start.addingTimeInterval(Double(number) * 60), of: try #require(file(of: key, in: folder)))
            keys.append(key)
        }
        return (cache, keys)
    }

    /// The cache's file of `key`: the one utterance file whose bytes hold the key's text.
    static func file(of key: UtteranceAudioCache.Key, in folder: URL) -> URL? {
        utteranceFiles(in: folder).first { url in
            (try? Data(contentsOf: url)).map { $0.range(of: Data(key.text.utf8)) != nil } ?? false
        }
    }

    static func utteranceFiles(in folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "utterance" }
    }

    static func setModificationDate(_ date: Date, of url: URL) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
    }

    static func bytes(of url: URL) -> Int64 {
        Int64((try? url.resourceValues(forKeys: [.totalFileAllocatedSizeKey]).totalFileAllocatedSize) ?? 0)
    }

    @Test func theUtterancesUsedLongestAgoGoFirstAndALoadIsAUse() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-trim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cache, keys) = try Self.filledCache(in: folder)
        let voice = UtteranceAudioCacheTests.voice
        // The oldest one is used again: it becomes the newest.
        #expect(cache.load(keys[0], text: "Sentence 0", voice: voice) != nil)
        let sizes = try keys.map { Self.bytes(of: try #require(Self.file(of: $0, in: folder))) }
        // Room for three: the two used longest ago since (1 and 2) go.
        let trim = try #require(try cache.trim(toBytes: sizes[0] + sizes[3] + sizes[4]))
        #expect(trim.removedFiles == 2)
        #expect(trim.removedBytes == sizes[1] + sizes[2])
        #expect(trim.keptBytes == sizes[0] + sizes[3] + sizes[4])
        #expect(cache.load(keys[0], text: "Sentence 0", voice: voice) != nil)
        #expect(cache.load(keys[1], text: "Sentence 1", voice: voice) == nil)
        #expect(cache.load(keys[2], text: "Sentence 2", voice: voice) == nil)
        #expect(cache.load(keys[3], text: "Sentence 3", voice: voice) != nil)
        #expect(cache.load(keys[4], text: "Sentence 4", voice: voice) != nil)
        // Under the limit already: nothing goes.
        #expect(try cache.trim(toBytes: 1 << 40) == .init(removedFiles: 0, removedBytes: 0, keptBytes: trim.keptBytes))
    }

    @Test func aLimitOfZeroEmptiesTheCacheButLeavesOtherFilesAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-trim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cache, _) = try Self.filledCache(in: folder)
        // A folder given with --cache may hold other things; a killed store leaves a temporary file behind.
        let notes = folder.appendingPathComponent("notes.txt"), nested = folder.appendingPathComponent("mine/a.utterance")
        try Data("mine".utf8).write(to: notes)
        try FileManager.default.createDirectory(at: nested.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: nested)
        let shard = try #require(Self.utteranceFiles(in: folder).first { $0.deletingLastPathComponent().lastPathComponent.count == 2 })
            .deletingLastPathComponent()
        let temporaryName = { (digit: String, pid: Int) in ".\(String(repeating: digit, count: 32)).utterance.\(pid).tmp" }
        let stale = shard.appendingPathComponent(temporaryName("a", 123)), fresh = shard.appendingPathComponent(temporaryName("b", 456))
        let staleOther = shard.appendingPathComponent(".mine.tmp")
        for file in [stale, fresh, staleOther] { try Data("half".utf8).write(to: file) }
        try Self.setModificationDate(Date().addingTimeInterval(-2 * 86_400), of: stale)
        try Self.setModificationDate(Date().addingTimeInterval(-2 * 86_400), of: staleOther)
        // A subfolder named as the cache's own that is a link elsewhere is not followed.
        let elsewhere = folder.deletingLastPathComponent().appendingPathComponent("raudio-trim-elsewhere-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let linkedEntry = elsewhere.appendingPathComponent("ff" + String(repeating: "0", count: 30) + ".utterance")
        try Data("not the cache's".utf8).write(to: linkedEntry)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("ff"), withDestinationURL: elsewhere)

        let trim = try #require(try cache.trim(toBytes: 0))
        #expect(trim.removedFiles == 6, "five utterances and the stale temporary file")
        #expect(trim.keptBytes == 0)
        #expect(Self.utteranceFiles(in: folder).map(\.path) == [nested.path])
        #expect(FileManager.default.fileExists(atPath: notes.path))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path), "a store under way in another render")
        #expect(FileManager.default.fileExists(atPath: staleOther.path), "not named as the cache names its temporary files")
        #expect(FileManager.default.fileExists(atPath: linkedEntry.path), "behind a link")
    }

    /// Shares run side by side on one machine: one share's trim must not remove what another has stored and not yet
    /// packed into its part file.
    @Test func aCacheInUseByAnotherRenderIsNotTrimmedUntilThatRenderEnds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-trim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cache, _) = try Self.filledCache(in: folder)
        let other = UtteranceAudioCache(folder: folder).beginUse()
        let mine = cache.beginUse()
        mine.end()
        #expect(try cache.trim(toBytes: 0) == nil)
        #expect(Self.utteranceFiles(in: folder).count == 5)
        other.end()
        #expect(try #require(try cache.trim(toBytes: 0)).removedFiles == 5)
        #expect(Self.utteranceFiles(in: folder).isEmpty)
        // A use begun while nothing trims is not kept waiting, and ending it twice is harmless.
        let again = cache.beginUse()
        again.end()
        again.end()
        #expect(try cache.trim(toBytes: 0) == .init())
    }

    @Test func aMissingFolderIsAnEmptyCache() throws {
        let cache = UtteranceAudioCache(folder: URL(fileURLWithPath: "/nonexistent/raudio-cache"))
        #expect(try cache.trim(toBytes: 0) == .init())
    }

    /// A lock that cannot be taken (here its file is a link, which is never followed) is an error that names it, not
    /// a cache "in use", and nothing is removed without it.
    @Test func aLockThatCannotBeTakenIsAnErrorAndNothingIsRemoved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-trim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cache, _) = try Self.filledCache(in: folder)
        let lock = folder.appendingPathComponent(".lock")
        try FileManager.default.createSymbolicLink(atPath: lock.path, withDestinationPath: "/nonexistent/raudio/.lock")
        let error = #expect(throws: AudioSinkError.self) { try cache.trim(toBytes: 0) }
        #expect(error?.subject == lock.path)
        #expect(Self.utteranceFiles(in: folder).count == 5)
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/raudio/.lock"))
    }
}
