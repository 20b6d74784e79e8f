// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator

/// An `AudioSink` that discards everything: for benchmarks and `--output null`.
///
/// Returns at once from every call, or keeps the pace of the clock when given a `RealtimePacer`
/// (`--realtime`). Render thread only.
public final class NullSink: AudioSink {
    private let pacer: RealtimePacer?
    private var format: PCMFormat?
    /// Frames written since the last `open`, for tests and statistics.
    public private(set) var framesWritten: Int64 = 0

    public init(pacer: RealtimePacer? = nil) {
        self.pacer = pacer
    }

    public func open(format: PCMFormat) throws(AudioSinkError) {
        guard format.sampleRate > 0, format.channelCount > 0 else {
            throw AudioSinkError(.outputFormatUnsupported, message: "null output cannot take \(format)")
        }
        if format != self.format { pacer?.start(sampleRate: format.sampleRate) }
        self.format = format
        framesWritten = 0
    }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioSinkError) {
        guard let format else { throw AudioSinkError(.outputFormatUnsupported, message: "null output written before open(format:)") }
        let frames = samples.count / format.channelCount
        framesWritten += Int64(frames)
        pacer?.didWrite(frames: frames)
    }

    public var pendingFrames: Int { 0 }
    public func pause() { pacer?.pause() }
    public func resume() { pacer?.resume() }
    public func flush() {}
    public func drain() throws(AudioSinkError) {}
    public func close() throws(AudioSinkError) {}
}
