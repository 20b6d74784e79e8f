// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioCLI
import RAudioPlayer
import RAudioTestSupport
import ReadiumNavigator
import Testing

private let locator = #"{"href":"track1.mp3","type":"audio/mpeg","title":"Chapter 1","locations":{"fragments":["t=12.5"],"progression":0.1,"totalProgression":0.02,"position":1}}"#

/// Hand-written events as raudio will print them.
let validEvents = [
    #"{"v":1,"type":"opened","publication":{"title":"Flatland","language":["en"],"readingOrderCount":3,"duration":5400.5,"toc":[{"href":"track1.mp3","title":"Part 1","children":[{"href":"track1.mp3#t=60","title":"Section 1"}]}]}}"#,
    #"{"v":1,"type":"opened","publication":{"readingOrderCount":0,"toc":[]}}"#,
    #"{"v":1,"type":"state","state":"playing","locator":\#(locator)}"#,
    #"{"v":1,"type":"state","state":"ended"}"#,
    #"{"v":1,"type":"state","state":"loading","locator":\#(locator),"audioLocator":\#(locator)}"#,
    #"{"v":1,"type":"position","locator":\#(locator)}"#,
    #"{"v":1,"type":"track","index":0,"href":"track1.mp3","title":"Chapter 1","locator":\#(locator)}"#,
    #"{"v":1,"type":"warning","code":"track-corrupt","message":"track2.mp3: the stream breaks at 1:02","href":"track2.mp3","fatal":false}"#,
    #"{"v":1,"type":"error","code":"audio-server-unavailable","message":"PulseAudio cannot be reached","fatal":true,"locator":\#(locator)}"#,
    #"{"v":1,"type":"error","code":"command-unknown","message":"unknown command 'plya'; did you mean 'play'?","fatal":false,"id":7}"#,
    #"{"v":1,"type":"ack","command":"seek","id":"r-1"}"#,
    #"{"v":1,"type":"ack","command":"play"}"#,
    #"{"v":1,"type":"utterance","text":"It was a dark night.","language":"en","voice":"en-us","locator":{"href":"ch1.xhtml","type":"application/xhtml+xml","text":{"highlight":"It was a dark night.","after":" The wind"}}}"#,
    #"{"v":1,"type":"range","locator":{"href":"ch1.xhtml","type":"application/xhtml+xml","text":{"before":"It was a ","highlight":"dark","after":" night."}}}"#,
    #"{"v":1,"type":"position","locator":\#(locator),"futureKey":true}"#,
    #"{"v":1,"type":"settings","speed":1.5,"volume":0.8}"#,
    #"{"v":1,"type":"settings","speed":1,"volume":1,"pitch":1.2,"voice":"fr"}"#,
    #"{"v":1,"type":"hello","publication":{"title":"Flatland","readingOrderCount":3,"toc":[]},"state":"playing","locator":\#(locator)}"#,
    #"{"v":1,"type":"hello","state":"loading"}"#,  // a client that came before `opened`
    #"{"v":1,"type":"hello","state":"paused","settings":{"speed":1.25,"volume":0.5,"pitch":1,"voice":"gmw/en"}}"#,
    #"{"v":1,"type":"listening","address":"ws://127.0.0.1:43125"}"#,
    #"{"v":1,"type":"listening","address":"ws://[::1]:8080"}"#,
    #"{"v":1,"type":"listening","address":"unix:/run/user/1000/raudio.sock"}"#,
    #"{"v":1,"type":"listening","address":"ws://127.0.0.1:43125","page":"http://127.0.0.1:43125/"}"#,
]

