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

    @Test func aBookWithoutOverlaysHasNone() throws {
        let result = try ProcessRunner.raudio(["play", PlayCommandTests.sampleBook, "--output", "null", "--duration", "0.2", "--no-state"], timeout: 60)
        let opened = try #require(result.outputLines.first.map { try JSONParser.parse(Array($0.utf8)) }?.objectValue)
        #expect(opened["publication"]?.objectValue?["mediaOverlay"] == nil)
    }
}
