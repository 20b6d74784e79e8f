// SPDX-License-Identifier: GPL-3.0-or-later
import CMPG123
import Foundation
import ReadiumNavigator
import ReadiumShared

/// One libmpg123 handle that reads a `Resource` through a buffered `ResourceReader`.
///
/// Configured for raudio: 32-bit float output at the stream's own rate and channel count
/// (`mpg123_format_none` + `mpg123_format2(0, mono|stereo, MPG123_ENC_FLOAT_32)`), gapless decoding
/// (LAME encoder delay and padding removed), a resync limit, no printouts. Not thread-safe: used by one
/// thread at a time; `mpg123_delete` runs in `deinit`, which releases the reader through the cleanup
/// callback.
final class MPG123Handle {
    let raw: OpaquePointer
    let href: String
    /// The reader the handle reads through; kept here too so errors of the resource can be reported.
    let reader: ResourceReader

    /// Frames libmpg123 decodes and discards before a seek target (`MPG123_PREFRAMES`), set once
    /// the first frame is known.
    private(set) var preframes = MPEGBitReservoir.defaultPreframes

    /// Bytes of junk libmpg123 skips while looking for the next frame before it gives up.
    static let resyncLimit = 64 * 1024

    private static let libraryInitialized: Bool = {
        // Needed by libmpg123 before 1.27, a no-op after.
        mpg123_init() == MPG123_OK.rawValue
    }()

    /// Creates a handle and opens `resource` with `mpg123_replace_reader_handle` + `mpg123_open_handle`.
    /// Reads nothing yet.
    init(resource: any Resource, cancellation: CancellationFlag? = nil) throws(AudioDecoderError) {
        href = resource.href
        _ = Self.libraryInitialized
        do {
            reader = try ResourceReader(resource: resource, cancellation: cancellation)
        } catch {
            throw AudioDecoderError(reading: error, href: resource.href)
        }
        var status: Int32 = 0
        guard let handle = mpg123_new(nil, &status) else {
            throw AudioDecoderError(.corrupt, href: href, message: "libmpg123 could not create a decoder: \(Self.describe(status))")
        }
        raw = handle
        let flags = MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue
        var results: [Int32] = [
            mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(flags), 0),
            mpg123_param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), Self.resyncLimit, 0),
            mpg123_format_none(handle),
            mpg123_format2(handle, 0, Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), Int32(MPG123_ENC_FLOAT_32.rawValue)),
            mpg123_replace_reader_handle(handle, mpg123ReadCallback, mpg123SeekCallback, mpg123CleanupCallback),
        ]
        if results.allSatisfy({ $0 == MPG123_OK.rawValue }) {
            // From here libmpg123 owns one retain of the reader and releases it in the cleanup callback.
            results.append(mpg123_open_handle(handle, Unmanaged.passRetained(reader).toOpaque()))
        }
        if let failure = results.first(where: { $0 != MPG123_OK.rawValue }) {
            let message = String(cString: mpg123_strerror(handle))
            _ = failure
            throw AudioDecoderError(.corrupt, href: href, message: "libmpg123 could not open the stream: \(message)")
        }
    }

    deinit {
        // mpg123_delete closes the stream, which calls the cleanup callback (releasing the reader).
        mpg123_delete(raw)
    }

    /// The output format of the first frame (`mpg123_getformat`); reads until a frame is found.
    func nativeFormat() throws(AudioDecoderError) -> PCMFormat {
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        let status = mpg123_getformat(raw, &rate, &channels, &encoding)
        guard status == MPG123_OK.rawValue, rate > 0, channels > 0 else {
            throw error(status, doing: "found no MPEG audio frame (not an MP3, or damaged)")
        }
        try reserveEnoughPreframes(channelCount: Int(channels))
        return PCMFormat(sampleRate: rate, channelCount: Int(channels))
    }

    /// Sets `MPG123_PREFRAMES` (with `mpg123_param2`) from the first frame's version and rate, so
    /// that a seek refills the whole Layer III bit reservoir before the target (see
    /// `MPEGBitReservoir`). Without it seeks in VBR files came out wrong for several frames.
    private func reserveEnoughPreframes(channelCount: Int) throws(AudioDecoderError) {
        var info = mpg123_frameinfo2()
        let status = mpg123_info2(raw, &info)
        guard status == MPG123_OK.rawValue else { throw error(status, doing: "could not read the first frame's header") }
        let version: MPEGFrameHeader.Version = switch UInt32(info.version) {
        case MPG123_1_0.rawValue: .mpeg1
        case MPG123_2_0.rawValue: .mpeg2
        default: .mpeg25
        }
        try setPreframes(MPEGBitReservoir.preframesNeeded(version: version, sampleRate: info.rate, channelCount: channelCount))
    }

    /// Sets how many frames libmpg123 decodes and discards before a seek target
    /// (`mpg123_param2(MPG123_PREFRAMES)`); takes effect at the next seek.
    func setPreframes(_ count: Int) throws(AudioDecoderError) {
        let status = mpg123_param2(raw, Int32(MPG123_PREFRAMES.rawValue), count, 0)
        guard status == MPG123_OK.rawValue else { throw error(status, doing: "could not set the frames decoded before a seek target") }
        preframes = count
    }

    /// The track length in frames according to libmpg123 (`mpg123_length`): exact with a Xing/LAME
    /// frame count or after `mpg123_scan`, an estimate otherwise; nil when unknown.
    func length() -> Int64? {
        let length = mpg123_length(raw)
        return length >= 0 ? Int64(length) : nil
    }

    /// An error for a failed libmpg123 call: a resource error when the reader met one, else the
    /// handle's message.
    func error(_ status: Int32, doing what: String) -> AudioDecoderError {
        if let readError = reader.lastError {
            return AudioDecoderError(reading: readError, href: href)
        }
        let detail: String = switch status {
        case MPG123_DONE.rawValue: "end of stream"
        case MPG123_ERR.rawValue: String(cString: mpg123_strerror(raw))
        default: Self.describe(status)
        }
        return AudioDecoderError(.corrupt, href: href, message: "\(what) (libmpg123: \(detail))")
    }

    static func describe(_ status: Int32) -> String {
        String(cString: mpg123_plain_strerror(status))
    }
}

// libmpg123's reader callbacks. They run on the thread that calls into the handle. The iohandle is a
// `ResourceReader` retained once by `MPG123Handle.init` and released by the cleanup callback.

private func mpg123ReadCallback(_ handle: UnsafeMutableRawPointer?, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    guard let handle, let buffer else { return -1 }
    return Unmanaged<ResourceReader>.fromOpaque(handle).takeUnretainedValue().read(into: buffer, count: count)
}

private func mpg123SeekCallback(_ handle: UnsafeMutableRawPointer?, _ offset: off_t, _ whence: Int32) -> off_t {
    guard let handle else { return -1 }
    return off_t(Unmanaged<ResourceReader>.fromOpaque(handle).takeUnretainedValue().seek(offset: Int64(offset), whence: whence))
}

private func mpg123CleanupCallback(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    Unmanaged<ResourceReader>.fromOpaque(handle).release()
}
