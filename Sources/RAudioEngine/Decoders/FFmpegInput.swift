// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import ReadiumNavigator
import ReadiumShared

/// An FFmpeg demuxer (`AVFormatContext`) reading a `Resource` through an `AVIOContext` whose read and
/// seek callbacks go to a `ResourceReader`: a track inside a ZIP package is demuxed in place.
///
/// Opening reads the container's headers and finds its streams (`avformat_find_stream_info`); the best
/// audio stream is chosen and every other stream (cover art, chapter text tracks, video) is discarded.
/// Audible AAX and FairPlay-protected tracks are refused, naming their DRM. Use from one thread at a time.
final class FFmpegInput {
    let href: String
    let reader: ResourceReader
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    /// The audio stream decoded.
    let streamIndex: Int32
    let stream: UnsafeMutablePointer<AVStream>
    /// The decoder FFmpeg picked for the stream.
    let codec: UnsafePointer<AVCodec>
    /// FFmpeg's functions, from the load checked before opening.
    let demuxers: FFmpegDemuxers
    var ffmpeg: FFmpegFunctions { demuxers.decoding }

    /// Bytes of the I/O buffer FFmpeg reads into.
    private static let ioBufferSize: Int32 = 64 * 1024

    init(resource: any Resource) throws(AudioDecoderError) {
        href = resource.href
        let demuxers: FFmpegDemuxers
        switch FFmpegLibrary.withDemuxers {
        case .success(let loaded): demuxers = loaded
        case .failure(let failure): throw AudioDecoderError(.trackUnsupported, href: resource.href, message: failure.message)
        }
        self.demuxers = demuxers
        let ffmpeg = demuxers.decoding
        do {
            reader = try ResourceReader(resource: resource)
        } catch {
            throw AudioDecoderError(reading: error, href: resource.href)
        }
        if let protection = Self.protection(ofHeader: reader) {
            throw AudioDecoderError(.trackUnsupported, href: href, message: Self.refusal(protection))
        }
        guard let format = demuxers.avformat_alloc_context() else {
            throw AudioDecoderError(.corrupt, href: href, message: "FFmpeg could not allocate a demuxer (out of memory)")
        }
        guard let buffer = ffmpeg.av_malloc(Int(Self.ioBufferSize)) else {
            demuxers.avformat_free_context(format)
            throw AudioDecoderError(.corrupt, href: href, message: "FFmpeg could not allocate its read buffer (out of memory)")
        }
        let opaque = Unmanaged.passRetained(reader).toOpaque()
        guard let io = demuxers.avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.ioBufferSize, 0, opaque,
                                          ffmpegReadCallback, nil, ffmpegSeekCallback) else {
            Unmanaged<ResourceReader>.fromOpaque(opaque).release()
            ffmpeg.av_free(buffer)
            demuxers.avformat_free_context(format)
            throw AudioDecoderError(.corrupt, href: href, message: "FFmpeg could not allocate its reader (out of memory)")
        }
        format.pointee.pb = io
        format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var opened: UnsafeMutablePointer<AVFormatContext>? = format
        // On failure avformat_open_input frees the format context (not our AVIOContext).
        let status = demuxers.avformat_open_input(&opened, nil, nil, nil)
        guard status >= 0, opened != nil else {
            Self.freeIO(io, demuxers)
            throw Self.openError(ffmpeg, status, doing: "read the container's headers", reader: reader, href: href)
        }
        let info = demuxers.avformat_find_stream_info(opened, nil)
        guard info >= 0 else {
            Self.close(&opened, demuxers)
            throw Self.openError(ffmpeg, info, doing: "find the streams", reader: reader, href: href)
        }
        var decoder: UnsafePointer<AVCodec>?
        let best = demuxers.av_find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard best >= 0, let decoder, let chosen = opened!.pointee.streams[Int(best)] else {
            let tag = Self.audioCodecTag(opened!)
            let hasAudio = tag != nil
            Self.close(&opened, demuxers)
            if let tag, let protection = Self.protection(ofSampleEntry: tag) {
                throw AudioDecoderError(.trackUnsupported, href: href, message: Self.refusal(protection))
            }
            throw AudioDecoderError(hasAudio ? .trackUnsupported : .corrupt, href: href,
                                    message: hasAudio ? "its audio codec (\(tag!)) is not one FFmpeg here can decode" : "it holds no audio stream")
        }
        for index in 0..<Int(opened!.pointee.nb_streams) where index != Int(best) {
            opened!.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL
        }
        context = opened
        streamIndex = best
        stream = chosen
        codec = decoder
    }

    deinit { close() }

    /// Closes the demuxer and releases the reader; idempotent.
    func close() {
        Self.close(&context, demuxers)
    }

    private static func close(_ context: inout UnsafeMutablePointer<AVFormatContext>?, _ demuxers: FFmpegDemuxers) {
        guard context != nil else { return }
        let io = context?.pointee.pb
        demuxers.avformat_close_input(&context)
        if let io { freeIO(io, demuxers) }
    }

    /// The container's metadata (tags), as FFmpeg normalizes their keys (`title`, `artist`, ...).
    var tags: [String: String] { ffmpeg.dictionary(context?.pointee.metadata) }

    /// The stream's own tags (Ogg comments of an Opus stream live here).
    var streamTags: [String: String] { ffmpeg.dictionary(stream.pointee.metadata) }

    private static func openError(_ ffmpeg: FFmpegFunctions, _ status: Int32, doing what: String, reader: ResourceReader, href: String) -> AudioDecoderError {
        if let readError = reader.lastError {
            return AudioDecoderError(reading: readError, href: href)
        }
        return AudioDecoderError(.corrupt, href: href, message: "FFmpeg could not \(what): \(ffmpeg.describe(status))")
    }

    private static func freeIO(_ io: UnsafeMutablePointer<AVIOContext>, _ demuxers: FFmpegDemuxers) {
        if let opaque = io.pointee.opaque { Unmanaged<ResourceReader>.fromOpaque(opaque).release() }
        var buffer: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(io.pointee.buffer)
        demuxers.decoding.av_freep(&buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = io
        demuxers.avio_context_free(&context)
    }

    /// What a decoder says of a file protected by `protection` (and how the inspector recognizes it).
    static func refusal(_ protection: Publication.Protection) -> String {
        "it is protected by \(protection.name); raudio does not decrypt it"
    }

    /// The DRM a file's first bytes show: Audible's `.aa` magic, or the MP4 brand of an AAX/AAXC.
    static func protection(ofHeader reader: ResourceReader) -> Publication.Protection? {
        var head = [UInt8](repeating: 0, count: 12)
        let count = head.withUnsafeMutableBytes { reader.read(into: $0.baseAddress!, count: 12) }
        _ = reader.seek(offset: 0, whence: SEEK_SET)
        guard count == 12 else { return nil }
        if head[4..<8].elementsEqual([0x57, 0x90, 0x75, 0x36]) { return .audible }  // .aa
        guard head[4..<8].elementsEqual(Array("ftyp".utf8)) else { return nil }
        let brand = String(decoding: head[8..<12], as: UTF8.self)
        return brand == "aax " || brand == "aaxc" ? .audible : nil
    }

    /// The DRM an MP4 audio sample entry's type shows: FairPlay (`drms`, `enca`), Audible (`aavd`).
    static func protection(ofSampleEntry tag: String) -> Publication.Protection? {
        switch tag {
        case "drms", "enca": .fairPlay
        case "aavd": .audible
        default: nil
        }
    }

    /// The four-character codec tag of the first audio stream ("?" when not printable); nil without one.
    private static func audioCodecTag(_ context: UnsafeMutablePointer<AVFormatContext>) -> String? {
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let parameters = context.pointee.streams[index]?.pointee.codecpar, parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO else { continue }
            let tag = parameters.pointee.codec_tag
            let bytes = (0..<4).map { UInt8((tag >> ($0 * 8)) & 0xFF) }
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return "?" }
            return String(decoding: bytes, as: UTF8.self)
        }
        return nil
    }
}

private func ffmpegReadCallback(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let buffer, size > 0 else { return raudio_av_error_eio() }
    let reader = Unmanaged<ResourceReader>.fromOpaque(opaque).takeUnretainedValue()
    let count = reader.read(into: buffer, count: Int(size))
    if count < 0 { return raudio_av_error_eio() }
    return count == 0 ? raudio_av_error_eof() : Int32(count)
}

private func ffmpegSeekCallback(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return -1 }
    let reader = Unmanaged<ResourceReader>.fromOpaque(opaque).takeUnretainedValue()
    if whence & AVSEEK_SIZE != 0 { return Int64(reader.length) }
    return reader.seek(offset: offset, whence: whence & ~AVSEEK_FORCE)
}
