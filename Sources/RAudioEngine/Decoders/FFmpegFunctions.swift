// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// The functions of libavcodec and libavutil raudio calls, every one looked up when the libraries load
/// (`FFmpegLibrary.shared`): a value of this type exists only when all of them were found.
///
/// The types are those of FFmpeg 5.1's headers (CFFmpeg); each property is the C function of its name.
struct FFmpegFunctions: @unchecked Sendable {
    // libavcodec
    let avcodec_alloc_context3: @convention(c) (UnsafePointer<AVCodec>?) -> UnsafeMutablePointer<AVCodecContext>?
    let avcodec_free_context: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVCodecContext>?>?) -> Void
    let avcodec_parameters_to_context: @convention(c) (
        UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVCodecParameters>?
    ) -> Int32
    let avcodec_open2: @convention(c) (
        UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVCodec>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32
    let avcodec_send_packet: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVPacket>?) -> Int32
    let avcodec_receive_frame: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafeMutablePointer<AVFrame>?) -> Int32
    let avcodec_flush_buffers: @convention(c) (UnsafeMutablePointer<AVCodecContext>?) -> Void
    let avcodec_find_decoder: @convention(c) (AVCodecID) -> UnsafePointer<AVCodec>?
    let av_new_packet: @convention(c) (UnsafeMutablePointer<AVPacket>?, Int32) -> Int32
    let av_packet_alloc: @convention(c) () -> UnsafeMutablePointer<AVPacket>?
    let av_packet_free: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVPacket>?>?) -> Void
    let av_packet_unref: @convention(c) (UnsafeMutablePointer<AVPacket>?) -> Void
    let av_get_profile_name: @convention(c) (UnsafePointer<AVCodec>?, Int32) -> UnsafePointer<CChar>?
    // libavutil
    let av_dict_get: @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<AVDictionaryEntry>?, Int32
    ) -> UnsafeMutablePointer<AVDictionaryEntry>?
    let av_strerror: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    let av_frame_alloc: @convention(c) () -> UnsafeMutablePointer<AVFrame>?
    let av_frame_free: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFrame>?>?) -> Void
    let av_frame_unref: @convention(c) (UnsafeMutablePointer<AVFrame>?) -> Void
    let av_log_set_level: @convention(c) (Int32) -> Void
    /// A `va_list` parameter, which Swift cannot spell in a C function type (`CVaListPointer` is not allowed
    /// there): it is only handed on, from the log callback to `av_log_format_line2`, and both the x86-64 and
    /// the AArch64 calling conventions pass a `va_list` parameter as a pointer (an array that decays; a
    /// 32-byte aggregate passed by reference).
    typealias VaList = OpaquePointer
    typealias LogCallback = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, VaList?) -> Void
    typealias FormatLine = @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, VaList?, UnsafeMutablePointer<CChar>?, Int32, UnsafeMutablePointer<Int32>?
    ) -> Int32
    let av_log_set_callback: @convention(c) (LogCallback?) -> Void
    let av_log_format_line2: FormatLine
    let av_rescale_q: @convention(c) (Int64, AVRational, AVRational) -> Int64
    let av_malloc: @convention(c) (Int) -> UnsafeMutableRawPointer?
    let av_mallocz: @convention(c) (Int) -> UnsafeMutableRawPointer?
    let av_free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let av_freep: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let av_sample_fmt_is_planar: @convention(c) (AVSampleFormat) -> Int32

    /// Looks up every function in `library` (libavutil and libavcodec, opened); throws the first one missing.
    init(_ library: FFmpegLibrary.Handles) throws(FFmpegLibrary.LoadFailure) {
        avcodec_alloc_context3 = try library.function("avcodec_alloc_context3", in: "libavcodec")
        avcodec_free_context = try library.function("avcodec_free_context", in: "libavcodec")
        avcodec_parameters_to_context = try library.function("avcodec_parameters_to_context", in: "libavcodec")
        avcodec_open2 = try library.function("avcodec_open2", in: "libavcodec")
        avcodec_send_packet = try library.function("avcodec_send_packet", in: "libavcodec")
        avcodec_receive_frame = try library.function("avcodec_receive_frame", in: "libavcodec")
        avcodec_flush_buffers = try library.function("avcodec_flush_buffers", in: "libavcodec")
        avcodec_find_decoder = try library.function("avcodec_find_decoder", in: "libavcodec")
        av_new_packet = try library.function("av_new_packet", in: "libavcodec")
        av_packet_alloc = try library.function("av_packet_alloc", in: "libavcodec")
        av_packet_free = try library.function("av_packet_free", in: "libavcodec")
        av_packet_unref = try library.function("av_packet_unref", in: "libavcodec")
        av_get_profile_name = try library.function("av_get_profile_name", in: "libavcodec")
        av_dict_get = try library.function("av_dict_get", in: "libavutil")
        av_strerror = try library.function("av_strerror", in: "libavutil")
        av_frame_alloc = try library.function("av_frame_alloc", in: "libavutil")
        av_frame_free = try library.function("av_frame_free", in: "libavutil")
        av_frame_unref = try library.function("av_frame_unref", in: "libavutil")
        av_log_set_level = try library.function("av_log_set_level", in: "libavutil")
        av_log_set_callback = try library.function("av_log_set_callback", in: "libavutil")
        av_log_format_line2 = try library.function("av_log_format_line2", in: "libavutil")
        av_rescale_q = try library.function("av_rescale_q", in: "libavutil")
        av_malloc = try library.function("av_malloc", in: "libavutil")
        av_mallocz = try library.function("av_mallocz", in: "libavutil")
        av_free = try library.function("av_free", in: "libavutil")
        av_freep = try library.function("av_freep", in: "libavutil")
        av_sample_fmt_is_planar = try library.function("av_sample_fmt_is_planar", in: "libavutil")
    }

    /// FFmpeg's message for the error `status`, in lower case (`av_strerror`); "error N" when it has none.
    func describe(_ status: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = av_strerror(status, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "error \(status)" : text.prefix(1).lowercased() + text.dropFirst()
    }

    /// Every entry of an `AVDictionary`, keys in lower case (`av_dict_get`).
    func dictionary(_ dictionary: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            if let key = next.pointee.key, let value = next.pointee.value {
                result[String(cString: key).lowercased()] = String(cString: value)
            }
            entry = next
        }
        return result
    }
}

