// SPDX-License-Identifier: GPL-3.0-or-later
import CZlib
import Foundation

/// Checkpoints in a raw deflate stream, so that a range far into a large DEFLATED ZIP entry is inflated
/// from the checkpoint before it rather than from the start of the entry (zlib's `examples/zran.c`).
///
/// A checkpoint is taken at a deflate block boundary at least `spacing` bytes of output after the previous
/// one: where the block starts in the compressed stream (a byte offset and the bits of the byte before it
/// that belong to the block), where it starts in the output, and the 32 KiB of output before it (the
/// dictionary the block's back-references may reach into, `inflateGetDictionary`). The spacing grows with
/// the entry so that an index holds at most `maximumCheckpoints` (8 MiB of windows); any read then
/// inflates at most `spacing` bytes it does not need. Checkpoints are added as reads pass them, so the
/// first read far into the entry inflates up to it once, and the next ones start close by.
///
/// A value type guarded by the entry's lock; `DeflateIndex.inflate` runs without it.
struct DeflateIndex: Sendable {
    struct Checkpoint: Sendable {
        /// The offset in the compressed data of the first whole byte of the block.
        var input: UInt64
        /// How many bits of the byte before `input` belong to the block (0 to 7).
        var bits: Int32
        /// The offset in the inflated data where the block starts.
        var output: UInt64
        /// The inflated bytes before `output` (up to 32 KiB): the dictionary to restart with.
        var window: Data
    }

    static let maximumCheckpoints: UInt64 = 256
    static let minimumSpacing: UInt64 = 1 << 20

    /// The output bytes between checkpoints.
    let spacing: UInt64
    /// Sorted by `output`; the first is the start of the stream.
    private(set) var checkpoints: [Checkpoint] = [Checkpoint(input: 0, bits: 0, output: 0, window: Data())]

    init(declaredSize: UInt64) {
        spacing = max(Self.minimumSpacing, declaredSize / Self.maximumCheckpoints + 1)
    }

    /// The last checkpoint at or before `offset` of the output.
    func checkpoint(before offset: UInt64) -> Checkpoint {
        var low = 0
        var high = checkpoints.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if checkpoints[middle].output <= offset { low = middle } else { high = middle - 1 }
        }
        return checkpoints[low]
    }

    /// Where the next checkpoint is wanted: `spacing` after the last one.
    var nextCheckpointOutput: UInt64 { checkpoints[checkpoints.count - 1].output + spacing }

    /// Adds checkpoints found by an inflate, keeping those past the last one known.
    mutating func merge(_ found: [Checkpoint]) {
        for checkpoint in found where checkpoint.output >= nextCheckpointOutput {
            checkpoints.append(checkpoint)
        }
    }
}

extension DeflateIndex {
    /// What went wrong while inflating from a checkpoint.
    enum InflateFailure: Error {
        /// The compressed data ended before the stream did.
        case truncated
        /// zlib refused the stream (its message).
        case corrupt(String)
        /// Reading the compressed data failed.
        case read(ResourceError)
    }

    /// Inflates the raw deflate stream of `compressedSize` bytes read by `readInput(offset, count)` from
    /// `start` on, handing each piece of output (and its offset) to `consume` until it returns false or
    /// the stream ends; returns the checkpoints passed after `nextCheckpoint` (each
    /// `spacing` apart).
    ///
    /// Calls zlib's `inflateInit2_` (raw), `inflatePrime`, `inflateSetDictionary`, `inflate(Z_BLOCK)`,
    /// `inflateGetDictionary` and `inflateEnd`.
    static func inflate(
        from start: Checkpoint, compressedSize: UInt64, nextCheckpoint: UInt64, spacing: UInt64,
        readInput: (UInt64, Int) throws(ResourceError) -> Data,
        consume: (UnsafeRawBufferPointer, UInt64) -> Bool
    ) throws(InflateFailure) -> [Checkpoint] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        let inputSize = 64 << 10
        let outputSize = 64 << 10
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: inputSize)
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: outputSize)
        let dictionary = UnsafeMutablePointer<UInt8>.allocate(capacity: 32 << 10)
        defer { input.deallocate(); output.deallocate(); dictionary.deallocate() }

        var inputOffset = start.input
        if start.bits > 0 {
            guard start.input > 0 else { throw .corrupt("a checkpoint's bits lack their byte") }
            let byte: Data
            do { byte = try readInput(start.input - 1, 1) } catch { throw .read(error) }
            guard let value = byte.first else { throw .truncated }
            inflatePrime(&stream, start.bits, Int32(value) >> (8 - start.bits))
        }
        if !start.window.isEmpty {
            let status = start.window.withUnsafeBytes { bytes in
                inflateSetDictionary(&stream, bytes.bindMemory(to: UInt8.self).baseAddress, UInt32(bytes.count))
            }
            guard status == Z_OK else { throw .corrupt("inflateSetDictionary failed") }
        }

        var produced = start.output
        var wantedCheckpoint = nextCheckpoint
        var found: [Checkpoint] = []
        var consumedInput = start.input  // compressed bytes inflate has taken, from the start of the entry
        while true {
            if stream.avail_in == 0 {
                let count = Int(min(UInt64(inputSize), compressedSize - min(compressedSize, inputOffset)))
                guard count > 0 else { throw .truncated }
                let data: Data
                do { data = try readInput(inputOffset, count) } catch { throw .read(error) }
                guard !data.isEmpty else { throw .truncated }
                data.copyBytes(to: input, count: data.count)
                stream.next_in = input
                stream.avail_in = UInt32(data.count)
                inputOffset += UInt64(data.count)
            }
            stream.next_out = output
            stream.avail_out = UInt32(outputSize)
            let availableBefore = stream.avail_in
            let status = CZlib.inflate(&stream, Z_BLOCK)
            consumedInput += UInt64(availableBefore - stream.avail_in)
            let count = outputSize - Int(stream.avail_out)
            if status == Z_BUF_ERROR && stream.avail_in == 0 { continue }  // more input, read above
            guard status == Z_OK || status == Z_STREAM_END else {
                throw .corrupt(stream.msg.map { String(cString: $0) } ?? "inflate returned \(status)")
            }
            if count > 0 {
                guard consume(UnsafeRawBufferPointer(start: output, count: count), produced) else { return found }
                produced += UInt64(count)
            }
            if status == Z_STREAM_END { return found }
            // At the end of a block header's predecessor: bit 7 set, bit 6 (last block) clear.
            if stream.data_type & 128 != 0, stream.data_type & 64 == 0, produced >= wantedCheckpoint {
                var length: UInt32 = 32 << 10
                if inflateGetDictionary(&stream, dictionary, &length) == Z_OK {
                    found.append(Checkpoint(input: consumedInput, bits: stream.data_type & 7, output: produced,
                                            window: Data(bytes: dictionary, count: Int(length))))
                    wantedCheckpoint = produced + spacing
                }
            }
        }
    }
}
