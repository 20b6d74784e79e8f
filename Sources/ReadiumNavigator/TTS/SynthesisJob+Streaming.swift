// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Reading a job's PCM while it is being synthesized: what `SynthesisStreamDecoder` calls, on the
/// render thread. Each call blocks only while everything delivered so far has been read and
/// synthesis still runs.
extension SynthesisJob {
    /// What a streamed read got.
    enum StreamedRead {
        /// This many frames were copied.
        case frames(Int)
        /// The utterance ended there.
        case end
        /// Synthesis failed (or was cancelled) before delivering more.
        case failed(TTSError)
    }

    /// The outcome when synthesis already ended; else attaches a reader to the streamed PCM (which
    /// then outlives the job's own copy until `detachReader()`) and returns nil.
    func attachReaderUnlessDone() -> Result<SynthesizedUtterance, TTSError>? {
        condition.lock()
        defer { condition.unlock() }
        if let outcome = finalOutcome { return outcome }
        streamed.attachReader()
        return nil
    }

    /// A reader is released: the last one of a finished synthesis gives the samples back to the pool.
    func detachReader() {
        condition.lock()
        let released = streamed.detachReader()
        condition.unlock()
        PCMSampleBufferPool.speech.recycle(released)
    }

    /// The PCM format, waiting for the first chunk that says it (or the end: a failure gives nil).
    func waitForFormat() -> PCMFormat? {
        condition.lock()
        defer { condition.unlock() }
        while streamed.format == nil, finalOutcome == nil { condition.wait() }
        if let format = streamed.format { return format }
        if case .success(let whole)? = finalOutcome { return whole.format }
        return nil
    }

    /// The utterance's length in frames once synthesis succeeded; nil before (or after a failure).
    var streamedFrameCount: Int64? {
        condition.lock()
        defer { condition.unlock() }
        guard case .success? = finalOutcome else { return nil }
        return streamed.frameCount
    }

    /// Copies up to `maxFrames` frames from `frame` into `buffer`, waiting for them while synthesis runs.
    func readStreamed(into buffer: UnsafeMutablePointer<Float>, from frame: Int64, maxFrames: Int) -> StreamedRead {
        condition.lock()
        defer { condition.unlock() }
        while frame >= streamed.frameCount, finalOutcome == nil { condition.wait() }
        let available = streamed.frameCount
        if frame < available, let format = streamed.format, maxFrames > 0 {
            let channels = max(format.channelCount, 1)
            let frames = Int(min(Int64(maxFrames), available - frame))
            streamed.samples.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + Int(frame) * channels, count: frames * channels)
            }
            return .frames(frames)
        }
        if case .failure(let error)? = finalOutcome { return .failed(error) }
        return .end
    }

    /// Waits until `frame` has arrived or synthesis ended; returns `frame`, or the last frame there
    /// is when the utterance ended (or failed) before it.
    func waitForFrame(_ frame: Int64) -> Int64 {
        condition.lock()
        defer { condition.unlock() }
        while frame > streamed.frameCount, finalOutcome == nil { condition.wait() }
        return min(frame, streamed.frameCount)
    }
}
