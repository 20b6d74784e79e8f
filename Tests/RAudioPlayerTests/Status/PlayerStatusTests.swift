// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
import Foundation
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioPlayer

/// The status the terminal player and MPRIS show is folded from the protocol's own events.
@Suite struct PlayerStatusTests {
    static func audio(_ seconds: Double, of duration: Double) -> Locator {
        Locator(href: "a.mp3", type: "audio/mpeg", locations: .init(fragments: ["t=\(seconds)"], totalProgression: seconds / duration))
    }

    static func text(before: String? = nil, _ highlight: String, after: String? = nil) -> Locator {
        Locator(href: "c.xhtml", type: "application/xhtml+xml", text: .init(before: before, highlight: highlight, after: after))
    }

    @Test func anAudiobookSessionGivesTitleChapterTimeAndSettings() throws {
        var status = PlayerStatus(mode: .audiobook)
        status.chapters = [.init(title: "One", start: 0), .init(title: "Two", start: 30)]
        var book = OpenedPublication(Publication(manifest: Manifest(metadata: Metadata(title: .plain("Gull Rock")), readingOrder: []),
                                                 container: SessionBooks.EmptyContainer(), mediaType: .readiumAudiobook), duration: 60)
        book.authors = ["Ann"]
        book.narrators = ["Ben"]
        let two = ChapterMap.Entry(title: "Two", href: "a.mp3#t=30", depth: 0, readingOrderIndex: 0, start: 30, locator: Self.audio(30, of: 60))
        for event: PlayerEvent in [
            .opened(book),
            .settings(PlayerSettings(speed: 1.5, volume: 0.8)),
            .state(.playing, locator: Self.audio(40, of: 60)),
            .chapter(two, index: 1, locator: Self.audio(45, of: 60)),
        ] { status.apply(event) }
        #expect(status.title == "Gull Rock")
        #expect(status.authors == ["Ann"] && status.narrators == ["Ben"])
        #expect(status.elapsed == 45)
        #expect(status.remainingAtSpeed == 10, "15 s of book left at 1.5x")
        #expect(status.chapterIndex == 1 && status.chapter?.title == "Two")
        #expect(status.chapterEnd == 60)
        #expect(status.speed == 1.5 && status.volume == 0.8)
        #expect(status.isPlaying)
        status.apply(.state(.loading, locator: nil))
        #expect(status.isPlaying, "a track change after playing is still playing")
        status.apply(.state(.paused, locator: nil))
        #expect(!status.isPlaying)
    }

    /// A word said twice in a sentence: the range's `text.before` picks the right one.
    @Test func theWordHeardIsFoundAtItsOwnPlaceInTheSentence() throws {
        var status = PlayerStatus(mode: .speech)
        status.apply(.utterance(text: "the cat saw the dog", language: "en", voice: "en-us", locator: Self.text("the cat saw the dog")))
        status.apply(.range(Self.text(before: "the cat saw ", "the", after: " dog")))
        let sentence = try #require(status.sentence)
        let word = try #require(status.word)
        #expect(sentence.distance(from: sentence.startIndex, to: word.lowerBound) == 12)
        #expect(status.voice == "en-us")
    }

    /// The page's own audio, played in place while reading aloud: shown by its file's name, no word, the
    /// voice unchanged.
    @Test func mediaPlayedInPlaceIsShownByItsName() throws {
        var status = PlayerStatus(mode: .speech)
        status.apply(.utterance(text: "Listen.", language: "en", voice: "en-us", locator: Self.text("Listen.")))
        status.apply(.range(Self.text("Listen.")))
        let element = Locator(href: "c.xhtml", type: "application/xhtml+xml", locations: .init(progression: 0.5))
        status.apply(.media(kind: .audio, source: Link(href: "EPUB/aud/001.mp3", type: "audio/mpeg"), locator: element))
        #expect(status.sentence == "♪ audio: 001.mp3")
        #expect(status.word == nil)
        #expect(status.voice == "en-us")
    }

    /// A clip played in place takes time and has no words: speech's pace is measured without it.
    @Test func aClipPlayedInPlaceDoesNotSlowTheSpeechPace() throws {
        var status = PlayerStatus(mode: .speech)
        func text(_ words: Int, at progression: Double) -> PlayerEvent {
            .utterance(text: Array(repeating: "word", count: words).joined(separator: " "), language: "en", voice: "en-us",
                       locator: Locator(href: "c.xhtml", type: "application/xhtml+xml", locations: .init(totalProgression: progression)))
        }
        let clip = PlayerEvent.media(kind: .audio, source: Link(href: "a.mp3"),
                                     locator: Locator(href: "c.xhtml", type: "application/xhtml+xml", locations: .init(totalProgression: 0.3)))
        status.apply(.state(.playing, locator: nil), now: 0)
        status.apply(text(10, at: 0.1), now: 0)
        status.apply(text(10, at: 0.2), now: 4)
        status.apply(clip, now: 8)
        // A minute of music, then speech again.
        status.apply(text(10, at: 0.4), now: 68)
        status.apply(text(10, at: 0.5), now: 72)
        #expect(status.speechPace.words == 30 && status.speechPace.secondsAtNormalSpeed == 12, "\(status.speechPace)")
    }

