// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import ReadiumNavigator

typealias Machine = PlaybackStateMachine<String>
typealias Action = PlaybackAction<String>
typealias Event = PlaybackEvent<String>

func load(_ id: UInt64) -> PlaybackLoadID { PlaybackLoadID(rawValue: id) }

/// A named starting point for the transition table, reached through real events only.
enum Situation: String, CaseIterable, Sendable {
    case idle, loadingToPlay, loadingToPause, loadingForOutput, playing, paused, stopped, ended, failed

    var machine: Machine {
        var machine = Machine(start: "start")
        let events: [Event] = switch self {
        case .idle: []
        case .loadingToPlay: [.play]
        case .loadingToPause: [.seek("s")]
        case .loadingForOutput: [.play, .loaded(load(1)), .outputLost]
        case .playing: [.play, .loaded(load(1))]
        case .paused: [.play, .loaded(load(1)), .pause]
        case .stopped: [.play, .loaded(load(1)), .stop]
        case .ended: [.play, .loaded(load(1)), .endOfResource(hasNext: false)]
        case .failed: [.play, .loaded(load(1)), .error(fatal: true, hasNext: false)]
        }
        for event in events { _ = machine.handle(event) }
        return machine
    }
}

/// Checks the rules that must hold between any two events; records an issue for each broken one.
func checkInvariants(_ machine: Machine, sourceLocation: SourceLocation = #_sourceLocation) {
    let m = machine
    switch m.state {
    case .playing:
        #expect(m.isResourceLoaded && m.pendingLoad == nil && m.intent == .play, "playing without a loaded resource", sourceLocation: sourceLocation)
        #expect(m.isOutputAvailable && m.outputPhase == .running && !m.isEndReached, "playing without a running output", sourceLocation: sourceLocation)
    case .paused:
        #expect(m.isResourceLoaded && m.pendingLoad == nil && m.intent == .pause, "paused without a loaded resource", sourceLocation: sourceLocation)
        #expect(m.outputPhase != .running, "paused with a running output", sourceLocation: sourceLocation)
    case .loading:
        let waitingForLoad = m.pendingLoad != nil && !m.isResourceLoaded && !m.isBuffering
        let waitingForOutput = m.pendingLoad == nil && m.isResourceLoaded && m.intent == .play && !m.isOutputAvailable && !m.isBuffering
        let waitingForInput = m.isBuffering && m.pendingLoad == nil && m.isResourceLoaded && m.intent == .play && m.isOutputAvailable
        #expect([waitingForLoad, waitingForOutput, waitingForInput].filter { $0 }.count == 1, "loading for no reason", sourceLocation: sourceLocation)
        #expect((m.outputPhase == .running) == waitingForInput, "loading with a running output, or buffering without one", sourceLocation: sourceLocation)
    case .idle, .stopped, .ended, .failed:
        #expect(!m.isResourceLoaded && m.pendingLoad == nil && m.intent == .pause, "\(m.state) holding a resource", sourceLocation: sourceLocation)
        #expect(m.outputPhase == .closed && m.isOutputAvailable && !m.isEndReached, "\(m.state) holding an output", sourceLocation: sourceLocation)
    }
    if m.isBuffering {
        #expect(m.state == .loading, "buffering shown as \(m.state)", sourceLocation: sourceLocation)
    }
    if !m.isOutputAvailable {
        #expect(m.outputPhase != .closed, "a closed output cannot be lost", sourceLocation: sourceLocation)
    }
}

/// A stand-in for the caller's output, which refuses actions that make no sense in its phase.
struct OutputModel {
    var phase: Machine.OutputPhase = .closed
    var emitted: PlaybackState = .idle
    var lastLoad: UInt64 = 0

    /// Applies `actions`; returns a description of the first action that was out of place.
    mutating func apply(_ actions: [Action]) -> String? {
        for action in actions {
            switch action {
            case .startOutput:
                guard phase == .closed else { return "startOutput while \(phase)" }
                phase = .running
            case .pauseOutput:
                guard phase == .running else { return "pauseOutput while \(phase)" }
                phase = .paused
            case .resumeOutput:
                guard phase == .paused else { return "resumeOutput while \(phase)" }
                phase = .running
            case .flushOutput:
                guard phase != .closed else { return "flushOutput while closed" }
            case .reopenOutput:
                guard phase != .closed else { return "reopenOutput while closed" }
                phase = .paused
            case .drainOutput:
                guard phase == .running else { return "drainOutput while \(phase)" }
                phase = .closed
            case .stopOutput:
                phase = .closed
            case .emitState(let state):
                guard state != emitted else { return "emitState(\(state)) without a change" }
                emitted = state
            case .load(_, let id):
                guard id.rawValue > lastLoad else { return "load id \(id) reused" }
                lastLoad = id.rawValue
            case .advanceToNext, .reportWarning, .reportFatal:
                break
            }
        }
        return nil
    }
}
