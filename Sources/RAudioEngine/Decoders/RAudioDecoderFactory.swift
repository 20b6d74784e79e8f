// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// Opens the right decoder for a resource by sniffing its bytes, never by its name or declared type:
/// libmpg123 for MP3, vorbisfile for Ogg Vorbis, libFLAC for native FLAC, raudio's MP4 reader with libavcodec for AAC and
/// ALAC in MP4, FFmpeg for the rest it reads (AAC in MP4/M4A/M4B and
/// ADTS, ALAC, Opus, FLAC, WAV). Recognized but undecodable formats throw `.trackUnsupported` naming
/// the format (or the DRM that protects it), anything else `.corrupt` ("not an audio file").
///
/// Blocking I/O: call it from a thread the engine owns (the render or probing thread).
public struct RAudioDecoderFactory: AudioDecoderFactory {
    public init() {}

    public func makeDecoder(for resource: any Resource, mediaType: MediaType?) throws(AudioDecoderError) -> any AudioDecoder {
        switch try Self.sniff(resource) {
        case .mp3:
            return try MPG123Decoder(resource: resource)
        case .vorbis:
            return try VorbisDecoder(resource: resource)
        case .ffmpeg(let name) where name == AudioFormatSniffer.mp4Name:
            // AAC and ALAC in a plain MP4 are demuxed by raudio (light and quick on long books); what
            // its reader leaves (fragments, edits, other codecs, damage) goes to FFmpeg's demuxer.
            let opening: MP4DecoderOpening
            do {
                return try MP4AudioDecoder(resource: resource)
            } catch {
                opening = error
            }
            if case .failed(let error) = opening { throw error }
            return try FFmpegDecoder(resource: resource)
        case .ffmpeg(let name) where name == AudioFormatSniffer.flacName:
            return try FLACDecoder(resource: resource)
        case .ffmpeg:
            return try FFmpegDecoder(resource: resource)
        case .unsupported(let name):
            let detail = "\(name) is not supported"
            throw AudioDecoderError(.trackUnsupported, href: resource.href, message: detail)
        case .notAudio:
            let hint = mediaType.map { " although it is declared as \($0.essence)" } ?? ""
            throw AudioDecoderError(.corrupt, href: resource.href, message: "not an audio file\(hint) (empty, or no known audio format in its first bytes)")
        }
    }

    /// `AudioFormatSniffer.sniff(resource:)`, with resource errors as `.trackUnreadable`.
    static func sniff(_ resource: any Resource) throws(AudioDecoderError) -> SniffedAudioFormat {
        do {
            return try AudioFormatSniffer.sniff(resource: resource)
        } catch {
            throw AudioDecoderError(reading: error, href: resource.href)
        }
    }
}
