// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// A progress bar on stderr while rendering to a WAV file (when stderr is a terminal): how far, the
/// publication time reached, and the time left at the rate rendering goes. Redrawn in place at most
/// four times a second; `finish()` replaces it with what was written: the file, its length, how long it took.
final class RenderProgress: EventObserver, @unchecked Sendable {
    private let state: Locked<State>
    /// The WAV file written.
    private let path: String
    private let created = Date().timeIntervalSince1970

    private struct State {
        var status: PlayerStatus
        var startedAt: Double?
        var startProgression = 0.0
        var lastDrawn = 0.0
        var lastLine = ""
    }

    init(status: PlayerStatus, path: String) {
        state = Locked(State(status: status))
        self.path = path
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
        let summary = Self.summary(path: path, wallSeconds: Date().timeIntervalSince1970 - created)
        StandardStreams.printError((drew ? "\r" : "") + summary + (drew ? "\u{1B}[K" : ""))
    }

    /// `wrote book.wav: 1:02:03 of audio in 4:05`: the length from the file's WAV header and size (what was
    /// written, whether the book ended or was stopped).
    static func summary(path: String, wallSeconds: Double) -> String {
        let took = TerminalScreen.time(max(0, wallSeconds))
        guard let seconds = wavSeconds(path: path) else { return "wrote \(path) in \(took)" }
        return "wrote \(path): \(TerminalScreen.time(seconds)) of audio in \(took)"
    }

    /// The seconds of audio in the WAV file at `path` from its `fmt ` chunk and its size; nil when it is not one.
    static func wavSeconds(path: String) -> Double? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 44), header.count == 44,
              header.prefix(4) == Data("RIFF".utf8), header[8..<12] == Data("WAVE".utf8),
              let size = try? handle.seekToEnd() else { return nil }
        func value(_ offset: Int, _ count: Int) -> Int { header[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) } }
        let channels = value(22, 2), rate = value(24, 4), bits = value(34, 2)
        let bytesPerSecond = channels * rate * bits / 8
        guard bytesPerSecond > 0 else { return nil }
        return Double(max(0, Int(size) - 44)) / Double(bytesPerSecond)
    }

    /// `rendering ━━━━━──── 42% 1:02:03 / 10:00:00 · 0:35 left`, fitted to `columns`.
    static func line(status: PlayerStatus, progression: Double, elapsedWall: Double, progressed: Double, columns: Int) -> String {
        var reached = ""
        if let elapsed = status.elapsed, let duration = status.duration {
            reached = " \(TerminalScreen.time(elapsed)) / \(TerminalScreen.time(duration))"
        }
        return line(progression: progression, reached: reached, elapsedWall: elapsedWall, progressed: progressed, columns: columns)
    }

    /// `rendering ━━━━━──── 42% 1:02:03 of audio · 0:35 left` for `raudio render`: the audio made so far.
    static func line(_ report: RenderProgressReport, elapsedWall: Double, columns: Int) -> String {
        line(progression: report.fraction, reached: " \(TerminalScreen.time(report.audioSeconds)) of audio", elapsedWall: elapsedWall,
             progressed: report.fraction, columns: columns)
    }

    /// The bar, the percentage, `reached`, and the time left at the pace so far, fitted to `columns`.
    private static func line(progression: Double, reached: String, elapsedWall: Double, progressed: Double, columns: Int) -> String {
        var tail = " " + TerminalScreen.percent(progression) + reached
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
