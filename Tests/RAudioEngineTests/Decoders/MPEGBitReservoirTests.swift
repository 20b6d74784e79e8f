// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import RAudioEngine

@Suite("Layer III bit reservoir: frames to decode before a seek target")
struct MPEGBitReservoirTests {
    @Test func mpeg1StereoAt44kHzNeedsEightReservoirFramesPlusOne() {
        // Smallest frame 104 bytes, 66 of main data: 511 bytes span 8 frames.
        #expect(MPEGBitReservoir.preframesNeeded(version: .mpeg1, sampleRate: 44_100, channelCount: 2) == 9)
    }

    @Test func mpeg1MonoCarriesMoreMainDataPerFrameSoNeedsFewer() {
        #expect(MPEGBitReservoir.preframesNeeded(version: .mpeg1, sampleRate: 44_100, channelCount: 1) == 8)
        #expect(MPEGBitReservoir.preframesNeeded(version: .mpeg1, sampleRate: 48_000, channelCount: 2) == 10)
    }

    @Test func lowSampleRateMPEG2HasTinyFramesAndNeedsMany() {
        // 8 kb/s at 22.05 kHz: 26-byte frames, 11 bytes of main data in mono; 255 bytes span 24.
        #expect(MPEGBitReservoir.preframesNeeded(version: .mpeg2, sampleRate: 22_050, channelCount: 1) == 25)
        #expect(MPEGBitReservoir.preframesNeeded(version: .mpeg25, sampleRate: 8_000, channelCount: 1) == 6)
    }

    @Test func neverFewerThanLibmpg123sDefault() {
        for rate in [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000] {
            for channels in [1, 2] {
                for version in [MPEGFrameHeader.Version.mpeg1, .mpeg2, .mpeg25] {
                    #expect(MPEGBitReservoir.preframesNeeded(version: version, sampleRate: rate, channelCount: channels) >= MPEGBitReservoir.defaultPreframes)
                }
            }
        }
        #expect(MPEGBitReservoir.preframesNeeded(version: .mpeg1, sampleRate: 0, channelCount: 2) == MPEGBitReservoir.defaultPreframes)
    }
}
