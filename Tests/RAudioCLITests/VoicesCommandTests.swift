// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// End-to-end tests of `raudio voices`, running the built binary with the real eSpeak NG.
struct VoicesCommandTests {
    private func objects(_ output: String) throws -> [JSONObject] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONParser.parse(String(line)).objectValue)
        }
    }

    @Test func listsEveryVoiceAsJSONLinesWithTheirKeysAndEngine() throws {
        let result = try ProcessRunner.raudio(["voices"])
        #expect(result.status == 0, "\(result.standardError)")
        let voices = try objects(result.standardOutput)
        #expect(voices.count > 50)
        #expect(voices.filter { $0["engine"]?.stringValue == "espeak" }.allSatisfy { $0.keys == ["identifier", "name", "language", "gender", "engine"] })
        #expect(voices.contains { $0["identifier"]?.stringValue == "fr" && $0["language"]?.stringValue == "fr-FR" })
        #expect(result.standardError.isEmpty, "\(result.standardError)")
    }

    @Test(arguments: ["fr", "fr-CA", "FR"])
    func languageFilterKeepsOnlyVoicesOfThatBaseLanguage(tag: String) throws {
        let result = try ProcessRunner.raudio(["voices", "--language", tag])
        #expect(result.status == 0, "\(result.standardError)")
        let voices = try objects(result.standardOutput)
        #expect(voices.count >= 3)
        #expect(voices.allSatisfy { $0["language"]?.stringValue?.hasPrefix("fr") == true })
    }

    @Test func humanTableHasAHeaderAndOneRowPerVoice() throws {
        let result = try ProcessRunner.raudio(["voices", "--language", "pt", "--human"])
        #expect(result.status == 0)
        let lines = result.outputLines
        #expect(lines.first?.hasPrefix("IDENTIFIER") == true)
        #expect(lines.contains { $0.hasPrefix("pt-br") && $0.contains("Portuguese (Brazil)") })
    }

    @Test(arguments: [("sa", "no voice speaks"), ("frr!", "not a BCP-47"), ("fre", "Close matches: fr")])
    func unknownOrMalformedLanguageIsAUsageErrorWithCloseMatches(tag: String, message: String) throws {
        let result = try ProcessRunner.raudio(["voices", "--language", tag])
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains(tag))
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func brokenPresetFolderIsAWarningNotAFailure() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-cli-voices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "not json".write(to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let result = try ProcessRunner.raudio(["voices", "--language", "de"], environment: ["RAUDIO_VOICES": folder.path])
        #expect(result.status == 0)
        #expect(result.standardError.contains("bad.json"))
        #expect(try objects(result.standardOutput).count >= 1)
    }
}
