// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer
import ReadiumShared

/// The player people use in a terminal: draws the session's status (`TerminalScreen`) instead of
/// printing JSON, and turns keys into the protocol's commands (`TerminalKeyMap`).
///
/// Threads of its own: "raudio.keys" reads stdin in raw mode, "raudio.display" draws; the session
/// loop hands it events through `receive(_:)` and reads key commands from `commands`. It draws at
/// most four times a second, and only when the frame differs from the last one. `finish(summary:)`
/// gives the terminal back (also done at exit, on ctrl-Z and for any way the session ends).
final class TerminalPlayer: EventObserver, @unchecked Sendable {
    /// Commands from keys.
    let commands: AsyncStream<PlayerCommand>
    private let commandContinuation: AsyncStream<PlayerCommand>.Continuation
    private let capabilities: TerminalCapabilities
    private let drawsScreen: Bool
    private let shared: Locked<SharedState>
    private let wake = NSCondition()
    private var isDirty = true
    private var isRunning = false
    /// Between ctrl-Z and `fg`: nothing is drawn on the shell's screen.
    private var isSuspended = false
    private var stderrCapture: StderrCapture?
    private let displayStopped = DispatchSemaphore(value: 0)

    /// The shortest time between two frames.
    static let frameInterval: Duration = .milliseconds(250)

    private struct SharedState {
        var status: PlayerStatus
        var overlay: TerminalOverlay = .none
        var keyMap = TerminalKeyMap()
        var lastFrame: [String] = []
        /// `TERM=dumb`: the last line printed, so a line is printed only when it changes.
        var lastLogLine = ""
        var lastLogSentence = ""
        var lastLogMessage: PlayerStatus.Message?
    }

    /// - Parameter voices: speech: the identifiers of the voices `v` cycles through.
    init(status: PlayerStatus, voices: [String] = [], environment: [String: String] = ProcessInfo.processInfo.environment) {
        (commands, commandContinuation) = AsyncStream.makeStream(of: PlayerCommand.self)
        capabilities = TerminalCapabilities.fromEnvironment(environment)
        drawsScreen = TerminalMode.canMoveCursor
        var state = SharedState(status: status)
        state.keyMap.voices = voices
        shared = Locked(state)
    }

    /// Takes the terminal: raw keys, the alternate screen, stderr captured; starts drawing.
    func start() {
        TerminalMode.enter()
        isRunning = true
        stderrCapture = StderrCapture { [weak self] line in self?.showCapturedLine(line) }
        TerminalSignals.install(
            resized: { [weak self] in self?.redrawAll() },
            suspend: { [weak self] in
                self?.setSuspended(true)
                TerminalMode.leave()
            },
            resumed: { [weak self] in
                TerminalMode.enter()
                self?.setSuspended(false)
                self?.redrawAll()
            })
        BlockingWork.startThread(named: "raudio.keys") { [self] in readKeys() }
        BlockingWork.startThread(named: "raudio.display") { [self] in drawLoop() }
    }

    func receive(_ event: PlayerEvent) {
        let changed = shared.withLock { state in
            let before = state.status.shownTime
            state.status.apply(event)
            // A position comes twice a second: it changes the frame only when the time or the bar moves.
            return event.kind != .position || state.status.shownTime != before
        }
        if changed { markDirty() }
    }

    /// Speech: the book's words by place, counted on another thread (any thread), for the time left.
    func take(_ words: BookWordCount) {
        shared.withLock { $0.status.bookWords = words }
        markDirty()
    }

    /// Stops drawing, gives the terminal back, then prints `summary` and what was written to stderr.
    func finish(summary: String?) {
        wake.lock()
        let wasRunning = isRunning
        isRunning = false
        wake.signal()
        wake.unlock()
        guard wasRunning else { return }
        _ = displayStopped.wait(timeout: .now() + 1)
        TerminalSignals.uninstall()
        TerminalMode.leave()
        commandContinuation.finish()
        let captured = stderrCapture?.stop() ?? []
        for line in captured { StandardStreams.printError(line) }
        if let summary { TerminalMode.writeToTerminal(TerminalText.printable(summary) + "\n") }
    }

    /// A line for the shell after the player is gone: where the listening stopped.
    var summary: String {
        let status = shared.withLock { $0.status }
        var line = "raudio: \(status.state.name)"
        if status.state == .ended {
            // Heard to its end: the place is the end, not where the last utterance or track began.
            line += status.duration.map { " at \(TerminalScreen.time($0)) of \(TerminalScreen.time($0))" } ?? " at 100%"
        } else if let elapsed = status.elapsed, let duration = status.duration {
            line += " at \(TerminalScreen.time(elapsed)) of \(TerminalScreen.time(duration))"
        } else if let progression = status.progression {
            line += " at \(TerminalScreen.percent(progression))"
        }
        if let index = status.chapterIndex, let chapter = status.chapter { line += ", chapter \(index + 1): \(chapter.title)" }
        return line
    }

