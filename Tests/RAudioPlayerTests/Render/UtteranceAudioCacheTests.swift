// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumNavigator
import ReadiumShared
import Testing

/// The render's cache of synthesized utterances: what is stored comes back whole, with its words; another key
/// (the text, the voice, the rate, the engine, the utterance before it), a damaged or a cut file is a miss.
@Suite struct UtteranceAudioCacheTests {
    static let voice = TTSVoice(identifier: "en-us", name: "English (America)", language: Language(code: "en-US"))

    static func utterance(_ text: String) -> SynthesizedUtterance {
        let space = text.firstIndex(of: " ")!
        return SynthesizedUtterance(text: text, voice: voice, format: PCMFormat(sampleRate: 22_050, channelCount: 1),
                                    samples: (0..<5000).map { Float($0 % 100) / 100 - 0.5 },
                                    wordBoundaries: [TTSWordBoundary(range: text.startIndex..<space, startFrame: 0),
                                                     TTSWordBoundary(range: text.index(after: space)..<text.endIndex, startFrame: 2400)])
    }

    @Test func whatIsStoredComesBackAndOtherKeysMiss() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = UtteranceAudioCache(folder: folder)
        let text = "Bonjour l'été"
        let request = TTSUtterance(text: text, voiceOrLanguage: .voice(Self.voice), rate: 1.2, pitch: 1)
        let key = UtteranceAudioCache.Key(request, engine: "espeak-ng 1.51")
        try cache.store(Self.utterance(text), for: key)
        let loaded = try #require(cache.load(key, text: text, voice: Self.voice))
        #expect(loaded.samples == Self.utterance(text).samples)
        #expect(loaded.wordBoundaries == Self.utterance(text).wordBoundaries)
        #expect(loaded.format == PCMFormat(sampleRate: 22_050, channelCount: 1))
        #expect(loaded.voice.identifier == "en-us")

        var faster = request
        faster.rate = 1.3
        let previous = UtteranceAudioCache.Key(TTSUtterance(text: "Avant.", voiceOrLanguage: .voice(Self.voice)), engine: "espeak-ng 1.51")
        for other in [UtteranceAudioCache.Key(faster, engine: "espeak-ng 1.51"), UtteranceAudioCache.Key(request, engine: "espeak-ng 1.52"),
                      UtteranceAudioCache.Key(request, engine: "espeak-ng 1.51", after: previous)] {
            #expect(cache.load(other, text: text, voice: Self.voice) == nil)
        }
        // A cut file is a miss, not a shorter utterance.
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".utterance") }
        #expect(files.count == 1)
        let file = folder.appendingPathComponent(files[0])
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count - 7).write(to: file)
        #expect(cache.load(key, text: text, voice: Self.voice) == nil)
        // No temporary file is left beside it.
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func anUnwritableFolderIsAWriteError() {
        let cache = UtteranceAudioCache(folder: URL(fileURLWithPath: "/proc/raudio-no-cache-here"))
        let key = UtteranceAudioCache.Key(TTSUtterance(text: "a b", voiceOrLanguage: .voice(Self.voice)), engine: "x")
        let error = #expect(throws: AudioSinkError.self) { try cache.store(Self.utterance("a b"), for: key) }
        #expect(error?.code == .writeFailed)
    }

    /// eSpeak NG's samples (16-bit values over 32768) are kept as 16 bits, half the bytes, and come back as the same
    /// floats bit for bit; samples that are not (a value between two steps, -0) keep their 32 bits.
    @Test func sixteenBitSamplesTakeHalfTheBytesAndComeBackBitForBit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = UtteranceAudioCache(folder: folder)
        let text = "Sixteen bits"
        let stepped: [Float] = (0..<5000).map { Float(Int16(truncatingIfNeeded: $0 * 13 - 32768)) / 32768 } + [-1, 32767 / 32768, 0]
        var files: [String: Int] = [:]
        for (name, samples): (String, [Float]) in [("16-bit", stepped), ("between two steps", stepped + [0.1 / 32768]), ("minus zero", stepped + [-0.0])] {
            var utterance = Self.utterance(text)
            utterance.samples = samples
            let key = UtteranceAudioCache.Key(TTSUtterance(text: text + " " + name, voiceOrLanguage: .voice(Self.voice)), engine: "espeak-ng 1.51")
            try cache.store(utterance, for: key)
            let loaded = try #require(cache.load(key, text: text, voice: Self.voice), "\(name)")
            #expect(loaded.samples.map(\.bitPattern) == samples.map(\.bitPattern), "\(name)")
            #expect(loaded.wordBoundaries == utterance.wordBoundaries, "\(name)")
            let file = try #require(try FileManager.default.subpathsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".utterance") && files[$0] == nil })
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            files[file] = data.count
            #expect(data.starts(with: Data((name == "16-bit" ? "RAUDIOUTT2\n" : "RAUDIOUTT1\n").utf8)), "\(name)")
            let sampleBytes = samples.count * (name == "16-bit" ? 2 : 4)
            #expect(data.count > sampleBytes && data.count < sampleBytes + 300, "\(name): \(data.count) bytes for \(samples.count) samples")
        }
    }
}
