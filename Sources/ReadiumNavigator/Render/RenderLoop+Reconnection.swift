// SPDX-License-Identifier: GPL-3.0-or-later
/// Surviving an audio server that goes away: stop at the last heard position, make a new sink
/// every `reconnectInterval` until `components.reconnectTimeout`, then continue from there.
///
/// Everything here runs on the render thread. While reconnecting, `run()` keeps performing commands
/// (a stop abandons the attempt, a load moves the position) and calls `tryReconnecting()` between waits.
extension RenderLoop {
    /// Seconds between two attempts to make a new sink.
    static let reconnectInterval = 0.25

    /// The server was lost: releases the dead sink, rewinds the current item to the last heard
    /// position and reports `.outputLost`. Falls back to a fatal `.outputFailed` when that position
    /// cannot be reopened.
    func beginReconnecting(after error: AudioSinkError) {
        let position = lastHeard ?? anchor
        isRunning = false
        try? sink?.close()
        sink = nil
        speedProcessor?.reset()
        marks.removeAll()
        if let position {
            do {
                try reposition(at: position)
            } catch let reopenError {
                reconnection = nil
                closeItems()
                report(.outputFailed(generation: generation, AudioSinkError(
                    .serverLost, message: "\(error.message); the position to resume at could not be reopened: \(reopenError)")))
                return
            }
        }
        lastPositionReport = written
        reconnection = (ContinuousClock.now + .seconds(components.reconnectTimeout), error)
        let waiting = AudioSinkError(error.code, message: "\(error.message); waiting up to \(components.reconnectTimeout) s for it to come back")
        report(.outputLost(generation: generation, waiting, position: position))
    }

    /// Makes the current item (opened again if needed) start at `position`.
    func reposition(at position: RenderPosition) throws {
        let decoder = try decoder(forItem: position.item)
        if decoder.currentFrame != position.frame { try decoder.seek(toFrame: position.frame) }
        let endFrame = current?.index == position.item ? current?.endFrame : nil
        current = Item(index: position.item, decoder: decoder, resampler: resampler(for: decoder.format), endFrame: endFrame)
        anchor = position
        lastHeard = position
    }

    /// One attempt: a new sink opened with the output format and kept paused; `.outputRestored` on
    /// success, a fatal `.outputFailed` with the original error once the deadline passed.
    func tryReconnecting() {
        guard let (deadline, lostError) = reconnection, let outputFormat else { return }
        do {
            let newSink = try components.makeSink()
            do {
                newSink.pause()
                try newSink.open(format: outputFormat)
            } catch {
                try? newSink.close()
                throw error
            }
            sink = newSink
            if speedProcessor == nil {
                let processor = components.makeSpeedProcessor(outputFormat)
                processor.speed = speed
                speedProcessor = processor
            }
            reconnection = nil
            report(.outputRestored(generation: generation))
        } catch {
            guard ContinuousClock.now >= deadline else { return }
            reconnection = nil
            closeItems()
            speedProcessor = nil
            let seconds = components.reconnectTimeout
            report(.outputFailed(generation: generation, AudioSinkError(
                lostError.code, message: "\(lostError.message); it did not come back within \(seconds) s")))
        }
    }
}
