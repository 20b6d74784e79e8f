// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import ReadiumNavigator
import ReadiumShared

/// Decodes what FFmpeg's libraries read (AAC in MP4/M4A/M4B and ADTS, ALAC, Opus, FLAC, WAV) to
/// interleaved Float32 at the stream's own rate, sample for sample as `ffmpeg -i FILE -f f32le -` does.
///
/// The container's encoder delay and padding are removed by FFmpeg as its command line does (MP4 edit
/// lists, Opus pre-skip and end trimming), so consecutive tracks join without a gap. A seek decodes from a
/// little before the target (the codec's pre-roll) and drops what precedes it, so it gives the same
/// samples as decoding from the start. `frameCount` is the container's figure until the end is decoded,
/// then the decoded length. Use from one thread at a time.
public final class FFmpegDecoder: AudioDecoder {
    public let format: PCMFormat
    public private(set) var frameCount: Int64?
    public private(set) var currentFrame: Int64 = 0

    let href: String
    private let resource: any Resource
    private var input: FFmpegInput
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// The samples of `frame` (the last decoded) not yet returned: `frameOffset..<frameEnd`. They are
    /// interleaved straight into the caller's buffer, with no copy in between.
    private var frameOffset = 0
    private var frameEnd = 0
    /// Set by a seek: the first frame decoded after it is placed by its timestamp, and what comes
    /// before `seekTarget` is dropped.
    private var isPlacingAfterSeek = false
    private var seekTarget: Int64 = 0
    /// Where the next decoded sample lies in the track (frames from its start).
    private var decodePosition: Int64 = 0
    /// The timestamp of the first decoded frame: sample 0.
    private var originTimestamp: Int64?
    private var reachedEnd = false
    private var drained = false
    private var pendingError: AudioDecoderError?
    /// Seconds decoded before a seek target, so that the decoder's state has settled there.
    private let preroll: Double

    /// Opens `resource` and its audio stream's decoder.
    ///
    /// Throws `.trackUnsupported` for a protected (DRM) file or a codec FFmpeg cannot decode here,
    /// `.corrupt` when the container's headers are damaged or there is no audio, `.trackUnreadable` when the
    /// resource fails.
    public init(resource: any Resource) throws(AudioDecoderError) {
        href = resource.href
        self.resource = resource
        input = try FFmpegInput(resource: resource)
        let context = try Self.openCodec(of: input)
        codecContext = context
        let channels = Int(context.pointee.ch_layout.nb_channels)
        guard context.pointee.sample_rate > 0, channels > 0, channels <= 64 else {
            input.ffmpeg.avcodec_free_context(&codecContext)
            input.close()
            throw AudioDecoderError(.corrupt, href: href, message: "the \(Self.codecName(input.codec)) stream gives no usable sample rate or channel count")
        }
        format = PCMFormat(sampleRate: Int(context.pointee.sample_rate), channelCount: channels)
        packet = input.ffmpeg.av_packet_alloc()
        frame = input.ffmpeg.av_frame_alloc()
        preroll = Self.isLossless(input.codec.pointee.id) ? 0 : 0.25
        frameCount = Self.containerFrameCount(input.stream, format: input.context, sampleRate: format.sampleRate, ffmpeg: input.ffmpeg)
        // The first frame's timestamp is sample 0: later seeks count from it.
        decodeNextFrame()
    }

    deinit {
        ffmpeg.av_frame_free(&frame)
        ffmpeg.av_packet_free(&packet)
        ffmpeg.avcodec_free_context(&codecContext)
        input.close()
    }

    /// A decoder for `input`'s audio stream, opened.
    private static func openCodec(of input: FFmpegInput) throws(AudioDecoderError) -> UnsafeMutablePointer<AVCodecContext> {
        let ffmpeg = input.ffmpeg
        guard let context = ffmpeg.avcodec_alloc_context3(input.codec) else {
            throw AudioDecoderError(.corrupt, href: input.href, message: "FFmpeg could not allocate a decoder (out of memory)")
        }
        let (status, logged) = FFmpegLog.collecting { () -> Int32 in
            let status = ffmpeg.avcodec_parameters_to_context(context, input.stream.pointee.codecpar)
            guard status >= 0 else { return status }
            context.pointee.pkt_timebase = input.stream.pointee.time_base
            return ffmpeg.avcodec_open2(context, input.codec, nil)
        }
        guard status >= 0 else {
            var freed: UnsafeMutablePointer<AVCodecContext>? = context
            ffmpeg.avcodec_free_context(&freed)
            // FFmpeg's own reason (logged) says what is not supported; its status alone says "function not implemented".
            let reason = logged.last.map { $0.message.prefix(1).lowercased() + $0.message.dropFirst() } ?? ffmpeg.describe(status)
            throw AudioDecoderError(.trackUnsupported, href: input.href,
                                    message: "FFmpeg's \(codecName(input.codec)) decoder cannot decode it: \(reason)")
        }
        return context
    }

