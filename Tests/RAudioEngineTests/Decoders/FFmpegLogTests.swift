// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioEngine
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing

/// FFmpeg's own log goes through raudio's: FFmpeg's reason is in raudio's error, and its lines reach the
/// handler (`--verbose`), not stderr.
@Suite(.serialized) struct FFmpegLogTests {
    @Test func aLineLosesItsPointerAndFFmpegsRequestToUpdate() throws {
        let line = try #require(FFmpegLog.parse(
            "[aac @ 0x7f38500a98c0] Audio object type 42 is not implemented. Update your FFmpeg version to the newest one from Git. "
                + "If the problem still occurs, it means that your file has a feature which has not been implemented.\n", level: 24))
        #expect(line.source == "aac")
        #expect(line.message == "Audio object type 42 is not implemented")
        #expect(line.description == "[aac] Audio object type 42 is not implemented")
        #expect(FFmpegLog.parse("\n", level: 16) == nil)
        #expect(FFmpegLog.parse("no prefix here\n", level: 16)?.source == nil)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anAudioObjectTypeFFmpegLacksIsNamedInTheErrorAndLoggedThroughTheHandler() throws {
        let url = try UnsupportedAAC.make()
        defer { try? FileManager.default.removeItem(at: url) }
        let received = Locked<[FFmpegLog.Line]>([])
        FFmpegLog.setHandler { line in received.withLock { $0.append(line) } }
        defer { FFmpegLog.setHandler(nil) }
        let error = #expect(throws: AudioDecoderError.self) {
            _ = try RAudioDecoderFactory().makeDecoder(for: TestFileResource(url: url, href: "aot8.m4a"), mediaType: nil)
        }
        #expect(error?.code == .trackUnsupported)
        #expect(error?.message == "FFmpeg's aac decoder cannot decode it: audio object type 8 is not implemented", "\(String(describing: error))")
        #expect(received.withLock { $0 }.contains { $0.source == "aac" && $0.message == "Audio object type 8 is not implemented" },
                "\(received.withLock { $0 })")
    }
}
