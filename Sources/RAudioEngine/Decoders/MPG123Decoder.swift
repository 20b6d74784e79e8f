// SPDX-License-Identifier: GPL-3.0-or-later
import CMPG123
import Foundation
import ReadiumNavigator
import ReadiumShared

/// Decodes MP3 (MPEG audio layers I-III) with libmpg123 to interleaved Float32 at the track's own rate.
///
/// Reads through the `Resource` (64 KiB blocks), so tracks in a ZIP decode in place. Gapless: LAME
/// encoder delay and padding are removed, so frame 0 is the first real sample (without a LAME tag
/// there is nothing to remove). Seeks decode enough frames before the target to refill the bit
/// reservoir (`MPEGBitReservoir`), so they are sample-exact in VBR files too.
///
/// The frame index that makes seeks exact and cheap is built lazily when the exact length is known
/// from a trustworthy Xing/LAME/VBRI header: libmpg123 records frame offsets on the decoder's own
/// handle as it reads frames, and a seek past what was read parses frame headers forward from the
/// last recorded frame (reading, not decoding) up to the target, recording them too. So the file is
/// read once, only as far as playback or a seek goes. Without such a header a background scan
/// (`MPG123FrameIndexScan`, a second pass over the whole file) finds the exact length; the decoder
/// adopts its index at its next `read`, `seek` or `frameCount`. A remote track is never scanned up
/// front (that would fetch all of it): its scan starts only when a seek or the length needs it. Like
/// every `AudioDecoder`, use it from one thread at a time; closing it (deinit) cancels a scan.
public final class MPG123Decoder: AudioDecoder {
    public let format: PCMFormat
    public private(set) var currentFrame: Int64 = 0

    let href: String
    private let handle: MPG123Handle
    private let resource: any Resource
    /// Started at opening, or for a remote track when first needed.
    private var scan: MPG123FrameIndexScan?
    private var knownFrameCount: Int64?
    private var isFrameCountExact: Bool
    /// Why the file is known to be cut short (a tag announcing more bytes than the file has).
    private let truncationNote: String?
    /// An error met after some frames were returned: thrown by the next `read`.
    private var pendingError: AudioDecoderError?
    private var reachedEnd = false

    /// Opens `resource` and reads up to its first frame. Starts the background index scan when the
    /// length is not known exactly from a header and the track is local.
    ///
    /// Throws `.corrupt` when no MPEG audio frame is found, `.trackUnreadable` when the resource fails.
    public init(resource: any Resource) throws(AudioDecoderError) {
        href = resource.href
        self.resource = resource
        let tag: MPEGInfoTag?
        let fileLength: UInt64
        do {
            fileLength = try resource.length()
            tag = try MPEGInfoTag.read(from: resource)
        } catch {
            throw AudioDecoderError(reading: error, href: resource.href)
        }
        handle = try MPG123Handle(resource: resource)
        format = try handle.nativeFormat()
        if let tag, tag.isTrustworthy(fileLength: fileLength) {
            knownFrameCount = handle.length()
            isFrameCountExact = true
        } else {
            knownFrameCount = nil
            isFrameCountExact = false
        }
        if let tag, let bytes = tag.byteCount, UInt64(bytes) > fileLength + 1024 {
            truncationNote = "the file is cut short: its \(tag.kind.rawValue) header announces \(bytes) bytes of audio, the file has \(fileLength)"
        } else {
            truncationNote = nil
        }
        // With an exact length, libmpg123 indexes the frames as this handle reads or seeks past them.
        scan = resource.isRemote || isFrameCountExact ? nil : MPG123FrameIndexScan.start(resource: resource)
    }

    deinit {
        scan?.cancel()
    }

    /// The exact length in frames: from the Xing/LAME/VBRI header when it has a trustworthy one, else
    /// nil until the background scan finished (read again later).
    public var frameCount: Int64? {
        adoptScanResultIfReady()
        return knownFrameCount
    }

    /// Frames libmpg123 decodes and discards before a seek target to refill the Layer III bit
    /// reservoir (`MPEGBitReservoir`). Settable so tests can show what libmpg123's default breaks.
    var seekPreframes: Int { handle.preframes }

    func setSeekPreframes(_ count: Int) throws(AudioDecoderError) { try handle.setPreframes(count) }

