// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// What the engine plugs into a navigator: decoders, the output, speed and resampling, duration probes.
///
/// Implemented in RAudioEngine by `AudioEngineComponents`; tests may assemble their own.
public struct AudioComponents: Sendable {
    public var decoderFactory: any AudioDecoderFactory
    /// Creates the sink ON THE RENDER THREAD (C handles belong to the thread that uses them).
    public var makeSink: @Sendable () throws(AudioSinkError) -> any AudioSink
    public var makeSpeedProcessor: @Sendable (PCMFormat) -> any SpeedProcessor
    public var makeResampler: @Sendable (_ from: PCMFormat, _ to: PCMFormat) -> any Resampler
    /// Exact duration of a track when the manifest gives none (called off the cooperative pool).
    public var probeDuration: @Sendable (any Resource) -> Double?
    /// How long the render thread keeps trying `makeSink` after the audio server went away
    /// (`.serverLost`) before the loss is fatal; 0 makes it fatal at once.
    public var reconnectTimeout: Double

    public init(
        decoderFactory: any AudioDecoderFactory,
        makeSink: @escaping @Sendable () throws(AudioSinkError) -> any AudioSink,
        makeSpeedProcessor: @escaping @Sendable (PCMFormat) -> any SpeedProcessor,
        makeResampler: @escaping @Sendable (_ from: PCMFormat, _ to: PCMFormat) -> any Resampler,
        probeDuration: @escaping @Sendable (any Resource) -> Double?,
        reconnectTimeout: Double = 10
    ) {
        self.decoderFactory = decoderFactory
        self.makeSink = makeSink
        self.makeSpeedProcessor = makeSpeedProcessor
        self.makeResampler = makeResampler
        self.probeDuration = probeDuration
        self.reconnectTimeout = reconnectTimeout
    }
}
