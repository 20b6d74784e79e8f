// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// WAV output that cannot be written: a read-only folder (exit 73), a full disk or a file-size limit
/// (exit 74). On failure no file pretends to be complete: the target is absent, no temporary is left.
@Suite(.serialized) struct OutputFaultTests {
    /// Mounting a tmpfs needs root (as in CI); elsewhere the tmpfs cases skip.
    static let canMount = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")

    /// Mounts a tmpfs with `options` on a fresh folder, runs `body`, unmounts.
    static func withTmpfs<T>(_ options: String, _ body: (String) throws -> T) throws -> T {
        let folder = try TemporaryDirectory()
        let mount = try ProcessRunner.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", options, "tmpfs", folder.url.path], timeout: 10)
        try #require(mount.status == 0, "mount failed: \(mount.standardError)")
        defer { _ = try? ProcessRunner.run(URL(fileURLWithPath: "/bin/umount"), [folder.url.path], timeout: 10) }
        return try body(folder.url.path)
    }

    static func render(to path: String, command: String = "play") throws -> (ProcessResult, [JSONObject]) {
        let input = command == "play" ? PlayCommandTests.sampleBook : SpeakCommandTests.sampleEPUB
        let result = try ProcessRunner.raudio([command, input, "--output", "wav:\(path)"], timeout: 120)
        return (result, try result.outputLines.map(PlayCommandTests.object))
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root"), arguments: ["play", "speak"])
    func readOnlyFolderExits73WithAnErrorNamingTheFile(command: String) throws {
        try Self.withTmpfs("ro,size=64k") { folder in
            let target = "\(folder)/book.wav"
            let (result, events) = try Self.render(to: target, command: command)
            #expect(result.status == 73, "\(result.standardError)")
            #expect(result.standardError.contains(target))
            #expect(events.contains { $0["type"] == "error" && $0["fatal"] == true && $0["code"] == "output-not-created" })
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        }
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root"), arguments: ["play", "speak"])
    func fullDiskExits74AndLeavesNoFile(command: String) throws {
        // 64 KiB hold well under a second of 44.1 kHz stereo: the disk fills early.
        try Self.withTmpfs("size=64k") { folder in
            let target = "\(folder)/book.wav"
            let (result, events) = try Self.render(to: target, command: command)
            #expect(result.status == 74, "\(result.standardError)")
            #expect(!result.endedBySignal)
            #expect(events.contains { $0["type"] == "error" && $0["fatal"] == true && $0["code"] == "output-write-failed" })
            let left = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }

    @Test func fileSizeLimitExits74WithoutDyingOfSIGXFSZ() throws {
        let folder = try TemporaryDirectory()
        let target = folder.path("book.wav")
        // ulimit -f counts 1024-byte blocks: 100 KiB, about half a second of the sample.
        let script = "ulimit -f 100; RAUDIO_NO_STATE=1 exec '\(ProcessRunner.raudioExecutable.path)' play '\(PlayCommandTests.sampleBook)' --output 'wav:\(target)'"
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], timeout: 60)
        #expect(!result.endedBySignal, "raudio was killed (SIGXFSZ?)")
        #expect(result.status == 74, "\(result.standardError)")
        #expect(result.standardError.contains(target))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
