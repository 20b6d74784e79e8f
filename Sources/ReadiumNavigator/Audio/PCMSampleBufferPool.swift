// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// A few sample buffers kept for reuse, so that speech does not allocate (and the kernel fault in and
/// zero) fresh memory for every utterance's PCM.
///
/// A synthesizer `take`s a buffer to fill; the `PCMBufferDecoder` that played it gives it back when it
/// is released (`recycle`). Arrays keep their value semantics: a buffer still shared elsewhere when it
/// comes back is simply copied on its next write, so reuse never changes what anyone reads. The pool
/// keeps at most `maximumCount` buffers, none larger than `maximumCapacity` samples, dropping the
/// largest first.
public final class PCMSampleBufferPool: Sendable {
    /// The pool of synthesized speech (`ESpeakEngine` takes, utterance decoders give back).
    /// Four buffers of at most 2 MB (about 24 s of 22.05 kHz speech): the lookahead's worth of ordinary
    /// sentences. Longer ones are rare and are allocated and freed as before.
    public static let speech = PCMSampleBufferPool(maximumCount: 4, maximumCapacity: 512 * 1024)

    public let maximumCount: Int
    public let maximumCapacity: Int
    private let buffers = Locked<[[Float]]>([])

    public init(maximumCount: Int, maximumCapacity: Int) {
        self.maximumCount = maximumCount
        self.maximumCapacity = maximumCapacity
    }

    /// An empty buffer with room for `minimumCapacity` samples: the smallest pooled one large enough,
    /// else the largest pooled one grown, else a new one.
    public func take(minimumCapacity: Int) -> [Float] {
        var buffer = buffers.withLock { pooled -> [Float] in
            guard !pooled.isEmpty else { return [] }
            let fitting = pooled.indices.filter { pooled[$0].capacity >= minimumCapacity }
            let chosen = fitting.min { pooled[$0].capacity < pooled[$1].capacity }
                ?? pooled.indices.max { pooled[$0].capacity < pooled[$1].capacity }!
            return pooled.remove(at: chosen)
        }
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(minimumCapacity)
        return buffer
    }

    /// Gives `buffer` back for reuse (its contents are discarded).
    public func recycle(_ buffer: [Float]) {
        guard buffer.capacity > 0, buffer.capacity <= maximumCapacity else { return }
        buffers.withLock { pooled in
            pooled.append(buffer)
            // Over the count, the largest goes: what is kept stays the size of ordinary utterances
            // rather than ratcheting up to the longest sentences of the book.
            if pooled.count > maximumCount {
                let largest = pooled.indices.max { pooled[$0].capacity < pooled[$1].capacity }!
                pooled.remove(at: largest)
            }
        }
    }

    /// How many buffers are pooled now (for tests).
    public var count: Int { buffers.withLock { $0.count } }
}
