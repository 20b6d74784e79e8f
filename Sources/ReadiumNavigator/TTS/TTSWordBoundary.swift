// SPDX-License-Identifier: GPL-3.0-or-later
/// Where a word of an utterance starts in the utterance's PCM.
///
/// The player compares `startFrame` with the frames the output has played, so a word is reported
/// when it is heard, not when it was synthesized.
public struct TTSWordBoundary: Sendable, Hashable {
    /// A whole word of the utterance's text.
    public var range: Range<String.Index>
    /// The first frame of the word in the utterance's PCM, counted from 0.
    public var startFrame: Int64

    public init(range: Range<String.Index>, startFrame: Int64) {
        self.range = range
        self.startFrame = startFrame
    }
}
