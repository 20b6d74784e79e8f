// SPDX-License-Identifier: GPL-3.0-or-later
import CVorbisFile
import Foundation
import ReadiumNavigator
import ReadiumShared

/// Decodes Ogg Vorbis with vorbisfile to interleaved Float32 at the stream's own rate.
///
/// Reads through the `Resource` with `ov_open_callbacks` (callbacks built here, no global state), so
/// tracks in a ZIP decode in place. `frameCount` is `ov_pcm_total`, seeks are `ov_pcm_seek`
/// (sample-exact). A chained stream whose later link changes rate or channels returns the frames of
/// the first format, then throws `.trackUnsupported`. Use from one thread at a time.
public final class VorbisDecoder: AudioDecoder {
    public let format: PCMFormat
    public let frameCount: Int64?
    public private(set) var currentFrame: Int64 = 0

    let href: String
    private let file: UnsafeMutablePointer<OggVorbis_File>
    private let reader: ResourceReader
    private var pendingError: AudioDecoderError?
    private var reachedEnd = false
    private var holeCount = 0

    /// Opens `resource` with `ov_open_callbacks` and reads its headers.
    ///
    /// Throws `.corrupt` when it is not Ogg Vorbis or its headers are damaged, `.trackUnreadable` when the
    /// resource fails.
    public init(resource: any Resource) throws(AudioDecoderError) {
        href = resource.href
        do {
            reader = try ResourceReader(resource: resource)
        } catch {
            throw AudioDecoderError(reading: error, href: resource.href)
        }
        file = .allocate(capacity: 1)
        let callbacks = ov_callbacks(
            read_func: vorbisReadCallback, seek_func: vorbisSeekCallback,
            close_func: vorbisCloseCallback, tell_func: vorbisTellCallback)
        let context = Unmanaged.passRetained(reader).toOpaque()
        let status = ov_open_callbacks(context, file, nil, 0, callbacks)
        guard status == 0 else {
            // ov_open_callbacks does not call close on failure: release our retain here.
            Unmanaged<ResourceReader>.fromOpaque(context).release()
            file.deallocate()
            if let readError = reader.lastError {
                throw AudioDecoderError(reading: readError, href: resource.href)
            }
            throw AudioDecoderError(.corrupt, href: resource.href, message: Self.describeOpenFailure(status))
        }
        guard let info = ov_info(file, -1), info.pointee.rate > 0, info.pointee.channels > 0 else {
            ov_clear(file)
            file.deallocate()
            throw AudioDecoderError(.corrupt, href: resource.href, message: "the Vorbis header gives no sample rate or channels")
        }
        format = PCMFormat(sampleRate: info.pointee.rate, channelCount: Int(info.pointee.channels))
        let total = ov_pcm_total(file, -1)
        frameCount = total >= 0 ? Int64(total) : nil
    }

    deinit {
        // ov_clear calls the close callback, which releases the reader's retain.
        ov_clear(file)
        file.deallocate()
    }

