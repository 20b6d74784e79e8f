// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// A null output that compares what it is given, sample by sample, with the concatenation of the
/// utterances' own PCM (from a `RecordingTTSEngine`) and measures any silence the renderer added.
///
/// The walk: a rendered sample equal to the next expected one (within `tolerance`) advances both; a
/// silent rendered sample that is not expected is counted as added (runs measured); anything else is
/// a mismatch (a dropped or changed sample). Also measures the longest silent run in the rendered
/// stream and, for reference, the voice's own longest (inside an utterance, and across each boundary:
/// one utterance's trailing silence plus the next one's leading silence). An utterance is played
/// while still being synthesized (from its first chunk) and recorded only once complete: rendered
/// samples wait, unwalked, until the utterance they belong to is recorded (at most one utterance's
/// worth), and `finish()` walks the rest once every synthesis has ended. An utterance whose synthesis
/// the closing cancelled while it played is compared with the chunks it delivered
/// (`RecordingTTSEngine`), and counted apart (`cancelledSamplesRendered`): it is recorded when its
/// synthesis ends on the engine's thread, which may be after the render thread closed this sink,
/// hence `finish()` rather than `close()`. Render thread only, then (`finish()` and the figures) the
/// thread that closed the synthesizer, after its render thread has ended: hence `@unchecked Sendable`.
final class GapComparingSink: AudioSink, @unchecked Sendable {
    static let tolerance: Float = 1e-4
    static let silence: Float = 1e-4

    private let recorder: RecordingTTSEngine
    private(set) var format: PCMFormat?
    private var expected: [Float] = []
    private var expectedIndex = 0
    /// Whether the utterance being compared is one whose synthesis did not complete.
    private var expectedIsPartial = false
    /// Utterances taken from the recorder so far (the one being compared is `utterancesTaken - 1`).
    private(set) var utterancesTaken = 0
    private(set) var renderedSamples = 0
    private(set) var matchedSamples = 0
    private(set) var addedSamples = 0
    private(set) var longestAddedRun = 0
    private(set) var mismatchedSamples = 0
    private(set) var longestRenderedSilence = 0
    private(set) var longestOwnSilence = 0
    /// Rendered samples that matched the chunks of a synthesis cancelled part-way (by the closing).
    private(set) var cancelledSamplesRendered = 0
    /// The utterance (0-based, in synthesis order) and the rendered sample where the first added or
    /// mismatched sample was met; nil when none was.
    private(set) var firstDifference: (utterance: Int, sample: Int)?
    private var addedRun = 0
    private var renderedSilenceRun = 0
    /// The silent run at the end of the previous utterance's own PCM (for the boundary figure).
    private var previousTrailingSilence = 0
    /// Rendered samples not walked yet: their utterance is not recorded yet.
    private var waiting: [Float] = []

    init(recorder: RecordingTTSEngine) {
        self.recorder = recorder
    }

    func open(format: PCMFormat) throws(AudioSinkError) {
        if let current = self.format, current != format {
            throw AudioSinkError(.outputFormatUnsupported, message: "speak-gaps: the format changed from \(current) to \(format)")
        }
        self.format = format
    }

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioSinkError) {
        waiting.append(contentsOf: samples)
        walkWaiting(toTheEnd: false)
    }

    /// Walks the waiting samples while their utterance is recorded; all of them at the end.
    private func walkWaiting(toTheEnd: Bool) {
        var walked = 0
        for sample in waiting {
            while expectedIndex == expected.count, takeNextUtterance() {}
            if !toTheEnd, expectedIndex == expected.count { break }
            walk(sample)
            walked += 1
        }
        waiting.removeFirst(walked)
    }

    /// Compares one rendered sample with the next expected one.
    private func walk(_ sample: Float) {
        renderedSamples += 1
        let silent = abs(sample) <= Self.silence
        renderedSilenceRun = silent ? renderedSilenceRun + 1 : 0
        longestRenderedSilence = max(longestRenderedSilence, renderedSilenceRun)
        if expectedIndex < expected.count, abs(sample - expected[expectedIndex]) <= Self.tolerance {
            expectedIndex += 1
            matchedSamples += 1
            if expectedIsPartial { cancelledSamplesRendered += 1 }
            addedRun = 0
            return
        }
        if firstDifference == nil { firstDifference = (max(utterancesTaken - 1, 0), renderedSamples - 1) }
        if silent {
            addedSamples += 1
            addedRun += 1
            longestAddedRun = max(longestAddedRun, addedRun)
        } else {
            mismatchedSamples += 1
            expectedIndex = min(expectedIndex + 1, expected.count)
            addedRun = 0
        }
    }

    /// Moves to the next recorded utterance; false when the recorder has none yet (the rendered
    /// sample is then added or mismatched).
    private func takeNextUtterance() -> Bool {
        guard let next = recorder.utterance(at: utterancesTaken) else { return false }
        utterancesTaken += 1
        expected = next.samples
        expectedIsPartial = !next.completed
        expectedIndex = 0
        var leading = 0
        while leading < expected.count, abs(expected[leading]) <= Self.silence { leading += 1 }
        var run = 0
        for sample in expected {
            run = abs(sample) <= Self.silence ? run + 1 : 0
            longestOwnSilence = max(longestOwnSilence, run)
        }
        if utterancesTaken > 1 { longestOwnSilence = max(longestOwnSilence, previousTrailingSilence + leading) }
        previousTrailingSilence = run
        return true
    }

    var pendingFrames: Int { 0 }
    func pause() {}
    func resume() {}
    func flush() {}
    func drain() throws(AudioSinkError) {}
    func close() throws(AudioSinkError) {}

    /// Walks what is still waiting, with whatever the recorder has. Call after the synthesizer was
    /// closed and every synthesis ended (`RecordingTTSEngine.waitForAllToEnd`).
    func finish() { walkWaiting(toTheEnd: true) }
}
