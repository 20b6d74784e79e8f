import Foundation
import RAudioCLI
import RAudioTestSupport
import ReadiumNavigator
import Testing

/// Runs python3's `jsonschema` (Draft 7) over JSON lines; the schema is `docs/events.schema.json`.
enum EventSchemaValidator {
    static let schemaURL = Corpus.projectRoot.appendingPathComponent("docs/events.schema.json")

    /// Whether `python3 -c 'import jsonschema'` succeeds here.
    static let isAvailable: Bool = (try? run(["-c", "import jsonschema"]).status) == 0

    static let skipMessage: Comment = "python3 with the jsonschema module is missing (pip install jsonschema); required when CI is set"

    private static let script = """
    import json, sys, jsonschema
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    for line in open(sys.argv[2]):
        errors = sorted(validator.iter_errors(json.loads(line)), key=lambda e: list(e.path))
        print("ok" if not errors else "invalid: " + errors[0].message[:200])
    """

    /// One verdict per line: "ok" or "invalid: <reason>".
    static func verdicts(for lines: [String]) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-events-\(UUID().uuidString).jsonl")
        try lines.map { $0 + "\n" }.joined().write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["-c", script, schemaURL.path, file.path])
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

    struct ValidatorFailed: Error, CustomStringConvertible {
        var output: String
        var description: String { "python3 jsonschema failed: \(output)" }
    }
}

private let locator = #"{"href":"track1.mp3","type":"audio/mpeg","title":"Chapter 1","locations":{"fragments":["t=12.5"],"progression":0.1,"totalProgression":0.02,"position":1}}"#

/// Hand-written events as raudio will print them.
let validEvents = [
    #"{"v":1,"type":"opened","publication":{"title":"Flatland","language":["en"],"readingOrderCount":3,"duration":5400.5,"toc":[{"href":"track1.mp3","title":"Part 1","children":[{"href":"track1.mp3#t=60","title":"Section 1"}]}]}}"#,
    #"{"v":1,"type":"opened","publication":{"readingOrderCount":0,"toc":[]}}"#,
    #"{"v":1,"type":"state","state":"playing","locator":\#(locator)}"#,
    #"{"v":1,"type":"state","state":"ended"}"#,
    #"{"v":1,"type":"state","state":"loading","locator":\#(locator),"audioLocator":\#(locator)}"#,
    #"{"v":1,"type":"position","locator":\#(locator)}"#,
    #"{"v":1,"type":"track","index":0,"href":"track1.mp3","title":"Chapter 1","locator":\#(locator)}"#,
    #"{"v":1,"type":"warning","code":"track-corrupt","message":"track2.mp3: the stream breaks at 1:02","href":"track2.mp3","fatal":false}"#,
    #"{"v":1,"type":"error","code":"audio-server-unavailable","message":"PulseAudio cannot be reached","fatal":true,"locator":\#(locator)}"#,
    #"{"v":1,"type":"error","code":"command-unknown","message":"unknown command 'plya'; did you mean 'play'?","fatal":false,"id":7}"#,
    #"{"v":1,"type":"ack","command":"seek","id":"r-1"}"#,
    #"{"v":1,"type":"ack","command":"play"}"#,
    #"{"v":1,"type":"utterance","text":"It was a dark night.","language":"en","locator":{"href":"ch1.xhtml","type":"application/xhtml+xml","text":{"highlight":"It was a dark night.","after":" The wind"}}}"#,
    #"{"v":1,"type":"word","locator":{"href":"ch1.xhtml","type":"application/xhtml+xml","text":{"before":"It was a ","highlight":"dark","after":" night."}}}"#,
    #"{"v":1,"type":"position","locator":\#(locator),"futureKey":true}"#,
]

