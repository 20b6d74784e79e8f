// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import ReadiumStreamer
import Testing

/// End-to-end tests of `raudio play` on EPUBs with media overlays: real SMIL, real MP3 decoding,
/// real espeak-ng for the text-to-speech fallback, WAV renders.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct NarrationPlayTests {
    static let navigation = "epub/w3c-epub-tests/mol-navigation.epub"
    static let daisy = "epub/daisy/epub30-test-0320-media-overlays.PARTIAL-AUDIO.epub"

    func play(_ book: String, _ arguments: [String] = [], input: String? = nil, timeout: TimeInterval = 180) throws -> (events: [JSONObject], result: ProcessResult) {
        let path = book.hasPrefix("/") ? book : try Corpus.file(book).path
        let result = try ProcessRunner.raudio(["play", path] + arguments, input: input.map { Data($0.utf8) }, timeout: timeout)
        return (try result.outputLines.map(PlayCommandTests.object), result)
    }

    func utterances(_ events: [JSONObject]) -> [JSONObject] { events.filter { $0["type"] == "utterance" } }

    func openEPUB(_ book: String) throws -> Publication {
        try EPUBParser().parse(container: ZIPContainer(url: Corpus.file(book)))
    }

    /// Σ(round(end·rate) − round(begin·rate)) over the clips of every overlay: the exact frames a render must have.
    func clippedFrames(of publication: Publication, rate: Int) throws -> Int {
        let service = try #require(publication.mediaOverlays)
        var frames = 0
        for index in publication.readingOrder.indices {
            for par in try service.mediaOverlay(at: index)?.pars ?? [] {
                let clip = try #require(par.audio)
                let end = try #require(clip.end)
                frames += Int((end * Double(rate)).rounded()) - Int((clip.begin * Double(rate)).rounded())
            }
        }
        return frames
    }

    /// Every `par` with a clip in reading order, read from the SMIL, with the clip durations before it.
    func recordedPars(of publication: Publication) throws -> [(textHref: String?, clip: MediaOverlayClip, start: Double)] {
        let service = try #require(publication.mediaOverlays)
        var pars: [(textHref: String?, clip: MediaOverlayClip, start: Double)] = []
        var time = 0.0
        for index in publication.readingOrder.indices {
            for par in try service.mediaOverlay(at: index)?.pars ?? [] {
                guard let clip = par.audio else { continue }
                pars.append((par.textHref, clip, time))
                time += clip.duration ?? 0
            }
        }
        return pars
    }

    /// The `par`'s text `src` an event's locator designates: its href (the document, without a fragment) and
    /// its element's fragment (`locations.fragments`).
    func textSource(_ event: JSONObject) -> String? {
        guard let locator = event["locator"]?.objectValue, let href = locator["href"]?.stringValue, !href.contains("#") else { return nil }
        let fragment = locator["locations"]?.objectValue?["fragments"]?.arrayValue?.first?.stringValue
        return fragment.map { href + "#" + $0 } ?? href
    }

    func audioBegin(_ event: JSONObject) -> Double? {
        (event["audioLocator"]?.objectValue?["locations"]?.objectValue?["fragments"]?.arrayValue?.first?.stringValue)
            .flatMap(MediaFragment.init(parsing:))?.begin
    }

    @Test func narrationPlaysEveryParInSMILOrderAndTheWAVHasExactlyTheClippedFrames() throws {
        let folder = try TemporaryDirectory()
        let wav = folder.path("narration.wav")
        let (events, result) = try play(Self.navigation, ["--output", "wav:\(wav)", "--interval", "100"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(events.last?["type"] == "state" && events.last?["state"] == "ended")
        // The href is the resource (a Readium locator's), the element its fragment.
        let places = utterances(events).compactMap { event -> String? in
            guard let locator = event["locator"]?.objectValue, let href = locator["href"]?.stringValue else { return nil }
            let fragments = locator["locations"]?.objectValue?["fragments"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return ([href] + fragments).joined(separator: " ")
        }
        #expect(places == ["EPUB/ch1.xhtml mo-1", "EPUB/ch1.xhtml mo-2", "EPUB/ch1.xhtml mo-3", "EPUB/ch1.xhtml mo-3", "EPUB/ch2.xhtml mo-1", "EPUB/ch2.xhtml mo-2"])
        #expect(utterances(events).allSatisfy { $0["narration"] == .bool(true) && $0["audioLocator"] != nil })
        let header = try WAVHeader(path: wav)
        #expect(header.sampleRate == 22050 && header.channelCount == 1)
        #expect(header.frameCount == (try clippedFrames(of: openEPUB(Self.navigation), rate: 22050)))
    }

    @Test func aClipInTheMiddleOfAStereoFileRendersExactlyItsLength() throws {
        let folder = try TemporaryDirectory()
        let wav = folder.path("clip.wav")
        let (_, result) = try play("epub/w3c-epub-tests/mol-audio.epub", ["--output", "wav:\(wav)", "--no-tts"])
        #expect(result.status == 0, "\(result.standardError)")
        let header = try WAVHeader(path: wav)
        #expect(header.sampleRate == 44100 && header.channelCount == 2)
        #expect(header.frameCount == Int((44.783 * 44100).rounded()) - Int((29.268 * 44100).rounded()))
    }

    @Test func textLocatorsNameTheElementWhoseTextTheyHighlight() throws {
        let (events, _) = try play(Self.navigation, ["--output", "null", "--interval", "100"])
        let publication = try openEPUB(Self.navigation)
        for event in utterances(events) {
            let locator = try #require(event["locator"]?.objectValue)
            let href = try #require(locator["href"]?.stringValue)
            let selector = try #require(locator["locations"]?.objectValue?["cssSelector"]?.stringValue)
            #expect(textSource(event)?.hasSuffix(selector) == true && !href.contains("#"))
            let document = try XMLDocument(data: publication.resource(at: String(href.split(separator: "#")[0])).read(), href: href, mode: .recovering)
            var found: XMLElement?
            document.root.forEachDescendant { if found == nil, "#" + ($0.attribute("id") ?? "") == selector { found = $0 } }
            let element = try #require(found, "\(selector) is not in \(href)")
            #expect(locator["text"]?.objectValue?["highlight"]?.stringValue == element.normalizedText)
            let audio = try #require(event["audioLocator"]?.objectValue)
            let fragment = try #require(audio["locations"]?.objectValue?["fragments"]?.arrayValue?.first?.stringValue)
            #expect(MediaFragment(parsing: fragment)?.end != nil)
            #expect(audio["href"]?.stringValue?.hasSuffix(".mp3") == true)
        }
    }

    @Test(.enabled(if: EventSchemaValidator.isAvailable && ReadiumValidator.isAvailable, "validators missing"))
    func eventsValidateAgainstTheEventsSchemaAndBothLocatorsAgainstReadiums() throws {
        let (_, result) = try play(Self.navigation, ["--output", "null", "--interval", "1"])
        #expect(result.status == 0)
        try EventSchemaValidator.validate(result.outputLines)
        try ReadiumValidator.validate(.locator, result.standardOutput)
        let (_, daisy) = try play(Self.daisy, ["--output", "null", "--interval", "20"])
        try EventSchemaValidator.validate(daisy.outputLines)
        try ReadiumValidator.validate(.locator, daisy.standardOutput)
    }

    @Test func aMissingAudioFileIsAWarningAndItsParsAreSpokenWithTextToSpeech() throws {
        let (events, result) = try play(Self.daisy, ["--output", "null", "--interval", "100", "--skip", ""])
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = events.filter { $0["type"] == "warning" && $0["code"] == "narration-audio-missing" }
        #expect(warnings.count == 1)
        #expect(warnings.first?["href"]?.stringValue == "EPUB/xhtml/more_navigation_tests.mp3")
        let moreNavigation = utterances(events).filter { $0["locator"]?.objectValue?["href"]?.stringValue?.hasPrefix("EPUB/xhtml/more_navigation_tests.xhtml") == true }
        #expect(moreNavigation.count == 40)
        #expect(moreNavigation.allSatisfy { $0["audioLocator"] == nil && ($0["text"]?.stringValue?.isEmpty == false) })
        #expect(events.last?["state"] == "ended")
    }

    @Test func parsWithoutAudioAreSpokenAndNoTTSLeavesThemOut() throws {
        let folder = try TemporaryDirectory()
        let wav = folder.path("tts.wav")
        let (events, result) = try play("epub/w3c-epub-tests/mol-tts_single.epub", ["--output", "wav:\(wav)"])
        #expect(result.status == 0, "\(result.standardError)")
        let narrated = utterances(events).filter { $0["locator"]?.objectValue?["locations"]?.objectValue?["fragments"]?.arrayValue?.first?.stringValue == "mobyexcerpt" }
        #expect(narrated.count == 1)
        #expect(narrated.first?["text"]?.stringValue?.hasPrefix("Call me Ishmael") == true)
        #expect(narrated.first?["audioLocator"] == nil)
        #expect(try WAVHeader(path: wav).seconds > 0.5)

        let (silent, quiet) = try play("epub/w3c-epub-tests/mol-tts_single.epub", ["--output", "null", "--no-tts"])
        #expect(silent.contains { $0["type"] == "warning" && $0["code"] == "narration-skipped" })
        #expect(!utterances(silent).contains { $0["locator"]?.objectValue?["locations"]?.objectValue?["fragments"]?.arrayValue?.first?.stringValue == "mobyexcerpt" })
        #expect(quiet.status != 0 || silent.last?["state"] == "ended")
    }

    @Test func ttsOptionIgnoresTheOverlays() throws {
        let (events, result) = try play(Self.navigation, ["--output", "null", "--tts", "--interval", "100"])
        #expect(result.status == 0)
        #expect(!utterances(events).isEmpty)
        #expect(events.allSatisfy { $0["audioLocator"] == nil })
    }

    @Test func aClipEndPastTheFileIsClampedWithAWarning() throws {
        let folder = try TemporaryDirectory()
        _ = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-q", try Corpus.file("epub/w3c-epub-tests/mol-audio.epub").path, "-d", folder.path("book")])
        try FileManager.default.removeItem(atPath: folder.path("book/EPUB/mo/mobydick.smil"))
        try FileManager.default.copyItem(atPath: try Corpus.file("smil/w3c-epub-tests/mol-audio-exceeding-clipend__mobydick.smil").path,
                                         toPath: folder.path("book/EPUB/mo/mobydick.smil"))
        let wav = folder.path("clamped.wav")
        let (events, result) = try play(folder.path("book"), ["--output", "wav:\(wav)", "--no-tts"])
        #expect(result.status == 0, "\(result.standardError)")
        let clamped = events.filter { $0["type"] == "warning" && $0["code"] == "clip-clamped" }
        #expect(clamped.count == 1)
        #expect(events.contains { $0["type"] == "warning" && $0["code"] == "narration-audio-missing" && $0["href"]?.stringValue == "EPUB/audio/mobydick_2.mp3" })
        // Three clips of the same file, back to back: 29.268 s to the end of the 88-second file.
        let seconds = try WAVHeader(path: wav).seconds
        #expect(seconds > 55 && seconds < 62, "\(seconds) s")
    }

    @Test func fromATextLocatorStartsAtTheParThatCoversIt() throws {
        let from = ##"{"href":"EPUB/xhtml/navigation_tests.xhtml","type":"application/xhtml+xml","locations":{"cssSelector":"#MOA-NAV-010-3"}}"##
        let (events, result) = try play(Self.daisy, ["--output", "null", "--from", from, "--duration", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let first = try #require(utterances(events).first)
        #expect(textSource(first) == "EPUB/xhtml/navigation_tests.xhtml#MOA-NAV-010-3")
        #expect(first["text"]?.stringValue == "This is paragraph 1.")
    }

    @Test func infoShowsEachNarratedItemsSMILParCountAndDurationAndStaysValidRWPM() throws {
        let result = try ProcessRunner.raudio(["info", try Corpus.file(Self.navigation).path])
        #expect(result.status == 0)
        let manifest = try #require(try JSONParser.parse(result.standardOutput).objectValue)
        let readingOrder = try #require(manifest["readingOrder"]?.arrayValue)
        let alternates = readingOrder.compactMap { $0.objectValue?["alternate"]?.arrayValue?.first?.objectValue }
        #expect(alternates.map { $0["href"]?.stringValue } == ["EPUB/mo/ch1.smil", "EPUB/mo/ch2.smil"])
        #expect(alternates.map { $0["properties"]?.objectValue?["mediaOverlay"]?.objectValue?["parCount"]?.doubleValue } == [4, 2])
        #expect(abs((alternates.first?["duration"]?.doubleValue ?? 0) - 29.218) < 0.001)
        if ReadiumValidator.isAvailable { try ReadiumValidator.validate(.publication, result.standardOutput) }
        let human = try ProcessRunner.raudio(["info", "--human", try Corpus.file(Self.daisy).path])
        #expect(human.standardOutput.contains("EPUB/xhtml/navigation_tests.smil  65 par"))
    }

    @Test func pagebreaksAreSkippedByDefaultAndKeptWithAnEmptySkipList() throws {
        let (skipped, _) = try play(Self.daisy, ["--output", "null", "--interval", "1000", "--no-tts"])
        let (kept, _) = try play(Self.daisy, ["--output", "null", "--interval", "1000", "--no-tts", "--skip", ""])
        #expect(utterances(kept).count > utterances(skipped).count)
    }

    @Test func nextMovesByParAndEscapeIsAnsweredOutsideEscapableStructures() throws {
        let (events, _) = try play(Self.navigation, ["--output", "null", "--realtime", "--keep-open"],
                                   input: "next\nnext\nescape\nstatus\nquit\n", timeout: 60)
        #expect(events.contains { $0["type"] == "ack" && $0["command"] == "next" })
        #expect(events.contains { $0["type"] == "error" && $0["code"] == "command-unsupported" })
        #expect(events.contains { $0["type"] == "ack" && $0["command"] == "quit" })
    }

    @Test func seekByTimeGoesToTheParWhoseClipCoversItAcrossTextToSpeechAndDocuments() throws {
        let pars = try recordedPars(of: openEPUB(Self.daisy))
        // 100 s is past basic_tests (about 70 s) and the front matter read with text-to-speech.
        let time = 100.0
        let covering = try #require(pars.last { $0.start <= time })
        // Real time, so the seek (read at once) comes within milliseconds; one second is heard after it.
        let (events, result) = try play(Self.daisy, ["--output", "null", "--realtime", "--skip", "", "--duration", "1", "--interval", "0.25"],
                                        input: "seek 1:40\n", timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let ack = try #require(events.firstIndex { $0["type"] == "ack" && $0["command"] == "seek" })
        let after = events[ack...].filter { $0["type"] == "utterance" || $0["type"] == "position" || $0["type"] == "state" && $0["audioLocator"] != nil }
        let first = try #require(after.first { $0["type"] == "utterance" }, "no utterance after the seek")
        #expect(textSource(first) == covering.textHref)
        #expect(first["audioLocator"]?.objectValue?["href"]?.stringValue == covering.clip.href)
        let begin = try #require(audioBegin(first))
        #expect(abs(begin - (covering.clip.begin + time - covering.start)) <= 1.0 / 22_050 + 0.0005, "t=\(begin)")
        // What follows is heard from there on, within the same par.
        #expect(after.count > 2 && after.allSatisfy { textSource($0) == covering.textHref })
        #expect(after.compactMap(audioBegin).allSatisfy { $0 >= begin - 0.0005 && $0 < covering.clip.end ?? 0 })
    }

    @Test func positionsOfAFullyRecordedNarrationHaveATotalProgressionByTime() throws {
        let pars = try recordedPars(of: openEPUB(Self.navigation))
        let total = pars.reduce(0) { $0 + ($1.clip.duration ?? 0) }
        let (events, result) = try play(Self.navigation, ["--output", "null", "--interval", "0.5"])
        #expect(result.status == 0, "\(result.standardError)")
        let positions = events.filter { $0["type"] == "position" }
        #expect(positions.count > 50)
        var previous = -1.0
        for event in positions {
            let progression = try #require(event["locator"]?.objectValue?["locations"]?.objectValue?["totalProgression"]?.doubleValue)
            let href = try #require(textSource(event))
            let begin = try #require(audioBegin(event))
            let par = try #require(pars.last { $0.textHref == href && $0.clip.begin <= begin + 0.0005 })
            #expect(abs(progression * total - (par.start + begin - par.clip.begin)) < 0.002)
            #expect(progression >= previous)
            previous = progression
        }
    }

    @Test func seekIsRefusedWhenTheWholeNarrationIsReadWithTextToSpeech() throws {
        let (events, _) = try play(Self.navigation, ["--output", "null", "--tts", "--realtime"], input: "pause\nseek +15\nquit\n", timeout: 60)
        let refusal = try #require(events.first { $0["type"] == "error" })
        #expect(refusal["code"] == "command-unsupported" && refusal["fatal"] == .bool(false))
        #expect(events.contains { $0["type"] == "ack" && $0["command"] == "quit" })
    }
}