    /// Japanese with ruby: the page's text reads `昨夕ゆうべは` where `昨夕は` is spoken; the sentence shown is the
    /// spoken text, and the words of `range` events (page text, readings included) are found in it.
    @Test func rubyReadingsAreNotShownAndTheWordsHeardAreFoundAllTheSame() throws {
        var status = PlayerStatus(mode: .speech)
        let page = "昨夕ゆうべは雨、今日きょうも雨。"
        status.apply(.utterance(text: "昨夕は雨、今日も雨。", language: "ja", voice: "ja", locator: Self.text(page)))
        let sentence = try #require(status.sentence)
        #expect(sentence == "昨夕は雨、今日も雨。")
        func heard(_ locator: Locator) throws -> String {
            status.apply(.range(locator))
            let word = try #require(status.word, "\(locator.text.highlight ?? "")")
            return "\(sentence.distance(from: sentence.startIndex, to: word.lowerBound)):\(sentence[word])"
        }
        #expect(try heard(Self.text(before: "", "昨夕ゆうべ", after: "は雨")) == "0:昨夕", "a word with its reading")
        #expect(try heard(Self.text(before: "", "昨夕", after: "ゆうべは雨")) == "0:昨夕", "a word without its reading")
        #expect(try heard(Self.text(before: "昨夕ゆうべは", "雨", after: "、今日")) == "3:雨")
        #expect(try heard(Self.text(before: "昨夕ゆうべは雨、今日きょうも", "雨", after: "。")) == "8:雨", "the second 雨, readings in `before`")
        #expect(try heard(Self.text(before: "Once upon a time.\n    ", "昨夕ゆうべ", after: "は")) == "0:昨夕", "context before the sentence")
    }

    /// Speech has no duration: the time left is estimated from the words heard per share of the book and
    /// per second, at the current speed.
    @Test func speechEstimatesTheTimeLeftFromTheWordsLeft() throws {
        var status = PlayerStatus(mode: .speech)
        func utterance(_ words: Int, at progression: Double) -> PlayerEvent {
            let text = Array(repeating: "word", count: words).joined(separator: " ")
            return .utterance(text: text, language: "en", voice: "en-us",
                              locator: Locator(href: "c.xhtml", type: "application/xhtml+xml", locations: .init(totalProgression: progression)))
        }
        status.apply(.state(.playing, locator: nil), now: 0)
        status.apply(utterance(10, at: 0.10), now: 0)
        status.apply(utterance(10, at: 0.11), now: 4)
        #expect(status.remainingAtSpeed == nil, "not before 20 words")
        status.apply(utterance(10, at: 0.12), now: 8)
        // 20 words in 0.02 of the book, 8 s: 1000 words a book, 2.5 words a second.
        #expect(status.progression == 0.12)
        let left = try #require(status.remainingAtSpeed)
        #expect(abs(left - 880 / 2.5) < 0.001, "880 words left at 2.5 a second")
        status.apply(.settings(PlayerSettings(speed: 2)))
        #expect(abs(try #require(status.remainingAtSpeed) - 880 / 5) < 0.001, "twice as fast")
        // A pause and a jump are not measured.
        status.apply(.state(.paused, locator: nil), now: 9)
        status.apply(.state(.playing, locator: nil), now: 600)
        status.apply(utterance(10, at: 0.13), now: 600)
        status.apply(.ack(.chapter(.next), id: nil))
        status.apply(utterance(10, at: 0.5), now: 601)
        #expect(status.speechPace.words == 20 && status.speechPace.secondsAtNormalSpeed == 8)
        #expect(SpeechPace.words(in: "昨夕は雨。 A day") == 7)
    }

    /// The utterances of one paragraph share its `totalProgression`: the paragraph's share comes in one step,
    /// to the next paragraph, however large, and its words are not counted without it.
    @Test func aParagraphsShareComesWithTheStepToTheNextOne() throws {
        var status = PlayerStatus(mode: .speech)
        status.apply(.state(.playing, locator: nil), now: 0)
        for (index, progression) in [0.2, 0.2, 0.2, 0.3].enumerated() {
            status.apply(.utterance(text: Array(repeating: "word", count: 10).joined(separator: " "), language: "en", voice: "en-us",
                                    locator: Locator(href: "c.xhtml", type: "application/xhtml+xml", locations: .init(totalProgression: progression))),
                         now: Double(index) * 4)
        }
        // 30 words in a tenth of the book and 12 s: 0.7 of the book is 210 words, 84 s.
        let left = try #require(status.remainingAtSpeed)
        #expect(abs(left - 84) < 0.001)
    }

    @Test func theSleepTimerCountsDownAndWarningsAreKept() throws {
        var status = PlayerStatus(mode: .audiobook)
        status.apply(.state(.playing, locator: nil), now: 990)
        status.apply(.sleep(SleepEvent(state: .set, remaining: 900)), now: 1000)
        #expect(status.sleepRemaining(now: 1060) == 840)
        // Paused for an hour: the timer stands still, as the session's does; then it runs on.
        status.apply(.state(.paused, locator: nil), now: 1100)
        #expect(status.sleepRemaining(now: 4700) == 800)
        status.apply(.state(.playing, locator: nil), now: 4700)
        status.apply(.state(.playing, locator: nil), now: 4710)
        #expect(status.sleepRemaining(now: 4720) == 780)
        status.apply(.sleep(SleepEvent(state: .set, untilChapterEnd: true)))
        #expect(status.sleep == .endOfChapter)
        status.apply(.sleep(SleepEvent(state: .off)))
        #expect(status.sleep == .off)
        status.apply(.warning(PlayerIssue(code: "track-corrupt", message: "b.mp3: broken")))
        #expect(status.message == .init(kind: .warning, text: "b.mp3: broken"))
        status.apply(.toc([], current: nil))
        #expect(status.message?.text == "b.mp3: broken", "events that show nothing change nothing")
    }
}
