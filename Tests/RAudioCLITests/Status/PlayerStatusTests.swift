// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing
@testable import RAudioCLI

/// The status the terminal player and MPRIS show is folded from the protocol's own events.
@Suite struct PlayerStatusTests {
    static func event(_ text: String) throws -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

    @Test func anAudiobookSessionGivesTitleChapterTimeAndSettings() throws {
        var status = PlayerStatus(mode: .audiobook)
        status.chapters = [.init(title: "One", start: 0), .init(title: "Two", start: 30)]
        for line in [
            #"{"v":1,"type":"opened","publication":{"title":"Gull Rock","authors":["Ann"],"narrators":["Ben"],"duration":60,"toc":[]}}"#,
            #"{"v":1,"type":"settings","speed":1.5,"volume":0.8}"#,
            #"{"v":1,"type":"state","state":"playing","locator":{"href":"a.mp3","type":"audio/mpeg","locations":{"fragments":["t=40"],"totalProgression":0.75}}}"#,
            #"{"v":1,"type":"chapter","index":2,"title":"Two","href":"a.mp3#t=30","depth":0,"start":30,"locator":{"href":"a.mp3","type":"audio/mpeg","locations":{"totalProgression":0.75}}}"#,
        ] { status.apply(try Self.event(line)) }
        #expect(status.title == "Gull Rock")
        #expect(status.authors == ["Ann"] && status.narrators == ["Ben"])
        #expect(status.elapsed == 45)
        #expect(status.remainingAtSpeed == 10, "15 s of book left at 1.5x")
        #expect(status.chapterIndex == 1 && status.chapter?.title == "Two")
        #expect(status.chapterEnd == 60)
        #expect(status.speed == 1.5 && status.volume == 0.8)
        #expect(status.isPlaying)
        status.apply(try Self.event(#"{"v":1,"type":"state","state":"loading"}"#))
        #expect(status.isPlaying, "a track change after playing is still playing")
        status.apply(try Self.event(#"{"v":1,"type":"state","state":"paused"}"#))
        #expect(!status.isPlaying)
    }

    /// A word said twice in a sentence: the range's `text.before` picks the right one.
    @Test func theWordHeardIsFoundAtItsOwnPlaceInTheSentence() throws {
        var status = PlayerStatus(mode: .speech)
        status.apply(try Self.event(#"{"v":1,"type":"utterance","text":"the cat saw the dog","voice":"en-us","language":"en","locator":{"href":"c.xhtml","type":"application/xhtml+xml","locations":{},"text":{"highlight":"the cat saw the dog"}}}"#))
        status.apply(try Self.event(#"{"v":1,"type":"range","locator":{"href":"c.xhtml","type":"application/xhtml+xml","locations":{},"text":{"before":"the cat saw ","highlight":"the","after":" dog"}}}"#))
        let sentence = try #require(status.sentence)
        let word = try #require(status.word)
        #expect(sentence.distance(from: sentence.startIndex, to: word.lowerBound) == 12)
        #expect(status.voice == "en-us")
    }

    @Test func theSleepTimerCountsDownAndWarningsAreKept() throws {
        var status = PlayerStatus(mode: .audiobook)
        status.apply(try Self.event(#"{"v":1,"type":"state","state":"playing"}"#), now: 990)
        status.apply(try Self.event(#"{"v":1,"type":"sleep","state":"set","remaining":900}"#), now: 1000)
        #expect(status.sleepRemaining(now: 1060) == 840)
        // Paused for an hour: the timer stands still, as the session's does; then it runs on.
        status.apply(try Self.event(#"{"v":1,"type":"state","state":"paused"}"#), now: 1100)
        #expect(status.sleepRemaining(now: 4700) == 800)
        status.apply(try Self.event(#"{"v":1,"type":"state","state":"playing"}"#), now: 4700)
        status.apply(try Self.event(#"{"v":1,"type":"state","state":"playing"}"#), now: 4710)
        #expect(status.sleepRemaining(now: 4720) == 780)
        status.apply(try Self.event(#"{"v":1,"type":"sleep","state":"set","until":"chapter"}"#))
        #expect(status.sleep == .endOfChapter)
        status.apply(try Self.event(#"{"v":1,"type":"sleep","state":"off"}"#))
        #expect(status.sleep == .off)
        status.apply(try Self.event(#"{"v":1,"type":"warning","code":"track-corrupt","message":"b.mp3: broken","fatal":false}"#))
        #expect(status.message == .init(kind: .warning, text: "b.mp3: broken"))
        status.apply(try Self.event(#"{"v":1,"type":"future-event","anything":1}"#))
        #expect(status.message?.text == "b.mp3: broken", "unknown events are ignored")
    }
}
