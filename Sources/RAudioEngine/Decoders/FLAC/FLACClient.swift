// SPDX-License-Identifier: GPL-3.0-or-later
import CFLAC
import Foundation

/// What libFLAC's callbacks reach through their client pointer: the reader of the resource, the
/// STREAMINFO, the samples of the last frame written (converted to interleaved Float32) and the
/// first error libFLAC reported. Owned by its `FLACDecoder`; one thread at a time.
final class FLACClient {
    struct StreamInfo {
        let sampleRate: Int
        let channels: Int
        let bitsPerSample: Int
        let totalSamples: Int64
        let maxBlockSize: Int
    }

    let reader: ResourceReader
    private(set) var streamInfo: StreamInfo?
    /// Interleaved samples of the last frame written: `pendingOffset..<pendingFrames` not yet read.
    private(set) var pending: UnsafeMutablePointer<Float>
    private var pendingCapacity = 0
    var pendingFrames = 0
    var pendingOffset = 0
    /// The first error libFLAC reported, in words.
    var errorDescription: String?
    /// When set, the other metadata blocks are collected here (`FLACAudioFileInspector`).
    var metadata: FLACMetadata?

    init(reader: ResourceReader) {
        self.reader = reader
        pending = .allocate(capacity: 1)
    }

    deinit { pending.deallocate() }

    func reserve(maxBlockSize: Int, channels: Int) {
        let capacity = max(maxBlockSize, 4608) * channels
        guard capacity > pendingCapacity else { return }
        pending.deallocate()
        pending = .allocate(capacity: capacity)
        pendingCapacity = capacity
    }

    func clearPending() {
        pendingFrames = 0
        pendingOffset = 0
    }

    func receive(streamInfo block: FLAC__StreamMetadata_StreamInfo) {
        streamInfo = StreamInfo(sampleRate: Int(block.sample_rate), channels: Int(block.channels), bitsPerSample: Int(block.bits_per_sample),
                                totalSamples: Int64(block.total_samples), maxBlockSize: Int(block.max_blocksize))
    }

    /// Converts a frame's planar integers to interleaved Float32, as FFmpeg does (1 / 2^(bits-1)).
    func receive(frame: UnsafePointer<FLAC__Frame>, planes: UnsafePointer<UnsafePointer<FLAC__int32>?>) -> Bool {
        let header = frame.pointee.header
        let count = Int(header.blocksize)
        let channels = Int(header.channels)
        guard let info = streamInfo, channels == info.channels, Int(header.bits_per_sample) == info.bitsPerSample || header.bits_per_sample == 0 else {
            errorDescription = "a frame changes the channels or the sample size"
            return false
        }
        if count * channels > pendingCapacity { reserve(maxBlockSize: count, channels: channels) }
        let scale = 1 / Float(1 << (info.bitsPerSample - 1))
        for channel in 0..<channels {
            guard let plane = planes[channel] else { continue }
            var out = pending + channel
            for index in 0..<count {
                out.pointee = Float(plane[index]) * scale
                out += channels
            }
        }
        pendingFrames = count
        pendingOffset = 0
        return true
    }
}

private func client(_ context: UnsafeMutableRawPointer?) -> FLACClient {
    Unmanaged<FLACClient>.fromOpaque(context!).takeUnretainedValue()
}

func flacRead(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ buffer: UnsafeMutablePointer<FLAC__byte>?, _ bytes: UnsafeMutablePointer<Int>?,
              _ context: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderReadStatus {
    guard let buffer, let bytes, bytes.pointee > 0 else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
    let count = client(context).reader.read(into: buffer, count: bytes.pointee)
    if count < 0 { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
    bytes.pointee = count
    return count == 0 ? FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM : FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
}

func flacSeek(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ offset: FLAC__uint64, _ context: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderSeekStatus {
    client(context).reader.seek(offset: Int64(offset), whence: SEEK_SET) >= 0 ? FLAC__STREAM_DECODER_SEEK_STATUS_OK : FLAC__STREAM_DECODER_SEEK_STATUS_ERROR
}

func flacTell(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ offset: UnsafeMutablePointer<FLAC__uint64>?, _ context: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderTellStatus {
    offset?.pointee = FLAC__uint64(client(context).reader.position)
    return FLAC__STREAM_DECODER_TELL_STATUS_OK
}

func flacLength(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ length: UnsafeMutablePointer<FLAC__uint64>?, _ context: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderLengthStatus {
    length?.pointee = FLAC__uint64(client(context).reader.length)
    return FLAC__STREAM_DECODER_LENGTH_STATUS_OK
}

func flacEOF(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ context: UnsafeMutableRawPointer?) -> FLAC__bool {
    let reader = client(context).reader
    return reader.position >= reader.length ? 1 : 0
}

func flacWrite(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ frame: UnsafePointer<FLAC__Frame>?, _ planes: UnsafePointer<UnsafePointer<FLAC__int32>?>?,
               _ context: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderWriteStatus {
    guard let frame, let planes else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
    return client(context).receive(frame: frame, planes: planes) ? FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE : FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
}

func flacMetadata(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ metadata: UnsafePointer<FLAC__StreamMetadata>?, _ context: UnsafeMutableRawPointer?) {
    guard let metadata else { return }
    let client = client(context)
    if metadata.pointee.type == FLAC__METADATA_TYPE_STREAMINFO {
        client.receive(streamInfo: metadata.pointee.data.stream_info)
    } else {
        client.metadata?.receive(metadata.pointee)
    }
}

func flacError(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ status: FLAC__StreamDecoderErrorStatus, _ context: UnsafeMutableRawPointer?) {
    let client = client(context)
    guard client.errorDescription == nil else { return }
    client.errorDescription = switch status {
    case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: "lost sync (bytes that are not a FLAC frame)"
    case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: "a damaged frame header"
    case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: "a frame whose checksum does not match"
    case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: "a stream libFLAC cannot parse"
    default: "libFLAC error \(status.rawValue)"
    }
}
