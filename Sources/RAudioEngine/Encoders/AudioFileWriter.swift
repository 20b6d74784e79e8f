// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import ReadiumNavigator

/// Writes PCM into an audio file: MP3, AAC in MP4 or Opus in Ogg (`AudioFileCodec`), with FFmpeg's libraries
/// (libavcodec's encoder, libavformat's muxer), bit-exact: the same PCM gives the same bytes in every run
/// (`AVFMT_FLAG_BITEXACT`: no creation time, no library version, a fixed Ogg serial number).
///
/// The container records the encoder's delay and padding (the LAME header's, MP4's edit list, Opus's pre-skip
/// and last granule position), so a decoder that honours them (raudio's do) gives back exactly the frames
/// appended. Opus takes 48 kHz: other rates are resampled (libsoxr) first.
///
/// The file is written under a temporary name beside `path` and renamed to it by `finish`: nothing is ever
/// left under the output's name but a whole file. One thread at a time; blocking file I/O.
public final class AudioFileWriter {
    /// The tags written into the file; nil or empty ones are left out.
    public typealias Tags = M4BWriter.Tags

    public let path: String
    public let codec: AudioFileCodec
    /// The PCM appended.
    public let format: PCMFormat
    private let temporaryPath: String
    private let encoder: FFmpegAudioEncoder
    private let resampler: SoxrResampler?
    private var output: UnsafeMutablePointer<AVFormatContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var appended: Int64 = 0
    private var isFinished = false

    /// Opens the encoder and the muxer on a temporary file beside `path`. Throws `AudioSinkError.cannotCreate`
    /// when FFmpeg lacks the encoder or muxer, or the folder is not writable.
    public init(path: String, format: PCMFormat, codec: AudioFileCodec, tags: Tags, bitRate: Int? = nil) throws(AudioSinkError) {
        self.path = path
        self.codec = codec
        self.format = format
        let folder = (path as NSString).deletingLastPathComponent
        temporaryPath = (folder.isEmpty ? "." : folder) + "/.\((path as NSString).lastPathComponent).\(getpid()).part"
        let encodedFormat = PCMFormat(sampleRate: codec.encodedSampleRate(for: format.sampleRate), channelCount: format.channelCount)
        if encodedFormat != format {
            do {
                resampler = try SoxrResampler(from: format, to: encodedFormat)
            } catch {
                throw AudioSinkError(.cannotCreate, subject: path, message: error.message, cause: error)
            }
        } else {
            resampler = nil
        }
        encoder = try FFmpegAudioEncoder(codecName: codec.encoderName, format: encodedFormat,
                                         bitRate: bitRate ?? codec.defaultBitRate(channelCount: format.channelCount),
                                         globalHeader: codec.needsGlobalHeader, subject: path)
        try openOutput(tags: tags)
    }

    deinit {
        if !isFinished { cancel() }
    }

    /// The seconds of audio appended so far.
    public var duration: Double { format.seconds(ofFrames: appended) }

    /// Appends interleaved samples of `format`; encodes and writes each whole frame of them.
    public func append(_ samples: [Float]) throws(AudioSinkError) {
        appended += Int64(samples.count / max(format.channelCount, 1))
        if let resampler {
            samples.withUnsafeBufferPointer { resampler.push($0) }
            try pullResampled(from: resampler)
        } else {
            try samples.withUnsafeBufferPointer { (buffer) throws(AudioSinkError) in try encoder.append(buffer, deliver: write) }
        }
    }

