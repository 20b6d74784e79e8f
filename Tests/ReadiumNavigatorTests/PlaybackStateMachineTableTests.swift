// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import ReadiumNavigator

/// One cell of the exhaustive table: from a situation, an event leads to a state and actions.
struct Transition: Sendable, CustomTestStringConvertible {
    var from: Situation
    var event: Event
    var to: PlaybackState
    var actions: [Action]

    var testDescription: String { "\(from.rawValue) + \(event) -> \(to)" }
}

/// The fifteen events of the table, in a fixed order. `loaded(1)` answers the pending load of the
/// loading situations; `loaded(7)` was never requested.
let tableEvents: [Event] = [
    .play, .pause, .toggle, .stop, .seek("t"), .loaded(load(1)), .loaded(load(7)),
    .endOfResource(hasNext: true), .endOfResource(hasNext: false), .clipEnded,
    .error(fatal: false, hasNext: true), .error(fatal: false, hasNext: false), .error(fatal: true, hasNext: false),
    .outputLost, .outputRestored,
]

/// The expected outcome of each of `tableEvents`, per situation, in the same order.
let expectedOutcomes: [Situation: [(PlaybackState, [Action])]] = [
    .idle: [
        (.loading, [.emitState(.loading), .load("start", load(1))]),
        (.idle, []),
        (.loading, [.emitState(.loading), .load("start", load(1))]),
        (.idle, []),
        (.loading, [.emitState(.loading), .load("t", load(1))]),
        (.idle, []), (.idle, []),
        (.idle, []), (.idle, []), (.idle, []),
        (.idle, [.reportWarning]), (.idle, [.reportWarning]), (.failed, [.reportFatal, .emitState(.failed)]),
        (.idle, []), (.idle, []),
    ],
    .loadingToPlay: [
        (.loading, []),
        (.loading, []),
        (.loading, []),
        (.stopped, [.stopOutput, .emitState(.stopped)]),
        (.loading, [.load("t", load(2))]),
        (.playing, [.startOutput, .emitState(.playing)]), (.loading, []),
        (.loading, []), (.loading, []), (.loading, []),
        (.loading, [.reportWarning, .advanceToNext]),
        (.ended, [.reportWarning, .stopOutput, .emitState(.ended)]),
        (.failed, [.reportFatal, .stopOutput, .emitState(.failed)]),
        (.loading, []), (.loading, []),
    ],
    .loadingToPause: [
        (.loading, []),
        (.loading, []),
        (.loading, []),
        (.stopped, [.stopOutput, .emitState(.stopped)]),
        (.loading, [.load("t", load(2))]),
        (.paused, [.emitState(.paused)]), (.loading, []),
        (.loading, []), (.loading, []), (.loading, []),
        (.loading, [.reportWarning, .advanceToNext]),
        (.ended, [.reportWarning, .stopOutput, .emitState(.ended)]),
        (.failed, [.reportFatal, .stopOutput, .emitState(.failed)]),
        (.loading, []), (.loading, []),
    ],
    .loadingForOutput: [
        (.loading, []),
        (.paused, [.emitState(.paused)]),
        (.paused, [.emitState(.paused)]),
        (.stopped, [.stopOutput, .emitState(.stopped)]),
        (.loading, [.flushOutput, .load("t", load(2))]),
        (.loading, []), (.loading, []),
        (.loading, [.advanceToNext]), (.loading, []), (.loading, []),
        (.loading, [.reportWarning, .advanceToNext]),
        (.loading, [.reportWarning]),
        (.failed, [.reportFatal, .stopOutput, .emitState(.failed)]),
        (.loading, []),
        (.playing, [.resumeOutput, .emitState(.playing)]),
    ],
    .playing: [
        (.playing, []),
        (.paused, [.pauseOutput, .emitState(.paused)]),
        (.paused, [.pauseOutput, .emitState(.paused)]),
        (.stopped, [.stopOutput, .emitState(.stopped)]),
        (.loading, [.pauseOutput, .flushOutput, .emitState(.loading), .load("t", load(2))]),
        (.playing, []), (.playing, []),
        (.playing, [.advanceToNext]),
        (.ended, [.drainOutput, .emitState(.ended)]),
        (.ended, [.drainOutput, .emitState(.ended)]),
        (.playing, [.reportWarning, .advanceToNext]),
        (.ended, [.reportWarning, .drainOutput, .emitState(.ended)]),
        (.failed, [.reportFatal, .stopOutput, .emitState(.failed)]),
        (.loading, [.reopenOutput, .emitState(.loading)]),
        (.playing, []),
    ],
    .paused: [
        (.playing, [.resumeOutput, .emitState(.playing)]),
        (.paused, []),
        (.playing, [.resumeOutput, .emitState(.playing)]),
        (.stopped, [.stopOutput, .emitState(.stopped)]),
        (.loading, [.flushOutput, .emitState(.loading), .load("t", load(2))]),
        (.paused, []), (.paused, []),
        (.paused, [.advanceToNext]), (.paused, []), (.paused, []),
        (.paused, [.reportWarning, .advanceToNext]),
        (.paused, [.reportWarning]),
        (.failed, [.reportFatal, .stopOutput, .emitState(.failed)]),
        (.paused, [.reopenOutput]),
        (.paused, []),
    ],
    .stopped: inactiveOutcomes(.stopped, stop: (.stopped, []), fatal: (.failed, [.reportFatal, .emitState(.failed)])),
    .ended: inactiveOutcomes(.ended, stop: (.stopped, [.emitState(.stopped)]), fatal: (.failed, [.reportFatal, .emitState(.failed)])),
    .failed: inactiveOutcomes(.failed, stop: (.stopped, [.emitState(.stopped)]), fatal: (.failed, [.reportFatal])),
]

