// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// Maps the worker's phoneme groups (the sample range of each spoken word, from the model's own
/// phoneme durations) to the words of the utterance's text.
///
/// eSpeak NG's phonemizer, which Piper uses, makes one group per written word almost always; numbers
/// and abbreviations can give more groups than words (`1851` -> four), and a few words fewer. With as
/// many groups as words, word i starts at group i; otherwise each word takes the group whose position
/// in the phoneme stream is closest to the word's position in the text (both as fractions of the whole),
/// which keeps the ranges in order and near the sound. Pure.
enum PiperWordTiming {
    static func boundaries(text: String, groups: [Range<Int64>]) -> [TTSWordBoundary] {
        let words = TTSWordScanner.words(in: text)
        guard !words.isEmpty, !groups.isEmpty else { return [] }
        var starts: [Int64] = []
        if words.count == groups.count {
            starts = groups.map(\.lowerBound)
        } else {
            let totalScalars = Double(max(words.last!.scalarEnd, 1))
            for word in words {
                let fraction = Double(word.scalarStart) / totalScalars
                let index = min(Int((fraction * Double(groups.count)).rounded(.down)), groups.count - 1)
                starts.append(groups[index].lowerBound)
            }
        }
        var boundaries: [TTSWordBoundary] = []
        var last: Int64 = 0
        for (word, start) in zip(words, starts) {
            let frame = max(start, last)
            last = frame
            boundaries.append(TTSWordBoundary(range: word.range, startFrame: frame))
        }
        return boundaries
    }
}
