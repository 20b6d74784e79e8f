// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// The functions of libavcodec's encoders and libavformat's muxers raudio calls to write audio files (an
/// M4B), looked up when they are first needed (`FFmpegLibrary.withEncoders`), after the decoding and demuxing
/// ones: a value of this type exists only when all of them were found.
struct FFmpegEncoding: @unchecked Sendable {
    let demuxers: FFmpegDemuxers
    var decoding: FFmpegFunctions { demuxers.decoding }

    // libavcodec
    let avcodec_find_encoder_by_name: @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVCodec>?
    let avcodec_send_frame: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVFrame>?) -> Int32
    let avcodec_receive_packet: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafeMutablePointer<AVPacket>?) -> Int32
    let avcodec_parameters_from_context: @convention(c) (UnsafeMutablePointer<AVCodecParameters>?, UnsafePointer<AVCodecContext>?) -> Int32
    let av_packet_rescale_ts: @convention(c) (UnsafeMutablePointer<AVPacket>?, AVRational, AVRational) -> Void
    // libavutil
    let av_frame_get_buffer: @convention(c) (UnsafeMutablePointer<AVFrame>?, Int32) -> Int32
    let av_frame_make_writable: @convention(c) (UnsafeMutablePointer<AVFrame>?) -> Int32
    let av_channel_layout_default: @convention(c) (UnsafeMutablePointer<AVChannelLayout>?, Int32) -> Void
    let av_dict_set: @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Int32
    let av_dict_free: @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Void
    // libavformat
    let avformat_alloc_output_context2: @convention(c) (
        UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>?, UnsafePointer<AVOutputFormat>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?
    ) -> Int32
    let avformat_new_stream: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafePointer<AVCodec>?) -> UnsafeMutablePointer<AVStream>?
    let avio_open: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?, UnsafePointer<CChar>?, Int32) -> Int32
    let avio_closep: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?) -> Int32
    let avformat_write_header: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    let av_interleaved_write_frame: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVPacket>?) -> Int32
    let av_write_trailer: @convention(c) (UnsafeMutablePointer<AVFormatContext>?) -> Int32

    /// Looks up every function in `library` (libavutil, libavcodec and libavformat, opened); throws the first one missing.
    init(_ library: FFmpegLibrary.Handles, demuxers: FFmpegDemuxers) throws(FFmpegLibrary.LoadFailure) {
        self.demuxers = demuxers
        avcodec_find_encoder_by_name = try library.function("avcodec_find_encoder_by_name", in: "libavcodec")
        avcodec_send_frame = try library.function("avcodec_send_frame", in: "libavcodec")
        avcodec_receive_packet = try library.function("avcodec_receive_packet", in: "libavcodec")
        avcodec_parameters_from_context = try library.function("avcodec_parameters_from_context", in: "libavcodec")
        av_packet_rescale_ts = try library.function("av_packet_rescale_ts", in: "libavcodec")
        av_frame_get_buffer = try library.function("av_frame_get_buffer", in: "libavutil")
        av_frame_make_writable = try library.function("av_frame_make_writable", in: "libavutil")
        av_channel_layout_default = try library.function("av_channel_layout_default", in: "libavutil")
        av_dict_set = try library.function("av_dict_set", in: "libavutil")
        av_dict_free = try library.function("av_dict_free", in: "libavutil")
        avformat_alloc_output_context2 = try library.function("avformat_alloc_output_context2", in: "libavformat")
        avformat_new_stream = try library.function("avformat_new_stream", in: "libavformat")
        avio_open = try library.function("avio_open", in: "libavformat")
        avio_closep = try library.function("avio_closep", in: "libavformat")
        avformat_write_header = try library.function("avformat_write_header", in: "libavformat")
        av_interleaved_write_frame = try library.function("av_interleaved_write_frame", in: "libavformat")
        av_write_trailer = try library.function("av_write_trailer", in: "libavformat")
    }
}

extension FFmpegLibrary {
    /// The encoding and muxing functions, with the decoding and demuxing ones (libavformat loaded): only for
    /// writing an audio file.
    static let withEncoders: Result<FFmpegEncoding, LoadFailure> = withDemuxers.flatMap { demuxers in
        open(libraries).flatMap { handles in Result { () throws(LoadFailure) in try FFmpegEncoding(handles, demuxers: demuxers) } }
    }
}
