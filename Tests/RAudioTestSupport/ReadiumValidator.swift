// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

/// Runs `shared/tools/readium-validate` on JSON the engine emitted.
///
/// Where the validator (or python3 with jsonschema) is missing, `isAvailable` is false so tests can
/// skip with a message; in CI `validate` throws instead, so a broken setup cannot pass unnoticed.
public enum ReadiumValidator {
    public enum Kind: String { case publication, locator }

    public struct Failure: Error, CustomStringConvertible {
        public var output: String
        public var description: String { "readium-validate failed:\n\(output)" }
    }

    public static var script: URL? {
        guard let tools = Corpus.toolsFolder else { return nil }
        let url = tools.appendingPathComponent("readium-validate")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    public static let hasPythonPackages: Bool = {
        let result = try? ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import jsonschema, referencing"], timeout: 30
        )
        return result?.status == 0
    }()

    public static var isAvailable: Bool { (script != nil && hasPythonPackages) || Corpus.isCI }

    public static let skipMessage: Comment = "readium-validate or python3 with jsonschema/referencing is missing (run make deps)"

    /// Validates `text` (a JSON document, or JSON lines for `.locator`) and throws on any invalid object.
    public static func validate(_ kind: Kind, _ text: String) throws {
        guard let script else { throw CorpusMissing(path: "shared/tools/readium-validate") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-validate-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, kind.rawValue, file.path], timeout: 120)
        guard result.status == 0 else { throw Failure(output: result.standardOutput + result.standardError) }
    }
}
