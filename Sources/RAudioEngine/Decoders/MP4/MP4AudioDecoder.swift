// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import ReadiumNavigator
import ReadiumShared

/// Decodes the AAC or ALAC track of an MP4/M4A/M4B file that raudio demuxes itself, feeding
/// libavcodec packet by packet from the sample tables (`MP4SampleTable`), which stay in the file.
///
/// FFmpeg's own MP4 demuxer indexes every sample when it opens a file: 1.5 million entries and over
/// 100 MB for a 10-hour book, and tens of milliseconds before the first sound. This decoder opens such a
/// book in a few milliseconds and a few hundred kilobytes. The samples are FFmpeg's: the same decoder,
/// the same packets, the encoder delay of the edit list removed; unlike FFmpeg 5.1's command line it
/// also drops the padding after the edit's end, so consecutive tracks join without a gap. A seek
/// decodes from a little before the target (the codec's pre-roll) and drops what precedes it.
/// `frameCount` is the edit's length (the decoded length if the file breaks off). One thread at a time.
public final class MP4AudioDecoder: AudioDecoder {
    public let format: PCMFormat
    public private(set) var frameCount: Int64?
    public private(set) var currentFrame: Int64 = 0

    let href: String
    private let reader: ResourceReader
    private let track: MP4Track
    private let configuration: MP4AudioConfiguration
    /// FFmpeg's decoding functions, from the load checked before opening.
    private let ffmpeg: FFmpegFunctions
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// The samples of `frame` still to give: `frameOffset..<frameEnd`.
    private var frameOffset = 0
    private var frameEnd = 0
    /// The next MP4 sample (packet) to send to the decoder.
    private var nextSample = 0
    /// Where the next decoded PCM frame lies on the media's timeline, in output frames.
    private var decodePosition: Int64 = 0
    /// The timing (output frames) of the packets sent and not yet decoded, oldest first. A decoded
    /// frame takes its place and length from its packet: a packet the sample table says is shorter
    /// than its frame (the end of each part of a book joined from encodes) gives only that many.
    private var packetsInFlight: [(start: Int64, length: Int64)] = []
    /// The first output frame wanted: the edit's start, or a seek target (media timeline).
    private var wantedFrom: Int64 = 0
    /// The edit: where playback starts in the media and how long it lasts, in output frames.
    private var editStart: Int64 = 0
    private var editLength: Int64 = 0
    private var reachedEnd = false
    private var drained = false
    private var pendingError: AudioDecoderError?

    /// Opens the file's audio track when raudio's own reader handles it; throws `MP4Unsupported` when
    /// the file should go to `FFmpegDecoder` instead (fragments, several edits, another codec, damage),
    /// and `AudioDecoderError` when FFmpeg's libraries are missing or the resource cannot be read.
    init(resource: any Resource) throws(MP4DecoderOpening) {
        href = resource.href
        let ffmpeg: FFmpegFunctions
        switch FFmpegLibrary.shared {
        case .success(let loaded): ffmpeg = loaded
        case .failure(let failure): throw .failed(AudioDecoderError(.trackUnsupported, href: href, message: failure.message))
        }
        self.ffmpeg = ffmpeg
        do {
            reader = try ResourceReader(resource: resource)
        } catch {
            throw .failed(AudioDecoderError(reading: error, href: href))
        }
        var context: UnsafeMutablePointer<AVCodecContext>?
        var packet = ffmpeg.av_packet_alloc()
        var frame = ffmpeg.av_frame_alloc()
        do throws(MP4Unsupported) {
            let movie = try MP4Movie(reader: reader)
            guard let audio = movie.audioTrack else { throw MP4Unsupported("no audio track") }
            let configuration = try MP4AudioConfiguration(track: audio)
            context = try Self.openCodec(configuration, ffmpeg)
            // The output rate and channels are the decoder's (HE-AAC doubles the core rate): the
            // first frame says.
            guard let first = try Self.firstFrame(track: audio, context: context!, packet: packet, frame: frame, reader: reader, ffmpeg: ffmpeg) else {
                throw MP4Unsupported("no audio decodes from the first packets")
            }
            (editStart, editLength) = try Self.edit(of: audio, movie: movie, rate: first.sampleRate)
            track = audio
            self.configuration = configuration
            format = first
        } catch {
            Self.free(&context, &packet, &frame, ffmpeg)
            throw .unsupported(error)
        }
        codecContext = context
        self.packet = packet
        self.frame = frame
        frameCount = editLength
        wantedFrom = editStart
        // Start again from packet 0 with a fresh decoder: the first frame was only a probe.
        do { try reopen() } catch { throw .failed(error) }
    }

    deinit {
        Self.free(&codecContext, &packet, &frame, ffmpeg)
    }

    private static func free(_ context: inout UnsafeMutablePointer<AVCodecContext>?, _ packet: inout UnsafeMutablePointer<AVPacket>?, _ frame: inout UnsafeMutablePointer<AVFrame>?,
                             _ ffmpeg: FFmpegFunctions) {
        if frame != nil { ffmpeg.av_frame_free(&frame) }
        if packet != nil { ffmpeg.av_packet_free(&packet) }
        if context != nil { ffmpeg.avcodec_free_context(&context) }
    }

