// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import ReadiumNavigator

/// One libavcodec audio encoder fed with interleaved Float32 PCM: the part `M4BWriter` and `AudioFileWriter`
/// share. Samples are queued until a whole frame of the codec's size is there; each packet the encoder makes
/// is handed to the caller's `deliver` (which muxes or spools it) before the packet is reused.
///
/// Bit-exact (`AV_CODEC_FLAG_BITEXACT`): the same PCM gives the same packets in every run. Calls
/// `avcodec_find_encoder_by_name`, `avcodec_open2`, `avcodec_send_frame` and `avcodec_receive_packet`.
/// One thread at a time.
final class FFmpegAudioEncoder {
    let ffmpeg: FFmpegEncoding
    let format: PCMFormat
    /// What errors are about: the output's path.
    let subject: String
    private(set) var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private(set) var packet: UnsafeMutablePointer<AVPacket>?
    private let frameSize: Int
    private let isPlanar: Bool
    private let codecName: String
    /// Samples not yet encoded: one array per channel when the codec takes planar samples, else one interleaved.
    private var pending: [[Float]]
    /// Samples of `pending` (per plane) already encoded, removed once a whole append is encoded.
    private var consumed = 0
    /// Frames handed to the encoder so far: the next frame's timestamp.
    private(set) var encodedFrames: Int64 = 0

    /// Opens encoder `codecName` (`aac`, `libmp3lame`, `libopus`) for PCM of `format` at `bitRate`;
    /// `globalHeader` for containers that keep the codec's setup in their header (MP4, Ogg).
    /// Throws `AudioSinkError.cannotCreate` when FFmpeg cannot be loaded, lacks the encoder or refuses the format.
    init(codecName: String, format: PCMFormat, bitRate: Int, globalHeader: Bool, subject: String) throws(AudioSinkError) {
        self.format = format
        self.subject = subject
        self.codecName = codecName
        switch FFmpegLibrary.withEncoders {
        case .success(let functions): ffmpeg = functions
        case .failure(let failure): throw AudioSinkError(.cannotCreate, subject: subject, message: failure.message)
        }
        let decoding = ffmpeg.decoding
        guard let codec = ffmpeg.avcodec_find_encoder_by_name(codecName), let context = decoding.avcodec_alloc_context3(codec) else {
            throw AudioSinkError(.cannotCreate, subject: subject, message: "FFmpeg has no \(codecName) encoder here")
        }
        let sampleFormat = Self.floatFormat(of: codec)
        isPlanar = sampleFormat == AV_SAMPLE_FMT_FLTP
        context.pointee.sample_fmt = sampleFormat
        context.pointee.sample_rate = Int32(format.sampleRate)
        context.pointee.bit_rate = Int64(bitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(format.sampleRate))
        context.pointee.flags |= Int32(AV_CODEC_FLAG_BITEXACT)
        if globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        ffmpeg.av_channel_layout_default(&context.pointee.ch_layout, Int32(format.channelCount))
        // FFmpeg's own AAC encoder searches its quantization in two loops by default, which makes it the slowest
        // part of a render by far; its fast coder is transparent enough for speech at these rates.
        var options: OpaquePointer?
        if codecName == "aac" { _ = ffmpeg.av_dict_set(&options, "aac_coder", "fast", 0) }
        let (status, logged) = FFmpegLog.collecting { decoding.avcodec_open2(context, codec, &options) }
        ffmpeg.av_dict_free(&options)
        guard status >= 0 else {
            var freed: UnsafeMutablePointer<AVCodecContext>? = context
            decoding.avcodec_free_context(&freed)
            throw AudioSinkError(.cannotCreate, subject: subject,
                                 message: "FFmpeg's \(codecName) encoder cannot encode \(format): \(logged.last?.message ?? decoding.describe(status))")
        }
        self.context = context
        frameSize = max(Int(context.pointee.frame_size), 1)
        pending = Array(repeating: [], count: isPlanar ? format.channelCount : 1)
        frame = decoding.av_frame_alloc()
        packet = decoding.av_packet_alloc()
        guard let frame, packet != nil else {
            release()
            throw AudioSinkError(.cannotCreate, subject: subject, message: "out of memory")
        }
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.format = sampleFormat.rawValue
        frame.pointee.sample_rate = Int32(format.sampleRate)
        ffmpeg.av_channel_layout_default(&frame.pointee.ch_layout, Int32(format.channelCount))
        guard ffmpeg.av_frame_get_buffer(frame, 0) >= 0 else {
            release()
            throw AudioSinkError(.cannotCreate, subject: subject, message: "out of memory")
        }
    }

    deinit { release() }

