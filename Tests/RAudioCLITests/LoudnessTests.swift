// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import RAudioState
import RAudioTestSupport
import ReadiumShared
import Testing

/// `--normalize`: libebur128's loudness against FFmpeg's ebur128 filter, and a book of a quiet and a
/// loud track rendered at one loudness.
@Suite struct LoudnessTests {
    /// FFmpeg's integrated loudness (`-af ebur128`) of `path`, in LUFS.
    static func ffmpegLoudness(_ path: String) throws -> Double? {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["ffmpeg", "-nostdin", "-i", path, "-af", "ebur128", "-f", "null", "-"], timeout: 120)
        let summary = result.standardError.components(separatedBy: "Summary:").last ?? ""
        guard let line = summary.split(separator: "\n").first(where: { $0.contains(" I:") }) else { return nil }
        return line.split(separator: " ").compactMap { Double($0) }.first
    }

    @Test(arguments: ["01-the-storm.mp3", "02-the-ship.ogg", "03-le-matin.mp3"])
    func theMeterAgreesWithFFmpeg(track: String) throws {
        let path = Corpus.projectRoot.appendingPathComponent("samples/gull-rock/\(track)").path
        let ours = try LoudnessMeter.measure(TestFileResource(url: URL(fileURLWithPath: path), href: track))
        let theirs = try #require(try Self.ffmpegLoudness(path))
        #expect(abs(ours.integrated - theirs) <= 0.5, "\(track): \(ours.integrated) LUFS, ffmpeg \(theirs)")
        #expect(ours.samplePeak > 0.1 && ours.samplePeak <= 1.01)
    }

    /// A book of the same speech 8 dB quieter, then as it is: normalized, both parts come out at −18 LUFS.
    @Test func aQuietAndALoudTrackPlayAtOneLoudness() throws {
        let folder = try TemporaryDirectory()
        let book = folder.url.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let source = Corpus.projectRoot.appendingPathComponent("samples/gull-rock/01-the-storm.mp3").path
        for (name, gain) in [("01-quiet.mp3", "-8dB"), ("02-loud.mp3", "0dB")] {
            let made = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                             ["ffmpeg", "-v", "error", "-nostdin", "-i", source, "-af", "volume=\(gain)", "-c:a", "libmp3lame", "-b:a", "96k", book.appendingPathComponent(name).path])
            try #require(made.status == 0, "\(made.standardError)")
        }
        let environment = ["RAUDIO_STATE_DIR": folder.path("state")]
        // Runs measure (in the background, from the track playing) and remember; once both tracks are
        // measured, a run applies the gains from the first sample.
        var measured = 0
        for _ in 0..<4 where measured < 2 {
            #expect(try ProcessRunner.raudio(["play", book.path, "--output", "null", "--normalize", "--from", "start"], environment: environment).status == 0)
            let store = try #require(ListeningStateStore.open(directory: URL(fileURLWithPath: folder.path("state"))).store)
            measured = try store.history().first.map { try store.loudness(key: $0.key).count } ?? 0
        }
        #expect(measured == 2, "both tracks' loudness is remembered")
        let wav = folder.path("out.wav")
        let result = try ProcessRunner.raudio(["play", book.path, "--output", "wav:\(wav)", "--normalize", "--from", "start"], environment: environment, timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        // The two halves of the rendering, measured by FFmpeg.
        let half = try WAVHeader(path: wav).seconds / 2
        var loudness: [Double] = []
        for (start, name) in [(0.0, "a.wav"), (half, "b.wav")] {
            let part = folder.path(name)
            _ = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["ffmpeg", "-v", "error", "-nostdin", "-ss", String(start), "-t", String(half), "-i", wav, part])
            loudness.append(try #require(try Self.ffmpegLoudness(part)))
        }
        for value in loudness {
            #expect(abs(value + 18) <= 0.7, "normalized parts: \(loudness) LUFS (8 LU apart before)")
        }
        #expect(try SleepTimerTests.samples(wav).map { abs(Int($0)) }.max() ?? 0 <= Int(32767 * 0.981), "the raised track does not clip")
    }
}
