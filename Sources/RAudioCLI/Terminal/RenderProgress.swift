// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// A progress bar on stderr while rendering to a WAV file (when stderr is a terminal): how far, the
/// publication time reached, and the time left at the rate rendering goes. Redrawn in place at most
/// four times a second; `finish()` ends its line.
final class RenderProgress: EventObserver, @unchecked Sendable {
    private let state: Locked<State>

    private struct State {
        var status: PlayerStatus
        var startedAt: Double?
        var startProgression = 0.0
        var lastDrawn = 0.0
        var lastLine = ""
    }

    init(status: PlayerStatus) {
        state = Locked(State(status: status))
    }

    func receive(_ event: PlayerEvent) {
        let line: String? = state.withLock { state in
            state.status.apply(event)
            let now = Date().timeIntervalSince1970
            guard let progression = state.status.progression else { return nil }
            if state.startedAt == nil {
                state.startedAt = now
                state.startProgression = progression
            }
            guard now - state.lastDrawn >= 0.25 else { return nil }
            state.lastDrawn = now
            let line = Self.line(status: state.status, progression: progression, elapsedWall: now - (state.startedAt ?? now),
                                 progressed: progression - state.startProgression, columns: TerminalMode.size(of: STDERR_FILENO).columns)
            guard line != state.lastLine else { return nil }
            state.lastLine = line
            return line
        }
        if let line { StandardStreams.printError("\r" + line + "\u{1B}[K", newline: false) }
    }

    func finish() {
        let drew = state.withLock { !$0.lastLine.isEmpty }
        if drew { StandardStreams.printError("") }
    }

    /// `rendering ━━━━━──── 42% 1:02:03 / 10:00:00 · 0:35 left`, fitted to `columns`.
    static func line(status: PlayerStatus, progression: Double, elapsedWall: Double, progressed: Double, columns: Int) -> String {
        var tail = " " + TerminalScreen.percent(progression)
        if let elapsed = status.elapsed, let duration = status.duration {
            tail += " \(TerminalScreen.time(elapsed)) / \(TerminalScreen.time(duration))"
        }
        if progressed > 0.001, elapsedWall > 0.5 {
            let left = (1 - progression) * elapsedWall / progressed
            tail += " · \(TerminalScreen.time(left)) left"
        }
        let head = "rendering "
        let barWidth = max(0, min(40, columns - 1 - DisplayWidth.of(head) - DisplayWidth.of(tail)))
        let filled = Int(progression * Double(barWidth))
        return DisplayWidth.truncated(head + String(repeating: "━", count: filled) + String(repeating: "─", count: barWidth - filled) + tail, to: max(1, columns - 1))
    }
}