/// `stopped`, `ended` and `failed` differ only in `stop` and in a fatal error.
func inactiveOutcomes(
    _ state: PlaybackState, stop: (PlaybackState, [Action]), fatal: (PlaybackState, [Action])
) -> [(PlaybackState, [Action])] {
    [
        (.loading, [.emitState(.loading), .load("start", load(2))]),
        (state, []),
        (.loading, [.emitState(.loading), .load("start", load(2))]),
        stop,
        (.loading, [.emitState(.loading), .load("t", load(2))]),
        (state, []), (state, []),
        (state, []), (state, []), (state, []),
        (state, [.reportWarning]), (state, [.reportWarning]),
        fatal,
        (state, []), (state, []),
    ]
}

let transitionTable: [Transition] = Situation.allCases.flatMap { situation in
    let outcomes = expectedOutcomes[situation] ?? []
    return zip(tableEvents, outcomes).map { event, outcome in
        Transition(from: situation, event: event, to: outcome.0, actions: outcome.1)
    }
}

@Suite("PlaybackStateMachine transition table")
struct PlaybackStateMachineTableTests {
    @Test func tableCoversEverySituationAndEvent() {
        for situation in Situation.allCases {
            #expect(expectedOutcomes[situation]?.count == tableEvents.count, "\(situation) row is incomplete")
        }
        #expect(transitionTable.count == Situation.allCases.count * tableEvents.count)
    }

    @Test func situationsAreInTheirNamedState() {
        let expected: [Situation: PlaybackState] = [
            .idle: .idle, .loadingToPlay: .loading, .loadingToPause: .loading, .loadingForOutput: .loading,
            .playing: .playing, .paused: .paused, .stopped: .stopped, .ended: .ended, .failed: .failed,
        ]
        for situation in Situation.allCases {
            #expect(situation.machine.state == expected[situation])
            checkInvariants(situation.machine)
        }
    }

    @Test(arguments: transitionTable)
    func eventLeadsToStateAndActions(_ transition: Transition) {
        var machine = transition.from.machine
        var output = OutputModel(phase: machine.outputPhase, emitted: machine.state, lastLoad: machine.lastLoadID)
        let actions = machine.handle(transition.event)
        #expect(machine.state == transition.to)
        #expect(actions == transition.actions)
        #expect(output.apply(actions) == nil)
        #expect(output.phase == machine.outputPhase)
        checkInvariants(machine)
    }
}
