// SPDX-License-Identifier: GPL-3.0-or-later
/// Decoding, converting and writing one buffer at a time, gaplessly across items.
extension RenderLoop {
    /// Decodes one chunk of the current item and writes it; moves to the next item at the end.
    func renderStep() {
        guard let item = current, outputFormat != nil else {
            isRunning = false
            return
        }
        let decoder = item.decoder
        let format = decoder.format
        var maxFrames = min(Self.chunkFrames, Self.chunkFrames * Self.maxChannels / max(format.channelCount, 1))
        if let endFrame = item.endFrame {
            let remaining = endFrame - decoder.currentFrame
            guard remaining > 0 else { return reachLimit() }
            maxFrames = Int(min(Int64(maxFrames), remaining))
        }
        if let stopAfterSeconds {
            let remaining = format.frames(ofSeconds: stopAfterSeconds - renderedSeconds)
            guard remaining > 0 else { return reachLimit() }
            maxFrames = Int(min(Int64(maxFrames), remaining))
        }
        let frames: Int
        let deferred = deferredReadFailure
        deferredReadFailure = nil
        do {
            if let deferred, deferred.decoder === decoder { throw deferred.error }
            frames = try decoder.read(into: decodeBuffer, maxFrames: maxFrames)
        } catch {
            // Commands queued meanwhile come first: a stream whose synthesis a seek cancelled fails at
            // once, and the seek's commands follow it; moving on (and draining the output at the end
            // of a plan being replaced) would hold them up. The failure stands if the item stays.
            if deferred == nil, !inbox.isEmpty {
                deferredReadFailure = (decoder, error)
                return
            }
            return failItem(source.issue(for: error, item: item.index))
        }
        guard frames > 0 else {
            if item.isEmptySoFar, let issue = source.emptyItemIssue(at: item.index) { return failItem(issue) }
            return endItem()
        }
        if item.isEmptySoFar { current?.isEmptySoFar = false }
        renderedSeconds += format.seconds(ofFrames: Int64(frames))
        markItem = RenderPosition(item: item.index, frame: decoder.currentFrame, sampleRate: format.sampleRate)
        let samples = UnsafeBufferPointer(start: UnsafePointer(decodeBuffer), count: frames * format.channelCount)
        guard process(samples, resampler: item.resampler) else { return }
        preopenNextIfNeeded()
    }

    /// Pushes decoded samples through the resampler (if any), the speed processor and the gain to the sink.
    /// Returns false when the output failed.
    func process(_ samples: UnsafeBufferPointer<Float>, resampler: (any Resampler)?) -> Bool {
        if let resampler {
            resampler.push(samples)
            return pullResampled(resampler)
        }
        return feedSpeed(samples)
    }

    func pullResampled(_ resampler: any Resampler) -> Bool {
        let channels = resampler.outputFormat.channelCount
        let buffer = UnsafeMutableBufferPointer(start: convertBuffer, count: convertCapacity / channels * channels)
        while true {
            let frames = resampler.pull(into: buffer)
            guard frames > 0 else { return true }
            guard feedSpeed(UnsafeBufferPointer(start: UnsafePointer(convertBuffer), count: frames * channels)) else { return false }
        }
    }

    func feedSpeed(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        guard let speedProcessor else { return true }
        speedProcessor.push(samples)
        return drainSpeed()
    }

    /// Writes everything the speed processor has ready.
    func drainSpeed() -> Bool {
        guard let speedProcessor, let sink, let outputFormat else { return true }
        let channels = outputFormat.channelCount
        let buffer = UnsafeMutableBufferPointer(start: processedBuffer, count: processedCapacity / channels * channels)
        while true {
            let frames = speedProcessor.pull(into: buffer)
            guard frames > 0 else { return true }
            let count = frames * channels
            limiter.process(processedBuffer, count: count, channels: channels, sampleRate: outputFormat.sampleRate, gain: volume)
            do {
                try sink.write(UnsafeBufferPointer(start: UnsafePointer(processedBuffer), count: count))
            } catch {
                outputFailed(error)
                return false
            }
            written += Int64(frames)
            let ratio = speed * Double(markItem.sampleRate) / Double(outputFormat.sampleRate)
            marks.append(.init(outputEnd: written, item: markItem.item, itemFrame: markItem.frame,
                               sampleRate: markItem.sampleRate, ratio: ratio))
            if Double(written - lastPositionReport) * speed >= positionReportInterval * Double(outputFormat.sampleRate) {
                reportHeardPosition()
            }
        }
    }

    /// The item position being heard now: written minus what the sink still holds, through the marks.
    func heardPosition() -> RenderPosition? {
        let pending = Int64(sink?.pendingFrames ?? 0)
        return marks.position(heardAt: written - pending) ?? anchor
    }

