// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// FFmpeg's libraries, loaded with `dlopen` the first time a track needs them, not linked.
///
/// Debian's libavcodec pulls in some 150 shared libraries (video codecs among them): linked, they were
/// loaded into every raudio process at start, costing about 25 ms and 20 MB even for an MP3 book. Loaded
/// here on first use, only a book with an FFmpeg format pays. The headers still come from CFFmpeg (types,
/// struct layouts); the functions raudio calls are looked up by name in the libraries of FFmpeg 5.1
/// (sonames libavformat.so.59, libavcodec.so.59, libavutil.so.57) and called through `FF`.
final class FFmpegLibrary: @unchecked Sendable {
    /// libavutil and libavcodec: decoding (raudio's MP4 reader needs no more), or why they could not
    /// be loaded (said by every FFmpeg decoder's error).
    static let shared: Result<FFmpegLibrary, LoadFailure> = load(libraries.filter { $0.name != "libavformat" })

    /// The decoding libraries and libavformat, FFmpeg's demuxers: some 40 more shared libraries
    /// (network protocols, disc and tracker formats) and about 9 MB, loaded only for a file raudio's
    /// own readers leave to FFmpeg.
    static let withDemuxers: Result<FFmpegLibrary, LoadFailure> = shared.flatMap { decoding in
        load(libraries.filter { $0.name == "libavformat" }).map { FFmpegLibrary(handles: decoding.handles + $0.handles) }
    }

    struct LoadFailure: Error {
        let message: String
    }

    /// The sonames tried, newest first (Debian 12 ships 59/57).
    private static let libraries: [(name: String, sonames: [String])] = [
        ("libavutil", ["libavutil.so.57", "libavutil.so.58", "libavutil.so"]),
        ("libavcodec", ["libavcodec.so.59", "libavcodec.so.60", "libavcodec.so"]),
        ("libavformat", ["libavformat.so.59", "libavformat.so.60", "libavformat.so"]),
    ]

    private let handles: [UnsafeMutableRawPointer]

    private init(handles: [UnsafeMutableRawPointer]) {
        self.handles = handles
    }

    private static func load(_ libraries: [(name: String, sonames: [String])]) -> Result<FFmpegLibrary, LoadFailure> {
        var handles: [UnsafeMutableRawPointer] = []
        for library in libraries {
            guard let handle = library.sonames.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
                let reason = dlerror().map { String(cString: $0) } ?? "not found"
                return .failure(LoadFailure(message: "FFmpeg's \(library.name) could not be loaded (\(reason)); install it with `make deps` (Debian package \(library.name)\(library.name == "libavutil" ? "57" : "59"))"))
            }
            handles.append(handle)
        }
        return .success(FFmpegLibrary(handles: handles))
    }

    /// The function `name` from the loaded libraries, as `type`.
    func function<T>(_ name: String, as type: T.Type) -> T {
        for handle in handles {
            if let symbol = dlsym(handle, name) { return unsafeBitCast(symbol, to: type) }
        }
        fatalError("FFmpeg's libraries have no \(name): not FFmpeg 5.1 or newer")
    }
}

/// The FFmpeg functions raudio calls, looked up in the libraries `FFmpegLibrary` loads. Use only after
/// `FFmpegLibrary.shared` succeeded (`FFmpegInput` checks it before anything else).
enum FF {
    private static var library: FFmpegLibrary {
        guard case .success(let library) = FFmpegLibrary.shared else { fatalError("FFmpeg used before FFmpegLibrary.shared was checked") }
        return library
    }

    /// For libavformat's functions: `FFmpegInput` checks `FFmpegLibrary.withDemuxers` first.
    private static var demuxers: FFmpegLibrary {
        guard case .success(let library) = FFmpegLibrary.withDemuxers else { fatalError("FFmpeg's demuxers used before FFmpegLibrary.withDemuxers was checked") }
        return library
    }

    typealias ReadPacket = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32
    typealias Seek = @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64

