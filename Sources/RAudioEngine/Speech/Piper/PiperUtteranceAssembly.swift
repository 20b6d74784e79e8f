// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// One utterance put together from the worker's messages: its groups, then its pieces.
///
/// Each piece goes out at once as a `TTSAudioChunk` with the words that start in it, so a listener can
/// hear the first piece while the next is synthesized; the chunks laid end to end are the utterance's
/// PCM. With a pitch other than 1 the whole utterance is shifted by libsonic at the end and goes out as
/// one chunk (sonic shifts a whole signal; its length changes slightly). Every chunk says its format,
/// so the player starts the utterance from its first piece. Used on the Piper worker's
/// thread only (one message after the other), hence `@unchecked Sendable`.
final class PiperUtteranceAssembly: @unchecked Sendable {
    private let text: String
    private let pitch: Double
    private let format: PCMFormat
    private let onChunk: (@Sendable (TTSAudioChunk) -> Void)?
    private var sounds: [Int] = []
    private var timeline: PiperWordTimeline
    private var samples: [Float] = []
    private var boundaries: [TTSWordBoundary] = []
    /// Without their samples: kept to place the words again after a pitch shift.
    private var pieces: [PiperWorker.Piece] = []

    init(text: String, pitch: Double, format: PCMFormat, onChunk: (@Sendable (TTSAudioChunk) -> Void)?) {
        self.text = text
        self.pitch = pitch
        self.format = format
        self.onChunk = onChunk
        timeline = PiperWordTimeline(text: text, sounds: [])
    }

    private var shiftsPitch: Bool { pitch != 1 && pitch.isFinite && pitch > 0 }

    func receive(_ message: PiperWorker.Message) {
        switch message {
        case .groups(let groupSounds):
            sounds = groupSounds
            timeline = PiperWordTimeline(text: text, sounds: groupSounds)
        case .piece(var piece):
            samples.append(contentsOf: piece.samples)
            if shiftsPitch {
                piece.samples = []
                pieces.append(piece)
                return
            }
            let words = timeline.boundaries(groups: piece.groups, covering: piece.groupCount, in: piece.frames)
            boundaries.append(contentsOf: words)
            onChunk?(TTSAudioChunk(samples: piece.samples, startFrame: piece.startFrame, wordBoundaries: words, format: format))
        }
    }

    /// The whole utterance once its last piece has come: the samples and the word boundaries, the same
    /// as the chunks' laid end to end.
    func finish() -> (samples: [Float], wordBoundaries: [TTSWordBoundary]) {
        guard shiftsPitch else { return (samples, boundaries) }
        let shifted = PiperPitchShift.apply(samples, pitch: pitch, sampleRate: format.sampleRate)
        let scale = Double(shifted.count) / Double(max(samples.count, 1))
        let total = Int64(shifted.count)
        func scaled(_ frame: Int64) -> Int64 { min(Int64(Double(frame) * scale), total) }
        var placed = PiperWordTimeline(text: text, sounds: sounds)
        var words: [TTSWordBoundary] = []
        for (index, piece) in pieces.enumerated() {
            let start = scaled(piece.startFrame)
            let end = index == pieces.count - 1 ? total : max(start, scaled(piece.startFrame + Int64(piece.frameCount)))
            let groups = piece.groups.map { scaled($0.lowerBound)..<max(scaled($0.lowerBound), scaled($0.upperBound)) }
            words.append(contentsOf: placed.boundaries(groups: groups, covering: piece.groupCount, in: start..<end))
        }
        onChunk?(TTSAudioChunk(samples: shifted, startFrame: 0, wordBoundaries: words, format: format))
        return (shifted, words)
    }
}
