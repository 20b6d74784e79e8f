// SPDX-License-Identifier: GPL-3.0-or-later
/// Commands, performed on the render thread between buffers.
extension RenderLoop {
    func perform(_ command: RenderCommand) {
        switch command {
        case .load(let item, let seconds, let endSeconds, let newGeneration):
            generation = newGeneration
            load(item: item, seconds: seconds, endSeconds: endSeconds)
        case .start:
            start()
        case .pause:
            isRunning = false
            sink?.pause()
            reportHeardPosition()
        case .resume:
            guard current != nil || awaitedItem != nil, outputFormat != nil, sink != nil, reconnection == nil else { return }
            sink?.resume()
            isRunning = true
        case .flush:
            sink?.flush()
            resetProcessing()
        case .stop:
            reconnection = nil
            isRunning = false
            sink?.flush()
            resetProcessing()
            closeItems()
        case .release:
            isRunning = false
            closeItems()
        case .setSpeed(let newSpeed):
            speed = SpeedProcessorLimits.clamp(newSpeed)
            speedProcessor?.speed = speed
        case .setVolume(let newVolume):
            volume = Float(VolumeLimiter.clamp(newVolume))
        case .setStopAfter(let seconds):
            stopAfterSeconds = seconds
            renderedSeconds = 0
        case .shutdown:
            shutDown()
        }
    }

    /// Opens `item` (reusing the current or pre-opened decoder) at `seconds`; on failure tries the
    /// following items, reporting each failure.
    func load(item: Int, seconds: Double, endSeconds: Double?) {
        isRunning = false
        awaitedItem = nil
        resetProcessing()
        var index = max(item, 0)
        var startSeconds = max(seconds, 0)
        var end = endSeconds
        while source.mayHaveItem(at: index) {
            do {
                let decoder = try decoder(forItem: index)
                let frame = decoder.format.frames(ofSeconds: startSeconds)
                if frame != decoder.currentFrame { try decoder.seek(toFrame: frame) }
                current = Item(index: index, decoder: decoder, resampler: resampler(for: decoder.format),
                               endFrame: end.map { decoder.format.frames(ofSeconds: $0) }, isEmptySoFar: frame == 0)
                let position = RenderPosition(item: index, frame: decoder.currentFrame, sampleRate: decoder.format.sampleRate)
                anchor = position
                lastHeard = position
                report(.loaded(generation: generation, position: position))
                return
            } catch is RenderSourceEnd {
                break
            } catch {
                current = nil
                let issue = source.issue(for: error, item: index)
                if issue.endsPlayback {
                    closeItems()
                    report(.sourceFailed(generation: generation, issue))
                    return
                }
                report(.itemFailed(generation: generation, issue, hasNext: source.mayHaveItem(at: index + 1)))
                index += 1
                startSeconds = 0
                end = nil
            }
        }
        closeItems()
        report(.loadFailed(generation: generation))
    }

    /// Opens the output with the first loaded item's format (kept for the life of the sink) and renders.
    func start() {
        guard let item = current, makeSinkIfNeeded(), let sink else { return }
        let format = outputFormat ?? item.decoder.format
        outputFormat = format
        do {
            try sink.open(format: format)
        } catch {
            outputFailed(error)
            return
        }
        if speedProcessor == nil {
            let processor = components.makeSpeedProcessor(format)
            processor.speed = speed
            speedProcessor = processor
        }
        if current?.resampler == nil { current?.resampler = resampler(for: item.decoder.format) }
        sink.resume()
        isRunning = true
    }

    /// The decoder of the item at `index`: the current one, the pre-opened one, or a new one.
    func decoder(forItem index: Int) throws -> any AudioDecoder {
        if let current, current.index == index { return current.decoder }
        current = nil
        if let opening, opening.index == index {
            self.opening = nil
            // Finished by now, unless a load jumped to it: then wait here, as opening it here would.
            return try opening.waitForDecoder()
        }
        if let preopened, preopened.index == index {
            self.preopened = nil
            switch preopened {
            case .decoder(_, let decoder): return decoder
            case .failed(_, let error): throw error
            }
        }
        return try source.openItem(at: index)
    }

    /// A resampler to the output format, or nil when `format` is already it or no output is fixed.
    func resampler(for format: PCMFormat) -> (any Resampler)? {
        guard let outputFormat, format != outputFormat else { return nil }
        return components.makeResampler(format, outputFormat)
    }

    /// Drops what the processors hold and forgets the marks (after a flush, a seek or a stop).
    func resetProcessing() {
        speedProcessor?.reset()
        current?.resampler?.reset()
        marks.removeAll()
        anchor = current.map {
            RenderPosition(item: $0.index, frame: $0.decoder.currentFrame, sampleRate: $0.decoder.format.sampleRate)
        }
        lastHeard = anchor ?? lastHeard
        lastPositionReport = written
    }

    func closeItems() {
        current = nil
        deferredReadFailure = nil
        preopened = nil
        opening = nil
        awaitedItem = nil
    }

    /// An output failure: a lost server starts reconnecting (`RenderLoop+Reconnection`); anything else
    /// is fatal: reports it and releases the sink; a later `start` makes a new one.
    func outputFailed(_ error: AudioSinkError) {
        if error.code == .serverLost, components.reconnectTimeout > 0, reconnection == nil, outputFormat != nil {
            return beginReconnecting(after: error)
        }
        reconnection = nil
        isRunning = false
        closeItems()
        report(.outputFailed(generation: generation, error))
        try? sink?.close()
        sink = nil
        speedProcessor = nil
    }

    func shutDown() {
        isRunning = false
        closeItems()
        if let sink {
            sink.flush()
            do {
                try sink.close()
            } catch {
                report(.outputFailed(generation: generation, error))
            }
        }
        sink = nil
        isShutDown = true
    }
}
