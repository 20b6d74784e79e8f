// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

/// Finds the shared test corpus: `$RAUDIO_CORPUS`, else `../shared/corpus` beside the project root.
///
/// Where neither exists, tests skip with a message; when the environment variable `CI` is set, a
/// missing corpus is a failure instead, so a broken path cannot pass unnoticed.
public enum Corpus {
    /// The project root (the folder holding Package.swift), found from this source file's path.
    public static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url
            }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The corpus folder, or nil when it is absent.
    public static let root: URL? = {
        if let path = ProcessInfo.processInfo.environment["RAUDIO_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let beside = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: beside.path) ? beside : nil
    }()

    /// Whether tests run in CI, where a missing corpus must fail rather than skip.
    public static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"] ?? ""
        return !value.isEmpty && value != "0" && value.lowercased() != "false"
    }

    /// Whether corpus tests can run here. Use as a Swift Testing condition:
    /// `@Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))`. In CI this is always true, so that
    /// `file(_:)` then fails loudly if the corpus is missing.
    public static var isAvailable: Bool { root != nil || isCI }

    public static let skipMessage: Comment = "the shared corpus is absent (set RAUDIO_CORPUS or put shared/ beside the project)"

    /// The URL of `relativePath` inside the corpus. Throws when the corpus or the file is missing.
    public static func file(_ relativePath: String) throws -> URL {
        guard let root else { throw CorpusMissing(path: relativePath) }
        let url = root.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { throw CorpusMissing(path: url.path) }
        return url
    }

    /// Every file of the corpus whose name ends with `.<fileExtension>`, sorted by path. Throws when
    /// the corpus is missing (which only a test enabled by `isAvailable` in CI can meet).
    public static func files(withExtension fileExtension: String) throws -> [URL] {
        guard let root else { throw CorpusMissing(path: "*.\(fileExtension)") }
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var found: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension.lowercased() == fileExtension.lowercased() { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The `shared/tools` folder beside the corpus.
    public static var toolsFolder: URL? {
        root?.deletingLastPathComponent().appendingPathComponent("tools")
    }
}

/// The corpus, or a file expected in it, is missing.
public struct CorpusMissing: Error, CustomStringConvertible {
    public var path: String
    public init(path: String) { self.path = path }
    public var description: String { "corpus file missing: \(path) (set RAUDIO_CORPUS or put shared/ beside the project)" }
}
