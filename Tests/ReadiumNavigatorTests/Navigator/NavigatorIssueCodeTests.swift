// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared
import Testing
@testable import ReadiumNavigator

/// The typed issue codes keep the words clients read (docs/events.md), and issues keep their cause.
@Suite("NavigatorIssue.Code")
struct NavigatorIssueCodeTests {
    @Test func knownCodesKeepTheirWireWords() {
        let codes: [(NavigatorIssue.Code, String)] = [
            (.trackCorrupt, "track-corrupt"), (.trackUndecodable, "track-undecodable"), (.trackUnreadable, "track-unreadable"),
            (.trackUnreachable, "track-unreachable"), (.trackUnavailable, "track-unavailable"), (.trackNotFound, "track-not-found"),
            (.trackRefused, "track-refused"), (.noPlayableTrack, "no-playable-track"), (.outputLost, "output-lost"),
            (.audioServerLost, "audio-server-lost"), (.audioServerUnavailable, "audio-server-unavailable"),
            (.outputNotCreated, "output-not-created"), (.outputWriteFailed, "output-write-failed"), (.noText, "no-text"),
            (.voiceFallback, "voice-fallback"), (.clipClamped, "clip-clamped"), (.narrationAudioMissing, "narration-audio-missing"),
            (.pronunciation, "pronunciation"),
        ]
        for (code, word) in codes { #expect(code.rawValue == word) }
        #expect(NavigatorIssue.Code(AudioSinkError.Code.serverLost) == .audioServerLost)
        #expect(NavigatorIssue.Code(TTSError.Code.synthesisFailed).rawValue == "tts-synthesis-failed")
    }

    @Test func aTrackIssueKeepsTheResourceErrorItCameFrom() {
        let publication = TestBooks.publication(["1000.mp3"])
        let source = PublicationRenderSource(publication: publication, decoderFactory: CountingDecoderFactory(format: TestBooks.format))
        let refused = ResourceError(.forbidden, href: "1000.mp3", message: "the server answered 403")
        let issue = source.issue(for: refused, item: 0)
        #expect(issue.code == .trackRefused && !issue.endsPlayback)
        #expect((issue.cause as? ResourceError)?.code == .forbidden)
        let warning = issue.skippedWarning(at: nil)
        #expect(warning.code == .trackRefused && (warning.cause as? ResourceError) == refused && !warning.fatal)
    }
}
