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

    public init(samples: [Float], startFrame: Int64, wordBoundaries: [TTSWordBoundary]) {
        self.samples = samples
        self.startFrame = startFrame
        self.wordBoundaries = wordBoundaries
    }
}