    /// Decodes with `ov_read_float` and interleaves its planar channels into `buffer`.
    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
        if let pendingError {
            self.pendingError = nil
            reachedEnd = true
            throw pendingError
        }
        guard !reachedEnd, maxFrames > 0 else { return 0 }
        let channels = format.channelCount
        var framesRead = 0
        decoding: while framesRead < maxFrames {
            var planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
            var link: Int32 = 0
            let wanted = Int32(clamping: maxFrames - framesRead)
            let result = ov_read_float(file, &planes, wanted, &link)
            if result == 0 {
                reachedEnd = true
                break decoding
            }
            if result < 0 {
                if result == OV_HOLE, holeCount < 64 {
                    // A gap in the data (lost pages): vorbisfile resyncs on the next call.
                    holeCount += 1
                    continue
                }
                pendingError = error(Int32(result), at: currentFrame + Int64(framesRead))
                break decoding
            }
            if let changed = formatChange(link: link) {
                pendingError = changed
                break decoding
            }
            guard let planes else { break decoding }
            let frames = Int(result)
            let destination = buffer + framesRead * channels
            for channel in 0..<channels {
                guard let plane = planes[channel] else { continue }
                var index = channel
                for frame in 0..<frames {
                    destination[index] = plane[frame]
                    index += channels
                }
            }
            framesRead += frames
        }
        currentFrame += Int64(framesRead)
        if framesRead == 0, let pendingError {
            self.pendingError = nil
            reachedEnd = true
            throw pendingError
        }
        return framesRead
    }

    /// Seeks sample-exactly with `ov_pcm_seek`; a frame past the end is clamped to the end.
    public func seek(toFrame frame: Int64) throws(AudioDecoderError) {
        var target = max(0, frame)
        if let frameCount { target = min(target, frameCount) }
        pendingError = nil
        if let frameCount, target == frameCount {
            // ov_pcm_seek to the very end is refused by some builds: just stop producing.
            currentFrame = target
            reachedEnd = true
            return
        }
        let status = ov_pcm_seek(file, ogg_int64_t(target))
        guard status == 0 else {
            throw AudioDecoderError(.seekFailed, href: href, message: "could not seek to frame \(target) (vorbisfile error \(status))")
        }
        currentFrame = target
        reachedEnd = false
    }

    private func formatChange(link: Int32) -> AudioDecoderError? {
        guard link != 0, let info = ov_info(file, link) else { return nil }
        let linkFormat = PCMFormat(sampleRate: info.pointee.rate, channelCount: Int(info.pointee.channels))
        guard linkFormat != format else { return nil }
        return AudioDecoderError(
            .trackUnsupported, href: href,
            message: "chained Ogg stream changes format at frame \(currentFrame) from \(format) to \(linkFormat); not supported within one track")
    }

    private func error(_ status: Int32, at frame: Int64) -> AudioDecoderError {
        if let readError = reader.lastError {
            return AudioDecoderError(reading: readError, href: href)
        }
        let what = switch status {
        case OV_HOLE: "too many gaps in the data"
        case OV_EBADLINK: "a damaged link in the stream"
        case OV_EINVAL: "an invalid stream state"
        default: "vorbisfile error \(status)"
        }
        return AudioDecoderError(.corrupt, href: href, message: "the Vorbis stream breaks at frame \(frame): \(what)")
    }

    static func describeOpenFailure(_ status: Int32) -> String {
        switch status {
        case OV_ENOTVORBIS: "not an Ogg Vorbis stream (no Vorbis stream vorbisfile can use)"
        case OV_EBADHEADER: "damaged Vorbis headers"
        case OV_EVERSION: "unsupported Vorbis version"
        case OV_EREAD: "the file could not be read"
        default: "vorbisfile could not open the stream (error \(status))"
        }
    }
}

// vorbisfile's I/O callbacks. They run on the thread that calls into the OggVorbis_File. The datasource
// is a `ResourceReader` retained once in `VorbisDecoder.init` and released by the close callback.

private func vorbisReadCallback(_ buffer: UnsafeMutableRawPointer?, _ size: Int, _ count: Int, _ source: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let source, size > 0 else { return 0 }
    let reader = Unmanaged<ResourceReader>.fromOpaque(source).takeUnretainedValue()
    let bytes = reader.read(into: buffer, count: size * count)
    return bytes > 0 ? bytes / size : 0
}

private func vorbisSeekCallback(_ source: UnsafeMutableRawPointer?, _ offset: ogg_int64_t, _ whence: Int32) -> Int32 {
    guard let source else { return -1 }
    let reader = Unmanaged<ResourceReader>.fromOpaque(source).takeUnretainedValue()
    return reader.seek(offset: Int64(offset), whence: whence) >= 0 ? 0 : -1
}

private func vorbisTellCallback(_ source: UnsafeMutableRawPointer?) -> Int {
    guard let source else { return -1 }
    return Int(Unmanaged<ResourceReader>.fromOpaque(source).takeUnretainedValue().position)
}

private func vorbisCloseCallback(_ source: UnsafeMutableRawPointer?) -> Int32 {
    guard let source else { return 0 }
    Unmanaged<ResourceReader>.fromOpaque(source).release()
    return 0
}
