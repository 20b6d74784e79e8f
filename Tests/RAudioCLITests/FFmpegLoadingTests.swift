import Foundation
import RAudioTestSupport
import Testing

/// FFmpeg's libraries (and the ~100 libraries libavcodec needs) are loaded only when a track needs them.
@Suite struct FFmpegLoadingTests {
    @Test func theBinaryDoesNotLinkFFmpeg() throws {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ldd"), [ProcessRunner.raudioExecutable.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("libmpg123"), "ldd output: \(result.standardOutput.prefix(200))")
        #expect(!result.standardOutput.contains("libavcodec"))
        #expect(!result.standardOutput.contains("libavformat"))
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anM4BStillPlays() throws {
        let result = try ProcessRunner.raudio(["play", try Corpus.file("audio/formats/mutagen__ep7.m4b").path, "--output", "null"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"state\":\"ended\""))
    }
}
