// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

@testable import ReadiumStreamer

@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct SMILParserTests {
    static let fixtures = "readium/swift-toolkit/StreamerTests/Fixtures/SMIL"

    func parse(_ path: String, as href: String = "OEBPS/mo/chapter.smil") throws -> (pars: [MediaOverlayPar], warnings: [ParsingWarning]) {
        try SMILParser.parse(Data(contentsOf: Corpus.file(path)), href: href)
    }

    @Test func clipTimesInClockFormsBecomeSecondsAndAbsentEndsStayOpen() throws {
        let pars = try parse("\(Self.fixtures)/audio-clip-times.smil").pars
        #expect(pars.map(\.audio?.begin) == [0, 90, 0, 0, 0, 0])
        #expect(pars.map(\.audio?.end) == [5.123, nil, 11, nil, 5.1, 5.12])
        #expect(pars.allSatisfy { $0.audio?.href == "OEBPS/mo/audio.mp3" })
        #expect(pars.first?.textHref == "OEBPS/mo/chapter01.xhtml#id1")
        #expect(pars.first?.textFragment == "id1")
    }

    @Test func nestedSeqsAreTheParsAncestorsWithTheirTypes() throws {
        let pars = try parse("\(Self.fixtures)/nested.smil").pars
        #expect(pars.count == 1)
        #expect(pars[0].ancestors.map(\.types) == [["part"], ["chapter"], ["table"]])
        #expect(Set(pars[0].ancestors.map(\.index)).count == 3)
        #expect(pars[0].audio?.duration == 5)
    }

    @Test func seqTypesKeepEveryToken() throws {
        let pars = try parse("\(Self.fixtures)/seq-types.smil").pars
        #expect(pars.count == 6)
        #expect(pars.map { $0.ancestors.last?.types ?? [] } == [[], ["chapter"], ["chapter", "part"], ["preamble"], ["page-list"], ["list-item"]])
        #expect(pars.allSatisfy { $0.audio == nil })
    }

    @Test func parWithoutAudioHasNoClipAndParWithoutTextHasNoTextHref() throws {
        let withoutText = try parse("\(Self.fixtures)/par-without-text.smil").pars
        #expect(withoutText.contains { $0.textHref == nil })
        let tts = try parse("smil/w3c-epub-tests/mol-tts_multi__mobydick.smil", as: "EPUB/mo/mobydick.smil").pars
        #expect(tts.count == 4)
        #expect(tts.allSatisfy { $0.audio == nil && $0.textHref?.hasPrefix("EPUB/") == true })
    }

    @Test(arguments: ["clock-value-full-syntax-valid", "clock-value-partial-syntax-valid", "clock-value-timecount-syntax-valid"])
    func everyClockFormOfEPUBCheckParsesWithoutWarnings(name: String) throws {
        let (pars, warnings) = try parse("smil/epubcheck/\(name).smil")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(pars.count == 2)
        #expect(pars[0].audio?.begin == 0)
        #expect(pars.allSatisfy { $0.audio?.end != nil })
    }

    @Test func invalidClockValuesAreWarnedAboutNamingTheSMILAndIgnored() throws {
        let (pars, warnings) = try parse("smil/epubcheck/clock-value-syntax-invalid-error.smil")
        #expect(pars.count == 3)
        #expect(warnings.count == 6)
        #expect(warnings.allSatisfy { $0.source == "OEBPS/mo/chapter.smil" })
        #expect(pars.allSatisfy { $0.audio?.begin == 0 && $0.audio?.end == nil })
    }

    @Test(arguments: [
        ("audio-src-fragment-error", 2), ("clip-times-equal-error", nil), ("clipBegin-after-clipEnd-error", nil),
        ("par-with-multiple-text-elements-error", nil), ("par-with-seq-child-error", 2), ("seq-with-direct-media-children-error", 1),
    ] as [(String, Int?)])
    func authoringErrorsAreWarningsAndTheRestIsKept(name: String, parCount: Int?) throws {
        let (pars, warnings) = try parse("smil/epubcheck/\(name).smil")
        #expect(!warnings.isEmpty)
        #expect(!pars.isEmpty)
        if let parCount { #expect(pars.count == parCount) }
        #expect(pars.allSatisfy { $0.audio?.href.contains("#") != true })
    }

    @Test func malformedXMLAndNonSMILRootsAreErrorsNamingTheHref() {
        #expect(throws: MediaOverlayError.self) { try SMILParser.parse(Data("<smil><body><par>".utf8), href: "bad.smil") }
        do {
            _ = try SMILParser.parse(Data("<html/>".utf8), href: "mo/other.smil")
            Issue.record("a non-SMIL root was accepted")
        } catch {
            #expect(error.code == .smilMalformed)
            #expect(error.description.contains("mo/other.smil"))
        }
    }

    @Test func everyStandaloneCorpusSMILParses() throws {
        let root = try Corpus.file("smil")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".smil") } ?? []
        #expect(files.count >= 30)
        for file in files {
            let (pars, _) = try SMILParser.parse(Data(contentsOf: root.appendingPathComponent(file)), href: "mo/x.smil")
            #expect(!pars.isEmpty, "\(file)")
        }
    }
}
