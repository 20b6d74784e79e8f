// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The state and loop of the render thread behind `AudioRenderer`.
///
/// Everything here is touched by the render thread only, after `run()` started (hence
/// `@unchecked Sendable`: the object is handed to the thread once). Buffers are allocated once; the
/// loop never awaits and allocates nothing per buffer.
final class RenderLoop: @unchecked Sendable {
    /// Frames decoded per step: ~46 ms at 44.1 kHz.
    static let chunkFrames = 2048
    static let maxChannels = 8
    /// How often the loop looks whether an awaited item finished opening.
    static let awaitedItemPollInterval = 0.01

    struct Item {
        var index: Int
        var decoder: any AudioDecoder
        /// Converts to the output format; nil when the item already has it (or no output is fixed yet).
        var resampler: (any Resampler)?
        /// The frame the output ends at (a clip), in the item's rate.
        var endFrame: Int64?
        /// Whether it was opened at its first frame and has given no audio yet: an end then means it
        /// had none (`RenderSource.emptyItemIssue`).
        var isEmptySoFar = false
    }

    /// An item opened ahead of time so that ZIP and codec work never causes an underrun.
    enum Preopened {
        case decoder(Int, any AudioDecoder)
        case failed(Int, any Error)

        var index: Int {
            switch self {
            case .decoder(let index, _), .failed(let index, _): index
            }
        }
    }

    let source: any RenderSource
    let components: AudioComponents
    let inbox: RenderInbox
    let reports: AsyncStream<RenderReport>.Continuation

    var sink: (any AudioSink)?
    var outputFormat: PCMFormat?
    var speedProcessor: (any SpeedProcessor)?
    var current: Item?
    var preopened: Preopened?
    /// The next item being opened on a thread of its own (`ItemPreopening.nearEnd`).
    var opening: ItemOpening?
    /// How the item after the current one is to be opened, asked once per item.
    var nextPreopening: (index: Int, preopening: ItemPreopening)?
    /// The item the output waits for: the current one ended and its successor is still opening.
    var awaitedItem: Int?
    /// A read of the current decoder that failed while commands were queued: reported after them,
    /// unless they replaced the decoder (RenderLoop+Rendering).
    var deferredReadFailure: (decoder: any AudioDecoder, error: any Error)?
    var isRunning = false
    var isShutDown = false
    var generation: UInt64 = 0
    var speed: Double
    var volume: Float
    /// Applies `volume`, limiting peaks when it boosts.
    var limiter = VolumeLimiter()
    var stopAfterSeconds: Double?
    var renderedSeconds = 0.0
    /// While the output is lost: when to give up reconnecting, and the error to report then.
    var reconnection: (deadline: ContinuousClock.Instant, error: AudioSinkError)?
    /// The last heard position reported (the listener's place if the output dies).
    var lastHeard: RenderPosition?

    /// Output frames written to the sink since it was made.
    var written: Int64 = 0
    var lastPositionReport: Int64 = 0
    /// Media seconds between `.position` reports.
    let positionReportInterval: Double
    var marks = HeardPositionMarks()
    /// The position before anything was written since the last load or flush.
    var anchor: RenderPosition?
    /// The item whose frames the samples being processed come from, for the marks.
    var markItem = RenderPosition(item: 0, frame: 0, sampleRate: 1)

    let decodeBuffer: UnsafeMutablePointer<Float>
    let convertBuffer: UnsafeMutablePointer<Float>
    let convertCapacity: Int
    let processedBuffer: UnsafeMutablePointer<Float>
    let processedCapacity: Int

    init(source: any RenderSource, components: AudioComponents, inbox: RenderInbox,
         reports: AsyncStream<RenderReport>.Continuation, speed: Double, volume: Double,
         positionReportInterval: Double) {
        self.positionReportInterval = min(max(positionReportInterval.isFinite ? positionReportInterval : 0.05, 0.01), 1)
        self.source = source
        self.components = components
        self.inbox = inbox
        self.reports = reports
        self.speed = SpeedProcessorLimits.clamp(speed)
        self.volume = Float(VolumeLimiter.clamp(volume))
        decodeBuffer = .allocate(capacity: Self.chunkFrames * Self.maxChannels)
        // Resampling up to 8x (8 kHz to 64 kHz) of a chunk, plus the filter's tail.
        convertCapacity = Self.chunkFrames * 8 * Self.maxChannels
        convertBuffer = .allocate(capacity: convertCapacity)
        processedCapacity = Self.chunkFrames * Self.maxChannels
        processedBuffer = .allocate(capacity: processedCapacity)
    }

    deinit {
        decodeBuffer.deallocate()
        convertBuffer.deallocate()
        processedBuffer.deallocate()
    }

    /// The thread's body: makes the sink, then performs commands and renders until shut down.
    func run() {
        // A remote read waiting on the network shows as `loading` (reported from inside the read).
        ResourceWaitObserver.install { [unowned self] waiting in
            report(.buffering(generation: generation, waiting))
        }
        defer { ResourceWaitObserver.uninstall() }
        makeSinkIfNeeded()
        while !isShutDown {
            if let commands = inbox.take() {
                for command in commands where !isShutDown { perform(command) }
                continue
            }
            if reconnection != nil {
                inbox.wait(timeout: Self.reconnectInterval)
                if !isShutDown, inbox.isEmpty { tryReconnecting() }
            } else if isRunning, let awaitedItem {
                // Polled, so that commands (a seek elsewhere, a pause, quit) are served while it opens.
                inbox.wait(timeout: Self.awaitedItemPollInterval)
                if !isShutDown, inbox.isEmpty, self.awaitedItem == awaitedItem { continueWithItem(at: awaitedItem) }
            } else if isRunning, current != nil {
                renderStep()
            } else {
                inbox.wait()
            }
        }
        reports.yield(.finished)
        reports.finish()
    }

    @discardableResult
    func makeSinkIfNeeded() -> Bool {
        guard sink == nil else { return true }
        do {
            sink = try components.makeSink()
            return true
        } catch {
            reports.yield(.outputFailed(generation: generation, error))
            return false
        }
    }

    func report(_ report: RenderReport) {
        reports.yield(report)
    }
}
