// SPDX-License-Identifier: GPL-3.0-or-later
import CFLAC
import Foundation
import ReadiumNavigator
import ReadiumShared

/// Decodes native FLAC files with libFLAC to interleaved Float32 at the stream's own rate.
///
/// The samples are FFmpeg's (`ffmpeg -i FILE -f f32le -`): FLAC is lossless and both scale a sample of
/// `b` bits by 1 / 2^(b-1). libFLAC decodes at the speed of the `flac` tool and needs none of FFmpeg's
/// libraries; FLAC in Ogg or MP4 goes to FFmpeg. Reads go through the resource (a track in a ZIP plays
/// in place); seeks are libFLAC's (sample-exact, by the seek table or bisection). `frameCount` is the
/// STREAMINFO total (the decoded length if the file breaks off, or once decoded when STREAMINFO gives
/// none). Use from one thread at a time.
public final class FLACDecoder: AudioDecoder {
    public let format: PCMFormat
    public private(set) var frameCount: Int64?
    public private(set) var currentFrame: Int64 = 0

    let href: String
    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    private let client: FLACClient
    private var reachedEnd = false
    private var pendingError: AudioDecoderError?

    /// Opens `resource` and reads its metadata blocks. Throws `.corrupt` when it is not FLAC or its
    /// STREAMINFO is damaged, `.trackUnreadable` when the resource fails.
    public init(resource: any Resource) throws(AudioDecoderError) {
        href = resource.href
        let reader: ResourceReader
        do {
            reader = try ResourceReader(resource: resource)
        } catch {
            throw AudioDecoderError(reading: error, href: href)
        }
        guard let decoder = FLAC__stream_decoder_new() else {
            throw AudioDecoderError(.corrupt, href: href, message: "libFLAC could not allocate a decoder (out of memory)")
        }
        client = FLACClient(reader: reader)
        let context = Unmanaged.passUnretained(client).toOpaque()
        let status = FLAC__stream_decoder_init_stream(decoder, flacRead, flacSeek, flacTell, flacLength, flacEOF, flacWrite, flacMetadata, flacError, context)
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            FLAC__stream_decoder_delete(decoder)
            throw AudioDecoderError(.corrupt, href: href, message: "libFLAC could not start decoding (init status \(status.rawValue))")
        }
        self.decoder = decoder
        let read = FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0
        guard read, let info = client.streamInfo else {
            FLAC__stream_decoder_delete(decoder)
            if let readError = reader.lastError { throw AudioDecoderError(reading: readError, href: href) }
            let detail = client.errorDescription.map { ": \($0)" } ?? ""
            throw AudioDecoderError(.corrupt, href: href, message: client.streamInfo == nil
                ? "its STREAMINFO block is missing or damaged\(detail)" : "libFLAC could not read its metadata blocks (damaged, or sizes larger than the file)\(detail)")
        }
        guard info.sampleRate > 0, (1...8).contains(info.channels), (4...32).contains(info.bitsPerSample) else {
            FLAC__stream_decoder_delete(decoder)
            throw AudioDecoderError(.corrupt, href: href, message: "its STREAMINFO gives \(info.sampleRate) Hz, \(info.channels) channels, \(info.bitsPerSample) bits")
        }
        format = PCMFormat(sampleRate: info.sampleRate, channelCount: info.channels)
        frameCount = info.totalSamples > 0 ? info.totalSamples : nil
        client.reserve(maxBlockSize: info.maxBlockSize, channels: info.channels)
    }

    deinit {
        FLAC__stream_decoder_delete(decoder)
    }

    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
        let channels = format.channelCount
        var written = 0
        while written < maxFrames {
            let available = client.pendingFrames - client.pendingOffset
            if available > 0 {
                let count = min(available, maxFrames - written)
                (buffer + written * channels).update(from: client.pending + client.pendingOffset * channels, count: count * channels)
                client.pendingOffset += count
                written += count
                continue
            }
            if reachedEnd || pendingError != nil { break }
            decodeNextFrame()
        }
        currentFrame += Int64(written)
        if reachedEnd, frameCount == nil || currentFrame < frameCount!, client.pendingOffset >= client.pendingFrames {
            // A file that breaks off, or a STREAMINFO without a total: the decoded length is the truth.
            if let stated = frameCount, pendingError == nil {
                pendingError = AudioDecoderError(.corrupt, href: href, message: String(
                    format: "the file breaks off at %.3f s; its STREAMINFO says %.3f s", Double(currentFrame) / Double(format.sampleRate), Double(stated) / Double(format.sampleRate)))
            }
            frameCount = currentFrame
        }
        if written == 0, let pendingError {
            self.pendingError = nil
            reachedEnd = true
            throw pendingError
        }
        return written
    }

    public func seek(toFrame target: Int64) throws(AudioDecoderError) {
        var frame = max(0, target)
        if let frameCount { frame = min(frame, frameCount) }
        client.clearPending()
        pendingError = nil
        currentFrame = frame
        if let frameCount, frame >= frameCount {
            reachedEnd = true
            return
        }
        reachedEnd = false
        // libFLAC writes the frame holding the target during the seek, from the target on.
        if FLAC__stream_decoder_seek_absolute(decoder, FLAC__uint64(frame)) == 0 {
            let state = FLAC__stream_decoder_get_state(decoder)
            if state == FLAC__STREAM_DECODER_SEEK_ERROR { _ = FLAC__stream_decoder_flush(decoder) }
            throw AudioDecoderError(.seekFailed, href: href, message: "could not seek to frame \(frame): \(client.errorDescription ?? "libFLAC state \(state.rawValue)")")
        }
    }

    /// Decodes one frame into the client's pending samples, or marks the end or the error.
    private func decodeNextFrame() {
        client.clearPending()
        let ok = FLAC__stream_decoder_process_single(decoder) != 0
        let state = FLAC__stream_decoder_get_state(decoder)
        if client.pendingFrames > 0 { return }
        if ok, state != FLAC__STREAM_DECODER_END_OF_STREAM, state != FLAC__STREAM_DECODER_ABORTED { return }
        if state == FLAC__STREAM_DECODER_END_OF_STREAM, ok {
            finish()
            return
        }
        if let readError = client.reader.lastError {
            pendingError = AudioDecoderError(reading: readError, href: href)
        } else {
            pendingError = AudioDecoderError(.corrupt, href: href, message: "the FLAC stream is damaged at \(String(format: "%.3f s", Double(currentFrame) / Double(format.sampleRate))): \(client.errorDescription ?? "libFLAC state \(state.rawValue)")")
        }
    }

    private func finish() {
        reachedEnd = true
    }
}
