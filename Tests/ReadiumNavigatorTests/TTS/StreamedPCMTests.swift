// SPDX-License-Identifier: GPL-3.0-or-later
@testable import ReadiumNavigator
import ReadiumShared
import Testing

/// The PCM of an utterance as chunks deliver it: appended where the previous chunk ended, replaced
/// by the whole utterance's at the end for the readers still attached, dropped without readers.
@Suite struct StreamedPCMTests {
    let format = PCMFormat(sampleRate: 22_050, channelCount: 1)
    let pool = PCMSampleBufferPool(maximumCount: 2, maximumCapacity: 1 << 20)

    func chunk(_ samples: [Float], at frame: Int64, format: PCMFormat?) -> TTSAudioChunk {
        TTSAudioChunk(samples: samples, startFrame: frame, wordBoundaries: [], format: format)
    }

    func whole(_ samples: [Float]) -> SynthesizedUtterance {
        SynthesizedUtterance(text: "a", voice: TTSVoice(identifier: "v", name: "v", language: Language(code: "en")),
                             format: format, samples: samples, wordBoundaries: [])
    }

    @Test func chunksAreAppendedWhereThePreviousEndedAndOverlapsAddOnlyTheirNewPart() {
        var pcm = StreamedPCM()
        let added1 = pcm.append(chunk([1, 2, 3], at: 0, format: format), pool: pool)
        #expect(added1)
        let added2 = pcm.append(chunk([3, 4, 5], at: 2, format: format), pool: pool)
        #expect(added2)
        let added3 = pcm.append(chunk([4], at: 3, format: format), pool: pool)
        #expect(!added3)
        #expect(pcm.samples == [1, 2, 3, 4, 5])
        #expect(pcm.frameCount == 5)
        #expect(pcm.format == format)
    }

    @Test func aChunkWithoutFormatOrPastAGapInterruptsTheStream() {
        var unformatted = StreamedPCM()
        let added4 = unformatted.append(chunk([1, 2], at: 0, format: nil), pool: pool)
        #expect(!added4)
        #expect(unformatted.isInterrupted)
        #expect(unformatted.frameCount == 0)

        var gapped = StreamedPCM()
        let added5 = gapped.append(chunk([1, 2], at: 0, format: format), pool: pool)
        #expect(added5)
        let added6 = gapped.append(chunk([5, 6], at: 4, format: format), pool: pool)
        #expect(!added6)
        #expect(gapped.isInterrupted)
        let added7 = gapped.append(chunk([3, 4], at: 2, format: format), pool: pool)
        #expect(!added7)
        #expect(gapped.samples == [1, 2])
    }

    @Test func attachedReadersGetTheWholeUtteranceAtTheEndAndTheLastOneReleasesIt() {
        var pcm = StreamedPCM()
        pcm.attachReader()
        _ = pcm.append(chunk([1, 2], at: 0, format: format), pool: pool)
        let released = pcm.finish(with: .success(whole([1, 2, 3, 4])))
        #expect(released == [1, 2], "the chunk buffer goes back to the pool")
        #expect(pcm.samples == [1, 2, 3, 4])
        #expect(pcm.isFinished)
        let releasedByLastReader = pcm.detachReader()
        #expect(releasedByLastReader == [1, 2, 3, 4])
        #expect(pcm.samples.isEmpty)
    }

    @Test func withoutReadersNothingIsKeptAtTheEnd() {
        var pcm = StreamedPCM()
        _ = pcm.append(chunk([1, 2], at: 0, format: format), pool: pool)
        let released = pcm.finish(with: .success(whole([1, 2, 3])))
        #expect(released == [1, 2])
        #expect(pcm.samples.isEmpty)
    }

    @Test func aFailureKeepsWhatArrivedForItsReaders() {
        var pcm = StreamedPCM()
        pcm.attachReader()
        _ = pcm.append(chunk([1, 2], at: 0, format: format), pool: pool)
        let released = pcm.finish(with: .failure(TTSError(.synthesisFailed, message: "test")))
        #expect(released.isEmpty)
        #expect(pcm.samples == [1, 2])
        let added9 = pcm.append(chunk([3], at: 2, format: format), pool: pool)
        #expect(!added9, "nothing is added after the end")
    }
}