    /// Encodes what is left, writes the container's trailer and renames the file to `path`. Returns the
    /// audio's length in seconds (the frames appended).
    @discardableResult
    public func finish() throws(AudioSinkError) -> Double {
        do {
            if let resampler {
                resampler.flush()
                try pullResampled(from: resampler)
            }
            try encoder.finish(deliver: write)
            try closeOutput()
        } catch {
            cancel()
            throw error
        }
        isFinished = true
        encoder.release()
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot rename \(temporaryPath) to it: \(reason)")
        }
        return duration
    }

    /// Gives up: the temporary file is removed, nothing is left under `path`.
    public func cancel() {
        isFinished = true
        encoder.release()
        freeOutput()
        unlink(temporaryPath)
    }

    private func pullResampled(from resampler: SoxrResampler) throws(AudioSinkError) {
        var buffer = [Float](repeating: 0, count: 4096 * format.channelCount)
        while resampler.availableFrames > 0 {
            let frames = buffer.withUnsafeMutableBufferPointer { resampler.pull(into: $0) }
            if frames == 0 { break }
            try buffer.withUnsafeBufferPointer { (all) throws(AudioSinkError) in
                try encoder.append(UnsafeBufferPointer(rebasing: all[0..<(frames * format.channelCount)]), deliver: write)
            }
        }
    }

    /// Opens the muxer on the temporary file and writes the header. Calls `avformat_alloc_output_context2`,
    /// `avio_open` and `avformat_write_header`.
    private func openOutput(tags: Tags) throws(AudioSinkError) {
        let ffmpeg = encoder.ffmpeg
        var created: UnsafeMutablePointer<AVFormatContext>?
        guard ffmpeg.avformat_alloc_output_context2(&created, nil, codec.muxerName, temporaryPath) >= 0, let created else {
            throw AudioSinkError(.cannotCreate, subject: path, message: "FFmpeg has no \(codec.muxerName) muxer here")
        }
        output = created
        created.pointee.flags |= Int32(AVFMT_FLAG_BITEXACT)
        guard let context = encoder.context, let stream = ffmpeg.avformat_new_stream(created, nil) else {
            freeOutput()
            throw AudioSinkError(.cannotCreate, subject: path, message: "out of memory")
        }
        self.stream = stream
        stream.pointee.time_base = context.pointee.time_base
        _ = ffmpeg.avcodec_parameters_from_context(stream.pointee.codecpar, context)
        func set(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            _ = ffmpeg.av_dict_set(&created.pointee.metadata, key, value, 0)
        }
        set("title", tags.title)
        set("artist", tags.authors.joined(separator: ", "))
        set("composer", tags.narrators.joined(separator: ", "))
        var status = ffmpeg.avio_open(&created.pointee.pb, temporaryPath, AVIO_FLAG_WRITE)
        guard status >= 0 else {
            freeOutput()
            throw AudioSinkError(.cannotCreate, subject: path, message: "cannot write beside it (\(temporaryPath)): \(ffmpeg.decoding.describe(status))",
                                 underlyingStatus: -status)
        }
        let (written, logged) = FFmpegLog.collecting { ffmpeg.avformat_write_header(created, nil) }
        status = written
        guard status >= 0 else {
            freeOutput()
            unlink(temporaryPath)
            throw AudioSinkError(.cannotCreate, subject: path, message: "cannot write \(temporaryPath): \(logged.last?.message ?? ffmpeg.decoding.describe(status))")
        }
    }

    /// Muxes one packet of the encoder's.
    private func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(AudioSinkError) {
        guard let output, let stream else { return }
        let ffmpeg = encoder.ffmpeg
        packet.pointee.stream_index = stream.pointee.index
        ffmpeg.av_packet_rescale_ts(packet, encoder.timeBase, stream.pointee.time_base)
        let status = ffmpeg.av_interleaved_write_frame(output, packet)
        guard status >= 0 else {
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot write \(temporaryPath): \(ffmpeg.decoding.describe(status))",
                                 underlyingStatus: -status)
        }
    }

    /// Writes the trailer (the LAME header's lengths, MP4's index) and closes the file.
    private func closeOutput() throws(AudioSinkError) {
        guard let output else { return }
        let ffmpeg = encoder.ffmpeg
        let trailer = ffmpeg.av_write_trailer(output)
        let closed = ffmpeg.avio_closep(&output.pointee.pb)
        freeOutput()
        guard trailer >= 0, closed >= 0 else {
            throw AudioSinkError(.writeFailed, subject: path, message: "cannot finish \(temporaryPath): \(ffmpeg.decoding.describe(min(trailer, closed)))",
                                 underlyingStatus: -min(trailer, closed))
        }
    }

    private func freeOutput() {
        guard let output else { return }
        let ffmpeg = encoder.ffmpeg
        if output.pointee.pb != nil { _ = ffmpeg.avio_closep(&output.pointee.pb) }
        ffmpeg.demuxers.avformat_free_context(output)
        self.output = nil
        stream = nil
    }
}