    func reportHeardPosition() {
        lastPositionReport = written
        if let position = heardPosition() {
            lastHeard = position
            report(.position(generation: generation, position))
        }
    }

    /// Opens the next item while the current one plays, so its set-up never delays the output: at once
    /// on this thread when that is cheap, else on a thread of its own near the current item's end.
    func preopenNextIfNeeded() {
        guard let item = current, item.endFrame == nil else { return }
        let next = item.index + 1
        guard preopened?.index != next, opening?.index != next, source.mayHaveItem(at: next) else { return }
        if nextPreopening?.index != next { nextPreopening = (next, source.preopening(ofItem: next)) }
        switch nextPreopening?.preopening ?? .atStart {
        case .atStart:
            do {
                preopened = .decoder(next, try source.openItem(at: next))
            } catch {
                preopened = .failed(next, error)
            }
        case .nearEnd(let leadSeconds, let previousDuration):
            let format = item.decoder.format
            let length = item.decoder.frameCount ?? previousDuration.map { format.frames(ofSeconds: $0) }
            if let length, format.seconds(ofFrames: length - item.decoder.currentFrame) > leadSeconds { return }
            opening = ItemOpening(index: next, source: source)
        }
    }

    /// The current item failed: playback ends here when the issue says so, else the item is skipped.
    func failItem(_ issue: RenderIssue) {
        if issue.endsPlayback { return endPlayback(issue) }
        report(.itemFailed(generation: generation, issue, hasNext: source.mayHaveItem(at: issue.item + 1)))
        endItem()
    }

    /// Plays out what the output holds, reports where that left the listener, and stops with `issue`.
    func endPlayback(_ issue: RenderIssue) {
        guard finishOutput() else { return }
        if let position = heardPosition() {
            lastHeard = position
            anchor = position
            report(.position(generation: generation, position))
        }
        isRunning = false
        closeItems()
        report(.sourceFailed(generation: generation, issue))
    }

    /// The current item is done: continue in the same output stream with the next item that opens.
    func endItem() {
        guard let item = current else { return }
        if let resampler = item.resampler {
            resampler.flush()
            guard pullResampled(resampler) else { return }
        }
        let index = item.index + 1
        report(.itemEnded(generation: generation, item: item.index, hasNext: source.mayHaveItem(at: index)))
        current = nil
        continueWithItem(at: index)
    }

    /// Goes on with the item at `index`, or the first after it that opens; waits (`awaitedItem`, polled by
    /// `run()`) while it is still opening on its own thread; ends the publication past the last.
    func continueWithItem(at first: Int) {
        var index = first
        let wasAwaiting = awaitedItem != nil
        awaitedItem = nil
        defer { if wasAwaiting, awaitedItem == nil { report(.buffering(generation: generation, false)) } }
        while source.mayHaveItem(at: index) {
            if let opening, opening.index == index, !opening.isFinished {
                if !wasAwaiting { report(.buffering(generation: generation, true)) }
                awaitedItem = index
                return
            }
            do {
                let decoder = try decoder(forItem: index)
                current = Item(index: index, decoder: decoder, resampler: resampler(for: decoder.format), endFrame: nil, isEmptySoFar: true)
                report(.itemStarted(generation: generation, item: index, format: decoder.format))
                return
            } catch is RenderSourceEnd {
                break
            } catch {
                let issue = source.issue(for: error, item: index)
                if issue.endsPlayback { return endPlayback(issue) }
                report(.itemFailed(generation: generation, issue, hasNext: source.mayHaveItem(at: index + 1)))
                index += 1
            }
        }
        guard finishOutput() else { return }
        isRunning = false
        closeItems()
        report(.publicationEnded(generation: generation))
    }

    /// The clip end or the `stopAfter` limit: end the output exactly here.
    func reachLimit() {
        guard let item = current else { return }
        if let resampler = item.resampler {
            resampler.flush()
            guard pullResampled(resampler) else { return }
        }
        let position = RenderPosition(item: item.index, frame: item.decoder.currentFrame,
                                      sampleRate: item.decoder.format.sampleRate)
        guard finishOutput() else { return }
        isRunning = false
        stopAfterSeconds = nil
        closeItems()
        anchor = position
        report(.limitReached(generation: generation, position: position))
    }

    /// Releases the speed processor's tail and waits until the sink has played everything.
    func finishOutput() -> Bool {
        if let speedProcessor {
            speedProcessor.flush()
            guard drainSpeed() else { return false }
            speedProcessor.reset()
        }
        do {
            try sink?.drain()
        } catch {
            outputFailed(error)
            return false
        }
        reportHeardPosition()
        return true
    }
}