    // MARK: keys

    private func readKeys() {
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            for key in decoder.feed(buffer[0..<count]) { handle(key) }
        }
    }

    private func handle(_ key: Key) {
        let action = shared.withLock { state in
            let action = state.keyMap.action(for: key, status: state.status, overlay: state.overlay)
            switch action {
            case .show(let overlay): state.overlay = overlay
            case .open(let overlay, _): state.overlay = overlay
            case .command(let command):
                state.overlay = .none  // a list's entry picked (no other key of an overlay sends a command)
                state.status.expect(command)
            case .none: break
            }
            return action
        }
        switch action {
        case .command(let command): commandContinuation.yield(command)
        case .show: markDirty()
        case .open(_, let command):
            markDirty()
            commandContinuation.yield(command)
        case .none: break
        }
    }

    // MARK: drawing

    private func setSuspended(_ suspended: Bool) {
        wake.lock()
        isSuspended = suspended
        wake.unlock()
    }

    private func markDirty() {
        wake.lock()
        isDirty = true
        wake.signal()
        wake.unlock()
    }

    private func redrawAll() {
        shared.withLock { $0.lastFrame = [] }
        if drawsScreen { TerminalMode.writeToTerminal("\u{1B}[2J") }
        markDirty()
    }

    private func showCapturedLine(_ line: String) {
        var text = line
        if text.hasPrefix("raudio: ") { text.removeFirst("raudio: ".count) }
        let kind: PlayerStatus.Message.Kind = text.hasPrefix("error") ? .error : text.hasPrefix("warning") ? .warning : .info
        shared.withLock { $0.status.message = PlayerStatus.Message(kind: kind, text: text) }
        markDirty()
    }

    private func drawLoop() {
        while true {
            wake.lock()
            while isRunning && (!isDirty || isSuspended) {
                // A running sleep timer counts down on screen even when no event comes.
                let ticking = shared.withLock { $0.status.sleepRemaining() != nil }
                if ticking {
                    if !wake.wait(until: Date().addingTimeInterval(1)) { break }
                } else {
                    wake.wait()
                }
            }
            isDirty = false
            let running = isRunning
            let suspended = isSuspended
            wake.unlock()
            guard running else { break }
            if suspended { continue }
            if drawsScreen { drawFrame() } else { printLogLines() }
            Thread.sleep(forTimeInterval: 0.25)
        }
        displayStopped.signal()
    }

    private func drawFrame() {
        let size = TerminalMode.size()
        let output: String? = shared.withLock { state in
            let screen = TerminalScreen(status: state.status, columns: size.columns, rows: size.rows, overlay: state.overlay)
            let frame = screen.lines().map { $0.rendered(columns: size.columns, capabilities) }
            guard frame != state.lastFrame else { return nil }
            var output = "\u{1B}[?25l"
            for (row, line) in frame.enumerated() where state.lastFrame.count != frame.count || state.lastFrame[row] != line {
                output += "\u{1B}[\(row + 1);1H" + line + "\u{1B}[K"
            }
            state.lastFrame = frame
            return output
        }
        if let output { TerminalMode.writeToTerminal(output) }
    }

    /// `TERM=dumb`: no cursor movement, so a line is printed for each change of state, chapter or
    /// sentence, and for each message.
    private func printLogLines() {
        let output: String = shared.withLock { state in
            var lines: [String] = []
            let status = state.status
            if let message = status.message, message != state.lastLogMessage {
                state.lastLogMessage = message
                lines.append((message.kind == .error ? "error: " : message.kind == .warning ? "warning: " : "") + message.text)
            }
            var summary = [status.state.name]
            if let index = status.chapterIndex, let chapter = status.chapter { summary.append("chapter \(index + 1): \(chapter.title)") }
            let line = summary.joined(separator: " · ")
            if line != state.lastLogLine {
                state.lastLogLine = line
                lines.append(line)
            }
            if let sentence = status.sentence, sentence != state.lastLogSentence {
                state.lastLogSentence = sentence
                lines.append(sentence.split(whereSeparator: \.isWhitespace).joined(separator: " "))
            }
            return lines.map { TerminalText.printable($0) + "\n" }.joined()
        }
        if !output.isEmpty { TerminalMode.writeToTerminal(output) }
    }
}
