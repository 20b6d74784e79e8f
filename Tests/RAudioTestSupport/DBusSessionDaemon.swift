// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// A private D-Bus session bus for one test: `dbus-daemon --session --nofork --print-address` listening
/// on a socket in its own `mkdtemp` folder. Always stopped: `stop()` (idempotent) or deinit.
///
/// Give `environment` to the processes that must use it (raudio, playerctl, busctl, gdbus): it sets
/// `DBUS_SESSION_BUS_ADDRESS` and a private `XDG_RUNTIME_DIR`, so nothing reaches the user's own bus.
public final class DBusSessionDaemon: @unchecked Sendable {
    /// The folder holding the socket and the runtime folder.
    public let directory: URL
    /// The bus address as the daemon printed it (`unix:path=...,guid=...`).
    public let address: String
    private let process = Process()
    private let stopped = Locked(false)

    /// Whether `dbus-daemon`, `playerctl`, `busctl` and `gdbus` are installed.
    public static var isInstalled: Bool {
        ["dbus-daemon", "playerctl", "busctl", "gdbus", "dbus-monitor"].allSatisfy { PulseAudioDaemon.executable($0) != nil }
    }
    /// In CI (`CI` set) the MPRIS tests run anyway, and fail when a tool is missing.
    public static var isAvailable: Bool { isInstalled || Corpus.isCI }
    public static let skipMessage: Comment = "dbus-daemon, playerctl, busctl, gdbus or dbus-monitor is missing (apt-get install dbus-daemon dbus-bin playerctl libglib2.0-bin systemd)"

    /// The environment for a client of this bus.
    public var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path]
    }

    /// Starts the daemon and waits (at most 10 s) for the address it prints once it listens.
    public init() throws {
        guard let executable = PulseAudioDaemon.executable("dbus-daemon") else { throw DBusSessionDaemonError("dbus-daemon is not installed") }
        var template = Array("/tmp/raudio-dbus.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw DBusSessionDaemonError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        directory = URL(fileURLWithPath: String(cString: made))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("run"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let output = Pipe()
        process.executableURL = executable
        process.arguments = ["--session", "--nofork", "--print-address", "--address=unix:path=\(directory.path)/bus"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The address line is written once the socket listens.
        var printed = Data()
        let deadline = Date().addingTimeInterval(10)
        let descriptor = output.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        while !printed.contains(0x0A), Date() < deadline, process.isRunning {
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 { printed.append(contentsOf: buffer[0..<count]) } else { Thread.sleep(forTimeInterval: 0.01) }
        }
        address = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("unix:") else {
            stop()
            throw DBusSessionDaemonError("dbus-daemon printed no address within 10 s")
        }
    }

    deinit { stop() }

    /// Stops the daemon (SIGTERM, then SIGKILL after 2 s) and removes its folder.
    public func stop() {
        let alreadyStopped = stopped.withLock { value in
            defer { value = true }
            return value
        }
        guard !alreadyStopped else { return }
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs a client tool (`playerctl`, `busctl`, `gdbus`) on this bus and returns what it printed.
    public func run(_ tool: String, _ arguments: [String], timeout: TimeInterval = 10) throws -> ProcessResult {
        guard let executable = PulseAudioDaemon.executable(tool) else { throw DBusSessionDaemonError("\(tool) is not installed") }
        return try ProcessRunner.run(executable, arguments, environment: environment, timeout: timeout)
    }

    /// Starts a client tool that keeps running (`dbus-monitor`), on this bus.
    public func start(_ tool: String, _ arguments: [String]) throws -> RunningProcess {
        guard let executable = PulseAudioDaemon.executable(tool) else { throw DBusSessionDaemonError("\(tool) is not installed") }
        return try RunningProcess(executable, arguments, environment: environment)
    }
}

/// The private bus could not be started.
public struct DBusSessionDaemonError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
