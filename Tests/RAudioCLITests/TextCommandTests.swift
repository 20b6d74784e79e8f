// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// Runs the built `raudio` binary, as a user would: the one the other end-to-end tests run (`RAUDIO_TEST_BINARY`,
/// the release build in CI and `make test`, else the one built beside the tests).
enum RAudioBinary {
    static var url: URL { ProcessRunner.raudioExecutable }
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    static func run(_ arguments: [String], stdin: String? = nil, executable: URL = url) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let errorData = PipeReader(err)
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self), stderr: errorData.wait())
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite(.enabled(if: RAudioBinary.isBuilt, "build raudio first (swift build)"))
struct TextCommandTests {
    let wasteland = "epub/idpf-epub3-samples/wasteland.epub"

    func objects(_ result: RAudioBinary.Result) throws -> [JSONObject] {
        try result.lines.map { line in try #require(try JSONParser.parse(line).objectValue, "\(line)") }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func printsOneJSONLinePerUtteranceWithTextLanguageRoleAndLocator() throws {
        let result = try RAudioBinary.run(["text", try Corpus.file(wasteland).path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try objects(result)
        #expect(lines.count > 300)
        for line in lines {
            #expect(Set(line.map(\.0)) == ["text", "language", "languageSource", "role", "locator"])
            #expect(["declared", "identified", "publication"].contains(line["languageSource"]?.stringValue ?? ""))
            let text = line["text"]?.stringValue ?? ""
            let isBlank = text.allSatisfy { $0.isWhitespace }
            #expect(!isBlank)
            #expect(ContentRole.allNames.contains(line["role"]?.stringValue ?? ""))
            let language = Language(code: line["language"]?.stringValue ?? "")
            #expect(language.isWellFormed, "\(language)")
        }
        #expect(lines.contains { $0["language"]?.stringValue == "de" })
        #expect(lines.first?["text"]?.stringValue == "The Waste Land")
    }

    /// Lines are written in batches of bytes: each must still be one whole compact JSON object, the same
    /// text as `JSONValue.serialized()` gives, also across the batches of a book of several hundred KiB.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func eachLineIsTheCompactSerializationOfItsObject() throws {
        let result = try RAudioBinary.run(["text", try Corpus.file("epub/idpf-epub3-samples/childrens-literature.epub").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.utf8.count > 256 * 1024)
        #expect(result.stdout.hasSuffix("}\n"))
        for line in result.lines {
            #expect(try JSONParser.parse(line).serialized() == line)
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func aReaderThatStopsEarlyEndsTheCommandQuietly() throws {
        let book = try Corpus.file("epub/idpf-epub3-samples/childrens-literature.epub").path
        let script = "'\(RAudioBinary.url.path)' text '\(book)' | head -n 2; echo \"status ${PIPESTATUS[0]}\""
        let result = try RAudioBinary.run(["-c", script], executable: URL(fileURLWithPath: "/bin/bash"))
        let lines = result.lines
        #expect(lines.count == 3, "\(result.stdout.prefix(400))")
        #expect(lines.last == "status 0", "\(result.stderr)")
        #expect(!result.stderr.contains("error"), "\(result.stderr)")
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func locatorsValidateAgainstTheReadiumSchema() throws {
        let validator = URL(fileURLWithPath: "/work/shared/tools/readium-validate")
        let tool = Corpus.projectRoot.deletingLastPathComponent().appendingPathComponent("shared/tools/readium-validate")
        let path = FileManager.default.fileExists(atPath: tool.path) ? tool : validator
        guard FileManager.default.fileExists(atPath: path.path) else {
            if Corpus.isCI { Issue.record("readium-validate is missing at \(path.path)") }
            return
        }
        for book in [wasteland, "epub/daisy/epub30-test-0370-advanced-read-aloud.epub", "epub/idpf-epub3-samples/childrens-literature.epub"] {
            let result = try RAudioBinary.run(["text", try Corpus.file(book).path])
            let validation = try RAudioBinary.run(["locator", "-"], stdin: result.stdout, executable: path)
            #expect(validation.status == 0, "\(book): \(validation.stdout.suffix(600)) \(validation.stderr.suffix(300))")
            #expect(validation.stdout.contains("all valid"))
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func skipLeavesOutTheRolesNamed() throws {
        let all = try objects(RAudioBinary.run(["text", try Corpus.file(wasteland).path]))
        let skipped = try objects(RAudioBinary.run(["text", try Corpus.file(wasteland).path, "--skip", "endnote,pagebreak"]))
        #expect(all.contains { $0["role"]?.stringValue == "endnote" })
        #expect(!skipped.contains { $0["role"]?.stringValue == "endnote" })
        #expect(skipped.count == all.filter { $0["role"]?.stringValue != "endnote" && $0["role"]?.stringValue != "pagebreak" }.count)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func fromALocatorOfALineResumesAtThatUtterance() throws {
        let all = try objects(RAudioBinary.run(["text", try Corpus.file(wasteland).path]))
        let middle = all[all.count / 2]
        let locator = try #require(middle["locator"])
        let resumed = try objects(RAudioBinary.run(["text", try Corpus.file(wasteland).path, "--from", locator.serialized()]))
        let first = try #require(resumed.first)
        #expect(first["locator"]?.objectValue?["locations"]?.objectValue?["cssSelector"] == locator.objectValue?["locations"]?.objectValue?["cssSelector"])
        #expect(first["text"] == middle["text"])
        #expect(first["locator"] == middle["locator"])
        #expect(resumed.count < all.count && resumed.count >= all.count / 2)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func fromAPercentageStartsNearIt() throws {
        let resumed = try objects(RAudioBinary.run(["text", try Corpus.file("epub/idpf-epub3-samples/childrens-literature.epub").path, "--from", "60%"]))
        let total = try #require(resumed.first?["locator"]?.objectValue?["locations"]?.objectValue?["totalProgression"]?.doubleValue)
        #expect(abs(total - 0.6) < 0.05)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func exitCodesTellUsageBadDataAndNotFoundApart() throws {
        let book = try Corpus.file(wasteland).path
        let missing = try RAudioBinary.run(["text", "/nonexistent/book.epub"])
        #expect(missing.status == 66 && missing.stderr.contains("/nonexistent/book.epub"))
        #expect(try RAudioBinary.run(["text", book, "--unit", "line"]).status == 64)
        #expect(try RAudioBinary.run(["text", book, "--skip", "chapter"]).status == 64)
        #expect(try RAudioBinary.run(["text", book, "--from", "{not json"]).status == 64)
        #expect(try RAudioBinary.run(["text", book, "--from", "140%"]).status == 64)
        let unknown = try RAudioBinary.run(["text", book, "--from", #"{"href":"nope.xhtml","type":"application/xhtml+xml"}"#])
        #expect(unknown.status == 65 && unknown.stderr.contains("nope.xhtml"))
        let empty = try RAudioBinary.run(["text", try Corpus.file("epub/epubcheck-edge/ocf-zip-unreadable-empty-fatal.epub").path])
        #expect(empty.status == 65 && empty.stdout.isEmpty)
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func malformedResourceIsAWarningAndTheRestReads() throws {
        let result = try RAudioBinary.run(["text", try Corpus.file("epub/w3c-epub-tests/pub-xml-non-validating_unclosed.epub").path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("content_001.xhtml"))
        #expect(result.stdout.contains("This paragraph has an unclosed tag."))
    }

    /// An `audio` element, which `speak` plays in place, is a media entry of `text` (issue #51), as its `utterance`
    /// event is: `"text": ""`, role `audio`, `media` with its source; `--skip media` leaves it out.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func anAudioElementIsListedAsAMediaEntry() throws {
        let book = try Corpus.file("epub/w3c-epub-tests/pub-cmt-mp3.epub").path
        let result = try RAudioBinary.run(["text", book])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.lines.map { try #require(try JSONParser.parse(Array($0.utf8)).objectValue) }
        let media = objects.filter { $0["media"] != nil }
        #expect(media.count == 1, "\(result.stdout)")
        let entry = try #require(media.first)
        #expect(entry["text"]?.stringValue == "")
        #expect(entry["role"]?.stringValue == "audio")
        #expect(entry["language"] == nil)
        let fields = try #require(entry["media"]?.objectValue)
        #expect(fields["kind"]?.stringValue == "audio")
        #expect(fields["href"]?.stringValue?.hasSuffix(".mp3") == true, "\(fields)")
        #expect(fields["type"]?.stringValue == "audio/mpeg")
        #expect(entry["locator"]?.objectValue?["locations"]?.objectValue?["cssSelector"]?.stringValue?.contains("audio") == true)
        let skipped = try RAudioBinary.run(["text", book, "--skip", "media"])
        #expect(!skipped.stdout.contains("\"media\""))
        #expect(skipped.lines.count == result.lines.count - 1)
    }
}
