// SPDX-License-Identifier: GPL-3.0-or-later
/// A piece of an utterance's PCM as the engine produces it, with the word boundaries settled so far.
///
/// Delivered on the engine's thread while it synthesizes; a consumer that wants to start playing
/// before the utterance is complete copies `samples` out and returns quickly.
public struct TTSAudioChunk: Sendable {
    /// Interleaved Float32 samples in the utterance's `PCMFormat`.
    public var samples: [Float]
    /// The frame of the utterance the first sample belongs to.
    public var startFrame: Int64
    /// Words whose start became known since the previous chunk, in order.
    public var wordBoundaries: [TTSWordBoundary]
    /// The utterance's PCM format, when the engine knows it before the utterance is complete: a
    /// synthesizer plays an utterance from its first chunk only when the chunk says its format
    /// (without it, it waits for the whole utterance).
    public var format: PCMFormat?

    public init(samples: [Float], startFrame: Int64, wordBoundaries: [TTSWordBoundary], format: PCMFormat? = nil) {
        self.samples = samples
        self.startFrame = startFrame
        self.wordBoundaries = wordBoundaries
        self.format = format
    }
}
