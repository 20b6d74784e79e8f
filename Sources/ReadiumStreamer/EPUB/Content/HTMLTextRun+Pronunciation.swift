// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

extension HTMLTextRun {
    /// The span of `phonemes` over characters `range` of `text`, without the white space at its ends; nil when
    /// only white space is left.
    func phonemeSpan(characters range: Range<Int>, phonemes: String) -> PhonemeSpan? {
        let lower = text.index(text.startIndex, offsetBy: range.lowerBound)
        let upper = text.index(lower, offsetBy: range.count)
        let part = text[lower..<upper]
        guard let first = part.firstIndex(where: { !$0.isWhitespace }), let last = part.lastIndex(where: { !$0.isWhitespace }) else { return nil }
        let start = text.utf8.distance(from: text.startIndex, to: first)
        let end = text.utf8.distance(from: text.startIndex, to: text.index(after: last))
        return PhonemeSpan(range: start..<end, phonemes: phonemes)
    }

    /// Applies the pronunciation lexicons in this run's language to its words that no `ssml:ph` covers: a
    /// lexeme's phonemes become a `PhonemeSpan`, its alias replaces the word in `text` (the map then reads the
    /// alias as standing for the word's page text, so locators still quote the page). The first lexicon that
    /// has a word wins.
    mutating func applyLexicons(_ lexicons: [PronunciationLexicon]) {
        var found: [(range: Range<Int>, pronunciation: PronunciationLexicon.Pronunciation)] = []
        for lexicon in lexicons where lexicon.applies(to: language) {
            for match in lexicon.matches(in: text) {
                let range = text.utf8.distance(from: text.startIndex, to: match.range.lowerBound)..<text.utf8.distance(from: text.startIndex, to: match.range.upperBound)
                guard !phonemes.contains(where: { $0.range.overlaps(range) }), !found.contains(where: { $0.range.overlaps(range) }) else { continue }
                found.append((range, match.pronunciation))
            }
        }
        // From the last to the first: an alias changes the offsets of what follows it only.
        for (range, pronunciation) in found.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            switch pronunciation {
            case .phonemes(let ipa):
                phonemes.append(PhonemeSpan(range: range, phonemes: ipa))
            case .alias(let alias):
                replace(range, with: alias)
            }
        }
        phonemes.sort { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// Reads `alias` instead of the text at UTF-8 offsets `range`; its quote stays the page's text. Left as it is
    /// when the range cuts into text that is not the page's own (a formula's alternative text).
    private mutating func replace(_ range: Range<Int>, with alias: String) {
        guard let replaced = map.replacingText(range, withTextLength: alias.utf8.count) else { return }
        let lower = text.utf8.index(text.startIndex, offsetBy: range.lowerBound)
        let upper = text.utf8.index(lower, offsetBy: range.count)
        let characterStart = text.distance(from: text.startIndex, to: lower)
        let characterDelta = alias.count - text.distance(from: lower, to: upper)
        text.replaceSubrange(lower..<upper, with: alias)
        map = replaced
        let byteDelta = alias.utf8.count - range.count
        phonemes = phonemes.map { span in
            span.range.lowerBound >= range.upperBound ? PhonemeSpan(range: (span.range.lowerBound + byteDelta)..<(span.range.upperBound + byteDelta), phonemes: span.phonemes) : span
        }
        inlineRuns = inlineRuns.map { run in
            var run = run
            if run.range.lowerBound > characterStart { run.range = (run.range.lowerBound + characterDelta)..<(run.range.upperBound + characterDelta) }
            else if run.range.upperBound > characterStart { run.range = run.range.lowerBound..<max(run.range.lowerBound, run.range.upperBound + characterDelta) }
            return run
        }
    }
}
