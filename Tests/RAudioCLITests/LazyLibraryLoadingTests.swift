// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// libespeak-ng, libpulse and libsystemd are not linked but loaded with dlopen on first use (CESpeakNG,
/// CPulseAudio, CSystemdBus over CLazyLibrary): a book played to a file or to null maps none of them nor
/// the ~40 libraries they need; speech and PulseAudio still work; a library that cannot be loaded is an
/// error naming it, with exit 69.
@Suite struct LazyLibraryLoadingTests {
    static let mp3 = Corpus.projectRoot.appendingPathComponent("samples/gull-rock/01-the-storm.mp3").path

    /// The libraries loaded on demand; none may be mapped by a process that does not use them.
    static let onDemand = ["libespeak-ng.so", "libpulse.so", "libpulse-simple.so", "libpcaudio.so", "libsndfile.so", "libsystemd.so"]

    @Test func theBinaryLinksNoneOfThem() throws {
        let ldd = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ldd"), [ProcessRunner.raudioExecutable.path])
        #expect(ldd.status == 0)
        #expect(ldd.standardOutput.contains("libmpg123"), "ldd output: \(ldd.standardOutput.prefix(200))")
        for library in Self.onDemand {
            #expect(!ldd.standardOutput.contains(library), "raudio links \(library): \(ldd.standardOutput)")
        }
    }

