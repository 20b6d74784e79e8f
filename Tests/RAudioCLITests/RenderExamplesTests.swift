// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// The sharded-render examples of docs/render.md: the Kubernetes manifest validates against Kubernetes' own
/// schemas (offline, kubernetes-validate from .venv-tools, which `make deps` makes), and its commands, run as
/// its pods would (JOB_COMPLETION_INDEX 0 to 7, then the merge) on a copy of the sample book, render it.
@Suite(.serialized) struct RenderExamplesTests {
    static let manifest = Corpus.projectRoot.appendingPathComponent("docs/render/kubernetes.yaml")
    static let validator = Corpus.projectRoot.appendingPathComponent(".venv-tools/bin/kubernetes-validate")

    @Test func theKubernetesManifestValidatesOffline() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.validator.path) else {
            #expect(!Corpus.isCI, "no \(Self.validator.path): make deps makes it")
            return
        }
        let result = try ProcessRunner.run(Self.validator, ["--strict", Self.manifest.path], timeout: 120)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.components(separatedBy: " passed for resource ").count - 1 == 3, "\(result.standardOutput)")
    }

    /// The shell commands of the manifest's containers (`args` of `sh -c`, folded), in order.
    static func commands() throws -> [String] {
        let lines = try String(contentsOf: manifest, encoding: .utf8).components(separatedBy: "\n")
        var commands: [String] = []
        var index = 0
        while index < lines.count {
            if lines[index].trimmingCharacters(in: .whitespaces) == "- >-" {
                let indent = lines[index].prefix { $0 == " " }.count
                var folded: [String] = []
                index += 1
                while index < lines.count, lines[index].prefix(while: { $0 == " " }).count > indent {
                    folded.append(lines[index].trimmingCharacters(in: .whitespaces))
                    index += 1
                }
                commands.append(folded.joined(separator: " "))
            } else {
                index += 1
            }
        }
        return commands
    }

    @Test func theManifestsCommandsRenderABook() throws {
        let commands = try Self.commands()
        try #require(commands.count == 2, "a shard command and a merge command: \(commands)")
        let work = RenderCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: work) }
        for folder in ["parts", "out", "cache"] {
            try FileManager.default.createDirectory(at: work.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: RenderCommandTests.sample, toPath: work.appendingPathComponent("book.epub").path)
        let binaries = ProcessRunner.raudioExecutable.deletingLastPathComponent().path
        func run(_ command: String, index: Int? = nil) throws -> ProcessResult {
            var environment = ["PATH": "\(binaries):/usr/bin:/bin"]
            if let index { environment["JOB_COMPLETION_INDEX"] = String(index) }
            return try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command.replacingOccurrences(of: "/work/", with: work.path + "/")],
                                         environment: environment, timeout: 300)
        }
        for index in 0..<8 {
            let result = try run(commands[0], index: index)
            #expect(result.status == 0, "pod \(index): \(result.standardError)")
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("parts/part-\(index + 1).rpart").path))
        }
        let merged = try run(commands[1])
        #expect(merged.status == 0, "merge: \(merged.standardError)")
        let outputs = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("out").path).sorted()
        #expect(outputs == ["book.epub", "book.m4b"].filter { name in commands[1].contains(name) }.sorted(), "\(outputs)")
    }
}
