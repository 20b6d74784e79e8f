// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared

/// The length of a track FFmpeg reads, from its container's headers and sample tables (no decoding
/// past the first frame): MP4 sample tables and edit lists, FLAC's STREAMINFO, the last Ogg page's
/// granule position, a WAV's data size.
enum FFmpegDurationProbe {
    static func duration(of resource: any Resource) throws(AudioDecoderError) -> AudioDuration {
        let decoder = try FFmpegDecoder(resource: resource)
        guard let frames = decoder.frameCount else {
            throw AudioDecoderError(.corrupt, href: resource.href, message: "its container does not tell the length of the \(decoder.codecName) stream")
        }
        return AudioDuration(frameCount: frames, format: decoder.format, isExact: true)
    }
}
