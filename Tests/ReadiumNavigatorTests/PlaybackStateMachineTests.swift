// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioTestSupport
@testable import ReadiumNavigator
import Testing

/// Applies `events` in order and returns all actions, checking invariants after each.
@discardableResult
func run(_ machine: inout Machine, _ events: [Event], sourceLocation: SourceLocation = #_sourceLocation) -> [Action] {
    var all: [Action] = []
    for event in events {
        all += machine.handle(event)
        checkInvariants(machine, sourceLocation: sourceLocation)
    }
    return all
}

@Suite("PlaybackStateMachine scenarios")
struct PlaybackStateMachineTests {
    @Test func seekWhilePausedStaysPausedAfterLoading() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .pause])
        let seekActions = machine.handle(.seek("chapter 2"))
        #expect(seekActions == [.flushOutput, .emitState(.loading), .load("chapter 2", load(2))])
        let loadedActions = machine.handle(.loaded(load(2)))
        #expect(loadedActions == [.emitState(.paused)])
        #expect(machine.state == .paused)
        #expect(machine.outputPhase == .paused)
    }

    @Test func seekWhilePlayingResumesPlayingAfterLoading() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .seek("t")])
        #expect(machine.state == .loading)
        #expect(machine.intent == .play)
        #expect(machine.handle(.loaded(load(2))) == [.resumeOutput, .emitState(.playing)])
    }

    @Test func playDuringLoadingPlaysWhenLoaded() {
        var machine = Machine(start: "start")
        run(&machine, [.seek("t"), .play])
        #expect(machine.state == .loading)
        #expect(machine.handle(.loaded(load(1))) == [.startOutput, .emitState(.playing)])
    }

    @Test func pauseDuringLoadingLoadsThenStaysPausedWithoutOpeningTheOutput() {
        var machine = Machine(start: "start")
        let actions = run(&machine, [.play, .pause, .loaded(load(1))])
        #expect(actions == [.emitState(.loading), .load("start", load(1)), .emitState(.paused)])
        #expect(machine.outputPhase == .closed)
        #expect(machine.handle(.play) == [.startOutput, .emitState(.playing)])
    }

    @Test func endOfLastResourceEndsRatherThanPauses() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1))])
        #expect(machine.handle(.endOfResource(hasNext: false)) == [.drainOutput, .emitState(.ended)])
        #expect(machine.state == .ended)
        #expect(machine.state != .paused)
    }

    @Test func endOfResourceWithNextAdvancesAndKeepsPlaying() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1))])
        for _ in 0..<3 {
            #expect(machine.handle(.endOfResource(hasNext: true)) == [.advanceToNext])
            #expect(machine.state == .playing)
        }
    }

    @Test func stopThenPlayStartsOverFromStart() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .seek("middle"), .loaded(load(2))])
        #expect(machine.handle(.stop) == [.stopOutput, .emitState(.stopped)])
        #expect(machine.handle(.play) == [.emitState(.loading), .load("start", load(3))])
        #expect(machine.handle(.loaded(load(3))) == [.startOutput, .emitState(.playing)])
    }

    @Test func playAfterEndedStartsOverButSeekAfterEndedWaitsPausedAtTarget() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .clipEnded])
        #expect(machine.state == .ended)
        var replay = machine
        #expect(replay.handle(.play) == [.emitState(.loading), .load("start", load(2))])
        run(&machine, [.seek("chapter 3"), .loaded(load(2))])
        #expect(machine.state == .paused)
    }

    @Test func changedStartIsWherePlayBegins() {
        var machine = Machine(start: "start")
        machine.start = "clip begin"
        #expect(machine.handle(.play) == [.emitState(.loading), .load("clip begin", load(1))])
    }

    @Test func nonFatalErrorWarnsAndSkipsToNextWithoutChangingState() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1))])
        #expect(machine.handle(.error(fatal: false, hasNext: true)) == [.reportWarning, .advanceToNext])
        #expect(machine.state == .playing)
    }

    @Test func nonFatalErrorWhileLoadingSkipsAndTheSameLoadCompletes() {
        var machine = Machine(start: "start")
        run(&machine, [.play])
        #expect(machine.handle(.error(fatal: false, hasNext: true)) == [.reportWarning, .advanceToNext])
        #expect(machine.handle(.loaded(load(1))) == [.startOutput, .emitState(.playing)])
    }

    @Test func nonFatalErrorOnLastResourceEnds() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1))])
        #expect(machine.handle(.error(fatal: false, hasNext: false)) == [.reportWarning, .drainOutput, .emitState(.ended)])
    }

    @Test func fatalErrorFailsAndPlayTriesAgainFromStart() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1))])
        #expect(machine.handle(.error(fatal: true, hasNext: true)) == [.reportFatal, .stopOutput, .emitState(.failed)])
        #expect(machine.handle(.pause) == [])
        #expect(machine.handle(.play) == [.emitState(.loading), .load("start", load(2))])
    }

    @Test func lateLoadedForAnAbandonedLoadIsIgnored() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .seek("a"), .seek("b")])
        #expect(machine.handle(.loaded(load(1))) == [])
        #expect(machine.handle(.loaded(load(2))) == [])
        #expect(machine.state == .loading)
        #expect(machine.handle(.loaded(load(3))) == [.startOutput, .emitState(.playing)])
    }

    @Test func loadedAfterStopIsIgnored() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .stop])
        #expect(machine.handle(.loaded(load(1))) == [])
        #expect(machine.state == .stopped)
    }

    @Test func endReportedWhilePausedIsHeardOnResumeThenEnds() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .pause])
        #expect(machine.handle(.endOfResource(hasNext: false)) == [])
        #expect(machine.state == .paused)
        #expect(machine.handle(.play) == [.resumeOutput, .emitState(.playing), .drainOutput, .emitState(.ended)])
    }

    @Test func seekForgetsAnEndReportedWhilePaused() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .pause, .endOfResource(hasNext: false), .seek("t"), .loaded(load(2))])
        #expect(machine.handle(.play) == [.resumeOutput, .emitState(.playing)])
    }

    @Test func outputLostWhilePlayingWaitsInLoadingAndResumesWhenRestored() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1))])
        #expect(machine.handle(.outputLost) == [.reopenOutput, .emitState(.loading)])
        #expect(machine.handle(.outputLost) == [])
        #expect(machine.handle(.outputRestored) == [.resumeOutput, .emitState(.playing)])
    }

    @Test func bufferingWhilePlayingShowsLoadingThenPlayingWithTheOutputLeftRunning() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1))])
        #expect(machine.handle(.bufferingStarted) == [.emitState(.loading)])
        #expect(machine.handle(.bufferingStarted) == [])
        #expect(machine.handle(.bufferingEnded) == [.emitState(.playing)])
        #expect(machine.handle(.bufferingEnded) == [])
    }

    @Test func bufferingWhilePausedOrLoadingShowsNothing() {
        var machine = Machine(start: "start")
        run(&machine, [.play])
        #expect(machine.handle(.bufferingStarted) == [])
        run(&machine, [.loaded(load(1)), .pause])
        #expect(machine.handle(.bufferingStarted) == [])
        #expect(machine.handle(.bufferingEnded) == [])
        #expect(machine.state == .paused)
    }

    @Test func pauseOrSeekDuringBufferingForgetsIt() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .bufferingStarted, .pause])
        #expect(machine.handle(.bufferingEnded) == [])
        #expect(machine.state == .paused)
        run(&machine, [.play, .bufferingStarted, .seek("t")])
        #expect(machine.handle(.bufferingEnded) == [])
        #expect(machine.state == .loading)
        #expect(machine.handle(.loaded(load(2))) == [.resumeOutput, .emitState(.playing)])
    }

    @Test func outputLostDuringBufferingWaitsForTheOutput() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .bufferingStarted])
        #expect(machine.handle(.outputLost) == [.reopenOutput])
        #expect(machine.handle(.bufferingEnded) == [])
        #expect(machine.handle(.outputRestored) == [.resumeOutput, .emitState(.playing)])
    }

    @Test func outputRestoredWhilePausedStaysPaused() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .pause, .outputLost])
        #expect(machine.handle(.outputRestored) == [])
        #expect(machine.state == .paused)
        #expect(machine.handle(.play) == [.resumeOutput, .emitState(.playing)])
    }

    @Test func playWhilePausedWithLostOutputWaitsForTheOutput() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .pause, .outputLost])
        #expect(machine.handle(.play) == [.emitState(.loading)])
        #expect(machine.handle(.outputRestored) == [.resumeOutput, .emitState(.playing)])
    }

    @Test func seekDuringOutputLossLoadsThenWaitsForTheOutput() {
        var machine = Machine(start: "start")
        run(&machine, [.play, .loaded(load(1)), .outputLost, .seek("t")])
        #expect(machine.handle(.loaded(load(2))) == [])
        #expect(machine.state == .loading)
        #expect(machine.handle(.outputRestored) == [.resumeOutput, .emitState(.playing)])
    }

    @Test func toggleAlternatesPlayAndPause() {
        var machine = Machine(start: "start")
        run(&machine, [.toggle, .loaded(load(1))])
        #expect(machine.state == .playing)
        #expect(machine.handle(.toggle) == [.pauseOutput, .emitState(.paused)])
        #expect(machine.handle(.toggle) == [.resumeOutput, .emitState(.playing)])
    }

    @Test func stateNamesAreTheWireNames() {
        let names = PlaybackState.allCases.map(\.name)
        #expect(names == ["idle", "loading", "playing", "paused", "stopped", "ended", "failed"])
        for state in PlaybackState.allCases {
            #expect(PlaybackState(name: state.name) == state)
        }
        #expect(PlaybackState(name: "Playing") == nil)
    }

    /// 10,000 random events from a fixed seed: the invariants hold after each, every action fits the
    /// output's phase, and `emitState` appears exactly when the state changed.
    @Test(arguments: [UInt64(1), 42, 2024])
    func randomWalkNeverReachesAnInconsistentState(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var machine = Machine(start: "start")
        var output = OutputModel()
        var visited = Set<PlaybackState>()
        for step in 0..<10_000 {
            let event = randomEvent(for: machine, using: &random)
            let before = machine.state
            let actions = machine.handle(event)
            if let problem = output.apply(actions) {
                Issue.record("step \(step), \(before) + \(event): \(problem)")
                return
            }
            let emits = actions.filter { if case .emitState = $0 { true } else { false } }
            #expect(emits.isEmpty == (machine.state == before), "step \(step): \(before) + \(event) -> \(machine.state), \(actions)")
            #expect(output.emitted == machine.state)
            #expect(output.phase == machine.outputPhase)
            checkInvariants(machine)
            visited.insert(machine.state)
        }
        #expect(visited.isSuperset(of: PlaybackState.allCases.filter { $0 != .idle }), "the walk did not reach every state")
    }

    private func randomEvent(for machine: Machine, using random: inout SplitMix64) -> Event {
        // Answer the pending load often, so that the walk does not stay in `loading`.
        if let pending = machine.pendingLoad, Int.random(in: 0..<3, using: &random) == 0 {
            return .loaded(pending)
        }
        let events: [Event] = [
            .play, .play, .pause, .toggle, .stop, .seek("t"), .loaded(load(UInt64.random(in: 0...5, using: &random))),
            .endOfResource(hasNext: true), .endOfResource(hasNext: false), .clipEnded,
            .error(fatal: false, hasNext: true), .error(fatal: false, hasNext: false), .error(fatal: true, hasNext: false),
            .outputLost, .outputRestored, .bufferingStarted, .bufferingEnded,
        ]
        return events.randomElement(using: &random)!
    }
}
