// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator

/// Maps the worker's phoneme groups (the spoken words, each with its number of sounds) to the words of
/// the utterance's text; `PiperWordTimeline` then places the words on the samples the model's own
/// phoneme durations give each group.
///
/// eSpeak NG's phonemizer, which Piper uses, makes one group per written word most of the time, but
/// joins short function words (`for the` -> `fɚðə`) and splits numbers (`1851` -> five groups). The
/// words and groups are aligned by dynamic programming: one word to one group, two or three words to
/// one group, or one word to two to four groups, minimizing the mismatch between the words' letters and
/// the groups' sounds (about one sound per letter in most alphabets), with a small penalty for every
/// join or split (a number can take up to seven groups). Words sharing a group share its samples in proportion to their letters. Pure.
enum PiperWordTiming {
    /// The steps the alignment may take: (words, groups).
    private static let steps: [(words: Int, groups: Int, penalty: Double)] = [
        (1, 1, 0), (2, 1, 0.6), (3, 1, 1.2), (1, 2, 0.6), (1, 3, 1.2), (1, 4, 1.8), (1, 5, 2.4), (1, 6, 3.0), (1, 7, 3.6),
    ]

    /// Where a word starts: in which group (by index) and at which fraction of that group's samples.
    struct Placement: Sendable, Equatable {
        var range: Range<String.Index>
        var group: Int
        var fraction: Double
    }

    /// Where each word of `text` starts among groups of `sounds` sounds each (in order), found from the
    /// words' letters and the groups' sounds alone, so before any audio exists. Words in order; group
    /// indices never decrease.
    static func placements(text: String, sounds groupSounds: [Int]) -> [Placement] {
        let words = TTSWordScanner.words(in: text)
        guard !words.isEmpty, !groupSounds.isEmpty else { return [] }
        let letters = words.map { letterWeight(of: text[$0.range]) }
        let sounds = groupSounds.map { Double($0) }
        let wordCount = words.count, groupCount = groupSounds.count
        // cost[i][j]: the best alignment of the first i words with the first j groups.
        var cost = Array(repeating: Array(repeating: Double.infinity, count: groupCount + 1), count: wordCount + 1)
        var back = Array(repeating: Array(repeating: -1, count: groupCount + 1), count: wordCount + 1)
        cost[0][0] = 0
        for i in 0...wordCount {
            for j in 0...groupCount where cost[i][j].isFinite {
                for (index, step) in steps.enumerated() where i + step.words <= wordCount && j + step.groups <= groupCount {
                    let wordLetters = letters[i..<i + step.words].reduce(0, +)
                    let stepSounds = sounds[j..<j + step.groups].reduce(0, +)
                    let next = cost[i][j] + abs(log((wordLetters + 1) / (stepSounds + 1))) + step.penalty
                    if next < cost[i + step.words][j + step.groups] {
                        cost[i + step.words][j + step.groups] = next
                        back[i + step.words][j + step.groups] = index
                    }
                }
            }
        }
        guard cost[wordCount][groupCount].isFinite else { return proportional(words: words, groupCount: groupCount) }
        var placements = words.map { Placement(range: $0.range, group: 0, fraction: 0) }
        var i = wordCount, j = groupCount
        while i > 0 || j > 0 {
            let step = steps[back[i][j]]
            let firstWord = i - step.words, firstGroup = j - step.groups
            placements[firstWord].group = firstGroup
            if step.words > 1 {
                // Words sharing one group: its samples split by their letters.
                let total = max(letters[firstWord..<i].reduce(0, +), 1)
                var before = 0.0
                for word in firstWord..<i {
                    placements[word] = Placement(range: words[word].range, group: firstGroup, fraction: before / total)
                    before += letters[word]
                }
            }
            i = firstWord
            j = firstGroup
        }
        return placements
    }

    /// About how many sounds a word has: one per letter, four per digit (`1851` is read
    /// "one thousand eight hundred fifty one", five groups and twenty sounds).
    private static func letterWeight(of word: Substring) -> Double {
        word.unicodeScalars.reduce(0) { total, scalar in
            if scalar.properties.numericType != nil { return total + 4 }
            return total + (scalar.properties.isAlphabetic ? 1 : 0)
        }
    }

    /// Words and groups too far apart to align step by step (a text the phonemizer read very differently):
    /// each word takes the group at the same fraction of the whole.
    private static func proportional(words: [TTSWordScanner.Word], groupCount: Int) -> [Placement] {
        let total = Double(max(words.last!.scalarEnd, 1))
        return words.map { word in
            Placement(range: word.range, group: min(Int(Double(word.scalarStart) / total * Double(groupCount)), groupCount - 1), fraction: 0)
        }
    }
}
