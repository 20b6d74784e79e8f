// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// `raudio play` and `raudio info` of Readium audiobooks served by a real nginx on loopback: the same
/// samples as from disk, and the faults a web server can throw at them.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipMessage))
struct RemotePlayTests {
    @Test func remoteManifestRendersTheSameSamplesAsTheBookOnDisk() throws {
        let fixture = try RemoteBookFixture()
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let (result, wav) = try fixture.play(fixture.server.url("gull-rock/manifest.json"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
        #expect(RemoteBookFixture.events(result, type: "track").count == 3)
        #expect(RemoteBookFixture.events(result, type: "warning").isEmpty, "\(result.standardError)")
        let ranged = fixture.server.accessLog.filter { $0.contains(".mp3") || $0.contains(".ogg") }
        #expect(!ranged.isEmpty && ranged.allSatisfy { $0.contains(" 206 ") && $0.contains("\"raudio/") }, "\(ranged)")
    }

    /// A URL that is one audio file (`https://host/book.m4b`) is a book of one track, streamed with range
    /// requests: its tags and chapters read remotely, the same samples as the file on disk. Only its first
    /// bytes are taken to recognize it.
    @Test func aRemoteAudioFileIsABookOfOneTrack() throws {
        let fixture = try RemoteBookFixture()
        let reference = try fixture.localRendering(of: ["01-the-storm.mp3"])
        let url = fixture.server.url("gull-rock/01-the-storm.mp3")
        let (result, wav) = try fixture.play(url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
        let opened = try #require(RemoteBookFixture.events(result, type: "opened").first?["publication"]?.objectValue)
        #expect(opened["title"] == "Chapter 1: The Storm", "its ID3 title, read over HTTP: \(opened)")
        #expect(RemoteBookFixture.events(result, type: "track").first?["href"]?.stringValue == url)
        #expect(RemoteBookFixture.events(result, type: "state").last?["state"] == "ended")

        try fixture.server.add(URL(fileURLWithPath: try Corpus.file("audio/formats/mutagen__ep7.m4b").path), as: "ep7.m4b")
        let info = try ProcessRunner.raudio(["info", fixture.server.url("ep7.m4b")], timeout: 60)
        #expect(info.status == 0, "\(info.standardError)")
        let manifest = try JSONParser.parse(Data(info.standardOutput.utf8)).objectValue
        let toc = manifest?["toc"]?.arrayValue?.compactMap { $0.objectValue?["href"]?.stringValue }
        #expect(toc == [fixture.server.url("ep7.m4b") + "#t=0"], "its MP4 chapters, read over HTTP: \(info.standardOutput)")
    }

    /// A URL that is a ZIP package (`.audiobook`, EPUB) is read in place with range requests, as Readium's
    /// toolkits stream remote packages: the same samples as the package on disk, the same text from an EPUB.
    @Test func aRemotePackageIsReadInPlace() throws {
        let fixture = try RemoteBookFixture()
        try fixture.server.add(Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook"), as: "gull-rock.audiobook")
        try fixture.server.add(URL(fileURLWithPath: SpeakCommandTests.sampleEPUB), as: "lighthouse.epub")
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let (result, wav) = try fixture.play(fixture.server.url("gull-rock.audiobook"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
        #expect(RemoteBookFixture.events(result, type: "track").count == 3)
        // After the first request, which looks at its first bytes, every read is a range of it.
        let requests = fixture.server.accessLog.filter { $0.contains("gull-rock.audiobook") }
        #expect(requests.count > 2 && requests.dropFirst().allSatisfy { $0.contains(" 206 ") }, "\(requests)")

        // A read-aloud EPUB is made from the book's file: refused before any synthesis, saying to download it.
        let render = try ProcessRunner.raudio(["render", fixture.server.url("lighthouse.epub"), "--to", "epub3", fixture.folder.path("out.epub")], timeout: 60)
        #expect(render.status == 64 && render.standardError.contains("download it"), "\(render.standardError)")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("out.epub")))
        let local = try ProcessRunner.raudio(["text", SpeakCommandTests.sampleEPUB])
        let remote = try ProcessRunner.raudio(["text", fixture.server.url("lighthouse.epub")], timeout: 60)
        #expect(remote.status == 0, "\(remote.standardError)")
        let texts = { (result: ProcessResult) in try result.outputLines.map { try JSONParser.parse(Data($0.utf8)).objectValue?["text"]?.stringValue ?? "" } }
        #expect(try texts(remote) == texts(local) && !texts(local).isEmpty)
    }

    /// A package served without byte ranges cannot be read in place: refused, saying to download it. A web
    /// page is named for what it is.
    @Test func aPackageWithoutRangesOrAPageIsRefusedSayingWhy() throws {
        let fixture = try RemoteBookFixture()
        try fixture.server.add(Corpus.projectRoot.appendingPathComponent("samples/gull-rock.audiobook"), as: "gull-rock.audiobook")
        let page = "<!DOCTYPE html><html><head><title>A book</title></head><body><p>Listen!</p></body></html>"
        try fixture.server.write(page, as: "page.html")
        try fixture.server.write(page, as: "book.epub")
        let proxy = try fixture.faultProxy()
        proxy.inject(.stripRange, pathSuffix: "gull-rock.audiobook", times: 1000)
        for (url, expected) in [(proxy.url("gull-rock.audiobook"), "without byte ranges"), (fixture.server.url("page.html"), "read it aloud with raudio speak"),
                                (fixture.server.url("book.epub"), "is a web page, not the .epub file")] {
            let result = try ProcessRunner.raudio(["play", url, "--output", "null"], environment: ["RAUDIO_RETRY_DELAYS": "0.05"], timeout: 60)
            #expect([65, 69].contains(result.status), "\(result.status) \(result.standardError)")
            #expect(result.standardError.contains(expected), "\(result.standardError)")
        }
    }

    /// A URL that is a web page or a text file (a Project Gutenberg `.txt`) is read aloud as the file on disk
    /// is: the same utterances and roles, its URL as their href, its chapters found the same way. A short page
    /// is fetched once; a longer one once more, whole, after its first bytes said what it is.
    @Test func aRemotePageOrTextIsReadAsTheFileOnDisk() throws {
        let fixture = try RemoteBookFixture()
        let page = """
            <!DOCTYPE html><html lang="en"><head><title>An article</title><meta name="author" content="Ann Writer"></head>
            <body><h1 id="top">The headline</h1><p>First paragraph of the <a href="other.html">article</a>.</p>
            <img src="pic.png" alt="A picture"><h2 id="more">More</h2><p>Second one &amp; last.</p></body></html>
            """
        var text = "Title: A Remote Book\n\nAuthor: Jane Doe\n\nCONTENTS\n\nCHAPTER 1.\n\nCHAPTER 2.\n\nCHAPTER 3.\n\n"
        for chapter in 1...3 {
            text += "CHAPTER \(chapter).\n\n" + String(repeating: "The keeper climbed the stairs of chapter \(chapter) once more.\n", count: 40) + "\n"
        }
        try fixture.server.write(page, as: "article.html")
        try fixture.server.write(text, as: "book.txt")
        try page.write(toFile: fixture.folder.path("article.html"), atomically: true, encoding: .utf8)
        try text.write(toFile: fixture.folder.path("book.txt"), atomically: true, encoding: .utf8)
        let utterances = { (result: ProcessResult) throws -> [[String]] in
            try result.outputLines.map { line in
                let object = try #require(try JSONParser.parse(Data(line.utf8)).objectValue)
                return [object["text"]?.stringValue ?? "", object["role"]?.stringValue ?? "", object["locator"]?.objectValue?["href"]?.stringValue ?? ""]
            }
        }
        for name in ["article.html", "book.txt"] {
            let url = fixture.server.url(name)
            let local = try ProcessRunner.raudio(["text", fixture.folder.path(name)])
            let remote = try ProcessRunner.raudio(["text", url], timeout: 60)
            #expect(remote.status == 0, "\(remote.standardError)")
            let expected = try utterances(local).map { [$0[0], $0[1], url] }
            #expect(try utterances(remote) == expected && expected.count >= 4, "\(remote.standardOutput)")
        }
        let info = try ProcessRunner.raudio(["info", fixture.server.url("book.txt")], timeout: 60)
        let manifest = try #require(try JSONParser.parse(Data(info.standardOutput.utf8)).objectValue)
        #expect(manifest["metadata"]?.objectValue?["title"] == "A Remote Book")
        let toc = manifest["toc"]?.arrayValue?.compactMap { $0.objectValue?["href"]?.stringValue }
        #expect(toc?.count == 3 && toc?.allSatisfy { $0.hasPrefix(fixture.server.url("book.txt") + "#line-") } == true, "\(info.standardOutput)")
        // Moved: the page is the URL that answered, after the redirect.
        let moved = try ProcessRunner.raudio(["text", fixture.server.url("moved/article.html")], timeout: 60)
        #expect(try utterances(moved).map { $0[2] } == Array(repeating: fixture.server.url("article.html"), count: try utterances(moved).count) && moved.status == 0,
                "\(moved.standardOutput) \(moved.standardError)")
        let requests = { (name: String) in fixture.server.accessLog.filter { $0.contains("GET /\(name) ") }.count }
        #expect(requests("article.html") == 2, "a short page is read whole by its first request (here and moved)")
        #expect(requests("book.txt") == 4, "twice for each of text and info: its first bytes, then whole")
    }

    @Test func rangeRequestsReuseTheirConnection() throws {
        let fixture = try RemoteBookFixture()
        let (result, _) = try fixture.play(fixture.server.url("gull-rock/manifest.json"))
        #expect(result.status == 0, "\(result.standardError)")
        // Each line ends "cN rM": connection N's M-th request. A range read whole lets the response end by
        // itself, so the next request goes over the same connection (stopping it made curl close it).
        let log = fixture.server.accessLog
        let connections = Set(log.compactMap { $0.split(separator: " ").first { $0.hasPrefix("c") } })
        #expect(log.count >= 6, "\(log)")
        #expect(connections.count * 2 <= log.count, "\(log.count) requests over \(connections.count) connections: \(log)")
    }

    @Test func localManifestWithAbsoluteURLsStreamsItsTracks() throws {
        let fixture = try RemoteBookFixture()
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let manifest = fixture.folder.path("absolute.json")
        let hrefs = RemoteBookFixture.tracks.map { fixture.server.url("gull-rock/\($0)") }
        try RemoteBookFixture.manifest(hrefs: hrefs).write(toFile: manifest, atomically: true, encoding: .utf8)
        let info = try ProcessRunner.raudio(["info", manifest])
        #expect(info.status == 0 && !info.standardError.contains("cannot be fetched"), "\(info.standardError)")
        let (result, wav) = try fixture.play(manifest)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
    }

    @Test func aRemoteW3CAudiobookPlaysAsTheBookOnDisk() throws {
        let fixture = try RemoteBookFixture()
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        // The W3C Audiobooks shape: a JSON-LD context, `url` items relative to the manifest's URL.
        let items = RemoteBookFixture.tracks.map { #"{"url": "\#($0)", "encodingFormat": "\#($0.hasSuffix(".ogg") ? "audio/ogg" : "audio/mpeg")"}"# }
        let manifest = #"{"@context": ["https://schema.org", "https://www.w3.org/ns/pub-context"], "conformsTo": "https://www.w3.org/TR/audiobooks/", "type": "Audiobook", "name": "Gull Rock over W3C", "readingOrder": [\#(items.joined(separator: ", "))]}"#
        try fixture.server.write(manifest, as: "gull-rock/publication.json")
        let info = try ProcessRunner.raudio(["info", "--human", fixture.server.url("gull-rock/publication.json")])
        #expect(info.status == 0 && info.standardOutput.contains("Gull Rock over W3C"), "\(info.standardOutput)\(info.standardError)")
        let (result, wav) = try fixture.play(fixture.server.url("gull-rock/publication.json"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.events(result, type: "track").count == 3)
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
    }

    @Test func infoOfARemoteManifestResolvesHrefsAgainstItsURL() throws {
        let fixture = try RemoteBookFixture()
        let result = try ProcessRunner.raudio(["info", "--human", fixture.server.url("gull-rock/manifest.json")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("The Last Lamp of Gull Rock"))
        // The track formats come from the tracks themselves, fetched relative to the manifest's URL.
        #expect(result.standardOutput.contains("(MP3, 22.1 kHz, mono)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("(Vorbis, 44.1 kHz, stereo)"), "\(result.standardOutput)")
    }

    @Test(arguments: [
        ("missing/02-the-ship.ogg", "404"),
        ("forbidden/02-the-ship.ogg", "403"),
        ("gone/02-the-ship.ogg", "410"),
    ])
    func aTrackTheServerRefusesIsSkippedWithAWarning(href: String, status: String) throws {
        let fixture = try RemoteBookFixture()
        let reference = try fixture.localRendering(of: [RemoteBookFixture.tracks[0], RemoteBookFixture.tracks[2]])
        let hrefs = [RemoteBookFixture.tracks[0], fixture.server.url(href), RemoteBookFixture.tracks[2]]
        try fixture.server.write(try RemoteBookFixture.manifest(hrefs: hrefs), as: "gull-rock/refusing.json")
        let (result, wav) = try fixture.play(fixture.server.url("gull-rock/refusing.json"))
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = RemoteBookFixture.events(result, type: "warning")
        #expect(warnings.contains { $0["href"]?.stringValue?.hasSuffix(href) == true && $0["message"]?.stringValue?.contains(status) == true }, "\(warnings)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
    }

    @Test func serverErrorsAreRetriedWithBackoffThenTheTrackIsSkipped() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        proxy.inject(.status(503), pathSuffix: "02-the-ship.ogg", times: 1000)
        let reference = try fixture.localRendering(of: [RemoteBookFixture.tracks[0], RemoteBookFixture.tracks[2]])
        let (result, wav) = try fixture.play(proxy.url("gull-rock/manifest.json"), environment: ["RAUDIO_RETRY_DELAYS": "0.05,0.1"])
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = RemoteBookFixture.events(result, type: "warning")
        let retries = warnings.filter { $0["code"]?.stringValue == "remote-retry" }
        #expect(retries.count >= 2 && retries.allSatisfy { $0["message"]?.stringValue?.contains("503") == true }, "\(warnings)")
        #expect(warnings.contains { $0["href"]?.stringValue == "02-the-ship.ogg" && $0["message"]?.stringValue?.contains("gave up after 3 attempts") == true }, "\(warnings)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
    }

    @Test func aServerErrorThatClearsLosesNothing() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        proxy.inject(.status(502), pathSuffix: "01-the-storm.mp3", times: 2, skipping: 1)
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let (result, wav) = try fixture.play(proxy.url("gull-rock/manifest.json"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.events(result, type: "warning").filter { $0["code"]?.stringValue == "remote-retry" }.count == 2)
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
    }

    @Test func aConnectionDroppedMidTrackResumesFromTheExactByte() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        // The first request of each track fetches its head (64 KiB); the one that streams on from there is
        // cut after 10000 bytes.
        proxy.inject(.dropAfter(bytes: 10000), pathSuffix: "01-the-storm.mp3", rangeStart: 65536)
        proxy.inject(.dropAfter(bytes: 10000), pathSuffix: "02-the-ship.ogg", rangeStart: 65536)
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let (result, wav) = try fixture.play(proxy.url("gull-rock/manifest.json"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
        let retries = RemoteBookFixture.events(result, type: "warning").filter { $0["code"]?.stringValue == "remote-retry" }
        #expect(retries.count == 2, "\(retries)")
        for track in ["01-the-storm.mp3", "02-the-ship.ogg"] {
            let requests = proxy.requests.filter { $0.path.hasSuffix(track) }
            let dropped = try #require(requests.firstIndex { $0.fault != nil }, "no request of \(track) was cut")
            let cutStart = try #require(Self.rangeStart(requests[dropped].range))
            let later = requests.dropFirst(dropped + 1).compactMap { Self.rangeStart($0.range) }
            // 10000 bytes of response, less its head, were received: the retry starts right after them.
            #expect(later.contains { $0 > cutStart + 9000 && $0 < cutStart + 10000 }, "\(track): cut at \(cutStart), then \(later)")
        }
    }

    @Test(.enabled(if: EventSchemaValidator.isAvailable, EventSchemaValidator.skipMessage))
    func retryAndSkipEventsValidateAgainstTheEventsSchema() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        // The middle track is skipped (a skipped last track would end the book unheard: RemoteOutageTests).
        proxy.inject(.status(500), pathSuffix: "02-the-ship.ogg", times: 1000)
        proxy.inject(.dropAfter(bytes: 10000), pathSuffix: "01-the-storm.mp3", rangeStart: 65536)
        let (result, _) = try fixture.play(proxy.url("gull-rock/manifest.json"), environment: ["RAUDIO_RETRY_DELAYS": "0.05"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.events(result, type: "warning").count >= 3)
        try EventSchemaValidator.validate(result.outputLines)
    }

    @Test func aServerThatIgnoresRangeIsReadSequentially() throws {
        let fixture = try RemoteBookFixture()
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let (result, wav) = try fixture.play(fixture.server.url("norange/gull-rock/manifest.json"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
        let tracks = fixture.server.accessLog.filter { $0.contains("/norange/gull-rock/0") }
        #expect(!tracks.isEmpty && tracks.allSatisfy { $0.contains(" 200 ") }, "\(tracks)")
    }

    @Test func aSlowServerDelaysPlaybackButLosesNothing() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        // Two stalls of 0.7 s: the track's head, and the first range streamed after it.
        proxy.inject(.stall(seconds: 0.7), pathSuffix: "02-the-ship.ogg", times: 2)
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let (result, wav) = try fixture.play(proxy.url("gull-rock/manifest.json"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(RemoteBookFixture.events(result, type: "warning").isEmpty, "\(result.standardError)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
    }

    @Test func aStalledNextTrackDoesNotHoldUpTheCurrentOne() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        // The second track's first request waits 3 s; 6.5 s of the first track remain from 0:18.
        proxy.inject(.stall(seconds: 3), pathSuffix: "02-the-ship.ogg")
        let player = try RunningProcess(ProcessRunner.raudioExecutable,
                                        ["play", proxy.url("gull-rock/manifest.json"), "--output", "null", "--realtime", "--from", "0:18", "--interval", "0.1"],
                                        environment: ["XDG_CACHE_HOME": fixture.folder.path("cache"), "RAUDIO_STATE_DIR": fixture.folder.path("state")])
        defer { _ = player.finish(timeout: 5) }
        // When each line arrived: the positions of the first track must keep coming while the second stalls.
        var arrivals: [(line: String, at: Date)] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !arrivals.contains(where: { $0.line.contains("\"type\":\"track\"") && $0.line.contains("02-the-ship.ogg") }) {
            let lines = player.outputLines
            for line in lines.dropFirst(arrivals.count) { arrivals.append((line, Date())) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        player.send("quit\n")
        let positions = arrivals.filter { $0.line.contains("\"type\":\"position\"") && $0.line.contains("01-the-storm.mp3") }.map(\.at)
        let secondTrack = try #require(arrivals.first { $0.line.contains("\"type\":\"track\"") && $0.line.contains("02-the-ship.ogg") }?.at,
                                       "the second track never started: \(player.standardError)")
        let first = try #require(positions.first)
        let longestSilence = zip(positions, positions.dropFirst()).map { $1.timeIntervalSince($0) }.max() ?? 0
        #expect(proxy.requests.first { $0.path.hasSuffix("02-the-ship.ogg") }?.fault != nil, "the stall was not met")
        #expect(positions.count >= 20, "\(positions.count) positions")
        #expect(longestSilence < 1, "no position for \(longestSilence) s while the first track played")
        // The stall is hidden behind the first track's last seconds: the second starts on time.
        #expect(secondTrack.timeIntervalSince(first) < 8.5, "the second track started \(secondTrack.timeIntervalSince(first)) s after the first position")
    }

    @Test func aStallWhilePlayingShowsLoadingThenPlayingAgain() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        // The first track's read-ahead (from byte 65536, past its head) waits 2 s: playback catches up with it.
        proxy.inject(.stall(seconds: 2), pathSuffix: "01-the-storm.mp3", rangeStart: 65536)
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let (result, wav) = try fixture.play(proxy.url("gull-rock/manifest.json"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(proxy.requests.contains { $0.fault != nil }, "the stall was not met")
        let states = RemoteBookFixture.events(result, type: "state")
        let names = states.compactMap { $0["state"]?.stringValue }
        let buffering = try #require(states.indices.first { $0 > 0 && names[$0] == "loading" && names[$0 - 1] == "playing" }, "states: \(names)")
        #expect(states[buffering]["locator"]?.objectValue?["href"]?.stringValue == "01-the-storm.mp3", "\(states[buffering])")
        #expect(names.dropFirst(buffering + 1).first == "playing", "states: \(names)")
        #expect(names.last == "ended", "states: \(names)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
    }

    @Test func aTrackWhoseConnectionsKeepBreakingIsAbandonedAndTheRestPlays() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        // The head of the first track arrives; every later request breaks inside its response head.
        proxy.inject(.dropAfter(bytes: 40), pathSuffix: "01-the-storm.mp3", times: 1000, skipping: 1)
        let (result, _) = try fixture.play(proxy.url("gull-rock/manifest.json"), environment: ["RAUDIO_RETRY_DELAYS": "0.02,0.04"])
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = RemoteBookFixture.events(result, type: "warning")
        let retries = warnings.filter { $0["code"]?.stringValue == "remote-retry" }
        #expect(retries.count >= 2, "\(warnings)")
        // Retries go through the navigator's events, which place them where playback is.
        #expect(retries.allSatisfy { $0["locator"]?.objectValue?["href"]?.stringValue != nil }, "\(retries)")
        #expect(warnings.contains { $0["href"]?.stringValue == "01-the-storm.mp3" && $0["message"]?.stringValue?.contains("gave up") == true }, "\(warnings)")
        let tracks = RemoteBookFixture.events(result, type: "track").compactMap { $0["locator"]?.objectValue?["href"]?.stringValue }
        #expect(tracks.contains("02-the-ship.ogg") && tracks.contains("03-le-matin.mp3"), "\(tracks)")
        #expect(RemoteBookFixture.events(result, type: "state").last?["state"]?.stringValue == "ended")
    }

    @Test func quittingWhileATrackWaitsOnASilentServerExitsAtOnce() throws {
        let fixture = try RemoteBookFixture()
        let proxy = try fixture.faultProxy()
        // The second track's server says nothing for 30 s; the player opens it ahead of time (gapless).
        proxy.inject(.stall(seconds: 30), pathSuffix: "02-the-ship.ogg", times: 10)
        let player = try RunningProcess(ProcessRunner.raudioExecutable, ["play", proxy.url("gull-rock/manifest.json"), "--output", "null", "--realtime"],
                                        environment: ["XDG_CACHE_HOME": fixture.folder.path("cache")])
        let deadline = Date().addingTimeInterval(10)
        while !proxy.requests.contains(where: { $0.path.hasSuffix("02-the-ship.ogg") }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        try #require(proxy.requests.contains { $0.path.hasSuffix("02-the-ship.ogg") }, "the second track was never asked for")
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        player.send("quit\n")
        let ended = player.finish(timeout: 15)
        let elapsed = Date().timeIntervalSince(started)
        #expect(ended, "raudio did not exit within 15 s of quit")
        #expect(elapsed < 3, "quitting took \(elapsed) s")
    }

    @Test func statusTellsHowManySecondsAreFetchedAhead() throws {
        let fixture = try RemoteBookFixture()
        let player = try RunningProcess(ProcessRunner.raudioExecutable, ["play", fixture.server.url("gull-rock/manifest.json"), "--output", "null", "--realtime"],
                                        environment: ["XDG_CACHE_HOME": fixture.folder.path("cache")])
        defer { _ = player.finish(timeout: 5) }
        #expect(player.waitForLine(timeout: 20) { $0.contains("\"type\":\"position\"") && $0.contains("t=1") })
        player.send("status\n")
        #expect(player.waitForLine(timeout: 10) { $0.contains("\"buffer\"") })
        let answer = try #require(player.outputLines.compactMap { try? JSONParser.parse($0).objectValue }.first { $0["buffer"] != nil })
        let buffer = try #require(answer["buffer"]?.doubleValue)
        // The first track (24.5 s, 131 kB) is small: its read-ahead soon holds all that is left of it.
        #expect(buffer > 1 && buffer <= 24.5, "buffer \(buffer) s")
        player.send("quit\n")
    }

    @Test func aReplayStreamsFromTheDiskCache() throws {
        let fixture = try RemoteBookFixture()
        let reference = try fixture.localRendering(of: RemoteBookFixture.tracks)
        let proxy = try fixture.faultProxy()
        let cache = fixture.folder.path("cache")
        let (first, _) = try fixture.play(proxy.url("gull-rock/manifest.json"), environment: ["XDG_CACHE_HOME": cache])
        #expect(first.status == 0, "\(first.standardError)")
        let firstRequests = proxy.requests.count
        #expect(proxy.requests.contains { Self.rangeStart($0.range) == 65536 }, "the first play did not stream past the heads")
        let (second, wav) = try fixture.play(proxy.url("gull-rock/manifest.json"), environment: ["XDG_CACHE_HOME": cache])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(RemoteBookFixture.compare(wav, reference) == nil, "\(RemoteBookFixture.compare(wav, reference) ?? "")")
        // The replay asks for each track's head (which tells its length) and its tag, never for the audio after it.
        let replayed = proxy.requests.dropFirst(firstRequests)
        #expect(!replayed.contains { (Self.rangeStart($0.range) ?? 0) == 65536 }, "\(replayed.map { "\($0.path) \($0.range ?? "-")" })")
        let size = try ProcessRunner.raudio(["play", proxy.url("gull-rock/manifest.json"), "--cache-size", "lots"])
        #expect(size.status == 64 && size.standardError.contains("--cache-size lots"), "\(size.standardError)")
    }

    static func rangeStart(_ header: String?) -> Int? {
        guard let header, header.hasPrefix("bytes=") else { return nil }
        return Int(header.dropFirst(6).prefix { $0.isNumber })
    }
}
