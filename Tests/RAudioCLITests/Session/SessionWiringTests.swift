// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// The session's place-keeping end to end, through the binary: a file with no audio, `--from` past the
/// end, a resumed session's first events and the places shown to people.
@Suite struct SessionWiringTests {
    /// An M4B (AAC, 20 s, `moov` first) written by ffmpeg, then cut after `keeping` of its media data
    /// (0: none of it, as a download that stopped at once).
    private static func truncatedM4B(in folder: TemporaryDirectory, name: String, keeping fraction: Double) throws -> String {
        let full = folder.path("full.m4b")
        let made = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=20",
                                                            "-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart", full])
        try #require(made.status == 0, "ffmpeg: \(made.standardError)")
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let media = try #require(data.range(of: Data("mdat".utf8))).upperBound
        let path = folder.path(name)
        try data.prefix(media + Int(Double(data.count - media) * fraction)).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static func history(_ state: TemporaryDirectory) throws -> [JSONObject] {
        try ProcessRunner.raudio(["history"], environment: ["RAUDIO_STATE_DIR": state.url.path]).outputLines.map(PlayCommandTests.object)
    }

    @Test func aBookWhoseOnlyFileHasNoAudioExits65NamingItAndIsNotFinished() throws {
        let folder = try TemporaryDirectory()
        let book = try Self.truncatedM4B(in: folder, name: "half-downloaded.m4b", keeping: 0)
        let result = try ProcessRunner.raudio(["play", book, "--output", "null"], environment: ["RAUDIO_STATE_DIR": folder.url.path])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("half-downloaded.m4b") && result.standardError.contains("no audio"), "\(result.standardError)")
        #expect(!result.outputLines.contains { $0.contains("\"state\":\"ended\"") })
        #expect(try Self.history(folder).allSatisfy { $0["finished"] == .bool(false) })
    }

    @Test func aFileCutShortPlaysWhatItHasThenFailsWithThePlaceKept() throws {
        let folder = try TemporaryDirectory()
        let book = try Self.truncatedM4B(in: folder, name: "cut.m4b", keeping: 0.5)
        let result = try ProcessRunner.raudio(["play", book, "--output", "null"], environment: ["RAUDIO_STATE_DIR": folder.url.path])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("cut.m4b") && result.standardError.contains("not heard"), "\(result.standardError)")
        let saved = try #require(try Self.history(folder).first)
        #expect(saved["finished"] == .bool(false))
        let progression = saved["progression"]?.doubleValue ?? 0
        #expect(progression > 0.4 && progression < 0.6, "kept at the break, half-way: \(progression)")
    }

    @Test func fromPastTheEndIsAUsageErrorNamingTheLength() throws {
        let state = try TemporaryDirectory()
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--from", "5:00", "--output", "null"],
                                              environment: ["RAUDIO_STATE_DIR": state.url.path])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("5:00") && result.standardError.contains("1:01"), "\(result.standardError)")
        #expect(try Self.history(state).allSatisfy { $0["finished"] != .bool(true) })
    }

    @Test func aResumedSessionStartsAtTheResumedPlaceAndSaysItForPeople() throws {
        let state = try TemporaryDirectory()
        let environment = ["RAUDIO_STATE_DIR": state.url.path]
        let first = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--duration", "30"], environment: environment)
        #expect(first.status == 0, "\(first.standardError)")
        let second = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--duration", "1"], environment: environment)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardError.contains("resuming where the book was left: 0:05 into Chapter 2: The Ship · 0:30 / 1:01"), "\(second.standardError)")
        let events = try second.outputLines.map(PlayCommandTests.object)
        // Every located event, from the first one, is at the resumed place (30 s), never at the book's start.
        let times = events.compactMap { $0["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime) }
        #expect(!times.isEmpty && times.allSatisfy { $0 >= 29.9 }, "\(times)")
        // Entry 3 of the table of contents ("Chapter 2: The Ship", after "The lamp goes out").
        #expect(events.first { $0["type"] == "chapter" }?["index"]?.intValue == 3)
        let table = try ProcessRunner.raudio(["history", "--human"], environment: environment)
        #expect(table.standardOutput.contains("Chapter 2: The Ship") && !table.standardOutput.contains(".ogg"), "\(table.standardOutput)")
    }
}
