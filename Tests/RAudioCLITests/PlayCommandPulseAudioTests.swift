import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio play` through a real, private PulseAudio daemon with a null sink.
@Suite(.serialized, .enabled(if: PulseAudioDaemon.isAvailable, PulseAudioDaemon.skipMessage))
struct PlayCommandPulseAudioTests {
    @Test func playedAudioReachesTheSink() throws {
        try withPulseAudioDaemon { daemon in
            let recording = try daemon.record()
            let result = try ProcessRunner.raudio(
                ["play", PlayCommandTests.sampleBook, "--duration", "4"], environment: ["PULSE_SERVER": daemon.server],
                timeout: 60
            )
            Thread.sleep(forTimeInterval: 0.3)
            let samples = recording.stop()
            #expect(result.status == 0, "\(result.standardError)\n\(daemon.log.suffix(2000))")
            let seconds = Double(samples.count / 2) / 44_100
            // The monitor records from when parec started until it stopped: at least the 4 s played.
            #expect(seconds >= 3.5, "recorded \(seconds) s")
            let loud = samples.filter { abs(Int($0)) > 1000 }.count
            #expect(Double(loud) / Double(max(samples.count, 1)) > 0.05, "the recording is (nearly) silent")
        }
    }

    @Test func killingTheServerMidPlayIsAFatalErrorWithExitCode69() throws {
        try withPulseAudioDaemon { daemon in
            let process = Process()
            process.executableURL = ProcessRunner.raudioExecutable
            process.arguments = ["play", PlayCommandTests.sampleBook]
            process.environment = ProcessInfo.processInfo.environment.merging(["PULSE_SERVER": daemon.server]) { _, new in new }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = Pipe()
            try process.run()
            Thread.sleep(forTimeInterval: 2)
            daemon.kill()
            let deadline = Date().addingTimeInterval(15)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            let hung = process.isRunning
            if hung { process.terminate() }
            process.waitUntilExit()
            #expect(!hung, "raudio hung after the server went away")
            #expect(process.terminationReason == .exit && process.terminationStatus == 69)
            let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").map(String.init)
            let events = try lines.map { try #require(try JSONParser.parse($0).objectValue) }
            let fatal = events.first { $0["type"] == "error" && $0["fatal"] == true }
            #expect(fatal != nil)
            #expect(fatal?["locator"]?.objectValue?["href"] != nil)
        }
    }
}
