// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumNavigator
import ReadiumShared

extension PlayerStatus {
    /// Folds one event in.
    public mutating func apply(_ event: PlayerEvent, now: Double = Date().timeIntervalSince1970) {
        switch event {
        case .opened(let publication):
            title = publication.title
            duration = publication.duration ?? duration
            authors = publication.authors
            narrators = publication.narrators
        case .state(let state, let locator, _, _):
            if state == .playing { wasPlaying = true } else if state != .loading { wasPlaying = false }
            if state != .playing { speechPace.interrupted() }
            if (state == .playing) != (self.state == .playing) { followSleepTimer(isPlaying: state == .playing, now: now) }
            self.state = state
            take(locator)
        case .position(let locator, _):
            take(locator)
        case .track(let index, let link, let locator):
            trackIndex = index
            trackTitle = link.title
            take(locator)
        case .chapter(let entry, let index, let locator):
            chapterIndex = index
            while chapters.count <= index { chapters.append(Chapter(title: "", start: nil)) }
            chapters[index].title = entry.title
            if let start = entry.start { chapters[index].start = start }
            take(locator)
        case .utterance(let text, _, let voice, let locator, _):
            self.voice = voice
            applyUtterance(text: text, locator: locator, now: now)
        case .narration(let text, _, let locator, _):
            applyUtterance(text: text, locator: locator, now: now)
        case .media(let kind, let source, let locator):
            // The page's own audio plays: show what, by its title or file name.
            take(locator)
            sentence = "♪ \(kind.rawValue): \(source.title ?? String(source.href.split(separator: "/").last ?? ""))"
            word = nil
            // The utterance before it ends here; the clip's seconds are no speech to measure the pace by.
            speechPace.utteranceStarted(words: 0, at: locator.locations.totalProgression, now: now, speed: speed, jumps: jumps)
            speechPace.interrupted()
        case .range(let locator):
            applyRange(locator)
        case .settings(let settings):
            speed = settings.speed
            volume = settings.volume
            if let pitch = settings.pitch { self.pitch = pitch }
            if let voice = settings.voice { self.voice = voice }
        case .sleep(let sleep):
            applySleep(sleep, now: now)
        case .warning(let issue):
            message = Message(kind: .warning, text: issue.message)
        case .error(let issue):
            message = Message(kind: .error, text: issue.message)
        case .bookmark(let bookmark):
            message = Message(kind: .info, text: "bookmark \(bookmark.id) saved")
            bookmarks?.append(bookmark)
        case .bookmarks(let list):
            bookmarks = list
        case .ack(let command, _):
            if command.movesThePosition { jumps += 1 }
        case .toc, .hello, .listening:
            break
        }
    }

    private mutating func take(_ locator: Locator?) {
        guard let locator else { return }
        totalProgression = locator.locations.totalProgression
        locatorCount += 1
    }

    /// The sentence shown is what is spoken, `text` (white space collapsed, ruby readings left out, an
    /// image's alternative text), not the page's quote in `locator.text.highlight`, which keeps ruby
    /// readings inline (`昨夕ゆうべは` for `昨夕は`); the quote stands in only for an utterance without text.
    private mutating func applyUtterance(text: String, locator: Locator, now: Double) {
        take(locator)
        sentence = text.isEmpty ? locator.text.highlight ?? text : text
        word = nil
        if mode == .speech {
            speechPace.utteranceStarted(words: SpeechPace.words(in: text), at: locator.locations.totalProgression, now: now, speed: speed, jumps: jumps)
        }
    }

    /// Finds the word of a `range` event in the sentence. Its `text.highlight` and `text.before` are the
    /// page's text, which can hold ruby readings and line breaks the sentence has not: the word is looked
    /// for as it is, else by its longest start the sentence has (`昨夕` of `昨夕ゆうべ`). Of the places it
    /// occurs (a word can be said twice in one sentence), the one whose text before it agrees longest
    /// with `text.before`.
    private mutating func applyRange(_ locator: Locator) {
        guard let sentence, let quoted = locator.text.highlight else { return }
        let before = locator.text.before ?? ""
        var heard = quoted.trimmingCharacters(in: .whitespacesAndNewlines)
        while !heard.isEmpty && sentence.range(of: heard) == nil { heard.removeLast() }
        guard !heard.isEmpty else { return }
        var best: (range: Range<String.Index>, agreement: Int)?
        var searchStart = sentence.startIndex
        while let found = sentence.range(of: heard, range: searchStart..<sentence.endIndex) {
            let agreement = Self.agreement(of: sentence[..<found.lowerBound], with: before)
            if best == nil || agreement > best!.agreement { best = (found, agreement) }
            searchStart = sentence.index(after: found.lowerBound)
        }
        word = best?.range
    }

    /// How many characters at the end of `prefix` are found, in order, at the end of `before`, white space
    /// left out on both sides and short runs of `before` skipped (ruby readings, up to 8 characters).
    static func agreement(of prefix: Substring, with before: String) -> Int {
        let wanted = Array(prefix.filter { !$0.isWhitespace }.reversed())
        let page = Array(before.filter { !$0.isWhitespace }.reversed())
        var (matched, cursor) = (0, 0)
        for character in wanted {
            guard let found = page[cursor...].prefix(9).firstIndex(of: character) else { break }
            matched += 1
            cursor = found + 1
        }
        return matched
    }

    private mutating func applySleep(_ event: SleepEvent, now: Double) {
        switch event.state {
        case .set, .running:
            isSleepFading = false
            if event.untilChapterEnd {
                sleep = .endOfChapter
            } else if let remaining = event.remaining {
                sleep = .after(remaining: remaining, since: now)
            }
        case .fading:
            isSleepFading = true
        case .fired, .off:
            if event.state == .fired { message = Message(kind: .info, text: "sleep timer: paused") }
            sleep = .off
            isSleepFading = false
        }
    }

    /// Seconds until the sleep timer fires, counted down from its last event while playing (the timer
    /// counts listening time: it stands still while paused or loading, as the session's does).
    public func sleepRemaining(now: Double = Date().timeIntervalSince1970) -> Double? {
        guard case .after(let remaining, let since) = sleep else { return nil }
        guard state == .playing else { return remaining }
        return max(0, remaining - (now - since))
    }

    /// Holds the countdown when playback stops playing, and runs it again from now when it plays.
    private mutating func followSleepTimer(isPlaying: Bool, now: Double) {
        guard case .after(let remaining, let since) = sleep else { return }
        sleep = .after(remaining: isPlaying ? remaining : max(0, remaining - (now - since)), since: now)
    }
}
