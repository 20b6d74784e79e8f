// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// A report of a long run's progress (`raudio render`, `raudio align`) as `ProgressPrinter` shows it: its share of
/// the whole run, its `progress` event and its line under a progress bar.
protocol PrintableProgress: Sendable {
    /// Of the whole run, 0 to 1.
    var fraction: Double { get }
    /// Whether it is the run's last report: its event is written whatever the percent.
    var isLast: Bool { get }
    /// The `progress` event (a JSON line on stdout).
    var event: JSONValue { get }
    /// The terminal line: the bar and what is being done, in `columns`, after `elapsed` seconds.
    func barLine(elapsed: Double, columns: Int) -> String
}

/// When a report is printed: its event when the percent changes (or it is the last), the bar at most four times a second.
struct ProgressThrottle: Sendable {
    private var percent = -1
    private var drawn = 0.0

    /// Whether to write the event and redraw the bar for a report of `fraction` at `now` seconds into the run.
    mutating func decide(fraction: Double, isLast: Bool, now: Double) -> (emits: Bool, draws: Bool) {
        let percent = Int(fraction * 100)
        let emits = percent != self.percent || isLast
        if emits { self.percent = percent }
        let draws = now - drawn >= 0.25
        if draws { drawn = now }
        return (emits, draws)
    }
}

/// Turns a run's reports (on its thread) into `progress` events on stdout, at most one per percent, and the progress
/// bar on stderr, redrawn at most four times a second: one printer for render and align.
final class ProgressPrinter<Report: PrintableProgress>: Sendable {
    let printsJSON: Bool
    let drawsBar: Bool
    let started: Date
    private let throttle = Locked(ProgressThrottle())

    init(printsJSON: Bool, drawsBar: Bool, started: Date) {
        self.printsJSON = printsJSON
        self.drawsBar = drawsBar
        self.started = started
    }

    func report(_ report: Report) {
        let now = Date().timeIntervalSince(started)
        let (emits, draws) = throttle.withLock { $0.decide(fraction: report.fraction, isLast: report.isLast, now: now) }
        if printsJSON, emits { try? StandardStreams.printLine(report.event.serialized()) }
        if drawsBar, draws {
            let line = report.barLine(elapsed: now, columns: TerminalMode.size(of: STDERR_FILENO).columns)
            StandardStreams.printError("\r" + line + "\u{1B}[K", newline: false)
        }
    }
}

typealias RenderProgressPrinter = ProgressPrinter<RenderProgressReport>
typealias AlignProgressPrinter = ProgressPrinter<AlignProgressReport>

extension RenderProgressReport: PrintableProgress {
    var isLast: Bool { utterancesDone == utteranceCount }
    var event: JSONValue { RenderEvent.progress(self).json }
    func barLine(elapsed: Double, columns: Int) -> String { RenderProgress.line(self, elapsedWall: elapsed, columns: columns) }
}

extension AlignProgressReport: PrintableProgress {
    var isLast: Bool { false }
    var event: JSONValue { AlignEvent.progress(self).json }

    func barLine(elapsed: Double, columns: Int) -> String {
        let width = max(10, min(40, columns - 40))
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "[\(bar)] \(Int(fraction * 100))% \(stage.rawValue) \(done)/\(total) \(Int(elapsed)) s"
    }
}
