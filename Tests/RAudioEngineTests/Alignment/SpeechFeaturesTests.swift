// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioEngine

/// `raudio align`'s features and warping on real speech (eSpeak NG): MFCC at 100 frames a second with FFTW, the
/// coarse-to-fine warping recovering a known displacement with narration before the text and a pause inside it,
/// and the subsequence search finding a passage in a longer narration.
@Suite(.serialized) struct SpeechFeaturesTests {
    static let text = """
        It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness, \
        it was the epoch of belief, it was the epoch of incredulity, it was the season of Light, it was the season of \
        Darkness, it was the spring of hope, it was the winter of despair.
        """
    static let other = """
        Call me Ishmael. Some years ago, never mind how long precisely, having little or no money in my purse, and \
        nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world.
        """

    /// `text` spoken by eSpeak NG (`voice`), mono, at 16 kHz.
    static func speech(_ text: String, voice identifier: String = "en-us", rate: Double = 1) throws -> [Float] {
        let engine = try ESpeakEngine(presets: .builtIn)
        let voice = try #require(engine.voice(withIdentifier: identifier))
        let spoken = try engine.synthesizeBlocking(TTSUtterance(text: text, voiceOrLanguage: .voice(voice), rate: rate))
        let resampler = try SoxrResampler(from: spoken.format, to: PCMFormat(sampleRate: 16_000, channelCount: 1))
        spoken.samples.withUnsafeBufferPointer { resampler.push($0) }
        resampler.flush()
        var output = [Float](repeating: 0, count: resampler.availableFrames)
        let frames = output.withUnsafeMutableBufferPointer { resampler.pull(into: $0) }
        return Array(output.prefix(frames))
    }

    static func features(_ samples: [Float]) -> SpeechFeatures {
        let extractor = SpeechFeatureExtractor()
        extractor.push(samples)
        var features = extractor.finish()
        features.normalize()
        return features
    }

    /// Quiet noise (a fixed seed): a room between sentences.
    static func noise(seconds: Double, level: Float = 0.002, seed: UInt64 = 7) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<Int(seconds * 16_000)).map { _ in Float(Double(generator.next() % 2001) / 1000 - 1) * level }
    }

    @Test func aHundredFramesASecondWithTheEnergyOfEach() throws {
        let tone = (0..<32_000).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }
        let silence = [Float](repeating: 0, count: 16_000)
        let extractor = SpeechFeatureExtractor()
        extractor.push(tone)
        extractor.push(silence)
        let features = extractor.finish()
        #expect(abs(features.count - 300) <= 3, "\(features.count) frames for 3 s")
        #expect(features.values.count == features.count * SpeechFeatures.dimensions)
        let allFinite = features.values.allSatisfy { $0.isFinite }
        #expect(allFinite)
        // The tone is loud, the silence at the energy floor.
        #expect(features.energy[100] > -8)
        #expect(features.energy[280] < -20)
    }

    @Test func warpingFindsTheTextAfterAnAnnouncementAndAcrossAPause() throws {
        let reference = try Self.speech(Self.text)
        // The "narration": another voice, slower, after 4 s of other speech, with a 2 s pause in its middle.
        let narrated = try Self.speech(Self.text, voice: "en-gb-scotland", rate: 0.8)
        let middle = narrated.count / 2
        let announcement = try Self.speech("This is a LibriVox recording.", voice: "en-gb-scotland") + Self.noise(seconds: 1.5)
        let pause = Self.noise(seconds: 2)
        let audio = announcement + Array(narrated[..<middle]) + pause + Array(narrated[middle...]) + Self.noise(seconds: 1)
        let path = DynamicTimeWarping.align(reference: Self.features(reference), audio: Self.features(audio), openBegin: true, openEnd: true,
                                            maximumCells: 40_000)  // a coarse top level, as on a long book
        let narrationStart = Double(announcement.count) / 16_000
        let narrationEnd = Double(announcement.count + narrated.count + pause.count) / 16_000
        let start = SpeechFeatures.seconds(ofFrame: path.audioStart), end = SpeechFeatures.seconds(ofFrame: path.audioEnd)
        #expect(abs(start - narrationStart) < 0.35, "the text starts at \(start) s, the narration at \(narrationStart) s")
        #expect(abs(end - narrationEnd) < 0.5, "the text ends at \(end) s, the narration at \(narrationEnd) s")
        // The pause: the reference frames around the middle hold it.
        let pauseStart = Double(announcement.count + middle) / 16_000
        let held = path.first.indices.filter { Double(path.last[$0] - path.first[$0]) / SpeechFeatures.framesPerSecond > 1.2 }
        #expect(!held.isEmpty, "no reference frame holds the 2 s pause")
        if let frame = held.first {
            #expect(abs(SpeechFeatures.seconds(ofFrame: Int(path.first[frame])) - pauseStart) < 0.5)
        }
    }

    @Test func searchLocatesAPassageInALongerNarration() throws {
        let passage = try Self.speech(Self.other)
        let narration = try Self.speech(Self.text, voice: "en-gb-scotland", rate: 0.9) + Self.noise(seconds: 1)
            + Self.speech(Self.other, voice: "en-gb-scotland", rate: 0.9) + Self.noise(seconds: 1) + Self.speech(Self.text, voice: "en-gb-scotland")
        let otherStart = Double(try Self.speech(Self.text, voice: "en-gb-scotland", rate: 0.9).count) / 16_000 + 1
        let query = Self.features(Array(passage.prefix(16_000 * 5))).downsampled(by: 20)
        let (match, costs) = SubsequenceSearch.search(query, in: Self.features(narration).downsampled(by: 20))
        let found = try #require(match)
        let foundSeconds = Double(found.start * 20) / SpeechFeatures.framesPerSecond
        #expect(abs(foundSeconds - otherStart) < 0.6, "found at \(foundSeconds) s, heard at \(otherStart) s")
        #expect(costs.contains { $0.isFinite && $0 > found.cost * 1.2 })
    }
}