/// Events the schema must refuse, each with the mistake it shows.
let invalidEvents = [
    #"{"v":1,"type":"listening","address":"ws://127.0.0.1:43125","page":"http://example.com/"}"#,  // the page is on loopback only
    #"{"type":"state","state":"playing"}"#,  // no v
    #"{"v":2,"type":"state","state":"playing"}"#,  // wrong version
    #"{"v":1,"state":"playing"}"#,  // no type
    #"{"v":1,"type":"volume"}"#,  // unknown type
    #"{"v":1,"type":"state","state":"idle"}"#,  // idle is never emitted
    #"{"v":1,"type":"state","state":"Playing"}"#,  // names are lower case
    #"{"v":1,"type":"position"}"#,  // no locator
    #"{"v":1,"type":"position","locator":{"href":"a.mp3"}}"#,  // locator without type
    #"{"v":1,"type":"position","locator":{"href":"a.mp3","type":"audio/mpeg","locations":{"progression":1.5}}}"#,
    #"{"v":1,"type":"position","locator":{"href":"a.mp3","type":"audio/mpeg","locations":{"position":0}}}"#,
    #"{"v":1,"type":"track","index":-1,"href":"a.mp3","locator":\#(locator)}"#,
    #"{"v":1,"type":"error","code":"Bad Code","message":"x","fatal":true}"#,
    #"{"v":1,"type":"error","code":"io","message":"x"}"#,  // no fatal
    #"{"v":1,"type":"warning","code":"io","message":"","fatal":false}"#,  // empty message
    #"{"v":1,"type":"ack","id":3}"#,  // no command
    #"{"v":1,"type":"ack","command":"play","id":true}"#,
    #"{"v":1,"type":"range","locator":{"href":"ch1.xhtml","type":"application/xhtml+xml"}}"#,  // no highlight
    #"{"v":1,"type":"word","locator":{"href":"ch1.xhtml","type":"application/xhtml+xml","text":{"highlight":"dark"}}}"#,  // renamed to range
    #"{"v":1,"type":"utterance","text":"Hi.","language":"en","locator":{"href":"ch1.xhtml","type":"application/xhtml+xml"}}"#,  // no voice
    #"{"v":1,"type":"opened","publication":{"readingOrderCount":1}}"#,  // no toc
    #"{"v":1,"type":"settings","speed":1}"#,  // no volume
    #"{"v":1,"type":"settings","speed":1,"volume":3}"#,  // volume above 2
    #"{"v":1,"type":"hello","publication":{"title":"Flatland"}}"#,  // no state, publication without toc
    #"{"v":1,"type":"hello","state":"idle"}"#,  // not a state raudio emits
    #"{"v":1,"type":"hello","state":"playing","settings":{"speed":1,"volume":3}}"#,  // its settings' volume above 2
    #"{"v":1,"type":"listening","address":"tcp://127.0.0.1:1"}"#,  // not a transport raudio speaks
    #"{"v":1,"type":"listening"}"#,  // no address
]

@Suite(.enabled(if: EventSchemaValidator.isAvailable || Corpus.isCI, EventSchemaValidator.skipMessage))
struct EventsSchemaTests {
    @Test func handWrittenEventsMatchTheSchema() throws {
        let verdicts = try EventSchemaValidator.verdicts(for: validEvents)
        #expect(verdicts.count == validEvents.count)
        for (event, verdict) in zip(validEvents, verdicts) {
            #expect(verdict == "ok", "\(event)")
        }
    }

    @Test func eventsWithMistakesAreRefusedByTheSchema() throws {
        let verdicts = try EventSchemaValidator.verdicts(for: invalidEvents)
        #expect(verdicts.count == invalidEvents.count)
        for (event, verdict) in zip(invalidEvents, verdicts) {
            #expect(verdict.hasPrefix("invalid"), "\(event)")
        }
    }
}

@Suite struct EventsDocumentationTests {
    private func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: EventSchemaValidator.schemaURL)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func schemaStateNamesAreThePlaybackStatesThatCanBeEmitted() throws {
        let definitions = try #require(try schema()["definitions"] as? [String: Any])
        let state = try #require(definitions["state"] as? [String: Any])
        let properties = try #require(state["properties"] as? [String: Any])
        let names = try #require((properties["state"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(names) == Set(PlaybackState.allCases.filter { $0 != .idle }.map(\.name)))
    }

    @Test func eventsDocumentNamesEveryEventCommandAndExitCode() throws {
        let text = try String(contentsOf: Corpus.projectRoot.appendingPathComponent("docs/events.md"), encoding: .utf8)
        let types = try #require((try schema()["properties"] as? [String: Any]).flatMap { ($0["type"] as? [String: Any])?["enum"] as? [String] })
        for type in types + ["audioLocator"] {
            #expect(text.contains("`\(type)`"), "events.md does not describe \(type)")
        }
        for name in PlayerCommandNames.all {
            #expect(text.contains("`\(name)"), "events.md does not describe the command \(name)")
        }
        for code in [0, 64, 65, 66, 69, 70, 73, 74] {
            #expect(text.contains("| \(code) |"), "events.md does not list exit code \(code)")
        }
    }
}

private enum PlayerCommandNames {
    static var all: [String] { PlayerCommand.Name.allCases.map(\.rawValue) }
}
