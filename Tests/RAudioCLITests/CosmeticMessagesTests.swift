// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
@testable import RAudioPlayer
import RAudioTestSupport
import Testing

/// Messages a new user meets, each saying what it means: an empty `--voice` asks for a name, a long word
/// suggests no two-letter voice, an unknown command is a sentence before the list of commands, the
/// default PulseAudio server is named as such.
@Suite struct CosmeticMessagesTests {
    @Test(arguments: ["speak", "render"])
    func anEmptyVoiceIsAUsageErrorAskingForAName(command: String) throws {
        let folder = try TemporaryDirectory()
        let arguments = command == "speak"
            ? ["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--voice", ""]
            : ["render", SpeakCommandTests.sampleEPUB, "--to", "m4b", folder.path("out.m4b"), "--voice", ""]
        let result = try ProcessRunner.raudio(arguments, timeout: 60)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("a voice name or language is needed"), "\(result.standardError)")
        #expect(!result.standardError.contains("Close matches"), "\(result.standardError)")
    }

    @Test func aWordIsNotAnsweredWithTheVoiceOfItsFirstTwoLetters() throws {
        let result = try ProcessRunner.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--voice", "klingon"], timeout: 60)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("no voice or language \"klingon\""), "\(result.standardError)")
        #expect(!result.standardError.contains("Close matches"), "\(result.standardError)")
    }

    @Test func anUnknownCommandEndsItsSentenceBeforeTheListOfCommands() throws {
        guard case .failure(let error) = PlayerCommandParser.parse(line: "bogus") else {
            Issue.record("bogus was accepted")
            return
        }
        #expect(error.message.hasPrefix("unknown command 'bogus'. Commands: play, "), "\(error.message)")
        guard case .failure(let near) = PlayerCommandParser.parse(line: "plya") else { return }
        #expect(near.message.hasPrefix("unknown command 'plya'; did you mean 'play'? Commands: "), "\(near.message)")
    }

    @Test func theDefaultPulseAudioServerIsNamedAsSuch() throws {
        #expect(PulseAudioSink.describe(server: nil) == "the default PulseAudio server")
        #expect(PulseAudioSink.describe(server: "") == "the default PulseAudio server")
        #expect(PulseAudioSink.describe(server: "unix:/run/x") == "PulseAudio server 'unix:/run/x'")
        // No server at the default address (a runtime folder of its own, no system server): the message says so.
        guard !FileManager.default.fileExists(atPath: "/run/pulse/native") else { return }
        let runtime = try TemporaryDirectory()
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "pulse"],
                                              environment: ["PULSE_SERVER": "", "XDG_RUNTIME_DIR": runtime.url.path, "DISPLAY": "", "PULSE_RUNTIME_PATH": runtime.url.path],
                                              timeout: 30)
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains("the default PulseAudio server is not reachable"), "\(result.standardError)")
        #expect(!result.standardError.contains("server the default server"), "\(result.standardError)")
    }
}