/// The functions of libavformat (FFmpeg's demuxers and their I/O) raudio calls, looked up when it loads
/// (`FFmpegLibrary.withDemuxers`), with the decoding functions it was loaded after.
struct FFmpegDemuxers: @unchecked Sendable {
    /// libavcodec's and libavutil's functions.
    let decoding: FFmpegFunctions

    typealias ReadPacket = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32
    typealias Seek = @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64

    // libavformat
    let avformat_alloc_context: @convention(c) () -> UnsafeMutablePointer<AVFormatContext>?
    let avformat_free_context: @convention(c) (UnsafeMutablePointer<AVFormatContext>?) -> Void
    let avformat_open_input: @convention(c) (
        UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>?, UnsafePointer<CChar>?, UnsafePointer<AVInputFormat>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32
    let avformat_find_stream_info: @convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32
    let av_find_best_stream: @convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, AVMediaType, Int32, Int32, UnsafeMutablePointer<UnsafePointer<AVCodec>?>?, Int32
    ) -> Int32
    let av_read_frame: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVPacket>?) -> Int32
    let avformat_seek_file: @convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, Int32, Int64, Int64, Int64, Int32
    ) -> Int32
    let avformat_close_input: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>?) -> Void
    let avio_alloc_context: @convention(c) (
        UnsafeMutablePointer<UInt8>?, Int32, Int32, UnsafeMutableRawPointer?, ReadPacket?, ReadPacket?, Seek?
    ) -> UnsafeMutablePointer<AVIOContext>?
    let avio_context_free: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?) -> Void

    /// Looks up every function in `library` (libavformat, opened); throws the first one missing.
    init(_ library: FFmpegLibrary.Handles, decoding: FFmpegFunctions) throws(FFmpegLibrary.LoadFailure) {
        self.decoding = decoding
        avformat_alloc_context = try library.function("avformat_alloc_context", in: "libavformat")
        avformat_free_context = try library.function("avformat_free_context", in: "libavformat")
        avformat_open_input = try library.function("avformat_open_input", in: "libavformat")
        avformat_find_stream_info = try library.function("avformat_find_stream_info", in: "libavformat")
        av_find_best_stream = try library.function("av_find_best_stream", in: "libavformat")
        av_read_frame = try library.function("av_read_frame", in: "libavformat")
        avformat_seek_file = try library.function("avformat_seek_file", in: "libavformat")
        avformat_close_input = try library.function("avformat_close_input", in: "libavformat")
        avio_alloc_context = try library.function("avio_alloc_context", in: "libavformat")
        avio_context_free = try library.function("avio_context_free", in: "libavformat")
    }
}
