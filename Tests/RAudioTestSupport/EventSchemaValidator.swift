// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

/// Runs python3's `jsonschema` (Draft 7) over JSON lines; the schema is `docs/events.schema.json`.
public enum EventSchemaValidator {
    public static let schemaURL = Corpus.projectRoot.appendingPathComponent("docs/events.schema.json")
    /// `raudio render`'s events.
    public static let renderSchemaURL = Corpus.projectRoot.appendingPathComponent("docs/render-events.schema.json")

    /// Whether `python3 -c 'import jsonschema'` succeeds here.
    public static let isAvailable: Bool = (try? run(["-c", "import jsonschema"]).status) == 0

    public static let skipMessage: Comment = "python3 with the jsonschema module is missing (pip install jsonschema); required when CI is set"

    private static let script = """
    import json, sys, jsonschema
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    for line in open(sys.argv[2]):
        errors = sorted(validator.iter_errors(json.loads(line)), key=lambda e: list(e.path))
        print("ok" if not errors else "invalid: " + errors[0].message[:200])
    """

    /// Throws unless every line is a valid event.
    public static func validate(_ lines: [String], schema: URL = schemaURL) throws {
        let results = try verdicts(for: lines, schema: schema)
        for (line, verdict) in zip(lines, results) where verdict != "ok" {
            throw ValidatorFailed(output: "\(verdict)\n  in: \(line.prefix(300))")
        }
    }

    /// One verdict per line: "ok" or "invalid: <reason>".
    public static func verdicts(for lines: [String], schema: URL = schemaURL) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-events-\(UUID().uuidString).jsonl")
        try lines.map { $0 + "\n" }.joined().write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["-c", script, schema.path, file.path])
        guard result.status == 0 else { throw ValidatorFailed(output: result.output) }
        return result.output.split(separator: "\n").map(String.init)
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    public struct ValidatorFailed: Error, CustomStringConvertible {
        var output: String
        public var description: String { "python3 jsonschema failed: \(output)" }
    }
}

