// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Foundation
import ReadiumNavigator
import ReadiumShared

/// One running `raudio espeak-worker` process: its pipes, the end of its stderr, how it ended.
///
/// Started by `ESpeakWorker` on its thread, which alone writes requests and reads answers; a thread of
/// its own ("raudio.espeak-worker.stderr") keeps the last 2,000 characters of the worker's stderr to
/// quote when it dies. The worker exits when its stdin closes (`stop()`, or raudio's own exit).
final class ESpeakWorkerProcess: @unchecked Sendable {
    let process: Process
    let reader: PiperPipeReader
    private let input: FileHandle
    private let pipes: [Pipe]
    private let stderrTail: StandardErrorTail

    /// Starts `executable` with `arguments`; throws `.engineUnavailable` when it cannot be started.
    init(executable: URL, arguments: [String], name: String) throws(TTSError) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let launched: ChildProcessLaunch.Pipes
        do {
            launched = try ChildProcessLaunch.runWithPipes(process)
        } catch {
            throw TTSError(.engineUnavailable, message: "\(executable.path): cannot start \(name) (\(error))")
        }
        let stdin = launched.input, stdout = launched.output, stderr = launched.error
        // A pipe of 1 MB (`F_SETPIPE_SZ`, Linux's 1031; the default limit for unprivileged processes)
        // holds a whole answer of most utterances: the worker writes it and goes on to the next
        // request without waiting for this side to read. A refusal leaves the default 64 KB.
        _ = fcntl(stdout.fileHandleForReading.fileDescriptor, 1031, Int32(1 << 20))
        self.process = process
        pipes = [stdin, stdout, stderr]
        input = stdin.fileHandleForWriting
        reader = PiperPipeReader(descriptor: stdout.fileHandleForReading.fileDescriptor)
        stderrTail = StandardErrorTail(descriptor: stderr.fileHandleForReading.fileDescriptor, threadName: "raudio.espeak-worker.stderr")
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Writes `line` and a newline to the worker's stdin; false when the worker is gone (EPIPE).
    func send(_ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        let descriptor = input.fileDescriptor
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// How the worker ended, and the last lines of its stderr, for an error message. Kills it first if
    /// it still runs (it broke the protocol), then waits up to a second for its end and its stderr.
    func obituary() -> String {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        stderrTail.waitForEnd(timeout: 0.5)
        let status: String
        if process.isRunning {
            status = "still running"
        } else if process.terminationReason == .uncaughtSignal {
            status = "killed by signal \(process.terminationStatus)"
        } else {
            status = "exit status \(process.terminationStatus)"
        }
        let tail = stderrTail.lastLines
        return tail.isEmpty ? status : "\(status): \(tail)"
    }

    /// Closes the worker's stdin (it exits) and waits up to a second before killing it, then up to a
    /// second for its end: never for good (a child whose end Foundation misses would hold this thread, and
    /// the render or session that stops it, forever).
    func stop() {
        try? input.close()
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        let reaped = Date().addingTimeInterval(1)
        while process.isRunning, Date() < reaped { usleep(5_000) }
    }
}
