// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// A book with media overlays names the classes of the element being read and of the document while it
/// plays (media:active-class, media:playback-active-class): the `opened` event carries them to a visual reader.
@Suite(.enabled(if: Corpus.isAvailable || Corpus.isCI, Corpus.skipMessage))
struct MediaOverlayClassesTests {
    @Test(arguments: [("mol-audio", "my-active-class", "my-document-playing"), ("mol-navigation", "my-active-item", "my-document-playing")])
    func theOpenedEventNamesTheBooksClasses(book: String, active: String, playing: String) throws {
        let path = try Corpus.file("epub/w3c-epub-tests/\(book).epub").path
        let result = try ProcessRunner.raudio(["play", path, "--output", "null", "--duration", "0.2", "--no-state", "--no-tts"], timeout: 60)
        let opened = try #require(result.outputLines.first.map { try JSONParser.parse(Array($0.utf8)) }?.objectValue)
        #expect(opened["type"]?.stringValue == "opened")
        let classes = opened["publication"]?.objectValue?["mediaOverlay"]?.objectValue
        #expect(classes?["activeClass"]?.stringValue == active)
        #expect(classes?["playbackActiveClass"]?.stringValue == playing)
    }

    /// A read-along page connecting mid-sentence is sent, after its `hello`, the `utterance` of the `par` being
    /// read, as every client was: it sets the active class at once, not at the next sentence (13 s once).
    @Test func aClientConnectingMidSentenceIsSentTheSentenceBeingRead() throws {
        let path = try Corpus.file("epub/w3c-epub-tests/mol-audio.epub").path
        let socket = IPCTests.socketPath()
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", path, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris", "--ipc", "unix:\(socket)"])
        defer { running.send("quit\n"); _ = running.finish(timeout: 10) }
        try #require(running.waitForLine(timeout: 30) { IPCTests.type($0, "utterance") && $0.contains("\"narration\":true") },
                     "\(running.standardError)")
        // Paused mid-sentence: no other sentence comes to tell the newcomer.
        running.send("pause\n")
        try #require(running.waitForLine(timeout: 10) { IPCTests.type($0, "state") && $0.contains("\"paused\"") })
        let sentence = try #require(running.outputLines.last { IPCTests.type($0, "utterance") })
        let client = try LineClient(unixPath: socket)
        #expect(client.next(timeout: 10).map { IPCTests.type($0, "hello") } == true)
        #expect(client.next(timeout: 2) == sentence, "the sentence being read follows the hello")
    }

    @Test func aBookWithoutOverlaysHasNone() throws {
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--duration", "0.2", "--no-state"], timeout: 60)
        let opened = try #require(result.outputLines.first.map { try JSONParser.parse(Array($0.utf8)) }?.objectValue)
        #expect(opened["publication"]?.objectValue?["mediaOverlay"] == nil)
    }
}