    /// Float samples as the codec takes them: planar when it can (AAC, LAME), else interleaved (Opus).
    private static func floatFormat(of codec: UnsafePointer<AVCodec>) -> AVSampleFormat {
        guard var formats = codec.pointee.sample_fmts else { return AV_SAMPLE_FMT_FLTP }
        var offered: [AVSampleFormat] = []
        while formats.pointee != AV_SAMPLE_FMT_NONE {
            offered.append(formats.pointee)
            formats += 1
        }
        return offered.contains(AV_SAMPLE_FMT_FLTP) || !offered.contains(AV_SAMPLE_FMT_FLT) ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_FLT
    }

    /// The frames appended so far, encoded or waiting.
    var appendedFrames: Int64 {
        encodedFrames + Int64(((pending.first?.count ?? 0) - consumed) / (isPlanar ? 1 : format.channelCount))
    }

    /// The encoder's time base (1 / sample rate).
    var timeBase: AVRational { context?.pointee.time_base ?? AVRational(num: 1, den: Int32(format.sampleRate)) }

    /// Appends interleaved samples of `format`; encodes each whole frame and hands its packets to `deliver`.
    func append(_ samples: UnsafeBufferPointer<Float>, deliver: (UnsafeMutablePointer<AVPacket>) throws(AudioSinkError) -> Void) throws(AudioSinkError) {
        let channels = format.channelCount
        if channels == 1 || !isPlanar {
            pending[0].append(contentsOf: samples)
        } else {
            for (index, sample) in samples.enumerated() { pending[index % channels].append(sample) }
        }
        let perFrame = isPlanar ? frameSize : frameSize * channels
        while pending[0].count - consumed >= perFrame { try encodeFrame(of: frameSize, deliver: deliver) }
        for plane in pending.indices { pending[plane].removeFirst(consumed) }
        consumed = 0
    }

    /// Encodes what is left and flushes the encoder: every packet goes to `deliver`.
    func finish(deliver: (UnsafeMutablePointer<AVPacket>) throws(AudioSinkError) -> Void) throws(AudioSinkError) {
        let left = (pending[0].count - consumed) / (isPlanar ? 1 : format.channelCount)
        if left > 0 { try encodeFrame(of: left, deliver: deliver) }
        _ = ffmpeg.avcodec_send_frame(context, nil)
        try drain(deliver: deliver)
    }

    private func encodeFrame(of count: Int, deliver: (UnsafeMutablePointer<AVPacket>) throws(AudioSinkError) -> Void) throws(AudioSinkError) {
        guard let frame else { return }
        guard ffmpeg.av_frame_make_writable(frame) >= 0 else {
            throw AudioSinkError(.writeFailed, subject: subject, message: "out of memory")
        }
        frame.pointee.nb_samples = Int32(count)
        let perPlane = isPlanar ? count : count * format.channelCount
        for plane in pending.indices {
            guard let data = frame.pointee.extended_data[plane] else { continue }
            let floats = UnsafeMutableRawPointer(data).assumingMemoryBound(to: Float.self)
            pending[plane].withUnsafeBufferPointer { floats.update(from: $0.baseAddress! + consumed, count: perPlane) }
        }
        consumed += perPlane
        frame.pointee.pts = encodedFrames
        encodedFrames += Int64(count)
        let status = ffmpeg.avcodec_send_frame(context, frame)
        guard status >= 0 else {
            throw AudioSinkError(.writeFailed, subject: subject, message: "FFmpeg's \(codecName) encoder failed: \(ffmpeg.decoding.describe(status))")
        }
        try drain(deliver: deliver)
    }

    /// Hands every packet the encoder has ready to `deliver`, then unreferences it.
    private func drain(deliver: (UnsafeMutablePointer<AVPacket>) throws(AudioSinkError) -> Void) throws(AudioSinkError) {
        while true {
            let status = ffmpeg.avcodec_receive_packet(context, packet)
            if status == raudio_av_error_eagain() || status == raudio_av_error_eof() { return }
            guard status >= 0, let packet else {
                throw AudioSinkError(.writeFailed, subject: subject, message: "FFmpeg's \(codecName) encoder failed: \(ffmpeg.decoding.describe(status))")
            }
            defer { ffmpeg.decoding.av_packet_unref(packet) }
            try deliver(packet)
        }
    }

    /// Frees the encoder, its frame and packet.
    func release() {
        let decoding = ffmpeg.decoding
        if frame != nil { decoding.av_frame_free(&frame) }
        if packet != nil { decoding.av_packet_free(&packet) }
        if context != nil { decoding.avcodec_free_context(&context) }
    }
}
