// SPDX-License-Identifier: GPL-3.0-or-later
import CZlib
import Foundation
import ReadiumShared

/// The inflation of a resource DEFLATE-compressed before it was encrypted, as it is read: the compressed bytes
/// come decrypted by the blocks each step needs (`readCompressed`), 64 KiB at a time, through one zlib stream
/// (raw DEFLATE) kept between reads. A read at or after where the stream stands goes on from there; a read before
/// it starts the stream again from the beginning (deflate has no random access). What is held while the resource
/// is open is the stream's state (its 32 KiB window), one 64 KiB input chunk and the last range read, never the
/// whole resource. Not thread-safe: `LCPDecryptor` calls it under its lock.
final class LCPStreamingInflater {
    static let chunkSize = 64 << 10

    private let href: String
    /// The length of the compressed stream (the decrypted resource, padding removed).
    private let compressedLength: UInt64
    /// The length the publication declares in clear (`originalLength`), checked when the stream ends.
    private let expectedLength: UInt64?
    /// The most a stream may inflate to (`originalLength`, else `LCPDecryptor.maximumInflatedLength`).
    private let limit: UInt64
    private let readCompressed: (Range<UInt64>) throws(ResourceError) -> Data

    private var stream = z_stream()
    private var isOpen = false
    private var ended = false
    private let input = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
    private let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
    /// The next compressed byte to give zlib.
    private var inputOffset: UInt64 = 0
    /// How many bytes the stream has inflated so far.
    private(set) var outputOffset: UInt64 = 0
    /// Where the bytes in `output` (the last chunk inflated, up to `outputOffset`) start.
    private var lastChunkStart: UInt64 = 0
    /// Times the stream started from the beginning (for tests).
    private(set) var starts = 0

    init(href: String, compressedLength: UInt64, expectedLength: UInt64?, limit: UInt64,
         readCompressed: @escaping (Range<UInt64>) throws(ResourceError) -> Data) {
        self.href = href
        self.compressedLength = compressedLength
        self.expectedLength = expectedLength
        self.limit = limit
        self.readCompressed = readCompressed
    }

    deinit {
        if isOpen { inflateEnd(&stream) }
        input.deallocate()
        output.deallocate()
    }

    /// The inflated bytes of `wanted` (fewer only past the end of the stream). A read that starts within the last
    /// chunk inflated, or after it, goes on with the stream; one before it starts the stream again.
    func read(_ wanted: Range<UInt64>) throws(ResourceError) -> Data {
        if !isOpen || wanted.lowerBound < lastChunkStart { try restart() }
        var result = Data()
        result.reserveCapacity(Int(min(UInt64(wanted.count), UInt64(Self.chunkSize) * 16)))
        if wanted.lowerBound < outputOffset {
            let to = min(outputOffset, wanted.upperBound)
            result.append(output + Int(wanted.lowerBound - lastChunkStart), count: Int(to - wanted.lowerBound))
        }
        while outputOffset < wanted.upperBound, !ended {
            let start = outputOffset
            let produced = try step()
            guard produced > 0 else { continue }
            let end = start + UInt64(produced)
            let from = max(start, wanted.lowerBound)
            let to = min(end, wanted.upperBound)
            if from < to {
                result.append(output + Int(from - start), count: Int(to - from))
            }
            (lastChunkStart, outputOffset) = (start, end)
        }
        return result
    }

    /// Inflates the whole stream, keeping nothing, and returns its length in clear.
    func inflatedLength() throws(ResourceError) -> UInt64 {
        if !isOpen { try restart() }
        while !ended {
            let start = outputOffset
            let produced = try step()
            if produced > 0 { (lastChunkStart, outputOffset) = (start, start + UInt64(produced)) }
        }
        return outputOffset
    }

    private func restart() throws(ResourceError) {
        if isOpen { inflateEnd(&stream) }
        stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            isOpen = false
            throw ResourceError(.badData, href: href, message: "cannot be inflated (zlib would not start)")
        }
        isOpen = true
        ended = false
        inputOffset = 0
        outputOffset = 0
        lastChunkStart = 0
        starts += 1
    }

    /// One call of `inflate` into `output`: the bytes it produced (0 at most once per input chunk).
    private func step() throws(ResourceError) -> Int {
        if stream.avail_in == 0 {
            guard inputOffset < compressedLength else {
                throw ResourceError(.badData, href: href, message: "decrypts to a DEFLATE stream that ends too early")
            }
            let chunk = try readCompressed(inputOffset..<min(compressedLength, inputOffset + UInt64(Self.chunkSize)))
            guard !chunk.isEmpty else {
                throw ResourceError(.badData, href: href, message: "decrypts to a DEFLATE stream that ends too early")
            }
            chunk.copyBytes(to: input, count: chunk.count)
            stream.next_in = input
            stream.avail_in = UInt32(chunk.count)
            inputOffset += UInt64(chunk.count)
        }
        stream.next_out = output
        stream.avail_out = UInt32(Self.chunkSize)
        let status = CZlib.inflate(&stream, Z_NO_FLUSH)
        let produced = Self.chunkSize - Int(stream.avail_out)
        switch status {
        case Z_OK, Z_BUF_ERROR:
            break
        case Z_STREAM_END:
            ended = true
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "inflate returned \(status)"
            throw ResourceError(.badData, href: href, message: "decrypts to bytes that do not inflate (\(reason))")
        }
        let total = outputOffset + UInt64(produced)
        if total > limit {
            throw ResourceError(.tooLarge, href: href, message: "inflates past \(limit) bytes")
        }
        if ended, let expectedLength, total != expectedLength {
            throw ResourceError(.badData, href: href, message: "inflates to \(total) bytes, not the \(expectedLength) its encryption says")
        }
        return produced
    }
}
