// SPDX-License-Identifier: GPL-3.0-or-later
/// The 4-byte header of one MPEG audio frame (MPEG-1, 2 or 2.5; layer I, II or III), parsed in Swift.
///
/// Used to recognize MP3 content and to find the Xing/Info/VBRI tag of the first frame; decoding
/// itself is libmpg123's.
struct MPEGFrameHeader: Equatable {
    enum Version { case mpeg1, mpeg2, mpeg25 }

    var version: Version
    /// 1, 2 or 3.
    var layer: Int
    var bitrate: Int
    var sampleRate: Int
    var channelCount: Int
    var frameLength: Int

    private static let bitratesV1: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    ]
    private static let bitratesV2: [[Int]] = [
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]

    /// Parses the header at `offset`; nil when the bytes are not a valid (non-free-format) header.
    init?(_ bytes: [UInt8], at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let b1 = bytes[offset + 1], b2 = bytes[offset + 2], b3 = bytes[offset + 3]
        guard bytes[offset] == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        switch (b1 >> 3) & 0x03 {
        case 0: version = .mpeg25
        case 2: version = .mpeg2
        case 3: version = .mpeg1
        default: return nil
        }
        let layerBits = (b1 >> 1) & 0x03
        guard layerBits != 0 else { return nil }
        layer = 4 - Int(layerBits)
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 0x03)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let table = version == .mpeg1 ? Self.bitratesV1 : Self.bitratesV2
        bitrate = table[layer - 1][bitrateIndex] * 1000
        let baseRates = [44_100, 48_000, 32_000]
        sampleRate = switch version {
        case .mpeg1: baseRates[rateIndex]
        case .mpeg2: baseRates[rateIndex] / 2
        case .mpeg25: baseRates[rateIndex] / 4
        }
        channelCount = (b3 >> 6) == 3 ? 1 : 2
        let padding = Int((b2 >> 1) & 0x01)
        switch layer {
        case 1: frameLength = (12 * bitrate / sampleRate + padding) * 4
        case 2: frameLength = 144 * bitrate / sampleRate + padding
        default: frameLength = (version == .mpeg1 ? 144 : 72) * bitrate / sampleRate + padding
        }
        guard frameLength >= 4 else { return nil }
    }

    /// Bytes of layer III side information after the header (and its CRC, not counted here).
    var sideInfoLength: Int {
        switch (version, channelCount) {
        case (.mpeg1, 1): 17
        case (.mpeg1, _): 32
        case (_, 1): 9
        default: 17
        }
    }
}