    /// Opens the resource again, demuxer and decoder: the start of the stream exactly as the first
    /// time (the container's initial skip applied, the decoder fresh).
    private func reopen() throws(AudioDecoderError) {
        let fresh = try FFmpegInput(resource: resource)
        let context = try Self.openCodec(of: fresh)
        ffmpeg.avcodec_free_context(&codecContext)
        input.close()
        input = fresh
        codecContext = context
    }

    /// The codec's name, as FFmpeg gives it (`aac`, `opus`, `flac`, `alac`, ...).
    public var codecName: String { Self.codecName(input.codec) }

    /// The codec profile FFmpeg names (`LC`, `HE-AAC`, `HE-AACv2` for AAC), when it has one.
    var profileName: String? {
        let profile = input.stream.pointee.codecpar.pointee.profile
        guard profile >= 0, let name = ffmpeg.av_get_profile_name(input.codec, profile) else { return nil }
        return String(cString: name)
    }

    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
        let channels = format.channelCount
        var written = 0
        while written < maxFrames {
            if frameOffset < frameEnd, let frame {
                let count = min(frameEnd - frameOffset, maxFrames - written)
                FFmpegSamples.interleave(frame, from: frameOffset, count: count, channels: channels, into: buffer + written * channels, ffmpeg: ffmpeg)
                frameOffset += count
                written += count
                continue
            }
            if reachedEnd { break }
            if pendingError != nil { break }
            decodeNextFrame()
        }
        currentFrame += Int64(written)
        if written == 0, let pendingError {
            self.pendingError = nil
            reachedEnd = true
            throw pendingError
        }
        return written
    }

    /// Seeks sample-exactly: demuxes from a little before `frame`, decodes and drops up to it.
    public func seek(toFrame target: Int64) throws(AudioDecoderError) {
        var frame = max(0, target)
        if isLengthDecoded, let frameCount { frame = min(frame, frameCount) }
        frameOffset = 0
        frameEnd = 0
        if let decoded = self.frame { ffmpeg.av_frame_unref(decoded) }
        pendingError = nil
        drained = false
        reachedEnd = false
        let sampleRate = Int64(format.sampleRate)
        let start = max(0, frame - Int64(preroll * Double(sampleRate)))
        currentFrame = frame
        seekTarget = frame
        if start == 0 {
            // From the start: open again, so that the container's initial skip and the decoder's state
            // are those of the first decode; then count samples up to the target.
            try reopen()
            decodePosition = 0
            isPlacingAfterSeek = false
            return
        }
        guard let context = input.context, let codecContext else { return }
        let timestamp = (originTimestamp ?? 0) + ffmpeg.av_rescale_q(start, AVRational(num: 1, den: Int32(sampleRate)), input.stream.pointee.time_base)
        let status = input.demuxers.avformat_seek_file(context, input.streamIndex, Int64.min, timestamp, timestamp, 0)
        guard status >= 0 else {
            throw AudioDecoderError(.seekFailed, href: href, message: "could not seek to frame \(frame): \(ffmpeg.describe(status))")
        }
        ffmpeg.avcodec_flush_buffers(codecContext)
        decodePosition = start
        isPlacingAfterSeek = true
    }

    /// FFmpeg's decoding functions (those of every input opened: there is one load per process).
    private var ffmpeg: FFmpegFunctions { input.ffmpeg }

    /// Whether `frameCount` is the decoded length (the end was reached) rather than the container's figure.
    private var isLengthDecoded = false

    // MARK: - Decoding

    /// Decodes frames until one has samples to give (or sets `reachedEnd` / `pendingError`).
    private func decodeNextFrame() {
        guard let codecContext, let frame, let packet, let context = input.context else {
            reachedEnd = true
            return
        }
        while true {
            let received = ffmpeg.avcodec_receive_frame(codecContext, frame)
            if received >= 0 {
                if place(frame) { return }
                continue
            }
            if received == raudio_av_error_eof() {
                finish()
                return
            }
            guard received == raudio_av_error_eagain() else {
                pendingError = AudioDecoderError(.corrupt, href: href, message: "the \(codecName) stream is damaged at \(timeDescription): \(ffmpeg.describe(received))")
                return
            }
            if drained {
                finish()
                return
            }
            let read = input.demuxers.av_read_frame(context, packet)
            if read < 0 {
                if read != raudio_av_error_eof(), let readError = input.reader.lastError {
                    pendingError = AudioDecoderError(reading: readError, href: href)
                    return
                }
                if read != raudio_av_error_eof() {
                    pendingError = AudioDecoderError(.corrupt, href: href, message: "the container breaks off at \(timeDescription): \(ffmpeg.describe(read))")
                    return
                }
                _ = ffmpeg.avcodec_send_packet(codecContext, nil)
                drained = true
                continue
            }
            defer { ffmpeg.av_packet_unref(packet) }
            guard packet.pointee.stream_index == input.streamIndex else { continue }
            let sent = ffmpeg.avcodec_send_packet(codecContext, packet)
            if sent < 0, sent != raudio_av_error_eagain() {
                // One damaged packet: FFmpeg's command line skips it too; say so only if nothing decodes after.
                continue
            }
        }
    }

    private func finish() {
        reachedEnd = true
        // The decoded length is the truth, whatever the header said.
        frameCount = max(decodePosition, 0)
        isLengthDecoded = true
        if isPlacingAfterSeek || currentFrame > decodePosition {
            // A seek past the end: nothing to play.
            isPlacingAfterSeek = false
            currentFrame = decodePosition
        }
    }

    private var timeDescription: String {
        let seconds = Double(currentFrame) / Double(format.sampleRate)
        return String(format: "%.3f s", seconds)
    }

    /// Places the decoded `frame` in the track and marks the samples it gives (those before a seek
    /// target are dropped); false when it gives none.
    private func place(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        let count = Int(frame.pointee.nb_samples)
        guard count > 0 else { return false }
        let timestamp = frame.pointee.best_effort_timestamp
        let hasTimestamp = timestamp != raudio_av_nopts_value()
        if originTimestamp == nil { originTimestamp = hasTimestamp ? timestamp : 0 }
        if isPlacingAfterSeek {
            // The first frame after a seek: where it lies, from its timestamp.
            isPlacingAfterSeek = false
            if hasTimestamp, let origin = originTimestamp {
                decodePosition = ffmpeg.av_rescale_q(timestamp - origin, input.stream.pointee.time_base, AVRational(num: 1, den: Int32(format.sampleRate)))
            }
        }
        let start = decodePosition
        decodePosition += Int64(count)
        // Samples before the position asked for (decoded to settle the decoder after a seek) are dropped.
        frameOffset = Int(min(max(seekTarget - start, 0), Int64(count)))
        frameEnd = count
        return frameOffset < frameEnd
    }

    // MARK: - Facts about the stream

    private static func codecName(_ codec: UnsafePointer<AVCodec>) -> String {
        codec.pointee.name.map { String(cString: $0) } ?? "audio"
    }

    private static func isLossless(_ id: AVCodecID) -> Bool {
        [AV_CODEC_ID_FLAC, AV_CODEC_ID_ALAC, AV_CODEC_ID_WAVPACK, AV_CODEC_ID_TTA].contains(id)
            || (id.rawValue >= AV_CODEC_ID_PCM_S16LE.rawValue && id.rawValue < AV_CODEC_ID_ADPCM_IMA_QT.rawValue)
    }

    /// The stream's length in frames as the container states it (may be off: the decoded length wins).
    private static func containerFrameCount(_ stream: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>?, sampleRate: Int,
                                            ffmpeg: FFmpegFunctions) -> Int64? {
        let rate = AVRational(num: 1, den: Int32(sampleRate))
        if stream.pointee.duration > 0, stream.pointee.duration != raudio_av_nopts_value() {
            return ffmpeg.av_rescale_q(stream.pointee.duration, stream.pointee.time_base, rate)
        }
        if let format, format.pointee.duration > 0, format.pointee.duration != raudio_av_nopts_value() {
            return ffmpeg.av_rescale_q(format.pointee.duration, AVRational(num: 1, den: AV_TIME_BASE), rate)
        }
        return nil
    }
}
