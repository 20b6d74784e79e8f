// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// The README's examples, run exactly as written (issue 36): every command of its fenced shell blocks that
/// needs no person, in a folder where `book.epub` and `book.audiobook` are the sample books, with the `raudio`
/// just built first on `PATH` and the audio going to a private PulseAudio daemon. What the README's comment
/// after a command shows of its output (`# {"v":1,"type":"hello",...} ... {"v":1,"type":"ack",...}`) must be
/// in it; a command that reads a book aloud must start reading (the voice it names) and quit when told.
///
/// Left out, each for its reason: `make …` (the build steps CI itself runs: this test is part of `make test`),
/// `sudo …` (root), `man …` (a pager, for a person).
@Suite(.serialized) struct READMEExamplesTests {
    /// A command line of a fenced block, and what the README's comment after it says its output holds.
    struct Example: CustomStringConvertible {
        var block: Int
        var command: String
        var shown: String?

        var description: String { command }
        var runsInTheBackground: Bool { command.hasSuffix("&") }
        var readsABook: Bool { command.hasPrefix("raudio play ") || command.hasPrefix("raudio speak ") }
    }

    static let skippedWords: [String: String] = ["make": "a build step CI runs itself", "sudo": "needs root", "man": "a pager, for a person"]

    /// The commands of `readme`'s fenced blocks (untagged or `sh`), those that begin with a skipped word left out.
    static func examples(in readme: String) -> (runnable: [Example], skipped: [String]) {
        var runnable: [Example] = [], skipped: [String] = []
        var block = -1
        var isShell = false
        var inBlock = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                if inBlock {
                    block += 1
                    isShell = ["", "sh", "bash", "shell"].contains(line.dropFirst(3).trimmingCharacters(in: .whitespaces))
                }
                continue
            }
            guard inBlock, isShell else { continue }
            // `#` starts the comment unless it is inside quotes (`echo '{"command":...}'` has none there).
            let (command, comment) = split(String(line))
            guard let word = command.split(separator: " ").first.map(String.init), ["raudio", "echo", "make", "sudo", "man"].contains(word) else { continue }
            if skippedWords[word] != nil { skipped.append(command) } else { runnable.append(Example(block: block, command: command, shown: comment)) }
        }
        return (runnable, skipped)
    }

    /// A line as its command and the comment after it (trimmed), a `#` inside quotes being the command's.
    static func split(_ line: String) -> (String, String?) {
        var quote: Character?
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" {
                return (line[..<index].trimmingCharacters(in: .whitespaces), line[line.index(after: index)...].trimmingCharacters(in: .whitespaces))
            }
        }
        return (line.trimmingCharacters(in: .whitespaces), nil)
    }

    /// The parts of a comment that output must hold: `{"v":1,"type":"hello",...} ... {"v":1,...}` gives each
    /// object up to its `,...`; other text is taken whole, white space folded.
    static func expectedParts(of shown: String) -> [String] {
        shown.components(separatedBy: " ... ").map { part in
            let cut = part.components(separatedBy: ",...").first ?? part
            return folded(cut)
        }.filter { !$0.isEmpty }
    }

    static func folded(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    @Test func theREADMEsFencedCommandsAreFound() throws {
        let (runnable, skipped) = Self.examples(in: try String(contentsOf: Corpus.projectRoot.appendingPathComponent("README.md"), encoding: .utf8))
        #expect(runnable.contains { $0.command.contains("socat") }, "\(runnable)")
        #expect(runnable.filter(\.readsABook).count >= 3, "\(runnable)")
        #expect(skipped.contains { $0.hasPrefix("make demo") }, "\(skipped)")
        #expect(Self.split(#"echo '{"command":"pause"}' | socat - X   # {"type":"hello"}"#) == (#"echo '{"command":"pause"}' | socat - X"#, #"{"type":"hello"}"#))
        #expect(Self.expectedParts(of: #"{"v":1,"type":"hello",...} ... {"v":1,"type":"ack","id":1}"#) == [#"{"v":1,"type":"hello""#, #"{"v":1,"type":"ack","id":1}"#])
    }

    @Test(.enabled(if: PulseAudioDaemon.isAvailable, PulseAudioDaemon.skipMessage))
    func everyExampleRunsAsWritten() throws {
        let (examples, _) = Self.examples(in: try String(contentsOf: Corpus.projectRoot.appendingPathComponent("README.md"), encoding: .utf8))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("state"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = Corpus.projectRoot.appendingPathComponent("samples")
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("book.epub"), withDestinationURL: samples.appendingPathComponent("lighthouse.epub"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("book.audiobook"), withDestinationURL: samples.appendingPathComponent("gull-rock.audiobook"))
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let environment = [
            "PATH": ProcessRunner.raudioExecutable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "PULSE_SERVER": daemon.server, "XDG_STATE_HOME": folder.appendingPathComponent("state").path, "DBUS_SESSION_BUS_ADDRESS": "",
        ]
        var background: [RunningProcess] = []
        defer {
            for process in background {
                _ = process.send("quit\n")
                _ = process.finish(timeout: 10)
            }
        }
        print("READMEExamplesTests: running \(examples.count) examples: \(examples.map(\.command))")
        for example in examples {
            let script = "cd '\(folder.path)' && exec \(example.runsInTheBackground ? String(example.command.dropLast()) : example.command)"
            if example.runsInTheBackground || example.readsABook {
                let socket = example.command.components(separatedBy: "unix:").dropFirst().first?.split(separator: " ").first
                // A socket left by another run would be taken for this one's.
                if let socket { try? FileManager.default.removeItem(atPath: String(socket)) }
                let running = try RunningProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: environment)
                if let socket {
                    // The next command talks to it: wait until it listens, as a person would.
                    #expect(SecurityIPCTests.waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: String(socket)) },
                            "\(example): no socket \(socket)\n\(running.standardError)")
                }
                if example.runsInTheBackground {
                    background.append(running)
                    continue
                }
                let started = running.waitForLine(timeout: 60) { $0.contains(#""type":"utterance""#) || $0.contains(#""type":"position""#) }
                #expect(started, "\(example): never started reading\n\(running.standardError)")
                if let voice = example.command.components(separatedBy: "--voice ").dropFirst().first?.split(separator: " ").first {
                    #expect(running.outputLines.contains { $0.contains(#""voice":"\#(voice)""#) }, "\(example): not read by \(voice)")
                }
                if example.command.contains("--engine piper") {
                    #expect(running.outputLines.contains { $0.contains(#""engine":"piper""#) }, "\(example): not read by Piper\n\(running.standardError)")
                }
                _ = running.send("quit\n")
                #expect(running.finish(timeout: 30), "\(example): did not quit")
                #expect(running.process.terminationStatus == 0, "\(example): exit \(running.process.terminationStatus)\n\(running.standardError)")
                continue
            }
            let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: environment, timeout: 60)
            #expect(result.status == 0, "\(example): exit \(result.status)\n\(result.standardError)")
            let output = Self.folded(result.outputLines.joined(separator: "\n"))
            for part in example.shown.map(Self.expectedParts) ?? [] {
                #expect(output.contains(part), "\(example): its output lacks \(part)\n\(output.prefix(2000))")
            }
        }
    }
}
