// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import Testing

/// docs/ARCHITECTURE.md says what holds: its picture (docs/architecture.dot and .svg) is what
/// `scripts/architecture-graph.py` makes of Package.swift and the sources now, and every file or folder it names
/// exists. A module, a declared dependency, a C module, an `import` or a library loaded with dlopen added without
/// redrawing the picture fails here, and so does a file moved or removed that the document still sends a newcomer to.
@Suite struct ArchitectureDocumentTests {
    @Test func thePictureIsWhatPackageSwiftAndTheSourcesSayNow() throws {
        let script = Corpus.projectRoot.appendingPathComponent("scripts/architecture-graph.py")
        // `swift package dump-package` compiles the manifest: generous on a loaded machine.
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "--check"], timeout: 600)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.standardError)\n\(result.standardOutput)")
    }

    @Test func everyPathTheDocumentNamesExists() throws {
        let document = Corpus.projectRoot.appendingPathComponent("docs/ARCHITECTURE.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let paths = Self.namedPaths(in: text)
        #expect(paths.count > 50, "docs/ARCHITECTURE.md names \(paths.count) paths")
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: Corpus.projectRoot.appendingPathComponent(path).path),
                    "docs/ARCHITECTURE.md names \(path), which does not exist")
        }
    }

    /// The code spans of `text` that are paths of the source tree: they begin with one of its top folders (or are
    /// one of its top files), hold no space, wildcard or placeholder; a `:line` or `#anchor` after a path is left out.
    /// Fenced blocks are left out.
    static func namedPaths(in text: String) -> Set<String> {
        let roots = ["Sources/", "Tests/", "scripts/", "docs/", "web/", "piper/", "aligner/", "voices/", ".ci/", "Snippets/", "samples/"]
        let files: Set = ["Package.swift", "Makefile", "README.md", "CHANGELOG.md", "THIRD_PARTY.md", "BENCHMARKS.md"]
        var paths = Set<String>()
        let prose = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("```") }.joined(separator: "\n")
        for (index, part) in prose.components(separatedBy: "`").enumerated() where index % 2 == 1 {
            var path = String(part.prefix { $0 != ":" && $0 != "#" })
            guard roots.contains(where: { path.hasPrefix($0) }) || files.contains(path) else { continue }
            guard !path.contains(where: { " *<>{}|".contains($0) }) else { continue }
            if path.hasSuffix("/") { path.removeLast() }
            paths.insert(path)
        }
        return paths
    }
}
