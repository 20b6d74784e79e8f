// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioEngine

@Suite("Recognizing audio formats by content")
struct AudioFormatSnifferTests {
    private func sniff(_ bytes: [UInt8]) -> SniffedAudioFormat {
        AudioFormatSniffer.sniff(Data(bytes))
    }

    @Test func emptyAndGarbageAreNotAudio() {
        #expect(sniff([]) == .notAudio)
        #expect(sniff([0x00]) == .notAudio)
        #expect(sniff(Array("rubbish\n".utf8)) == .notAudio)
        #expect(sniff(Array(repeating: 0x20, count: 5000)) == .notAudio)
    }

    @Test func containersAndCodecsAreNamedByTheirMagic() {
        #expect(sniff(Array("fLaC".utf8) + [0, 0, 0, 34]) == .ffmpeg(name: "FLAC"))
        #expect(sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8)) == .ffmpeg(name: "WAV"))
        #expect(sniff([0, 0, 0, 0x20] + Array("ftypM4A ".utf8)) == .ffmpeg(name: "MP4/M4A"))
        // ADTS: sync, MPEG-4, layer 00, no CRC; 44.1 kHz.
        #expect(sniff([0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC]) == .ffmpeg(name: "AAC (ADTS)"))
        // ID3v2 (empty) then ADTS: still AAC, not MP3.
        #expect(sniff(Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0] + [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC]) == .ffmpeg(name: "AAC (ADTS)"))
    }

    @Test func mpegFramesAfterJunkAreMP3() {
        // Two MPEG-1 layer III frames, 128 kb/s, 44.1 kHz: 417 bytes each.
        var frame = [UInt8](repeating: 0, count: 417)
        frame[0] = 0xFF; frame[1] = 0xFB; frame[2] = 0x90; frame[3] = 0x00
        #expect(sniff(frame + frame) == .mp3)
        #expect(sniff(Array("junk".utf8) + frame + frame) == .mp3)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func corpusFilesAreRecognized() throws {
        let expectations: [String: SniffedAudioFormat] = [
            "audio/mp3-speech/auphonic_chapters_demo.mp3": .mp3, // 780 KB ID3v2 tag with cover first
            "audio/mp3-speech/readium-test-files__SmokeTestFXL__allison64.mp3": .mp3,
            "audio/mp3-edge/taglib__duplicate_id3v2.mp3": .mp3,
            "audio/ogg-speech/auphonic_chapters_demo.ogg": .vorbis,
            "audio/ogg-edge/taglib__multiplex.ogg": .vorbis, // Theora BOS page first
            "audio/opus/tinytag__test.opus": .ffmpeg(name: "Ogg Opus"),
            "audio/mp3-edge/Voice__defect.mp3": .notAudio,
            "audio/mp3-edge/tinytag__empty_file.mp3": .notAudio,
            "audio/ogg-edge/tinytag__invalid_file.ogg": .notAudio,
        ]
        for (path, expected) in expectations {
            let resource = try DecoderTestSupport.resource(path)
            #expect(try AudioFormatSniffer.sniff(resource: resource) == expected, "\(path)")
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func emptyFileIsRefusedAsNotAudio() throws {
        let resource = try DecoderTestSupport.resource("audio/mp3-edge/tinytag__empty_file.mp3")
        let error = #expect(throws: AudioDecoderError.self) {
            try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: .mp3)
        }
        #expect(error?.code == .corrupt)
        #expect(error?.message.hasPrefix("not an audio file") == true)
    }
}