    /// The codec's name (`aac`, `alac`).
    public var codecName: String { configuration.codecID == AV_CODEC_ID_AAC ? "aac" : "alac" }

    /// The codec and its AAC profile as FFmpeg names them: "AAC LC", "AAC HE-AAC", "AAC HE-AACv2", "ALAC".
    var codecDescription: String {
        guard configuration.codecID == AV_CODEC_ID_AAC, let first = configuration.extradata.first else { return "ALAC" }
        // The AudioSpecificConfig's first 5 bits: the audio object type (31 escapes to 6 more bits).
        var objectType = Int(first >> 3)
        if objectType == 31, configuration.extradata.count > 1 {
            objectType = 32 + (Int(first & 0x07) << 3 | Int(configuration.extradata[1] >> 5))
        }
        let profiles = [1: "Main", 2: "LC", 3: "SSR", 4: "LTP", 5: "HE-AAC", 29: "HE-AACv2", 23: "LD", 39: "ELD", 42: "xHE-AAC"]
        return profiles[objectType].map { "AAC \($0)" } ?? "AAC"
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
            if reachedEnd || pendingError != nil { break }
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

    public func seek(toFrame target: Int64) throws(AudioDecoderError) {
        let frame = min(max(0, target), frameCount ?? editLength)
        frameOffset = 0
        frameEnd = 0
        pendingError = nil
        drained = false
        reachedEnd = false
        currentFrame = frame
        wantedFrom = editStart + frame
        // The packet holding the target, less the codec's pre-roll (none for lossless ALAC).
        let rate = Int64(format.sampleRate)
        let mediaTime = wantedFrom * track.timescale / rate
        let preroll = configuration.codecID == AV_CODEC_ID_ALAC ? 0 : track.timescale / 4
        let first = max(0, track.samples.sample(at: mediaTime - preroll) - (preroll > 0 ? 1 : 0))
        if first == 0 {
            try reopen()
            return
        }
        guard let codecContext else { return }
        ffmpeg.avcodec_flush_buffers(codecContext)
        nextSample = first
        packetsInFlight.removeAll(keepingCapacity: true)
        decodePosition = track.samples(track.samples.timing(ofSample: first).start, at: format.sampleRate)
    }

    // MARK: - Decoding

    /// A fresh decoder at packet 0: the state of the first decode, which a flush may not restore.
    /// The old decoder is freed first: an AAC decoder's state is 548 KB, and two side by side were the
    /// peak of the heap while a book opens (issue 13's RSS target).
    private func reopen() throws(AudioDecoderError) {
        ffmpeg.avcodec_free_context(&codecContext)
        do {
            codecContext = try Self.openCodec(configuration, ffmpeg)
        } catch {
            throw AudioDecoderError(.corrupt, href: href, message: "FFmpeg could not open the \(codecName) decoder again: \(error.reason)")
        }
        nextSample = 0
        packetsInFlight.removeAll(keepingCapacity: true)
        decodePosition = 0
    }

    private func decodeNextFrame() {
        guard let codecContext, let frame, let packet else {
            reachedEnd = true
            return
        }
        while true {
            let received = ffmpeg.avcodec_receive_frame(codecContext, frame)
            if received >= 0 {
                if place(frame) || reachedEnd { return }
                continue
            }
            if received == raudio_av_error_eof() || (received == raudio_av_error_eagain() && drained) {
                finish()
                return
            }
            guard received == raudio_av_error_eagain() else {
                pendingError = AudioDecoderError(.corrupt, href: href, message: "the \(codecName) stream is damaged at \(timeDescription): \(ffmpeg.describe(received))")
                return
            }
            guard nextSample < track.samples.sampleCount else {
                _ = ffmpeg.avcodec_send_packet(codecContext, nil)
                drained = true
                continue
            }
            do {
                try Self.readPacket(nextSample, of: track, into: packet, reader: reader, ffmpeg: ffmpeg)
            } catch {
                pendingError = AudioDecoderError(.corrupt, href: href, message: "the file breaks off at \(timeDescription) (packet \(nextSample) of \(track.samples.sampleCount)): \(error.reason)")
                return
            }
            let timing = track.samples.timing(ofSample: nextSample)
            nextSample += 1
            // A damaged packet is skipped, as FFmpeg's command line skips it.
            if ffmpeg.avcodec_send_packet(codecContext, packet) >= 0 {
                let rate = format.sampleRate
                let start = track.samples(timing.start, at: rate)
                packetsInFlight.append((start, track.samples(timing.start + timing.duration, at: rate) - start))
            }
            ffmpeg.av_packet_unref(packet)
        }
    }

    /// Marks the part of `frame` inside the edit and after the wanted frame; false when none is.
    private func place(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        var count = Int64(frame.pointee.nb_samples)
        if !packetsInFlight.isEmpty {
            let sent = packetsInFlight.removeFirst()
            decodePosition = sent.start
            count = min(count, sent.length)
        }
        let start = decodePosition
        decodePosition += count
        let end = editStart + editLength
        if start >= end {
            finish()
            return false
        }
        frameOffset = Int(min(max(wantedFrom - start, 0), count))
        frameEnd = Int(min(end - start, count))
        return frameOffset < frameEnd
    }

    private func finish() {
        reachedEnd = true
        let decoded = max(0, min(decodePosition, editStart + editLength) - editStart)
        if decoded < editLength {
            // The file broke off: the decoded length is the truth.
            frameCount = decoded
            currentFrame = min(currentFrame, decoded)
        }
    }

    private var timeDescription: String {
        String(format: "%.3f s", Double(currentFrame) / Double(format.sampleRate))
    }

    // MARK: - Opening

    private static func openCodec(_ configuration: MP4AudioConfiguration, _ ffmpeg: FFmpegFunctions) throws(MP4Unsupported) -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = ffmpeg.avcodec_find_decoder(configuration.codecID), let context = ffmpeg.avcodec_alloc_context3(codec) else {
            throw MP4Unsupported("FFmpeg here has no decoder for the track")
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let extradata = ffmpeg.av_mallocz(configuration.extradata.count + padding) else {
            ffmpeg.avcodec_free_context(&owned)
            throw MP4Unsupported("out of memory")
        }
        configuration.extradata.withUnsafeBytes { extradata.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        context.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
        context.pointee.extradata_size = Int32(configuration.extradata.count)
        context.pointee.sample_rate = Int32(configuration.sampleRate)
        let status = ffmpeg.avcodec_open2(context, codec, nil)
        guard status >= 0 else {
            ffmpeg.avcodec_free_context(&owned)
            throw MP4Unsupported("FFmpeg could not open the decoder: \(ffmpeg.describe(status))")
        }
        return context
    }

    /// The format of the first frame the track decodes to (nil when none decodes from its first packets).
    private static func firstFrame(track: MP4Track, context: UnsafeMutablePointer<AVCodecContext>, packet: UnsafeMutablePointer<AVPacket>?,
                                   frame: UnsafeMutablePointer<AVFrame>?, reader: ResourceReader, ffmpeg: FFmpegFunctions) throws(MP4Unsupported) -> PCMFormat? {
        guard let packet, let frame else { throw MP4Unsupported("out of memory") }
        defer { ffmpeg.av_frame_unref(frame) }
        for sample in 0..<min(track.samples.sampleCount, 8) {
            try readPacket(sample, of: track, into: packet, reader: reader, ffmpeg: ffmpeg)
            _ = ffmpeg.avcodec_send_packet(context, packet)
            ffmpeg.av_packet_unref(packet)
            if ffmpeg.avcodec_receive_frame(context, frame) >= 0 {
                let channels = Int(frame.pointee.ch_layout.nb_channels)
                let rate = Int(frame.pointee.sample_rate)
                guard rate > 0, channels > 0, channels <= 64 else { return nil }
                return PCMFormat(sampleRate: rate, channelCount: channels)
            }
        }
        return nil
    }

    /// Reads MP4 sample `index` into `packet` (a fresh buffer, padded as libavcodec wants).
    private static func readPacket(_ index: Int, of track: MP4Track, into packet: UnsafeMutablePointer<AVPacket>, reader: ResourceReader,
                                   ffmpeg: FFmpegFunctions) throws(MP4Unsupported) {
        let (offset, size) = try track.samples.location(ofSample: index)
        guard size > 0, size < 1 << 24 else { throw MP4Unsupported("sample \(index) has size \(size)") }
        guard ffmpeg.av_new_packet(packet, Int32(size)) >= 0, let data = packet.pointee.data else { throw MP4Unsupported("out of memory") }
        guard reader.seek(offset: Int64(offset), whence: SEEK_SET) >= 0, reader.read(into: data, count: size) == size else {
            ffmpeg.av_packet_unref(packet)
            throw MP4Unsupported(reader.lastError?.message ?? "sample \(index) lies past the end of the file")
        }
    }

    /// Where the edit starts in the media and how long it lasts, in output frames at `rate`.
    private static func edit(of track: MP4Track, movie: MP4Movie, rate: Int) throws(MP4Unsupported) -> (start: Int64, length: Int64) {
        let total = track.samples(track.samples.totalDuration, at: rate)
        switch track.edits.count {
        case 0:
            return (0, total)
        case 1 where track.edits[0].mediaTime >= 0:
            let start = track.samples(track.edits[0].mediaTime, at: rate)
            guard start < total else { throw MP4Unsupported("the edit starts past the media's end") }
            let duration = track.edits[0].duration
            // A zero duration (some muxers) means the rest of the media.
            let length = duration > 0 ? duration * Int64(rate) / movie.timescale : total - start
            return (start, min(length, total - start))
        default:
            throw MP4Unsupported("\(track.edits.count) edits (or an empty one) are left to FFmpeg")
        }
    }
}

/// Why `MP4AudioDecoder` did not open: the file is for `FFmpegDecoder`, or it cannot be read at all.
enum MP4DecoderOpening: Error {
    case unsupported(MP4Unsupported)
    case failed(AudioDecoderError)
}
