import CFFmpeg

/// Converts FFmpeg's decoded sample formats to interleaved Float32, as its command line's
/// `-f f32le` conversion does (integers scaled by 1 / 2^(bits-1), doubles rounded to Float).
enum FFmpegSamples {
    /// Appends the samples of `frame` from sample `start` on to `output`, interleaved.
    static func appendInterleaved(_ frame: UnsafeMutablePointer<AVFrame>, from start: Int, channels: Int, to output: inout [Float]) {
        let count = Int(frame.pointee.nb_samples) - start
        guard count > 0 else { return }
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let planar = FF.av_sample_fmt_is_planar(format) != 0
        let base = output.count
        output.append(contentsOf: repeatElement(0, count: count * channels))
        output.withUnsafeMutableBufferPointer { buffer in
            let destination = buffer.baseAddress! + base
            guard let data = frame.pointee.extended_data else { return }
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
                    return  // S64 and others: silence (no audio codec FFmpeg ships here produces them)
                }
            }
        }
    }
}
