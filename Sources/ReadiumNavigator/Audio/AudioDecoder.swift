// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Decodes one audio resource to interleaved Float32 PCM (see `PCMFormat`).
///
/// A decoder is owned by one thread at a time (the render thread, or a probing thread) and is not
/// thread-safe. It reads its bytes through a `Resource`, so tracks inside a ZIP decode without being
/// extracted. Implementations live in RAudioEngine, chosen by `RAudioDecoderFactory` (libmpg123, vorbisfile, libFLAC,
/// raudio's MP4 reader with libavcodec, FFmpeg).
public protocol AudioDecoder: AnyObject {
    /// The format of the PCM this decoder produces. Constant for the life of the decoder.
    var format: PCMFormat { get }

    /// The exact length of the resource in frames, when known. May become known (or exact) only after
    /// a background scan; read it again later rather than caching it.
    var frameCount: Int64? { get }

    /// The frame the next `read` starts at.
    var currentFrame: Int64 { get }

    /// Decodes up to `maxFrames` frames into `buffer`, which holds at least
    /// `maxFrames * format.channelCount` floats. Returns the number of frames written; 0 means the end.
    ///
    /// A corrupt or truncated resource yields what decodes before the damage, then throws
    /// `AudioDecoderError` with code `.corrupt`: the caller plays what it got and moves on.
    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int

    /// Moves to `frame`, sample-exactly; a frame past the end is clamped to the end.
    func seek(toFrame frame: Int64) throws(AudioDecoderError)
}

/// Makes decoders for resources, choosing the codec from the content.
public protocol AudioDecoderFactory: Sendable {
    /// Opens a decoder for `resource`. `mediaType` is a hint; the bytes decide.
    func makeDecoder(for resource: any Resource, mediaType: MediaType?) throws(AudioDecoderError) -> any AudioDecoder
}

/// Why a resource could not be decoded; the subject is the href of the resource.
public typealias AudioDecoderError = RAudioError<AudioDecoderErrorDomain>

/// The domain of `AudioDecoderError`; its codes are words of `RAudioErrorCode`.
public enum AudioDecoderErrorDomain: RAudioErrorDomain {}

extension AudioDecoderError {
    /// The error of a decoder whose resource failed to read: `.sourceUnreachable` when its server cannot
    /// be reached at all, else `.trackUnreadable`; the resource error is kept as the cause.
    public init(reading error: ResourceError, href: String, file: String = #fileID, function: String = #function, line: Int = #line) {
        self.init(error.code == .remoteUnreachable ? .sourceUnreachable : .trackUnreadable, href: href, message: error.message, cause: error,
                  file: file, function: function, line: line)
    }
}