    /// Whether the background scan finished and its index was adopted (for tests and `raudio info`).
    var hasAdoptedFrameIndex: Bool { hasAdoptedScan }
    private var hasAdoptedScan = false

    /// Whether a background scan was started (none when a header gave the exact length). For tests.
    var hasBackgroundScan: Bool { scan != nil }

    /// Blocks until the background scan ended, then adopts its result. For callers that need the
    /// exact length now (the duration probe, tests). Returns at once when a header gave the exact
    /// length and no scan runs: then the index is built lazily, as reads and seeks reach frames.
    public func waitForFrameIndex() {
        if scan == nil, isFrameCountExact { return }
        let scan = self.scan ?? MPG123FrameIndexScan.start(resource: resource)
        self.scan = scan
        scan.waitUntilFinished()
        adoptScanResultIfReady()
    }

    /// Decodes with `mpg123_read` into `buffer`, straight from libmpg123 (no copy, no allocation).
    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
        if let pendingError {
            self.pendingError = nil
            reachedEnd = true
            throw pendingError
        }
        guard !reachedEnd, maxFrames > 0 else { return 0 }
        adoptScanResultIfReady()
        let channels = format.channelCount
        let bytesPerFrame = channels * MemoryLayout<Float>.size
        var framesRead = 0
        decoding: while framesRead < maxFrames {
            var bytesDone = 0
            let status = mpg123_read(
                handle.raw, buffer + framesRead * channels, (maxFrames - framesRead) * bytesPerFrame, &bytesDone)
            framesRead += bytesDone / bytesPerFrame
            switch status {
            case MPG123_OK.rawValue:
                continue
            case MPG123_NEW_FORMAT.rawValue:
                if let error = checkFormatUnchanged() {
                    pendingError = error
                    break decoding
                }
            case MPG123_DONE.rawValue, MPG123_NEED_MORE.rawValue:
                reachedEnd = true
                if let truncationNote {
                    pendingError = AudioDecoderError(.corrupt, href: href, message: truncationNote)
                    reachedEnd = false
                }
                break decoding
            default:
                pendingError = handle.error(status, doing: "the MP3 stream breaks at frame \(currentFrame + Int64(framesRead))")
                break decoding
            }
        }
        currentFrame += Int64(framesRead)
        if framesRead == 0, let pendingError {
            self.pendingError = nil
            reachedEnd = true
            throw pendingError
        }
        return framesRead
    }

    /// Seeks sample-exactly with `mpg123_seek(SEEK_SET)` (never MPG123_FUZZY); a frame past the end is
    /// clamped to the end. With no length known yet, waits for the background scan to clamp exactly.
    /// With the length from a header, a first seek past the frames read so far parses the headers of
    /// the frames up to the target (about 1 ms per 2 MB of MP3 from a local file), once.
    public func seek(toFrame frame: Int64) throws(AudioDecoderError) {
        adoptScanResultIfReady()
        if knownFrameCount == nil || !isFrameCountExact { waitForFrameIndex() }
        var target = max(0, frame)
        if let knownFrameCount { target = min(target, knownFrameCount) }
        let position = mpg123_seek(handle.raw, off_t(target), SEEK_SET)
        guard position >= 0 else {
            throw AudioDecoderError(
                .seekFailed, href: href,
                message: "could not seek to frame \(target): \(String(cString: mpg123_strerror(handle.raw)))")
        }
        currentFrame = target
        reachedEnd = false
        pendingError = nil
    }

    private func adoptScanResultIfReady() {
        guard !hasAdoptedScan, let scan, scan.isFinished else { return }
        hasAdoptedScan = true
        guard var result = scan.takeResult() else { return }
        if !result.offsets.isEmpty {
            _ = result.offsets.withUnsafeMutableBufferPointer { offsets in
                mpg123_set_index(handle.raw, offsets.baseAddress, result.step, offsets.count)
            }
        }
        knownFrameCount = result.frameCount
        isFrameCountExact = true
    }

    private func checkFormatUnchanged() -> AudioDecoderError? {
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        _ = mpg123_getformat(handle.raw, &rate, &channels, &encoding)
        let newFormat = PCMFormat(sampleRate: rate, channelCount: Int(channels))
        guard newFormat != format else { return nil }
        return AudioDecoderError(
            .trackUnsupported, href: href,
            message: "the MP3 changes format at frame \(currentFrame) from \(format) to \(newFormat); not supported within one track")
    }
}
