// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio render --shard I/N` then `--merge`: the shares rendered apart, each with a cache of its own as on
/// separate machines, merged into byte for byte what one render writes; a merge that lacks a share or mixes
/// cuts says so and writes nothing.
@Suite(.serialized) struct RenderShardCommandTests {
    static func render(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.raudio(["render"] + arguments + ["--jobs", "2"], timeout: 300)
    }

    @Test func threeSharesMergedAreByteForByteOneRender() throws {
        let folder = RenderCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try RenderCommandTests.longBook(paragraphs: 45)
        defer { try? FileManager.default.removeItem(at: book) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        func outputs(_ name: String) -> [String] { ["--to", "m4b", path("\(name).m4b"), "--to", "audiobook", path("\(name).audiobook")] }
        func bytes(_ name: String) throws -> [Data] { try ["m4b", "audiobook"].map { try Data(contentsOf: URL(fileURLWithPath: path("\(name).\($0)"))) } }

        let whole = try Self.render([book.path] + outputs("whole") + ["--cache", path("cache-whole")])
        #expect(whole.status == 0, "\(whole.standardError)")
        var utterancesInParts = 0
        for number in 1...3 {
            let share = try Self.render([book.path, "--shard", "\(number)/3", "--to", "part", path("\(number).rpart"), "--cache", path("cache-\(number)")])
            #expect(share.status == 0, "\(share.standardError)")
            let events = RenderCommandTests.events(share.standardOutput)
            #expect(events.contains { $0["type"] == "output" && $0["format"] == "part" })
            let done = try #require(events.last)
            utterancesInParts += done["utterances"]?.intValue ?? 0
            #expect(done["synthesized"]?.intValue ?? 0 > 0, "share \(number) synthesized nothing")
        }
        #expect(utterancesInParts == RenderCommandTests.events(whole.standardOutput).last?["utterances"]?.intValue,
                "the shares together hold every utterance once")
        // The parts in another order, into a cache of their own: nothing synthesized, the same bytes.
        let merged = try Self.render([book.path, "--merge", path("3.rpart"), path("1.rpart"), path("2.rpart")] + outputs("merged") + ["--cache", path("cache-merge")])
        #expect(merged.status == 0, "\(merged.standardError)")
        #expect(RenderCommandTests.events(merged.standardOutput).last?["synthesized"]?.intValue == 0)
        #expect(try bytes("merged") == bytes("whole"))
        // A share rendered again on another machine writes the same part.
        let again = try Self.render([book.path, "--shard", "2/3", "--to", "part", path("2-again.rpart"), "--cache", path("cache-again")])
        #expect(again.status == 0, "\(again.standardError)")
        let comparison = try ByteComparison(contentsOf: URL(fileURLWithPath: path("2-again.rpart")), URL(fileURLWithPath: path("2.rpart")))
        #expect(comparison.isSame, "\(comparison)")

        // A share left out: 65, naming it, and no output.
        let missing = try Self.render([book.path, "--merge", path("1.rpart"), path("3.rpart"), "--to", "m4b", path("missing.m4b"), "--cache", path("cache-missing")])
        #expect(missing.status == 65)
        #expect(missing.standardError.contains("2/3"), "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: path("missing.m4b")))
        // A part of another cut.
        let other = try Self.render([book.path, "--shard", "1/2", "--to", "part", path("1of2.rpart"), "--cache", path("cache-other")])
        #expect(other.status == 0, "\(other.standardError)")
        let mixed = try Self.render([book.path, "--merge", path("1of2.rpart"), path("2.rpart"), path("3.rpart"), "--to", "m4b", path("mixed.m4b"), "--cache", path("cache-mixed")])
        #expect(mixed.status == 65)
        #expect(mixed.standardError.contains("part-mismatch") || mixed.standardError.contains("one cut"), "\(mixed.standardError)")
        // Not a part at all, and no file.
        try Data("not a zip".utf8).write(to: URL(fileURLWithPath: path("bad.rpart")))
        let bad = try Self.render([book.path, "--merge", path("bad.rpart"), "--to", "m4b", path("bad.m4b"), "--cache", path("cache-bad")])
        #expect(bad.status == 65, "\(bad.standardError)")
        let absent = try Self.render([book.path, "--merge", path("absent.rpart"), "--to", "m4b", path("absent.m4b"), "--cache", path("cache-absent")])
        #expect(absent.status == 66, "\(absent.standardError)")
    }

