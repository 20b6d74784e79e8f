// SPDX-License-Identifier: GPL-3.0-or-later
/// The words of a book read aloud, by place: what gives speech's time left the words left in the book.
///
/// One entry per text element of the content, in reading order: the element's `totalProgression`
/// (the value each utterance's locator carries) and its words (`SpeechPace.words(in:)`). Counted once
/// from the content (`BookWordCounting`, in the CLI), on a thread of its own.
public struct BookWordCount: Equatable, Sendable {
    /// Each element's `totalProgression`, ascending, and the words from it to the end of the book.
    private var progressions: [Double] = []
    private var wordsFromHere: [Int] = []

    /// - Parameter elements: each text element in reading order: its `totalProgression` and its words.
    public init(elements: [(progression: Double, words: Int)]) {
        progressions = elements.map(\.progression)
        wordsFromHere = Array(repeating: 0, count: elements.count)
        var sum = 0
        for index in elements.indices.reversed() {
            sum += elements[index].words
            wordsFromHere[index] = sum
        }
    }

    /// The words of the whole book.
    public var total: Int { wordsFromHere.first ?? 0 }

    /// The words of the elements from the one at `progression` (the utterance being heard is in it) to the end.
    public func wordsLeft(from progression: Double) -> Int {
        // The first element whose progression is not below `progression`, less one when it lies past it:
        // the element being heard starts at or before where the reading is.
        var low = 0, high = progressions.count
        while low < high {
            let middle = (low + high) / 2
            if progressions[middle] < progression { low = middle + 1 } else { high = middle }
        }
        if low == progressions.count || (progressions[low] > progression && low > 0) { low -= 1 }
        return low < 0 ? 0 : wordsFromHere[low]
    }
}
