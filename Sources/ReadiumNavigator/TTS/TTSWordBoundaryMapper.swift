// SPDX-License-Identifier: GPL-3.0-or-later
/// Turns a TTS engine's word events into boundaries of whole words, clean and in order.
///
/// Engines report words as positions in the text that are sometimes missing, doubled or beside the
/// word (eSpeak NG: one event for `l'école`, two for `漢字`, one for the space after an emoji). Each
/// event is mapped to the word containing its position or, when it falls between words, to the next
/// word (tentatively: an event inside that word later replaces it). Doubles are dropped, as are events
/// that go backwards, and frames never decrease. Not thread-safe; one per utterance.
public struct TTSWordBoundaryMapper: Sendable {
    private let words: [TTSWordScanner.Word]
    private var settled: [TTSWordBoundary] = []
    private var handedOut = 0
    private var pending: (word: Int, frame: Int64, isInside: Bool)?
    private var lastFrame: Int64 = 0

    public init(text: String) {
        words = TTSWordScanner.words(in: text)
    }

    /// Records an event at `scalarOffset` (0-based, in Unicode scalars) heard from `frame` on.
    public mutating func addEvent(scalarOffset: Int, frame: Int64) {
        guard let word = wordIndex(atOrAfter: scalarOffset) else { return }
        let isInside = words[word].scalarStart <= scalarOffset
        if let current = pending {
            if word == current.word {
                if isInside, !current.isInside { pending = (word, max(frame, current.frame), true) }
                return
            }
            guard word > current.word else { return }
            settle(current)
        }
        pending = (word, frame, isInside)
    }

    /// The boundaries settled since the last call (a later event can no longer change them).
    public mutating func takeSettled() -> [TTSWordBoundary] {
        defer { handedOut = settled.count }
        return Array(settled[handedOut...])
    }

    /// Settles what is left and returns every boundary, all starting before `frameCount`.
    public mutating func finish(frameCount: Int64) -> [TTSWordBoundary] {
        if let current = pending { settle(current) }
        pending = nil
        return settled.filter { $0.startFrame < frameCount }
    }

    private mutating func settle(_ entry: (word: Int, frame: Int64, isInside: Bool)) {
        let frame = max(entry.frame, lastFrame)
        lastFrame = frame
        settled.append(TTSWordBoundary(range: words[entry.word].range, startFrame: frame))
    }

    /// The first word that ends after `offset` (it contains `offset` or starts after it).
    private func wordIndex(atOrAfter offset: Int) -> Int? {
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle].scalarEnd <= offset { low = middle + 1 } else { high = middle }
        }
        return low < words.count ? low : nil
    }
}
