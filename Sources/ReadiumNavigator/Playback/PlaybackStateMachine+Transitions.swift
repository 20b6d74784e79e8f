// SPDX-License-Identifier: GPL-3.0-or-later
/// The transitions behind `PlaybackStateMachine.handle(_:)`, one method per event.
extension PlaybackStateMachine {
    mutating func play(_ actions: inout [PlaybackAction<Target>]) {
        switch state {
        case .idle, .stopped, .ended, .failed:
            intent = .play
            requestLoad(start, &actions)
        case .loading:
            intent = .play
        case .paused:
            intent = .play
            if isOutputAvailable {
                startPlaying(&actions)
            } else {
                enter(.loading, &actions)
            }
        case .playing:
            break
        }
    }

    mutating func pause(_ actions: inout [PlaybackAction<Target>]) {
        // Buffering is playing that waits for its input: paused as playing is.
        switch isBuffering ? .playing : state {
        case .playing:
            intent = .pause
            outputPhase = .paused
            actions.append(.pauseOutput)
            enter(.paused, &actions)
        case .loading:
            intent = .pause
            // Waiting only for the output: the resource is ready, so this is a plain pause.
            if pendingLoad == nil && isResourceLoaded { enter(.paused, &actions) }
        case .idle, .paused, .stopped, .ended, .failed:
            break
        }
    }

    mutating func stop(_ actions: inout [PlaybackAction<Target>]) {
        switch state {
        case .loading, .playing, .paused:
            actions.append(.stopOutput)
            release()
            enter(.stopped, &actions)
        case .ended, .failed:
            enter(.stopped, &actions)
        case .idle, .stopped:
            break
        }
    }

    mutating func seek(to target: Target, _ actions: inout [PlaybackAction<Target>]) {
        if !state.isActive { intent = .pause }
        if outputPhase == .running {
            outputPhase = .paused
            actions.append(.pauseOutput)
        }
        if outputPhase != .closed { actions.append(.flushOutput) }
        isResourceLoaded = false
        isEndReached = false
        requestLoad(target, &actions)
    }

    mutating func loaded(_ id: PlaybackLoadID, _ actions: inout [PlaybackAction<Target>]) {
        guard pendingLoad == id else { return }
        pendingLoad = nil
        isResourceLoaded = true
        switch intent {
        case .play:
            if isOutputAvailable { startPlaying(&actions) }
        case .pause:
            enter(.paused, &actions)
        }
    }

    mutating func endOfResource(hasNext: Bool, _ actions: inout [PlaybackAction<Target>]) {
        guard isResourceLoaded, pendingLoad == nil, !isEndReached else { return }
        if hasNext {
            actions.append(.advanceToNext)
        } else if state == .playing || isBuffering {
            finish(&actions)
        } else {
            isEndReached = true
        }
    }

    mutating func fatalError(_ actions: inout [PlaybackAction<Target>]) {
        actions.append(.reportFatal)
        if state.isActive { actions.append(.stopOutput) }
        release()
        enter(.failed, &actions)
    }

    mutating func skippableError(hasNext: Bool, _ actions: inout [PlaybackAction<Target>]) {
        actions.append(.reportWarning)
        guard state.isActive, !isEndReached else { return }
        if hasNext {
            actions.append(.advanceToNext)
        } else if pendingLoad != nil {
            // The target and everything after it is unplayable.
            actions.append(.stopOutput)
            release()
            enter(.ended, &actions)
        } else if state == .playing || isBuffering {
            finish(&actions)
        } else {
            isEndReached = true
        }
    }

    mutating func outputLost(_ actions: inout [PlaybackAction<Target>]) {
        guard isOutputAvailable, outputPhase != .closed else { return }
        isOutputAvailable = false
        isBuffering = false
        outputPhase = .paused
        actions.append(.reopenOutput)
        if state == .playing { enter(.loading, &actions) }
    }

    mutating func outputRestored(_ actions: inout [PlaybackAction<Target>]) {
        guard !isOutputAvailable else { return }
        isOutputAvailable = true
        if state == .loading, pendingLoad == nil, isResourceLoaded, intent == .play {
            startPlaying(&actions)
        }
    }

    mutating func bufferingStarted(_ actions: inout [PlaybackAction<Target>]) {
        guard state == .playing else { return }
        enter(.loading, &actions)
        isBuffering = true
    }

    mutating func bufferingEnded(_ actions: inout [PlaybackAction<Target>]) {
        guard isBuffering, state == .loading else { return }
        isBuffering = false
        // Output and intent are untouched by buffering: only the state shown changes back.
        enter(.playing, &actions)
    }

    // MARK: Helpers

    /// Asks for `target` to be loaded and waits in `loading`; an earlier pending load is abandoned.
    private mutating func requestLoad(_ target: Target, _ actions: inout [PlaybackAction<Target>]) {
        isBuffering = false
        lastLoadID &+= 1
        let id = PlaybackLoadID(rawValue: lastLoadID)
        pendingLoad = id
        enter(.loading, &actions)
        actions.append(.load(target, id))
    }

    /// Runs the output for a loaded resource; a remembered end is then reached at once.
    private mutating func startPlaying(_ actions: inout [PlaybackAction<Target>]) {
        switch outputPhase {
        case .closed: actions.append(.startOutput)
        case .paused: actions.append(.resumeOutput)
        case .running: break
        }
        outputPhase = .running
        enter(.playing, &actions)
        if isEndReached { finish(&actions) }
    }

    /// The natural end while playing: let the buffered audio be heard, then `ended`.
    private mutating func finish(_ actions: inout [PlaybackAction<Target>]) {
        actions.append(.drainOutput)
        release()
        enter(.ended, &actions)
    }

    /// Forgets the resource, the output and the intent (after `stopOutput` or `drainOutput`).
    private mutating func release() {
        intent = .pause
        pendingLoad = nil
        isResourceLoaded = false
        isEndReached = false
        outputPhase = .closed
        isOutputAvailable = true
    }

    /// Moves to `newState`, emitting it only when it differs from the current state.
    private mutating func enter(_ newState: PlaybackState, _ actions: inout [PlaybackAction<Target>]) {
        guard newState != state else { return }
        // Any other change (a pause, a seek, an end, a lost output) ends the buffering it showed.
        isBuffering = false
        state = newState
        actions.append(.emitState(newState))
    }
}
