// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import ReadiumNavigator

@Suite struct PlaybackClockTests {
    @Test func manualClockMovesOnlyWhenAdvanced() {
        let clock = ManualClock(start: 10)
        #expect(clock.now == 10)
        #expect(clock.now == 10)
        clock.advance(by: 0.25)
        #expect(clock.now == 10.25)
    }

    @Test func manualClockIgnoresBackwardAndNonFiniteSteps() {
        let clock = ManualClock()
        clock.advance(by: -1)
        clock.advance(by: .nan)
        clock.advance(by: .infinity)
        #expect(clock.now == 0)
    }

    @Test func systemClockNeverGoesBackwards() {
        let clock = SystemPlaybackClock()
        var previous = clock.now
        #expect(previous >= 0)
        for _ in 0..<1_000 {
            let now = clock.now
            #expect(now >= previous)
            previous = now
        }
    }
}
