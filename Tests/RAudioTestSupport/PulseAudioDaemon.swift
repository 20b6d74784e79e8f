// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// A private PulseAudio daemon for one test, in its own `mktemp -d` runtime folder, with a null sink
/// `test_null` (`norewinds=1`) and an anonymous unix socket. Always stopped: use `withPulseAudioDaemon`,
/// or rely on deinit.
///
/// Pass `server` to the sink explicitly instead of changing the process environment.
public final class PulseAudioDaemon: @unchecked Sendable {
    /// The folder holding the runtime dir, home, socket and log.
    public let directory: URL
    /// The value for `PULSE_SERVER`: `unix:<directory>/native.sock`.
    public let server: String
    private let environment: [String: String]
    private let stopped = Locked(false)

    /// Whether `pulseaudio` is installed. In CI (`CI` set) tests run anyway and fail when it is missing.
    public static var isInstalled: Bool { executable("pulseaudio") != nil && executable("parec") != nil }
    /// Whether tests that play through PulseAudio stand down: `RAUDIO_TSAN=1`, which `make sanitize` and
    /// `.ci/run` set for ThreadSanitizer runs. libpulse is not instrumented, so TSan cannot see the
    /// locking of its mainloop threads and reports races inside it; those runs use the null and WAV outputs.
    public static var isSkippedUnderThreadSanitizer: Bool {
        ProcessInfo.processInfo.environment["RAUDIO_TSAN"] == "1"
    }
    public static var isAvailable: Bool { !isSkippedUnderThreadSanitizer && (isInstalled || Corpus.isCI) }
    public static var skipMessage: Comment {
        isSkippedUnderThreadSanitizer
            ? "RAUDIO_TSAN=1: PulseAudio tests skip under ThreadSanitizer (libpulse is not instrumented)"
            : "pulseaudio or parec is not installed (apt-get install pulseaudio pulseaudio-utils)"
    }

    /// Starts the daemon and waits (at most 10 s) until `pactl info` answers.
    public init() throws {
        guard Self.isInstalled else { throw PulseAudioDaemonError("pulseaudio or parec is not installed") }
        let path = try Self.makeTemporaryDirectory()
        directory = URL(fileURLWithPath: path)
        server = "unix:\(path)/native.sock"
        let runtime = "\(path)/run", home = "\(path)/home"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "XDG_RUNTIME_DIR": runtime, "HOME": home, "PULSE_SERVER": server,
        ]
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    /// Launches `pulseaudio` in `directory` and waits (at most 10 s) until `pactl info` answers.
    private func start() throws {
        let path = directory.path
        let status = try Self.run("pulseaudio", [
            "--daemonize=yes", "--use-pid-file=yes", "--exit-idle-time=-1", "--disallow-exit", "-n",
            "--disable-shm=yes", "--log-target=file:\(path)/pulse.log",
            "--load=module-null-sink sink_name=test_null rate=44100 channels=2 norewinds=1",
            "--load=module-native-protocol-unix auth-anonymous=1 socket=\(path)/native.sock",
        ], environment: environment)
        guard status == 0 else { throw PulseAudioDaemonError("pulseaudio exited with status \(status); see its log") }
        let deadline = Date().addingTimeInterval(10)
        while (try? Self.run("pactl", ["info"], environment: environment)) != 0 {
            if Date() > deadline { throw PulseAudioDaemonError("the private pulseaudio did not answer within 10 s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Starts the daemon again on the same socket and runtime folder, after `kill()` (as a user's
    /// session would restart it). Waits until the old process is gone and the new one answers.
    public func restart() throws {
        if let pid = processID {
            let deadline = Date().addingTimeInterval(5)
            while Glibc.kill(pid, 0) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        }
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("native.sock"))
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("run/pulse/pid"))
        try start()
    }

    deinit { stop() }

    /// The daemon's process id, from its pid file.
    public var processID: pid_t? {
        let pidFile = directory.appendingPathComponent("run/pulse/pid").path
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Kills the daemon at once (SIGKILL), as a crash would.
    public func kill() {
        if let pid = processID { Glibc.kill(pid, SIGKILL) }
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after 2 s) and removes its folder. Idempotent.
    public func stop() {
        let alreadyStopped = stopped.withLock { value in
            defer { value = true }
            return value
        }
        guard !alreadyStopped else { return }
        if let pid = processID, Glibc.kill(pid, 0) == 0 {
            Glibc.kill(pid, SIGTERM)
            let deadline = Date().addingTimeInterval(2)
            while Glibc.kill(pid, 0) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            Glibc.kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts `parec` on `test_null.monitor` (s16le, 44100 Hz, stereo). Start it before playing.
    public func record() throws -> PulseRecording {
        let process = Process()
        process.executableURL = Self.executable("parec")
        process.arguments = ["--device=test_null.monitor", "--latency-msec=20", "--format=s16le",
                             "--rate=44100", "--channels=2", "--raw"]
        process.environment = environment
        let recording = PulseRecording(process: process)
        try recording.start()
        return recording
    }

    /// The daemon's log, for failure messages.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("pulse.log"), encoding: .utf8)) ?? ""
    }

    static func executable(_ name: String) -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    private static func run(_ name: String, _ arguments: [String], environment: [String: String]) throws -> Int32 {
        guard let url = executable(name) else { throw PulseAudioDaemonError("\(name) is not installed") }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func makeTemporaryDirectory() throws -> String {
        var template = Array("/tmp/raudio-pulse.XXXXXX".utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw PulseAudioDaemonError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        return String(cString: result)
    }
}

/// Runs `body` with a fresh private daemon and stops the daemon afterwards, also when `body` throws.
public func withPulseAudioDaemon<T>(_ body: (PulseAudioDaemon) throws -> T) throws -> T {
    let daemon = try PulseAudioDaemon()
    defer { daemon.stop() }
    return try body(daemon)
}

/// A `parec` recording of what reached the null sink.
public final class PulseRecording: @unchecked Sendable {
    private let process: Process
    private let pipe = Pipe()
    private let bytes = Locked<[UInt8]>([])
    private let finished = DispatchSemaphore(value: 0)

    init(process: Process) {
        self.process = process
    }

    func start() throws {
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                bytes.withLock { $0.append(contentsOf: chunk[0..<count]) }
            }
            finished.signal()
        }
        thread.name = "parec reader"
        thread.start()
    }

    /// Stops parec with SIGINT and returns the recording: interleaved stereo Int16 at 44100 Hz.
    public func stop() -> [Int16] {
        // SIGINT first, as parec expects; children of the test runner may ignore it, so escalate.
        for signal in [SIGINT, SIGTERM, SIGKILL] where process.isRunning {
            Glibc.kill(process.processIdentifier, signal)
            let deadline = Date().addingTimeInterval(1)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        }
        process.waitUntilExit()
        _ = finished.wait(timeout: .now() + 5)
        return bytes.withLock { data in
            data.withUnsafeBytes { raw in
                Array(raw.bindMemory(to: Int16.self).prefix(data.count / 2)).map { Int16(littleEndian: $0) }
            }
        }
    }
}

/// The private daemon could not be started.
public struct PulseAudioDaemonError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
