// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer
import Testing
@testable import RAudioCLI
@testable import RAudioPlayer

/// Every module's errors have one shape (`ReportableError`): a stable hyphenated code word, the file or
/// href they are about, a message, the C status where there is one.
@Suite struct ReportableErrorTests {
    static func expectShaped(_ error: any ReportableError, subject: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.codeName.wholeMatch(of: /[a-z]+(-[a-z0-9]+)*/) != nil, "code word \(error.codeName)", sourceLocation: sourceLocation)
        #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        #expect(error.description.contains(error.message), "\(error.description)", sourceLocation: sourceLocation)
        if let subject { #expect(error.subject == subject, sourceLocation: sourceLocation) }
    }

    @Test func errorsThrownByRealFailuresHaveTheSharedShape() throws {
        do {
            _ = try JSONParser.parse("{\"a\": ")
            Issue.record("bad JSON parsed")
        } catch {
            Self.expectShaped(error)
            #expect(error.codeName == "json-malformed")
        }
        do {
            _ = try Locator(jsonString: "[1]")
            Issue.record("an array parsed as a locator")
        } catch {
            Self.expectShaped(error)
            #expect(error.codeName == "locator-malformed")
        }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("raudio-missing-\(UUID().uuidString).epub")
        do {
            _ = try PublicationOpener().open(url: missing)
            Issue.record("a missing file opened")
        } catch {
            Self.expectShaped(error, subject: missing.path)
        }
        switch PlayerCommandParser.parse(line: "plya") {
        case .failure(let error):
            Self.expectShaped(error)
            #expect(error.codeName == "command-unknown")
        default:
            Issue.record("plya parsed")
        }
    }

    @Test func everyModulesErrorTypeConforms() {
        let errors: [(any ReportableError, String?)] = [
            (ResourceError(.notFound, href: "a.mp3", message: "not in the package"), "a.mp3"),
            (ContentError(.contentUnknownHref, href: "c.xhtml", message: "not in the reading order"), "c.xhtml"),
            (MediaOverlayError(.smilMalformed, href: "c.smil", message: "no body"), "c.smil"),
            (EPUBError(.invalidPackage, href: "p.opf", message: "no spine"), "p.opf"),
            (XMLError(.xmlMalformed, href: "c.xhtml", line: 3, column: 4, message: "unclosed tag"), "c.xhtml"),
            (TTSError(.synthesisFailed, message: "espeak failed", underlyingStatus: 2), nil),
            (AudioSinkError(.serverLost, message: "the server went away"), nil),
            (AudioNavigatorError(.noAudio, message: "nothing to play"), nil),
            (AudioDecoderError(.corrupt, href: "b.ogg", message: "broken"), "b.ogg"),
            (DBusError("sd_bus_open_user", code: -2, message: "no session bus"), nil),
            (CommandFailure(.usage, code: "unknown-voice", message: "no voice xx"), nil),
            (CommandRefusal(code: "command-unsupported", message: "seek while speaking"), nil),
        ]
        for (error, subject) in errors { Self.expectShaped(error, subject: subject) }
        #expect((TTSError(.synthesisFailed, message: "x", underlyingStatus: 2) as any ReportableError).underlyingStatus == 2)
        #expect((DBusError("f", code: -2, message: "m") as any ReportableError).underlyingStatus == -2)
        #expect(ContentError(.contentUnknownHref, href: "", message: "m").codeName == "content-unknown-href")
    }
}
