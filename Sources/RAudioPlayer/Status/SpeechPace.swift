// SPDX-License-Identifier: GPL-3.0-or-later
/// How long the rest of a book read aloud takes, estimated from the words left in it at the current speed.
///
/// A spoken book has no duration. The words left come from `BookWordCount`, the words of each text
/// element of the content, counted on a thread of its own when the reading starts (the element being
/// heard counts whole). Until that count is there, they are estimated from `totalProgression`, each text
/// locator's share of the book by the byte length of its reading-order resource and its place in the
/// resource's text (`EPUBContentService`): as many words a share as in the part heard. The pace
/// measures, from the utterances heard one after the other, how many words a second the voice says at
/// 1× (and how many words a share of the book holds); then
///
///     words left   = the book's words from the element heard on, or (1 − totalProgression) × words per share
///     seconds left = words left / (words a second at 1× × speed)
///
/// A word is a run of characters between spaces, or one character of a script written without spaces
/// (Chinese, Japanese: one wide character, about one word's worth of sound). A step from one utterance
/// to the next counts only when playback went on in between: a pause, a jump (`jumps` changed), a step
/// backwards or one that took two minutes is left out. Forward steps are never left out for their size:
/// the utterances of one element share its `totalProgression`, so the share of a paragraph shows up in
/// the step to the next one, and leaving out large steps would keep the words without their share. No
/// estimate before 20 words and 5 seconds were heard so.
public struct SpeechPace: Equatable, Sendable {
    /// The utterance being heard: where it starts, when, its words, the speed and jump count then.
    private var current: Utterance?
    private struct Utterance: Equatable, Sendable {
        var words: Int, progression: Double, start: Double, speed: Double, jumps: Int
    }
    /// The steps measured: words, share of the book, and seconds they took at 1×.
    public private(set) var words = 0
    public private(set) var share = 0.0
    public private(set) var secondsAtNormalSpeed = 0.0

    public init() {}

    /// An utterance of `words` words starts at `progression` of the book, at wall-clock `now`.
    mutating func utteranceStarted(words: Int, at progression: Double?, now: Double, speed: Double, jumps: Int) {
        if let current, let progression, current.jumps == jumps {
            let step = progression - current.progression
            let seconds = (now - current.start) * current.speed
            if step >= 0 && seconds > 0 && seconds < 120 {
                self.words += current.words
                share += step
                secondsAtNormalSpeed += seconds
            }
        }
        current = progression.map { Utterance(words: words, progression: $0, start: now, speed: speed, jumps: jumps) }
    }

    /// Playback stopped playing: the utterance being heard is not measured.
    mutating func interrupted() {
        current = nil
    }

    /// Seconds left from `progression` to the end at `speed`, or nil before enough was heard. The words
    /// left are counted in `book` when it is known, else estimated from the words heard per share.
    public func remaining(from progression: Double, speed: Double, book: BookWordCount? = nil) -> Double? {
        guard words >= 20, secondsAtNormalSpeed >= 5 else { return nil }
        let wordsLeft: Double
        if let book, book.total > 0 {
            wordsLeft = Double(book.wordsLeft(from: progression))
        } else {
            guard share > 0 else { return nil }
            wordsLeft = max(0, 1 - progression) * Double(words) / share
        }
        let wordsPerSecond = Double(words) / secondsAtNormalSpeed
        return wordsLeft / (wordsPerSecond * max(speed, 0.01))
    }

    /// The words of `text`: runs between white space, each wide (CJK) character counted as a word.
    public static func words(in text: String) -> Int {
        var count = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                inWord = false
            } else if Self.isWrittenWithoutSpaces(scalar) {
                count += 1
                inWord = false
            } else if !inWord {
                count += 1
                inWord = true
            }
        }
        return count
    }

    /// Kana, CJK ideographs, Hangul syllables: scripts whose words are not separated by spaces (Korean is,
    /// but its syllables are counted the same, which keeps the pace's two counts consistent).
    private static func isWrittenWithoutSpaces(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0x20000...0x2FFFD: true
        default: false
        }
    }
}
