// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// What a new user meets (issue 36): messages that say what to do next.
@Suite struct NewUserMessagesTests {
    /// `raudio play` on an EPUB of text: the error says to read it aloud with `raudio speak`.
    @Test func playingABookOfTextSuggestsSpeak() throws {
        let result = try ProcessRunner.raudio(["play", SpeakCommandTests.sampleEPUB, "--output", "null", "--no-state"], timeout: 60)
        #expect(result.status == 65)
        let error = try #require(result.outputLines.compactMap { try? JSONParser.parse(Array($0.utf8)).objectValue }.first { $0["type"]?.stringValue == "error" })
        #expect(error["code"]?.stringValue == "no-audio")
        #expect(error["message"]?.stringValue?.contains("raudio speak \(SpeakCommandTests.sampleEPUB)") == true, "\(error)")
        #expect(result.standardError.contains("read it aloud with raudio speak"))
    }

    /// A JSON array on stdin is a malformed command (docs/events.md), answered as such.
    @Test func aJSONArrayOnStdinIsAMalformedCommand() throws {
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--no-state", "--duration", "0.5"],
                                              input: Data("[1,2]\n".utf8), timeout: 60)
        let errors = result.outputLines.compactMap { try? JSONParser.parse(Array($0.utf8)).objectValue }.filter { $0["type"]?.stringValue == "error" }
        #expect(errors.map { $0["code"]?.stringValue } == ["command-malformed"], "\(errors)")
    }
}
