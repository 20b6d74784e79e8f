// SPDX-License-Identifier: GPL-3.0-or-later
/// An `AudioDecoder` over an utterance still being synthesized: plays its PCM chunk by chunk as the
/// engine delivers it, so the first words are heard before the utterance is complete.
///
/// Render thread only, like every decoder. A read returns what has arrived (up to `maxFrames`) and
/// blocks only when everything delivered has been read and synthesis still runs; it returns 0 at the
/// utterance's real end and throws `.corrupt` when synthesis failed or was cancelled before it (after
/// the frames that did arrive; `UtteranceRenderSource.issue(for:item:)` then reports the synthesis
/// error itself). `format` waits for the first chunk; `frameCount` is nil until synthesis ends. A
/// seek past what has arrived waits for it (or for the end, and clamps there).
final class SynthesisStreamDecoder: AudioDecoder {
    private let job: SynthesisJob
    private let href: String
    /// Stands in for the format when synthesis fails before its first chunk (nothing is read then).
    private let fallbackFormat: PCMFormat
    private var knownFormat: PCMFormat?
    private(set) var currentFrame: Int64 = 0

    /// Reads `job`, to which `attachReaderUnlessDone()` attached a reader (released with the decoder).
    init(job: SynthesisJob, href: String, fallbackFormat: PCMFormat) {
        self.job = job
        self.href = href
        self.fallbackFormat = fallbackFormat
    }

    deinit {
        job.detachReader()
    }

    var format: PCMFormat {
        if let knownFormat { return knownFormat }
        let format = job.waitForFormat() ?? fallbackFormat
        knownFormat = format
        return format
    }

    var frameCount: Int64? { job.streamedFrameCount }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioDecoderError) -> Int {
        _ = format
        switch job.readStreamed(into: buffer, from: currentFrame, maxFrames: maxFrames) {
        case .frames(let frames):
            currentFrame += Int64(frames)
            return frames
        case .end:
            return 0
        case .failed(let error):
            throw AudioDecoderError(.corrupt, href: href, message: error.message)
        }
    }

    func seek(toFrame frame: Int64) throws(AudioDecoderError) {
        guard frame >= 0 else {
            throw AudioDecoderError(.seekFailed, href: href, message: "cannot seek to negative frame \(frame)")
        }
        currentFrame = job.waitForFrame(frame)
    }
}
