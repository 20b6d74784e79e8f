// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import RAudioTestSupport
import ReadiumShared
import Testing

/// End-to-end tests of `raudio play`: the built binary, real decoders, real outputs.
@Suite struct PlayCommandTests {
    static let sampleBook = Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook").path
    static let sampleFolder = Corpus.projectRoot.appendingPathComponent("samples/gull-rock").path

    /// The sample's length according to its manifest.
    static let sampleDuration = 24.465 + 19.838 + 17.427

    @Test func renderingTheSampleToWAVPlaysEverythingAndEnds() throws {
        let folder = try TemporaryDirectory()
        let wav = folder.path("book.wav")
        let result = try ProcessRunner.raudio(["play", Self.sampleBook, "--output", "wav:\(wav)"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try result.outputLines.map(Self.object)
        #expect(events.first?["type"] == "opened")
        #expect(events.last?["type"] == "state" && events.last?["state"] == "ended")
        #expect(events.filter { $0["type"] == "track" }.count == 3)
        let header = try WAVHeader(path: wav)
        #expect(header.sampleRate == 22050 && header.channelCount == 1)
        #expect(abs(header.seconds - Self.sampleDuration) < 0.05, "rendered \(header.seconds) s")
    }

    /// As render does, play and speak end a WAV output by saying what they wrote: the file, its length in
    /// audio and in bytes, and the time taken.
    @Test(arguments: ["play", "speak"])
    func aWAVOutputEndsSayingWhatItWrote(command: String) throws {
        let folder = try TemporaryDirectory()
        let wav = folder.path("out.wav")
        let book = command == "play" ? Self.sampleBook : SpeakCommandTests.sampleEPUB
        let result = try ProcessRunner.raudio([command, book, "--output", "wav:\(wav)", "--duration", "20"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: wav)[.size] as? Int)
        let seconds = try WAVHeader(path: wav).seconds
        let said = "wrote \(wav): \(PlaceDescription.clock(seconds)) of audio (\(bytes) bytes) in 0:"
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.last?.hasPrefix(said) == true, "\(said) expected last:\n\(result.standardError)")
    }

    @Test(.enabled(if: EventSchemaValidator.isAvailable, EventSchemaValidator.skipMessage))
    func everyEventValidatesAgainstTheEventsSchema() throws {
        let result = try ProcessRunner.raudio(["play", Self.sampleFolder, "--output", "null", "--interval", "2"], timeout: 120)
        #expect(result.status == 0)
        #expect(result.outputLines.count > 10)
        try EventSchemaValidator.validate(result.outputLines)
    }

    @Test(.enabled(if: ReadiumValidator.isAvailable, ReadiumValidator.skipMessage))
    func everyLocatorValidatesAgainstTheReadiumSchema() throws {
        let result = try ProcessRunner.raudio(["play", Self.sampleBook, "--output", "null", "--interval", "1"], timeout: 120)
        #expect(result.status == 0)
        try ReadiumValidator.validate(.locator, result.standardOutput)
    }

    @Test func positionsAdvanceAndCarryTimeFragmentsAndTotalProgression() throws {
        let result = try ProcessRunner.raudio(["play", Self.sampleBook, "--output", "null", "--interval", "1"], timeout: 120)
        let positions = try result.outputLines.map(Self.object).filter { $0["type"] == "position" }
        let totals = positions.compactMap { $0["locator"]?.objectValue?["locations"]?.objectValue?["totalProgression"]?.doubleValue }
        #expect(totals.count == positions.count && positions.count >= 50)
        #expect(totals == totals.sorted())
        let fragments = positions.compactMap { $0["locator"]?.objectValue?["locations"]?.objectValue?["fragments"]?.arrayValue?.first?.stringValue }
        #expect(fragments.allSatisfy { MediaFragment(parsing: $0) != nil })
    }

    @Test func durationOptionStopsAfterThatMuchAudio() throws {
        let folder = try TemporaryDirectory()
        let wav = folder.path("short.wav")
        let result = try ProcessRunner.raudio(["play", Self.sampleBook, "--output", "wav:\(wav)", "--duration", "3"], timeout: 60)
        #expect(result.status == 0)
        let last = try Self.object(try #require(result.outputLines.last))
        #expect(last["type"] == "state" && last["state"] == "stopped")
        #expect(abs(try WAVHeader(path: wav).seconds - 3) < 0.01)
    }

    @Test func fromOptionStartsAtATimeInAnotherTrack() throws {
        let result = try ProcessRunner.raudio(["play", Self.sampleBook, "--output", "null", "--from", "0:30", "--duration", "1"], timeout: 60)
        #expect(result.status == 0)
        let firstPlaying = try result.outputLines.map(Self.object).first { $0["type"] == "state" && $0["state"] == "playing" }
        let locator = try #require(firstPlaying?["locator"]?.objectValue)
        #expect(locator["href"] == "02-the-ship.ogg")
        let time = try #require(MediaFragment(parsing: locator["locations"]?.objectValue?["fragments"]?.arrayValue?.first?.stringValue ?? ""))
        #expect(abs(time.begin! - (30 - 24.465)) < 0.1)
    }

    @Test func clipLocatorPlaysJustTheClip() throws {
        let folder = try TemporaryDirectory()
        let wav = folder.path("clip.wav")
        let clip = #"{"href":"01-the-storm.mp3","type":"audio/mpeg","locations":{"fragments":["t=2,5"]}}"#
        let result = try ProcessRunner.raudio(["play", Self.sampleBook, "--output", "wav:\(wav)", "--from", clip], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(abs(try WAVHeader(path: wav).seconds - 3) < 0.01)
    }

    @Test func stdinCommandsDriveARealRun() throws {
        let commands = """
            pause
            {"command":"status","id":"s1"}
            seek 40
            {"command":"seek","by":-5,"id":2}
            plya
            {"command":"volume","value":7,"id":3}
            speed 1.5
            play
            {"command":"quit","id":"q"}

            """
        let result = try ProcessRunner.raudio(
            ["play", Self.sampleBook, "--output", "null", "--realtime"], input: Data(commands.utf8), timeout: 60
        )
        #expect(result.status == 0, "\(result.standardError)")
        let events = try result.outputLines.map(Self.object)
        let acks = events.filter { $0["type"] == "ack" }.compactMap { $0["command"]?.stringValue }
        #expect(acks == ["pause", "status", "seek", "seek", "speed", "play", "quit"])
        #expect(events.contains { $0["type"] == "ack" && $0["id"] == "q" })
        let errors = events.filter { $0["type"] == "error" }
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0["fatal"] == false })
        #expect(errors.contains { $0["code"] == "command-unknown" })
        #expect(errors.contains { $0["code"] == "command-bad-value" && $0["id"] == 3 })
        let last = try #require(events.last)
        #expect(last["type"] == "state" && last["state"] == "stopped")
        let seconds = last["locator"]?.objectValue.flatMap { Self.publicationTime(of: $0) }
        #expect(seconds.map { abs($0 - 35) < 3 } == true, "stopped at \(String(describing: seconds))")
    }

    @Test func sigtermStopsCleanlyWithAFinalState() throws {
        let process = Process()
        process.executableURL = ProcessRunner.raudioExecutable
        process.arguments = ["play", Self.sampleBook, "--output", "null", "--realtime"]
        process.environment = ProcessInfo.processInfo.environment.merging(["RAUDIO_NO_STATE": "1"]) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = Pipe()
        try process.run()
        // The signal handlers are installed before the `opened` event: wait for it rather than for a
        // fixed time, which a sanitizer build (slow to start) can overrun.
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        Thread.sleep(forTimeInterval: 1.5)
        process.terminate()
        data.append(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        let last = try Self.object(try #require(lines.last))
        #expect(last["type"] == "state" && last["state"] == "stopped")
        #expect(last["locator"]?.objectValue?["href"] == "01-the-storm.mp3")
    }

    @Test(arguments: [
        (["play", "/nonexistent.audiobook", "--output", "null"], Int32(66)),
        (["play", Self.sampleBook, "--speed", "9"], 64),
        (["play", Self.sampleBook, "--output", "mp3:x"], 64),
        (["play", Self.sampleBook, "--from", "nonsense"], 64),
        (["play", Self.sampleBook, "--output", "wav:/nonexistent-dir/x.wav"], 73),
    ] as [([String], Int32)])
    func badArgumentsAndOutputsExitWithTheDocumentedCode(arguments: [String], status: Int32) throws {
        let result = try ProcessRunner.raudio(arguments, timeout: 30)
        #expect(result.status == status, "\(result.standardError)")
        #expect(!result.standardError.isEmpty)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func lcpBookWithoutItsPassphraseIsRefusedWithAnErrorEvent() throws {
        // No passphrase given, stored or askable (no terminal): the book is refused, saying how to give one.
        let path = try Corpus.file("readium/swift-toolkit/StreamerTests/Fixtures/audiotest.lcpa").path
        let result = try ProcessRunner.raudio(["play", path, "--output", "null", "--no-state"], timeout: 30)
        #expect(result.status == 65)
        let event = try Self.object(try #require(result.outputLines.last))
        #expect(event["type"] == "error" && event["code"] == "lcp-passphrase-missing" && event["fatal"] == true)
        #expect(result.standardError.contains("--passphrase-file"))
    }

    @Test func unreachableAudioServerIsAClearErrorSuggestingAWAVFile() throws {
        let result = try ProcessRunner.raudio(
            ["play", Self.sampleBook], environment: ["PULSE_SERVER": "unix:/nonexistent/raudio-test.sock"], timeout: 30
        )
        #expect(result.status == 69)
        #expect(result.standardError.contains("wav:"))
        #expect(try result.outputLines.map(Self.object).contains { $0["type"] == "error" && $0["fatal"] == true })
    }

    @Test func closedStdoutEndsQuietly() throws {
        let command = "RAUDIO_NO_STATE=1 '\(ProcessRunner.raudioExecutable.path)' play '\(Self.sampleBook)' --output null | head -n 2 >/dev/null"
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "set -o pipefail; \(command); echo ${PIPESTATUS[0]} >&2"], timeout: 60)
        #expect(!result.timedOut)
        #expect(result.standardError.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("0"))
        #expect(!result.standardError.contains("Fatal error"))
    }

    static func object(_ line: String) throws -> JSONObject {
        try #require(try JSONParser.parse(line).objectValue)
    }

    /// Publication time of a locator of the sample book.
    static func publicationTime(of locator: JSONObject) -> Double? {
        let starts = ["01-the-storm.mp3": 0, "02-the-ship.ogg": 24.465, "03-le-matin.mp3": 24.465 + 19.838]
        guard let href = locator["href"]?.stringValue, let start = starts[href],
            let fragment = locator["locations"]?.objectValue?["fragments"]?.arrayValue?.first?.stringValue,
            let time = MediaFragment(parsing: fragment)?.begin
        else { return nil }
        return start + time
    }
}

/// The format and length of a 16-bit PCM WAV file.
struct WAVHeader {
    var sampleRate: Int
    var channelCount: Int
    var frameCount: Int

    var seconds: Double { Double(frameCount) / Double(sampleRate) }

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        func u32(_ offset: Int) -> Int { Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 24 }
        func u16(_ offset: Int) -> Int { Int(data[offset]) | Int(data[offset + 1]) << 8 }
        guard data.count >= 44, data.prefix(4) == Data("RIFF".utf8) else { throw CorpusMissing(path: "\(path) is not a WAV file") }
        channelCount = u16(22)
        sampleRate = u32(24)
        var offset = 12
        var dataSize = 0
        while offset + 8 <= data.count {
            let size = u32(offset + 4)
            if data[offset..<offset + 4] == Data("data".utf8) { dataSize = size; break }
            offset += 8 + size + (size & 1)
        }
        frameCount = dataSize / (2 * channelCount)
    }
}
