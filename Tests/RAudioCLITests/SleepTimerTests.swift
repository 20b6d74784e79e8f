// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// The sleep timer's words, and its wiring end to end: its events, the fade measured in a rendered WAV,
/// the pause (not a quit) with the position saved. What it does in the session, in listening time, is in
/// SleepTimerSessionTests (a manual clock).
@Suite struct SleepTimerTests {
    @Test func sleepTimesParse() {
        #expect(SleepRequest(parsing: "30m") == .after(seconds: 1800))
        #expect(SleepRequest(parsing: "1h30m") == .after(seconds: 5400))
        #expect(SleepRequest(parsing: "90s") == .after(seconds: 90))
        #expect(SleepRequest(parsing: "45") == .after(seconds: 2700))
        #expect(SleepRequest(parsing: "1:30:00") == .after(seconds: 5400))
        #expect(SleepRequest(parsing: "+5m") == .extend(seconds: 300))
        #expect(SleepRequest(parsing: "chapter") == .endOfChapter)
        #expect(SleepRequest(parsing: "OFF") == .off)
        for bad in ["", "m", "30x", "5m30h", "-5m", "25h", "1h1h", "abc"] {
            #expect(SleepRequest(parsing: bad) == nil, "\(bad)")
        }
        if case .success(let request?) = PlayerCommandParser.parse(line: #"{"command":"sleep","value":15}"#) {
            #expect(request.command == .sleep(.after(seconds: 900)))
        } else {
            Issue.record("JSON sleep with minutes did not parse")
        }
        if case .failure(let error) = PlayerCommandParser.parse(line: "sleep soon") {
            #expect(error.code == .badValue)
        } else {
            Issue.record("sleep soon parsed")
        }
    }

    /// 6 s of playing into a WAV, all within the fade (its last 10 s): fading to nothing, then playback
    /// pauses and the position is saved.
    @Test func theTimerFadesOutPausesAndSaves() throws {
        let state = try TemporaryDirectory()
        let wav = state.path("out.wav")
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "wav:\(wav)", "--realtime", "--sleep", "6s"],
                                         environment: ["RAUDIO_STATE_DIR": state.url.path])
        #expect(running.waitForLine(timeout: 30) { $0.contains("\"type\":\"sleep\"") && $0.contains("\"fired\"") })
        #expect(running.waitForLine(timeout: 5) { $0.contains("\"state\":\"paused\"") })
        Thread.sleep(forTimeInterval: 1)
        #expect(running.process.isRunning, "the timer pauses, it does not quit")
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        let sleeps = try running.outputLines.filter { $0.contains("\"type\":\"sleep\"") }.map(PlayCommandTests.object).compactMap { $0["state"]?.stringValue }
        #expect(sleeps == ["set", "fading", "fired"], "\(sleeps)")
        if EventSchemaValidator.isAvailable { try EventSchemaValidator.validate(running.outputLines) }

        // The rendered audio: about 6 s, speech at 60 % of its level at first, nothing audible at the end.
        let samples = try Self.samples(wav)
        let rate = 22050
        #expect(abs(Double(samples.count) / Double(rate) - 6) < 1, "\(Double(samples.count) / Double(rate)) s rendered")
        let peak = { (from: Double, to: Double) -> Int in
            samples[max(0, Int(from * Double(rate)))..<min(samples.count, Int(to * Double(rate)))].map { abs(Int($0)) }.max() ?? 0
        }
        let early = peak(0, 1.5)
        let end = Double(samples.count) / Double(rate)
        #expect(early > 1500, "the start is speech (peak \(early))")
        #expect(peak(end - 0.5, end) < early / 6, "the last half second is faded (peak \(peak(end - 0.5, end)) of \(early))")

        let saved = try ProcessRunner.raudio(["history"], environment: ["RAUDIO_STATE_DIR": state.url.path])
        let time = try saved.outputLines.first.map(PlayCommandTests.object)?["locator"]?.objectValue.flatMap(PlayCommandTests.publicationTime)
        #expect(time.map { abs($0 - 6) < 1.5 } == true, "saved at \(String(describing: time))")
    }

    @Test func theTimerIsSetMovedAndCancelledFromStdin() throws {
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--duration", "2"],
                                              input: Data("sleep 30m\nsleep +5m\nsleep chapter\nsleep off\n".utf8))
        #expect(result.status == 0)
        let events = try result.outputLines.map(PlayCommandTests.object)
        let sleeps = events.filter { $0["type"] == "sleep" }
        #expect(sleeps.compactMap { $0["state"]?.stringValue } == ["set", "set", "set", "off"])
        let remaining = sleeps.compactMap { $0["remaining"]?.doubleValue }
        #expect(remaining.count == 2 && abs(remaining[0] - 1800) < 2 && abs(remaining[1] - 2100) < 2, "\(remaining)")
        #expect(sleeps[2]["until"] == "chapter", "sleep chapter replaces the timed sleep")
    }

    static func samples(_ path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let range = data.range(of: Data("data".utf8)) else { return [] }
        let start = range.upperBound + 4
        return data[start...].withUnsafeBytes { raw in (0..<(raw.count / 2)).map { raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self) } }
    }
}

/// `--volume` above 1: louder, and no sample clips.
@Suite struct VolumeBoostTests {
    @Test func aBoostedBookIsLouderAndNeverClips() throws {
        let folder = try TemporaryDirectory()
        let plain = folder.path("plain.wav"), boosted = folder.path("boosted.wav")
        for (path, volume) in [(plain, "1"), (boosted, "2")] {
            let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "wav:\(path)", "--duration", "20", "--volume", volume])
            #expect(result.status == 0, "\(result.standardError)")
        }
        let quiet = try SleepTimerTests.samples(plain), loud = try SleepTimerTests.samples(boosted)
        #expect(quiet.count == loud.count && !quiet.isEmpty)
        let rms = { (values: [Int16]) in (values.map { Double($0) * Double($0) }.reduce(0, +) / Double(values.count)).squareRoot() }
        let ratio = rms(loud) / rms(quiet)
        #expect(ratio > 1.6 && ratio <= 2.0, "the boost makes it \(ratio)x louder")
        let peak = loud.map { abs(Int($0)) }.max() ?? 0
        #expect(peak <= Int(32767 * 0.981), "peak \(peak): the limiter keeps it below full scale")
        #expect((quiet.map { abs(Int($0)) }.max() ?? 0) * 2 > 32767, "the sample's loudest peaks would have clipped at 2x")
    }
}
