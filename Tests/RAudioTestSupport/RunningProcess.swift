// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// A process under test that keeps running while the test talks to it: stdin stays open, stdout is
/// read line by line on a background thread, signals can be sent and `/proc` read.
///
/// Always ended: `finish(timeout:)` waits (and kills it when it overruns), and deinit kills it.
public final class RunningProcess: @unchecked Sendable {
    public let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errorOutput = Pipe()
    private let lines = Locked<[String]>([])
    private let errors = Locked(Data())
    private let readerDone = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments` (the environment is this process's plus `environment`).
    /// Unless `environment` names a `RAUDIO_STATE_DIR`, the process gets a listening-state directory
    /// of its own (see `ProcessRunner.raudio`).
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        var environment = environment
        if environment["RAUDIO_STATE_DIR"] == nil {
            environment["RAUDIO_STATE_DIR"] = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-test-state-\(UUID().uuidString)").path
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorOutput
        try ChildProcessLaunch.run(process)
        let outputHandle = output.fileHandleForReading
        let lines = lines, done = readerDone
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = outputHandle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.withLock { $0.append(line) }
                }
            }
            done.signal()
        }
        let errorHandle = errorOutput.fileHandleForReading
        let errors = errors
        Thread.detachNewThread {
            while true {
                let chunk = errorHandle.availableData
                if chunk.isEmpty { break }
                errors.withLock { $0.append(chunk) }
            }
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The stdout lines read so far.
    public var outputLines: [String] { lines.withLock { $0 } }

    /// What the process wrote on stderr so far.
    public var standardError: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }

    /// Writes `text` to the process's stdin; false when the pipe is closed.
    @discardableResult
    public func send(_ text: String) -> Bool {
        (try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))) != nil
    }

    /// Closes the process's stdin (end of input).
    public func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits until a stdout line satisfies `predicate` (a line at index `start` of `outputLines` or later);
    /// false after `timeout` seconds or once the process has ended without one.
    public func waitForLine(from start: Int = 0, timeout: TimeInterval, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var checked = start
        while Date() < deadline {
            let current = outputLines
            if current[checked...].contains(where: predicate) { return true }
            checked = current.count
            if !process.isRunning {
                Thread.sleep(forTimeInterval: 0.1)
                return outputLines[checked...].contains(where: predicate)
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// A field of `/proc/PID/status` in kB (`VmHWM`, `VmRSS`), while the process runs.
    public func statusKilobytes(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("\(field):") {
            return line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
        }
        return nil
    }

    /// Waits for the process to end (killing it after `timeout` seconds) and for stdout to be read.
    /// Returns whether it ended by itself.
    @discardableResult
    public func finish(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let ended = !process.isRunning
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        _ = readerDone.wait(timeout: .now() + 5)
        return ended
    }

    /// The exit status, once `finish(timeout:)` has returned.
    public var exitStatus: Int32 { process.terminationStatus }
}
