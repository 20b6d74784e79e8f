// SPDX-License-Identifier: GPL-3.0-or-later
/// The PCM and word boundaries of one spoken utterance, ready to play.
///
/// A synthesizer opens it as an `AudioDecoder` (`makeDecoder()`) so the render thread plays it like a
/// track, and maps `wordBoundaries` against the frames the output has played to report each word.
public struct SynthesizedUtterance: Sendable {
    /// The text that was spoken; `wordBoundaries` index into it.
    public var text: String
    /// The voice that spoke it.
    public var voice: TTSVoice
    /// Set when the voice was a fallback for the utterance's language (see `TTSVoiceChoice.warning`).
    public var warning: String?
    public var format: PCMFormat
    /// Interleaved Float32 samples, `frameCount * format.channelCount` of them.
    public var samples: [Float]
    /// The words whose start is known, in text order, with nondecreasing frames inside the PCM.
    public var wordBoundaries: [TTSWordBoundary]

    public init(text: String, voice: TTSVoice, warning: String? = nil, format: PCMFormat, samples: [Float], wordBoundaries: [TTSWordBoundary]) {
        self.text = text
        self.voice = voice
        self.warning = warning
        self.format = format
        self.samples = samples
        self.wordBoundaries = wordBoundaries
    }

    /// The length of the PCM in frames.
    public var frameCount: Int64 { Int64(samples.count / max(format.channelCount, 1)) }

    /// The length of the PCM in seconds.
    public var duration: Double { format.seconds(ofFrames: frameCount) }

    /// The same utterance without its PCM (`samples` empty, `frameCount` 0): what is kept of an
    /// utterance once its decoder has been opened, to map heard frames to words without holding
    /// seconds of audio per utterance in memory.
    public func droppingSamples() -> SynthesizedUtterance {
        var copy = self
        copy.samples = []
        return copy
    }

    /// This utterance, spoken from `start` of `fullText` (its `text` is `fullText[start...]`), as a
    /// part of `fullText`: `text` becomes `fullText` and every word range moves by `start`'s offset, so
    /// words locate against the whole utterance. Frames are unchanged (the PCM starts at `start`).
    public func placed(in fullText: String, from start: String.Index) -> SynthesizedUtterance {
        var copy = self
        let shift = fullText.utf8.distance(from: fullText.startIndex, to: start)
        let fullLength = fullText.utf8.count
        copy.wordBoundaries = wordBoundaries.compactMap { boundary in
            let lower = text.utf8.distance(from: text.startIndex, to: boundary.range.lowerBound) + shift
            let upper = text.utf8.distance(from: text.startIndex, to: boundary.range.upperBound) + shift
            guard upper <= fullLength else { return nil }
            let range = fullText.utf8.index(fullText.startIndex, offsetBy: lower)..<fullText.utf8.index(fullText.startIndex, offsetBy: upper)
            return TTSWordBoundary(range: range, startFrame: boundary.startFrame)
        }
        copy.text = fullText
        return copy
    }

    /// A decoder that plays this utterance's PCM from its first frame; its buffer goes back to
    /// `PCMSampleBufferPool.speech` when the decoder is released.
    public func makeDecoder() -> PCMBufferDecoder {
        PCMBufferDecoder(samples: samples, format: format, href: "tts:\(voice.identifier)", recyclingInto: .speech)
    }

    /// The word being heard at `frame`: the last boundary starting at or before it.
    public func wordBoundary(atFrame frame: Int64) -> TTSWordBoundary? {
        var low = 0
        var high = wordBoundaries.count
        while low < high {
            let middle = (low + high) / 2
            if wordBoundaries[middle].startFrame <= frame { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : wordBoundaries[low - 1]
    }
}