/// Events the schema must refuse, each with the mistake it shows.
let invalidEvents = [
    #"{"type":"state","state":"playing"}"#,  // no v
    #"{"v":2,"type":"state","state":"playing"}"#,  // wrong version
    #"{"v":1,"state":"playing"}"#,  // no type
    #"{"v":1,"type":"volume"}"#,  // unknown type
    #"{"v":1,"type":"state","state":"idle"}"#,  // idle is never emitted
    #"{"v":1,"type":"state","state":"Playing"}"#,  // names are lower case
    #"{"v":1,"type":"position"}"#,  // no locator
    #"{"v":1,"type":"position","locator":{"href":"a.mp3"}}"#,  // locator without type
    #"{"v":1,"type":"position","locator":{"href":"a.mp3","type":"audio/mpeg","locations":{"progression":1.5}}}"#,
    #"{"v":1,"type":"position","locator":{"href":"a.mp3","type":"audio/mpeg","locations":{"position":0}}}"#,
    #"{"v":1,"type":"track","index":-1,"href":"a.mp3","locator":\#(locator)}"#,
    #"{"v":1,"type":"error","code":"Bad Code","message":"x","fatal":true}"#,
    #"{"v":1,"type":"error","code":"io","message":"x"}"#,  // no fatal
    #"{"v":1,"type":"warning","code":"io","message":"","fatal":false}"#,  // empty message
    #"{"v":1,"type":"ack","id":3}"#,  // no command
    #"{"v":1,"type":"ack","command":"play","id":true}"#,
    #"{"v":1,"type":"word","locator":{"href":"ch1.xhtml","type":"application/xhtml+xml"}}"#,  // no highlight
    #"{"v":1,"type":"opened","publication":{"readingOrderCount":1}}"#,  // no toc
]

@Suite(.enabled(if: EventSchemaValidator.isAvailable || Corpus.isCI, EventSchemaValidator.skipMessage))
struct EventsSchemaTests {
    @Test func handWrittenEventsMatchTheSchema() throws {
        let verdicts = try EventSchemaValidator.verdicts(for: validEvents)
        #expect(verdicts.count == validEvents.count)
        for (event, verdict) in zip(validEvents, verdicts) {
            #expect(verdict == "ok", "\(event)")
        }
    }

    @Test func eventsWithMistakesAreRefusedByTheSchema() throws {
        let verdicts = try EventSchemaValidator.verdicts(for: invalidEvents)
        #expect(verdicts.count == invalidEvents.count)
        for (event, verdict) in zip(invalidEvents, verdicts) {
            #expect(verdict.hasPrefix("invalid"), "\(event)")
        }
    }
}

@Suite struct EventsDocumentationTests {
    private func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: EventSchemaValidator.schemaURL)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func schemaStateNamesAreThePlaybackStatesThatCanBeEmitted() throws {
        let definitions = try #require(try schema()["definitions"] as? [String: Any])
        let state = try #require(definitions["state"] as? [String: Any])
        let properties = try #require(state["properties"] as? [String: Any])
        let names = try #require((properties["state"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(names) == Set(PlaybackState.allCases.filter { $0 != .idle }.map(\.name)))
    }

    @Test func eventsDocumentNamesEveryEventCommandAndExitCode() throws {
        let text = try String(contentsOf: Corpus.projectRoot.appendingPathComponent("docs/events.md"), encoding: .utf8)
        let types = try #require((try schema()["properties"] as? [String: Any]).flatMap { ($0["type"] as? [String: Any])?["enum"] as? [String] })
        for type in types + ["audioLocator"] {
            #expect(text.contains("`\(type)`"), "events.md does not describe \(type)")
        }
        for name in PlayerCommandNames.all {
            #expect(text.contains("`\(name)"), "events.md does not describe the command \(name)")
        }
        for code in [0, 64, 65, 66, 69, 70, 73, 74] {
            #expect(text.contains("| \(code) |"), "events.md does not list exit code \(code)")
        }
    }
}

private enum PlayerCommandNames {
    static var all: [String] { PlayerCommand.Name.allCases.map(\.rawValue) }
}
