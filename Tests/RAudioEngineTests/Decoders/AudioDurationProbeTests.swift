// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumNavigator
import ReadiumShared
import Testing
@testable import RAudioEngine

@Suite("Measuring durations without decoding", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct AudioDurationProbeTests {
    @Test("The probed length equals the reference tool's decoded length", arguments: CorpusDecodingTests.speechFiles)
    func probedLengthMatchesReference(path: String) throws {
        let resource = try DecoderTestSupport.resource(path)
        let duration = try AudioDurationProbe.duration(of: resource)
        let reference = try #require(try DecoderTestSupport.referenceDecode(resource.url))
        #expect(duration.isExact)
        #expect(duration.format == reference.format)
        #expect(duration.frameCount == Int64(reference.frameCount))
    }

    @Test func truncatedFileWithALyingXingHeaderIsScanned() throws {
        let resource = try DecoderTestSupport.resource("audio/mp3-edge/taglib__lame_vbr.mp3")
        let duration = try AudioDurationProbe.duration(of: resource)
        // The header claims ~31 minutes; the 4 KB file holds well under a second.
        #expect(duration.seconds < 1)
    }
}
