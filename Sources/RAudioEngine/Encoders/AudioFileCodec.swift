// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// The encodings `AudioFileWriter` writes: MP3 (libavcodec's `libmp3lame`), AAC in MP4 (`aac`), Opus in Ogg
/// (`libopus`, at 48 kHz: other rates are resampled).
public enum AudioFileCodec: String, Sendable, Hashable, CaseIterable {
    case mp3
    case aac
    case opus

    /// libavcodec's encoder.
    var encoderName: String {
        switch self {
        case .mp3: "libmp3lame"
        case .aac: "aac"
        case .opus: "libopus"
        }
    }

    /// libavformat's muxer.
    var muxerName: String {
        switch self {
        case .mp3: "mp3"
        case .aac: "mp4"
        case .opus: "ogg"
        }
    }

    /// Whether the container keeps the codec's setup in its header rather than in each packet.
    var needsGlobalHeader: Bool { self != .mp3 }

    /// The file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .mp3: "mp3"
        case .aac: "m4a"
        case .opus: "opus"
        }
    }

    public var mediaType: MediaType {
        switch self {
        case .mp3: MediaType("audio/mpeg")!
        case .aac: MediaType("audio/mp4")!
        case .opus: MediaType("audio/ogg; codecs=opus")!
        }
    }

    /// The bit rate for speech: mono voices at 22 050 Hz (eSpeak NG, Piper's medium voices) sound as
    /// they were at these rates.
    public func defaultBitRate(channelCount: Int) -> Int {
        switch self {
        case .mp3: 48_000 * channelCount
        case .aac: 48_000 * channelCount
        case .opus: 32_000 * channelCount
        }
    }

    /// The sample rate the encoder takes for PCM at `sampleRate`: Opus codes 48 kHz (and a few lower rates).
    func encodedSampleRate(for sampleRate: Int) -> Int {
        guard self == .opus else { return sampleRate }
        return [48_000, 24_000, 16_000, 12_000, 8_000].contains(sampleRate) ? sampleRate : 48_000
    }
}
