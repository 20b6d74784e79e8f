// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ZIPFoundation

/// Thrown from the inflate consumer to stop once the wanted bytes are in.
private struct EnoughInflated: Error {}

extension ZIPEntryResource {
    /// Serves `wanted` from the cached window, or inflates from the start of the entry.
    ///
    /// Inflation uses ZIPFoundation's `Data.decompress` (zlib raw inflate). Its Linux loop hands zlib
    /// a full `bufferSize` of input whatever the chunk's length, so the provider always returns full,
    /// zero-padded chunks and throws once the compressed bytes are exhausted (else a truncated stream
    /// would loop forever).
    func readDeflated(fd: any ZIPArchiveBytes, offset: UInt64, wanted: Range<UInt64>, isWhole: Bool) throws(ResourceError) -> Data {
        let declared = info.uncompressedSize
        let compressed = info.compressedSize
        if declared > (1 << 20), declared / max(compressed, 1) > Self.maximumDeflateRatio {
            throw ResourceError(.tooLarge, href: href,
                                message: "declares \(declared) bytes from \(compressed) compressed, a ratio deflate cannot reach (ZIP bomb?)")
        }
        guard !wanted.isEmpty else { return Data() }
        if let cached = cachedSlice(wanted) { return cached }
        if !isWhole && declared > Self.wholeEntryCacheLimit {
            return try readDeflatedFromCheckpoint(fd: fd, offset: offset, wanted: wanted)
        }

        let keep: Range<UInt64> = declared <= Self.wholeEntryCacheLimit
            ? 0..<declared
            : wanted.lowerBound..<min(declared, max(wanted.upperBound, wanted.lowerBound + Self.windowSize))
        let chunk = Self.inflateChunkSize
        var kept = Data()
        kept.reserveCapacity(Int(keep.count))
        var produced: UInt64 = 0
        var providerFailure: ResourceError?
        var tooLarge = false
        let checksum: CRC32
        do {
            checksum = try Data.decompress(size: Int64(compressed), bufferSize: chunk, skipCRC32: !isWhole, provider: { position, _ in
                let start = UInt64(position)
                guard start < compressed else {
                    providerFailure = ResourceError(.badData, href: self.href, message: "has a truncated deflate stream")
                    throw EnoughInflated()
                }
                let count = Int(min(UInt64(chunk), compressed - start))
                do throws(ResourceError) {
                    var data = try fd.read(at: offset + start, count: count)
                    if data.count < chunk { data.append(Data(count: chunk - data.count)) }
                    return data
                } catch {
                    providerFailure = error
                    throw EnoughInflated()
                }
            }, consumer: { output in
                let start = produced
                produced += UInt64(output.count)
                if produced > declared {
                    tooLarge = true
                    throw EnoughInflated()
                }
                let overlap = keep.clamped(to: start..<produced)
                if !overlap.isEmpty {
                    let base = output.startIndex
                    kept.append(output[(base + Int(overlap.lowerBound - start))..<(base + Int(overlap.upperBound - start))])
                }
                if !isWhole && produced >= keep.upperBound && produced >= wanted.upperBound { throw EnoughInflated() }
            })
        } catch is EnoughInflated {
            if tooLarge {
                throw ResourceError(.tooLarge, href: href,
                                    message: "inflates past its declared size of \(declared) bytes (ZIP bomb?)")
            }
            if let providerFailure { throw providerFailure }
            return finish(kept: kept, keep: keep, wanted: wanted)
        } catch {
            throw ResourceError(.badData, href: href, message: "has a corrupt deflate stream (\(error))")
        }
        guard produced == declared else {
            throw ResourceError(.badData, href: href, message: "inflates to \(produced) bytes instead of the declared \(declared)")
        }
        if isWhole && checksum != info.crc32 {
            throw ResourceError(.badData, href: href, message: "fails its CRC-32 check: the archive is corrupt")
        }
        return finish(kept: kept, keep: keep, wanted: wanted)
    }

    /// Inflates the 4 MiB window from `wanted`'s start, starting at the last checkpoint before it, and
    /// records the checkpoints passed on the way: each read of a large entry inflates at most
    /// `DeflateIndex.spacing` + 4 MiB, wherever it is (the first read far in also builds the index up to it).
    private func readDeflatedFromCheckpoint(fd: any ZIPArchiveBytes, offset: UInt64, wanted: Range<UInt64>) throws(ResourceError) -> Data {
        let declared = info.uncompressedSize
        let compressed = info.compressedSize
        let (start, next, spacing) = inflateIndex.withLock { index in
            if index == nil { index = DeflateIndex(declaredSize: declared) }
            return (index!.checkpoint(before: wanted.lowerBound), index!.nextCheckpointOutput, index!.spacing)
        }
        let keep = wanted.lowerBound..<min(declared, max(wanted.upperBound, wanted.lowerBound + Self.windowSize))
        var kept = Data()
        kept.reserveCapacity(Int(keep.count))
        var tooLarge = false
        var ended: UInt64 = 0
        let found: [DeflateIndex.Checkpoint]
        do {
            found = try DeflateIndex.inflate(
                from: start, compressedSize: compressed, nextCheckpoint: next, spacing: spacing,
                readInput: { position, count throws(ResourceError) in try fd.read(at: offset + position, count: count) },
                consume: { output, at in
                    let produced = at + UInt64(output.count)
                    ended = produced
                    if produced > declared {
                        tooLarge = true
                        return false
                    }
                    let overlap = keep.clamped(to: at..<produced)
                    if !overlap.isEmpty {
                        kept.append(contentsOf: UnsafeRawBufferPointer(rebasing: output[Int(overlap.lowerBound - at)..<Int(overlap.upperBound - at)]))
                    }
                    return produced < keep.upperBound
                })
        } catch {
            switch error {
            case .truncated: throw ResourceError(.badData, href: href, message: "has a truncated deflate stream")
            case .corrupt(let message): throw ResourceError(.badData, href: href, message: "has a corrupt deflate stream (\(message))")
            case .read(let failure): throw failure
            }
        }
        if tooLarge {
            throw ResourceError(.tooLarge, href: href, message: "inflates past its declared size of \(declared) bytes (ZIP bomb?)")
        }
        if ended < keep.upperBound {
            throw ResourceError(.badData, href: href, message: "inflates to \(ended) bytes instead of the declared \(declared)")
        }
        inflateIndex.withLock { $0?.merge(found) }
        return finish(kept: kept, keep: keep, wanted: wanted)
    }

    private func finish(kept: Data, keep: Range<UInt64>, wanted: Range<UInt64>) -> Data {
        if keep == wanted && UInt64(kept.count) > Self.wholeEntryCacheLimit {
            return kept  // a whole read of a large entry: not worth holding on to
        }
        storeWindow(start: keep.lowerBound, bytes: kept)
        let from = Int(wanted.lowerBound - keep.lowerBound)
        let to = min(kept.count, Int(wanted.upperBound - keep.lowerBound))
        guard from < to else { return Data() }
        return kept.subdata(in: from..<to)
    }
}
