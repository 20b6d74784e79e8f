// SPDX-License-Identifier: GPL-3.0-or-later
/// The PCM of one utterance as its synthesis delivers it, chunk by chunk, for the decoders that play
/// it before it is complete (`SynthesisStreamDecoder`).
///
/// A plain value guarded by its `SynthesisJob`'s lock. Chunks are appended while synthesis runs; when
/// it ends, the whole utterance's samples replace them for the readers still attached (the same
/// samples: the chunks are the engine's PCM as it produced it), and the chunk buffer goes back to
/// the pool. Without readers at the end nothing is kept: the job's outcome holds the PCM as before.
struct StreamedPCM {
    /// The format, from the first chunk that says it; nil until then.
    private(set) var format: PCMFormat?
    /// The samples delivered so far (interleaved, `format.channelCount` per frame); once synthesis
    /// ended and readers are attached, the whole utterance's.
    private(set) var samples: [Float] = []
    /// A chunk came without a format or not where the previous one ended: the rest is played from
    /// the whole utterance, once complete.
    private(set) var isInterrupted = false
    /// Synthesis ended (successfully or not): `samples` is all there will be.
    private(set) var isFinished = false
    /// How many decoders read these samples.
    private(set) var readers = 0

    /// Frames available to read.
    var frameCount: Int64 {
        guard let format else { return 0 }
        return Int64(samples.count / max(format.channelCount, 1))
    }

    /// Appends `chunk` where the previous one ended (a chunk overlapping what arrived adds only its
    /// new part). Returns whether frames were added.
    mutating func append(_ chunk: TTSAudioChunk, pool: PCMSampleBufferPool) -> Bool {
        guard !isFinished, !isInterrupted, !chunk.samples.isEmpty else { return false }
        guard let chunkFormat = chunk.format, format == nil || format == chunkFormat else {
            isInterrupted = true
            return false
        }
        let channels = max(chunkFormat.channelCount, 1)
        let received = Int64(samples.count / channels)
        guard chunk.startFrame <= received else {
            isInterrupted = true
            return false
        }
        let overlap = Int(received - chunk.startFrame) * channels
        guard overlap < chunk.samples.count else { return false }
        if format == nil {
            format = chunkFormat
            // About 4 s of speech to begin with; a longer utterance grows it.
            samples = pool.take(minimumCapacity: max(chunk.samples.count * 8, chunkFormat.sampleRate * channels * 4))
        }
        samples.append(contentsOf: chunk.samples[overlap...])
        return true
    }

    /// Synthesis ended with `outcome`. Readers attached keep reading: on success from the whole
    /// utterance's samples, on failure what arrived before it. Returns the chunk buffer to recycle.
    mutating func finish(with outcome: Result<SynthesizedUtterance, TTSError>) -> [Float] {
        isFinished = true
        var released: [Float] = []
        if readers == 0 {
            swap(&released, &samples)
        } else if case .success(let whole) = outcome {
            format = whole.format
            released = samples
            samples = whole.samples
        }
        return released
    }

    /// A decoder starts reading.
    mutating func attachReader() {
        readers += 1
    }

    /// A decoder is released; returns the samples to recycle when it was the last reader of a
    /// finished synthesis.
    mutating func detachReader() -> [Float] {
        readers = max(readers - 1, 0)
        guard readers == 0, isFinished else { return [] }
        var released: [Float] = []
        swap(&released, &samples)
        return released
    }
}