    /// A share rendered with other options (here `--speed`) is named by the option and both values, not
    /// reported as a share missing from the book.
    @Test func aShareRenderedWithOtherOptionsIsNamedByTheOption() throws {
        let folder = RenderCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try RenderCommandTests.longBook(paragraphs: 18)
        defer { try? FileManager.default.removeItem(at: book) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let first = try Self.render([book.path, "--shard", "1/2", "--to", "part", path("1.rpart"), "--cache", path("cache-1"), "--speed", "1.5"])
        #expect(first.status == 0, "\(first.standardError)")
        let second = try Self.render([book.path, "--shard", "2/2", "--to", "part", path("2.rpart"), "--cache", path("cache-2")])
        #expect(second.status == 0, "\(second.standardError)")
        let merged = try Self.render([book.path, "--merge", path("1.rpart"), path("2.rpart"), "--to", "m4b", path("book.m4b"), "--cache", path("cache-merge")])
        #expect(merged.status == 65)
        #expect(merged.standardError.contains("part 1/2 was rendered with --speed 1.5 (this merge: --speed 1)"), "\(merged.standardError)")
        #expect(!merged.standardError.contains("leave out"), "\(merged.standardError)")
        #expect(!FileManager.default.fileExists(atPath: path("book.m4b")))
    }

    /// Shares run side by side on one machine with one cache (GNU parallel) and `--cache-size 0`: a share that ends
    /// first must not trim away what the others have stored and not yet packed into their parts.
    @Test func sharesRunSideBySideOnOneCacheNeverTrimItUnderOneAnother() throws {
        let folder = RenderCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try RenderCommandTests.longBook(paragraphs: 24)
        defer { try? FileManager.default.removeItem(at: book) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let shares = try (1...3).map { number in
            try RunningProcess(ProcessRunner.raudioExecutable, ["render", book.path, "--shard", "\(number)/3", "--to", "part", path("\(number).rpart"),
                                                                 "--cache", path("cache"), "--cache-size", "0", "--jobs", "1"])
        }
        for (number, share) in zip(1..., shares) {
            #expect(share.finish(timeout: 300), "share \(number) still running")
            #expect(share.exitStatus == 0, "share \(number): \(share.standardError)")
        }
        let stderr = shares.map(\.standardError).joined()
        // Started together, the first to end finds the others still using the cache.
        #expect(stderr.contains("in use by another render"), "\(stderr)")
        // Each part holds its share whole: merged into an empty cache, nothing is synthesized.
        let merged = try Self.render([book.path, "--merge", path("1.rpart"), path("2.rpart"), path("3.rpart"), "--to", "m4b", path("book.m4b"),
                                      "--cache", path("cache-merge")])
        #expect(merged.status == 0, "\(merged.standardError)")
        #expect(RenderCommandTests.events(merged.standardOutput).last?["synthesized"]?.intValue == 0)
    }

    @Test(arguments: [
        ["--shard", "4/3", "--to", "part", "/tmp/raudio-x.rpart"],
        ["--shard", "1/3", "--to", "m4b", "/tmp/raudio-x.m4b"],
        ["--to", "part", "/tmp/raudio-x.rpart"],
        ["--shard", "1/3", "--merge", "a.rpart", "--to", "part", "/tmp/raudio-x.rpart"],
    ])
    func badShardOptionsAreUsageErrors(arguments: [String]) throws {
        let result = try ProcessRunner.raudio(["render", RenderCommandTests.sample] + arguments)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(!result.standardError.isEmpty)
    }
}
