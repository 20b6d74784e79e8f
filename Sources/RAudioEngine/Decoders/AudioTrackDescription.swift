// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import ReadiumNavigator
import ReadiumShared

/// A track's codec, rate and channels in words, for people (`raudio info --human`): "MP3, 44.1 kHz,
/// stereo", "AAC LC, 44.1 kHz, mono", "Opus, 48 kHz, stereo". Opens the decoder raudio would use.
public enum AudioTrackDescription {
    /// The description of `resource`, or why it cannot be played.
    public static func describe(_ resource: any Resource) -> String {
        let codec: String
        let format: PCMFormat
        do {
            let decoder = try RAudioDecoderFactory().makeDecoder(for: resource, mediaType: nil)
            format = decoder.format
            switch decoder {
            case is MPG123Decoder: codec = "MP3"
            case is VorbisDecoder: codec = "Vorbis"
            case is FLACDecoder: codec = "FLAC"
            case let mp4 as MP4AudioDecoder: codec = mp4.codecDescription
            case let ffmpeg as FFmpegDecoder: codec = ffmpeg.codecDescription
            default: codec = "audio"
            }
        } catch {
            return "not playable: \(error.message)"
        }
        let rate = format.sampleRate % 1000 == 0 ? "\(format.sampleRate / 1000) kHz" : String(format: "%.1f kHz", Double(format.sampleRate) / 1000)
        let channels = switch format.channelCount {
        case 1: "mono"
        case 2: "stereo"
        default: "\(format.channelCount) channels"
        }
        return "\(codec), \(rate), \(channels)"
    }
}

extension FFmpegDecoder {
    /// The codec and its profile as FFmpeg names them: "AAC LC", "AAC HE", "ALAC", "Opus", "FLAC".
    var codecDescription: String {
        let names: [String: String] = ["aac": "AAC", "alac": "ALAC", "opus": "Opus", "libopus": "Opus", "flac": "FLAC", "vorbis": "Vorbis", "mp3float": "MP3"]
        let name = names[codecName] ?? codecName.uppercased()
        guard let profile = profileName, !profile.isEmpty else { return name }
        return "\(name) \(profile)"
    }
}
