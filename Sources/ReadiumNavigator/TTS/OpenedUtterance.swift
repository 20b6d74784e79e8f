// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// An utterance opened for the renderer: its words once known, or the job still synthesizing it.
struct OpenedUtterance: Sendable {
    let utterance: SpeechUtterance
    /// Its words (no PCM) when it was opened synthesized; nil: they come with `job`'s outcome.
    let words: SynthesizedUtterance?
    /// The job of an utterance opened while being synthesized (played as a stream); nil otherwise.
    let job: SynthesisJob?
    /// The source played, for an utterance that is embedded media.
    var mediaSource: Link? = nil

    /// The utterance and its words (no PCM), nil while synthesis runs or after it failed.
    var heard: (SpeechUtterance, SynthesizedUtterance)? {
        if let words { return (utterance, words) }
        guard case .success(let synthesized)? = job?.outcome else { return nil }
        return (utterance, synthesized.droppingSamples())
    }
}
