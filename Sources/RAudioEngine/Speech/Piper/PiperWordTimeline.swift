// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// The words of one utterance placed on its audio piece by piece, as the worker sends the pieces.
///
/// Made from the utterance's phoneme groups (their sounds, sent before any audio) with
/// `PiperWordTiming.placements`; each piece then gives the samples of the groups it covers, and the
/// words starting in them get their first frame. Starts never go back, and each lies inside its piece.
/// A value type used on the Piper worker's thread.
struct PiperWordTimeline {
    private let placements: [PiperWordTiming.Placement]
    private var nextPlacement = 0
    private var groupsDone = 0
    private var lastStart: Int64 = 0

    init(text: String, sounds: [Int]) {
        placements = PiperWordTiming.placements(text: text, sounds: sounds)
    }

    /// The boundaries of the words starting in the next `count` groups, whose sample ranges (counted from
    /// the utterance's first sample) are `groups` — empty when the model gave no durations, then the words
    /// start with the piece — for a piece spanning `frames` of the utterance.
    mutating func boundaries(groups: [Range<Int64>], covering count: Int, in frames: Range<Int64>) -> [TTSWordBoundary] {
        let end = groupsDone + count
        defer { groupsDone = end }
        var result: [TTSWordBoundary] = []
        while nextPlacement < placements.count, placements[nextPlacement].group < end {
            let placement = placements[nextPlacement]
            nextPlacement += 1
            guard !frames.isEmpty else { continue }
            let index = placement.group - groupsDone
            var start = frames.lowerBound
            if groups.count == count, index >= 0 {
                let group = groups[index]
                start = group.lowerBound + Int64(Double(group.count) * placement.fraction)
            }
            start = min(max(start, lastStart, frames.lowerBound), frames.upperBound - 1)
            lastStart = start
            result.append(TTSWordBoundary(range: placement.range, startFrame: start))
        }
        return result
    }
}