    /// The forwarding functions have the libraries' names but are hidden (local symbols, `t` in nm): were
    /// they exported (an executable linked with --export-dynamic), they would replace the library's own
    /// for its internal calls.
    @Test func theForwardingFunctionsAreLocal() throws {
        let nm = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/nm"), [ProcessRunner.raudioExecutable.path])
        #expect(nm.status == 0, "\(nm.standardError)")
        let lines = nm.standardOutput.split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix(" T raudio_pulse_load_error") }, "nm lists the global functions")
        for function in ["espeak_Synth", "espeak_Initialize", "pa_stream_write", "pa_context_connect", "sd_bus_open_user", "sd_bus_process"] {
            #expect(lines.contains { $0.hasSuffix(" t \(function)") }, "\(function) is not a local function of the binary")
        }
        let exported = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/nm"), ["-D", "--defined-only", ProcessRunner.raudioExecutable.path])
        #expect(!exported.standardOutput.contains("pa_stream_write") && !exported.standardOutput.contains("espeak_Synth"))
    }

    /// The shared objects mapped by the running process `pid` (`/proc/PID/maps`).
    static func mappedLibraries(_ pid: Int32) throws -> Set<String> {
        // cat, not String(contentsOfFile:): /proc files report size 0 and Foundation read only part of it.
        let maps = try ProcessRunner.run(URL(fileURLWithPath: "/bin/cat"), ["/proc/\(pid)/maps"]).standardOutput
        return Set(maps.split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).last.flatMap { $0.contains(".so") ? String($0.split(separator: "/").last!) : nil }
        })
    }

    /// An MP3 played to null, the process kept open after the end: what it maps while alive.
    @Test func anMP3PlayedToNullMapsNoSpeechPulseAudioOrSystemd() throws {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", Self.mp3, "--output", "null", "--keep-open", "--json", "--no-state"])
        defer { running.finish(timeout: 10) }
        try #require(running.waitForLine(timeout: 30) { $0.contains("\"state\":\"ended\"") }, "\(running.standardError)")
        let mapped = try Self.mappedLibraries(running.process.processIdentifier)
        #expect(mapped.contains { $0.hasPrefix("libmpg123.so") }, "the decoder is mapped: \(mapped.sorted())")
        for library in Self.onDemand {
            #expect(!mapped.contains { $0.hasPrefix(library) }, "\(library) is mapped: \(mapped.sorted())")
        }
        running.send("quit\n")
        #expect(running.finish(timeout: 10))
        #expect(running.process.terminationStatus == 0, "\(running.standardError)")
    }

    /// `raudio speak` loads libespeak-ng when it starts the engine and speaks as before.
    @Test func speakLoadsESpeakAndSpeaks() throws {
        let result = try ProcessRunner.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--duration", "3"],
                                              environment: ["LD_DEBUG": "files"], timeout: 60)
        #expect(result.status == 0, "\(result.standardError.suffix(2000))")
        #expect(result.standardError.contains("file=libespeak-ng.so.1 [0];  dynamically loaded by"), "libespeak-ng was not dlopened")
        #expect(result.outputLines.contains { $0.contains("\"type\":\"utterance\"") })
    }

    /// A directory holding a file that is not a shared library under the name dlopen looks for.
    static func brokenLibraryDirectory(_ soname: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-broken-lib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not an ELF file\n".utf8).write(to: directory.appendingPathComponent(soname))
        return directory
    }

    /// A broken libpulse.so.0 first on the library path: playing to null still works (it is not loaded),
    /// playing to PulseAudio fails with exit 69 and a message naming the file, and `raudio version` says
    /// it is unavailable.
    @Test func aBrokenLibpulseIsAClearErrorOnlyForPulseOutput() throws {
        let directory = try Self.brokenLibraryDirectory("libpulse.so.0")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["LD_LIBRARY_PATH": directory.path]
        let null = try ProcessRunner.raudio(["play", Self.mp3, "--output", "null", "--duration", "1"], environment: environment)
        #expect(null.status == 0, "\(null.standardError)")
        let pulse = try ProcessRunner.raudio(["play", Self.mp3, "--output", "pulse", "--no-mpris", "--reconnect-timeout", "0"],
                                             environment: environment.merging(["PULSE_SERVER": "unix:/nonexistent"]) { _, new in new })
        #expect(pulse.status == 69, "exit \(pulse.status): \(pulse.standardError)")
        #expect(pulse.standardError.contains("libpulse.so.0"), "\(pulse.standardError)")
        #expect(pulse.standardError.contains("libpulse0"), "the message names the Debian package: \(pulse.standardError)")
        #expect(pulse.outputLines.contains { $0.contains("\"code\":\"audio-server-unavailable\"") }, "\(pulse.standardOutput)")
        let version = try ProcessRunner.raudio(["version"], environment: environment)
        #expect(version.status == 0, "\(version.standardError)")
        #expect(version.outputLines.contains { $0.hasPrefix("libpulse") && $0.contains("unavailable") && $0.contains("libpulse.so.0") }, "\(version.standardOutput)")
    }

    /// A broken libespeak-ng.so.1: `raudio speak` exits 69 naming it; `raudio voices` too.
    @Test func aBrokenLibespeakIsAClearError() throws {
        let directory = try Self.brokenLibraryDirectory("libespeak-ng.so.1")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["LD_LIBRARY_PATH": directory.path]
        let speak = try ProcessRunner.raudio(["speak", SpeakCommandTests.sampleEPUB, "--output", "null"], environment: environment, timeout: 30)
        #expect(speak.status == 69, "exit \(speak.status): \(speak.standardError)")
        #expect(speak.standardError.contains("libespeak-ng.so.1"), "\(speak.standardError)")
        let voices = try ProcessRunner.raudio(["voices"], environment: environment, timeout: 30)
        #expect(voices.status == 69, "exit \(voices.status): \(voices.standardError)")
        #expect(voices.standardError.contains("libespeak-ng.so.1"), "\(voices.standardError)")
        let play = try ProcessRunner.raudio(["play", Self.mp3, "--output", "null", "--duration", "1"], environment: environment)
        #expect(play.status == 0, "a recorded book needs no eSpeak NG: \(play.standardError)")
    }

    /// A broken libsystemd.so.0: the desktop's media controls (MPRIS, on with --realtime) are not offered,
    /// and playback goes on as without a session bus.
    @Test func aBrokenLibsystemdOnlyTurnsTheMediaControlsOff() throws {
        let directory = try Self.brokenLibraryDirectory("libsystemd.so.0")
        defer { try? FileManager.default.removeItem(at: directory) }
        let play = try ProcessRunner.raudio(["play", Self.mp3, "--output", "null", "--realtime", "--duration", "1"],
                                            environment: ["LD_LIBRARY_PATH": directory.path, "LD_DEBUG": "files"])
        #expect(play.status == 0, "\(play.standardError.suffix(2000))")
        #expect(play.standardError.contains("file=libsystemd.so.0 [0];  dynamically loaded by"), "the MPRIS thread tried to load libsystemd")
        #expect(play.outputLines.contains { $0.contains("\"state\":\"stopped\"") }, "--duration 1 stops playback: \(play.standardOutput.suffix(500))")
    }
}
