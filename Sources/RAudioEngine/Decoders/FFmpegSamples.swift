// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Converts FFmpeg's decoded sample formats to interleaved Float32, as its command line's
/// `-f f32le` conversion does (integers scaled by 1 / 2^(bits-1), doubles rounded to Float).
enum FFmpegSamples {
    /// Writes `count` samples of `frame` from sample `start` on into `destination`, interleaved
    /// (`count * channels` floats). A sample format no audio decoder here produces (S64) gives silence.
    static func interleave(_ frame: UnsafeMutablePointer<AVFrame>, from start: Int, count: Int, channels: Int, into destination: UnsafeMutablePointer<Float>,
                           ffmpeg: FFmpegFunctions) {
        guard count > 0 else { return }
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let planar = ffmpeg.av_sample_fmt_is_planar(format) != 0
        guard let data = frame.pointee.extended_data else {
            destination.update(repeating: 0, count: count * channels)
            return
        }
        if !planar, let plane = data[0] {
            // Packed: the samples are already interleaved; one contiguous run to convert.
            convert(plane, format: format, from: start * channels, count: count * channels, into: destination)
            return
        }
        for channel in 0..<channels {
            // Planar: one plane per channel. Packed: every channel in plane 0.
            guard let plane = data[planar ? channel : 0] else { continue }
            let stride = planar ? 1 : channels
            let first = (start * stride) + (planar ? 0 : channel)
            var out = destination + channel
            switch format {
            case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP:
                let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: Float.self)
                for index in 0..<count { out.pointee = samples[first + index * stride]; out += channels }
            case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P:
                let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: Int16.self)
                for index in 0..<count { out.pointee = Float(samples[first + index * stride]) * (1.0 / 32768.0); out += channels }
            case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P:
                let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: Int32.self)
                for index in 0..<count { out.pointee = Float(samples[first + index * stride]) * (1.0 / 2147483648.0); out += channels }
            case AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP:
                let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: Double.self)
                for index in 0..<count { out.pointee = Float(samples[first + index * stride]); out += channels }
            case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P:
                let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: UInt8.self)
                for index in 0..<count { out.pointee = (Float(samples[first + index * stride]) - 128) * (1.0 / 128.0); out += channels }
            default:
                destination.update(repeating: 0, count: count * channels)
                return
            }
        }
    }

    /// Converts `count` consecutive samples of `plane`, from sample `first` on, to Float32.
    private static func convert(_ plane: UnsafeMutablePointer<UInt8>, format: AVSampleFormat, from first: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
        let raw = UnsafeRawPointer(plane)
        switch format {
        case AV_SAMPLE_FMT_FLT:
            out.update(from: raw.assumingMemoryBound(to: Float.self) + first, count: count)
        case AV_SAMPLE_FMT_S16:
            let samples = raw.assumingMemoryBound(to: Int16.self) + first
            for index in 0..<count { out[index] = Float(samples[index]) * (1.0 / 32768.0) }
        case AV_SAMPLE_FMT_S32:
            let samples = raw.assumingMemoryBound(to: Int32.self) + first
            for index in 0..<count { out[index] = Float(samples[index]) * (1.0 / 2147483648.0) }
        case AV_SAMPLE_FMT_DBL:
            let samples = raw.assumingMemoryBound(to: Double.self) + first
            for index in 0..<count { out[index] = Float(samples[index]) }
        case AV_SAMPLE_FMT_U8:
            let samples = raw.assumingMemoryBound(to: UInt8.self) + first
            for index in 0..<count { out[index] = (Float(samples[index]) - 128) * (1.0 / 128.0) }
        default:
            out.update(repeating: 0, count: count)
        }
    }
}
