// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// Runs a program to completion for a test, with optional stdin, and returns what it printed.
///
/// A watchdog kills the program after `timeout` seconds, so a hang fails the test instead of stalling
/// the suite; `timedOut` tells which happened.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
    public var timedOut: Bool
    /// Whether the process ended by a signal (a crash), not by `exit`.
    public var endedBySignal: Bool

    /// The non-empty lines of stdout.
    public var outputLines: [String] {
        standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

public enum ProcessRunner {
    /// Runs `executable` with `arguments`; stdin gets `input` then EOF (or stays open for `keepStdinOpen`).
    public static func run(
        _ executable: URL, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil,
        timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-test-\(UUID().uuidString).out")
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-test-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let outputHandle = try FileHandle(forWritingTo: outputFile)
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        // Started as raudio starts its own children (one at a time, the stdin pipe made under the same lock):
        // tests that start programs from several threads give none another's descriptors.
        let inputPipe = try ChildProcessLaunch.run(process) {
            let pipe = Pipe()
            process.standardInput = pipe
            return pipe
        }
        if let input { try? inputPipe.fileHandleForWriting.write(contentsOf: input) }
        try? inputPipe.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        var watchdogReport = ""
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                // What each process of the tree was doing, for the test's message; then the whole tree goes
                // (a `sh -c` killed alone would leave its children running on).
                let tree = ProcessTree.descendants(of: process.processIdentifier)
                watchdogReport = "\nwatchdog: still running after \(Int(timeout)) s, killed:\n" + ProcessTree.describe([process.processIdentifier] + tree)
                process.terminate()
                for pid in tree { kill(pid, SIGTERM) }
                Thread.sleep(forTimeInterval: 0.5)
                for pid in [process.processIdentifier] + tree { kill(pid, SIGKILL) }
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        try? outputHandle.close()
        try? errorHandle.close()
        return ProcessResult(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "",
            standardError: ((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "") + watchdogReport,
            timedOut: timedOut,
            endedBySignal: process.terminationReason == .uncaughtSignal
        )
    }

    /// The `raudio` executable the end-to-end tests run: `RAUDIO_TEST_BINARY` when set (CI runs them on the
    /// release build that ships, `.ci/run`), else the one built next to the test bundle.
    public static var raudioExecutable: URL {
        if let path = ProcessInfo.processInfo.environment["RAUDIO_TEST_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return builtProductsFolder.appendingPathComponent("raudio")
    }

    /// The folder of the products built with the tests (`raudio`, the documentation's snippet programs):
    /// the first folder above the test bundle that holds a `raudio` executable.
    public static var builtProductsFolder: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("raudio")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return Corpus.projectRoot.appendingPathComponent(".build/debug")
    }

    /// Runs the built `raudio` with `arguments`. Unless `environment` names a `RAUDIO_STATE_DIR` (an
    /// `XDG_CACHE_HOME`), the run gets a listening-state (cache) directory of its own, removed after:
    /// tests never resume each other's books, nor touch the user's state or cache.
    public static func raudio(
        _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil, timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        var environment = environment ?? [:]
        var ownState: URL?
        if environment["RAUDIO_STATE_DIR"] == nil {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-test-state-\(UUID().uuidString)")
            environment["RAUDIO_STATE_DIR"] = directory.path
            ownState = directory
        }
        // Nor the servers an LCP licence names (outside hosts for the real vectors): `RAUDIO_LCP_OFFLINE=0` lets
        // a test reach its own status server on 127.0.0.1.
        if environment["RAUDIO_LCP_OFFLINE"] == nil { environment["RAUDIO_LCP_OFFLINE"] = "1" }
        // Nor its cache of remote bytes (`$XDG_CACHE_HOME/raudio`).
        var ownCache: URL?
        if environment["XDG_CACHE_HOME"] == nil {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-test-cache-\(UUID().uuidString)")
            environment["XDG_CACHE_HOME"] = directory.path
            ownCache = directory
        }
        defer {
            if let ownState { try? FileManager.default.removeItem(at: ownState) }
            if let ownCache { try? FileManager.default.removeItem(at: ownCache) }
        }
        return try run(raudioExecutable, arguments, input: input, environment: environment, timeout: timeout)
    }
}
