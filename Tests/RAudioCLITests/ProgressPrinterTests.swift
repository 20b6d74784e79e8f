// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import RAudioCLI
import RAudioPlayer
import ReadiumShared
import Testing

/// The one progress printer of `raudio render` and `raudio align` (`ProgressPrinter`): an event per percent and the
/// last one, the bar at most four times a second; each report's event and bar line.
@Suite struct ProgressPrinterTests {
    @Test func emitsAnEventPerPercentAndTheLastAndDrawsAtMostFourTimesASecond() {
        var throttle = ProgressThrottle()
        func decide(_ fraction: Double, last: Bool = false, at now: Double) -> [Bool] {
            let decision = throttle.decide(fraction: fraction, isLast: last, now: now)
            return [decision.emits, decision.draws]
        }
        #expect(decide(0, at: 0.3) == [true, true])
        #expect(decide(0.004, at: 0.4) == [false, false])
        #expect(decide(0.011, at: 0.5) == [true, false])
        #expect(decide(0.011, at: 0.6) == [false, true])
        #expect(decide(0.011, last: true, at: 0.7) == [true, false])
    }

    @Test func renderAndAlignReportsPrintTheirOwnEventsThroughIt() {
        let align = AlignProgressReport(stage: .reading, done: 4, total: 10, href: "004.mp3")
        #expect(align.event.objectValue?["stage"]?.stringValue == "reading")
        #expect(align.barLine(elapsed: 12, columns: 80).hasSuffix("40% reading 4/10 12 s"))
        let printers: [any Sendable] = [AlignProgressPrinter(printsJSON: false, drawsBar: false, started: Date()),
                                        RenderProgressPrinter(printsJSON: false, drawsBar: false, started: Date())]
        #expect(printers.count == 2)
    }
}
