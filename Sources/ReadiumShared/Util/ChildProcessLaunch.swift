// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// How raudio starts a child process (its eSpeak NG and Piper workers, `xdg-open`): one at a time in the
/// whole process, its pipes made under the same lock.
///
/// Foundation's `Process.run()` on Linux closes in the child the descriptors that are open when it lists them
/// (3 up to the highest one), not those another thread opens meanwhile. Two workers started at once from two
/// threads then inherit each other's pipes and the socket by which Foundation learns that a child has ended:
/// while worker 1 holds worker 2's socket, worker 2's end goes unseen, it stays a zombie that `isRunning`
/// calls running, and a `waitUntilExit` on it never returns. That was a render that stopped its eSpeak NG
/// workers and hung for good (the sharded-render example of `RenderExamplesTests`: 1 run in 88 alone, 2 in
/// 10 beside CI's builds), and a worker's stdin that does not close while another worker holds its write end. Started one after the other, each child is started after the other's descriptors exist, and
/// Foundation closes them all in it.
public enum ChildProcessLaunch {
    private static let lock = NSLock()

    /// The three pipes of a child started by `runWithPipes`: the parent's ends are
    /// `input.fileHandleForWriting`, `output.fileHandleForReading` and `error.fileHandleForReading`.
    public struct Pipes: @unchecked Sendable {
        public let input: Pipe
        public let output: Pipe
        public let error: Pipe
    }

    /// Makes the child's stdin, stdout and stderr pipes and starts `process` with them. Throws what
    /// `Process.run()` throws.
    public static func runWithPipes(_ process: Process) throws -> Pipes {
        try run(process) {
            let pipes = Pipes(input: Pipe(), output: Pipe(), error: Pipe())
            process.standardInput = pipes.input
            process.standardOutput = pipes.output
            process.standardError = pipes.error
            return pipes
        }
    }

    /// Starts `process` once `prepare`, under the same lock, has made what it needs (pipes for some of its
    /// streams; the others as it was given them: files, `FileHandle.nullDevice`), and returns what `prepare` made.
    @discardableResult
    public static func run<Prepared>(_ process: Process, preparing prepare: () -> Prepared = {}) throws -> Prepared {
        try lock.withLock {
            let prepared = prepare()
            try process.run()
            return prepared
        }
    }
}