    // libavformat
    static let avformat_alloc_context = demuxers.function("avformat_alloc_context", as: (@convention(c) () -> UnsafeMutablePointer<AVFormatContext>?).self)
    static let avformat_free_context = demuxers.function("avformat_free_context", as: (@convention(c) (UnsafeMutablePointer<AVFormatContext>?) -> Void).self)
    static let avformat_open_input = demuxers.function("avformat_open_input", as: (@convention(c) (
        UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>?, UnsafePointer<CChar>?, UnsafePointer<AVInputFormat>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32).self)
    static let avformat_find_stream_info = demuxers.function("avformat_find_stream_info", as: (@convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32).self)
    static let av_find_best_stream = demuxers.function("av_find_best_stream", as: (@convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, AVMediaType, Int32, Int32, UnsafeMutablePointer<UnsafePointer<AVCodec>?>?, Int32
    ) -> Int32).self)
    static let av_read_frame = demuxers.function("av_read_frame", as: (@convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVPacket>?) -> Int32).self)
    static let avformat_seek_file = demuxers.function("avformat_seek_file", as: (@convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, Int32, Int64, Int64, Int64, Int32
    ) -> Int32).self)
    static let avformat_close_input = demuxers.function("avformat_close_input", as: (@convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>?) -> Void).self)
    static let avio_alloc_context = demuxers.function("avio_alloc_context", as: (@convention(c) (
        UnsafeMutablePointer<UInt8>?, Int32, Int32, UnsafeMutableRawPointer?, ReadPacket?, ReadPacket?, Seek?
    ) -> UnsafeMutablePointer<AVIOContext>?).self)
    static let avio_context_free = demuxers.function("avio_context_free", as: (@convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?) -> Void).self)

    // libavcodec
    static let avcodec_alloc_context3 = library.function("avcodec_alloc_context3", as: (@convention(c) (UnsafePointer<AVCodec>?) -> UnsafeMutablePointer<AVCodecContext>?).self)
    static let avcodec_free_context = library.function("avcodec_free_context", as: (@convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVCodecContext>?>?) -> Void).self)
    static let avcodec_parameters_to_context = library.function("avcodec_parameters_to_context", as: (@convention(c) (
        UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVCodecParameters>?
    ) -> Int32).self)
    static let avcodec_open2 = library.function("avcodec_open2", as: (@convention(c) (
        UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVCodec>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32).self)
    static let avcodec_send_packet = library.function("avcodec_send_packet", as: (@convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVPacket>?) -> Int32).self)
    static let avcodec_receive_frame = library.function("avcodec_receive_frame", as: (@convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafeMutablePointer<AVFrame>?) -> Int32).self)
    static let avcodec_flush_buffers = library.function("avcodec_flush_buffers", as: (@convention(c) (UnsafeMutablePointer<AVCodecContext>?) -> Void).self)
    static let avcodec_find_decoder = library.function("avcodec_find_decoder", as: (@convention(c) (AVCodecID) -> UnsafePointer<AVCodec>?).self)
    static let av_new_packet = library.function("av_new_packet", as: (@convention(c) (UnsafeMutablePointer<AVPacket>?, Int32) -> Int32).self)
    static let av_packet_alloc = library.function("av_packet_alloc", as: (@convention(c) () -> UnsafeMutablePointer<AVPacket>?).self)
    static let av_packet_free = library.function("av_packet_free", as: (@convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVPacket>?>?) -> Void).self)
    static let av_packet_unref = library.function("av_packet_unref", as: (@convention(c) (UnsafeMutablePointer<AVPacket>?) -> Void).self)
    static let av_get_profile_name = library.function("av_get_profile_name", as: (@convention(c) (UnsafePointer<AVCodec>?, Int32) -> UnsafePointer<CChar>?).self)

    // libavutil
    static let av_dict_get = library.function("av_dict_get", as: (@convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<AVDictionaryEntry>?, Int32
    ) -> UnsafeMutablePointer<AVDictionaryEntry>?).self)
    static let av_strerror = library.function("av_strerror", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
    static let av_frame_alloc = library.function("av_frame_alloc", as: (@convention(c) () -> UnsafeMutablePointer<AVFrame>?).self)
    static let av_frame_free = library.function("av_frame_free", as: (@convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFrame>?>?) -> Void).self)
    static let av_frame_unref = library.function("av_frame_unref", as: (@convention(c) (UnsafeMutablePointer<AVFrame>?) -> Void).self)
    static let av_log_set_level = library.function("av_log_set_level", as: (@convention(c) (Int32) -> Void).self)
    static let av_rescale_q = library.function("av_rescale_q", as: (@convention(c) (Int64, AVRational, AVRational) -> Int64).self)
    static let av_malloc = library.function("av_malloc", as: (@convention(c) (Int) -> UnsafeMutableRawPointer?).self)
    static let av_mallocz = library.function("av_mallocz", as: (@convention(c) (Int) -> UnsafeMutableRawPointer?).self)
    static let av_free = library.function("av_free", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
    static let av_freep = library.function("av_freep", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
    static let av_sample_fmt_is_planar = library.function("av_sample_fmt_is_planar", as: (@convention(c) (AVSampleFormat) -> Int32).self)
}
