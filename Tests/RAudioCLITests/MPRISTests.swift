// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The desktop's media controls end to end: the built raudio plays the sample audiobook on a private
/// `dbus-daemon --session`, and the clients desktops use (`playerctl`, `busctl`, `gdbus`, `dbus-monitor`)
/// drive and watch it. The sample's six table-of-contents entries have times, so each is a track:
/// entry 1 "Chapter 1: The Storm" is 0-15.26 s, entry 2 "The lamp goes out" 15.26-24.465 s.
@Suite(.serialized, .enabled(if: DBusSessionDaemon.isAvailable, DBusSessionDaemon.skipMessage))
struct MPRISTests {
    static let player = "org.mpris.MediaPlayer2.Player"
    static let path = "/org/mpris/MediaPlayer2"

    /// raudio playing the sample book on `bus`, once its MPRIS name is owned; and that name.
    static func play(on bus: DBusSessionDaemon, _ extra: [String] = []) throws -> (RunningProcess, String) {
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--json", "--no-state", "--interval", "0.2"] + extra,
                                         environment: bus.environment)
        let name = "org.mpris.MediaPlayer2.raudio.instance\(running.process.processIdentifier)"
        let owned = eventually { (try? bus.run("busctl", ["--user", "list", "--acquired"]).standardOutput.contains(name)) == true }
        try #require(owned, "raudio owns \(name) on the private bus; stderr: \(running.standardError)")
        try #require(running.waitForLine(timeout: 10) { $0.contains("\"state\":\"playing\"") })
        return (running, name)
    }

    /// `playerctl -p raudio ARGUMENTS`, its stdout trimmed (and the quotes it puts around an object path).
    static func playerctl(_ bus: DBusSessionDaemon, _ arguments: String...) throws -> String {
        let output = try bus.run("playerctl", ["-p", "raudio"] + arguments).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return output.hasPrefix("'") && output.hasSuffix("'") && output.count > 1 ? String(output.dropFirst().dropLast()) : output
    }

    /// Polls `condition` every 50 ms for at most `timeout` seconds.
    static func eventually(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }

    /// The publication time of the last event with a locator.
    static func lastTime(_ running: RunningProcess) -> Double? {
        for line in running.outputLines.reversed() where line.contains("\"locator\"") {
            if let object = try? JSONParser.parse(line).objectValue, let locator = object["locator"]?.objectValue,
               let time = PlayCommandTests.publicationTime(of: locator) { return time }
        }
        return nil
    }

    /// The arguments of the `Seeked` signals `dbus-monitor` printed.
    static func seekedPositions(_ monitor: RunningProcess) -> [Int64] {
        let lines = monitor.outputLines
        return lines.indices.compactMap { index in
            guard lines[index].contains("member=Seeked"), index + 1 < lines.count else { return nil }
            return Int64(lines[index + 1].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "int64 ", with: ""))
        }
    }

    static func quit(_ running: RunningProcess) {
        running.send("quit\n")
        #expect(running.finish(timeout: 10), "raudio quits")
    }

    @Test func playerctlPausesAndResumes() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let (running, _) = try Self.play(on: bus)
        defer { Self.quit(running) }
        #expect(try Self.playerctl(bus, "status") == "Playing")
        _ = try Self.playerctl(bus, "pause")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"state\"") && $0.contains("\"state\":\"paused\"") })
        #expect(Self.eventually { (try? Self.playerctl(bus, "status")) == "Paused" })
        _ = try Self.playerctl(bus, "play-pause")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"ack\"") && $0.contains("\"command\":\"toggle\"") })
        #expect(Self.eventually { (try? Self.playerctl(bus, "status")) == "Playing" })
    }

    @Test func metadataFollowsTheChapterOnNext() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let monitor = try bus.start("dbus-monitor", ["--address", bus.address, "type='signal',path='\(Self.path)'"])
        defer { monitor.signal(SIGTERM); _ = monitor.finish(timeout: 2) }
        let (running, _) = try Self.play(on: bus)
        defer { Self.quit(running) }
        #expect(try Self.playerctl(bus, "metadata", "xesam:title") == "Chapter 1: The Storm")
        #expect(try Self.playerctl(bus, "metadata", "xesam:album") == "The Last Lamp of Gull Rock")
        #expect(try Self.playerctl(bus, "metadata", "xesam:artist") == "The raudio project")
        #expect(try Self.playerctl(bus, "metadata", "mpris:length") == "15260000", "the first entry's length, 15.26 s")
        #expect(try Self.playerctl(bus, "metadata", "mpris:trackid") == "/org/mpris/MediaPlayer2/raudio/chapter/1")

        _ = try Self.playerctl(bus, "next")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"chapter\"") && $0.contains("\"index\":2") })
        #expect(Self.eventually { (try? Self.playerctl(bus, "metadata", "xesam:title")) == "The lamp goes out" })
        #expect(try Self.playerctl(bus, "metadata", "mpris:length") == "9205000", "24.465 - 15.26 s")
        #expect(try Self.playerctl(bus, "metadata", "mpris:trackid") == "/org/mpris/MediaPlayer2/raudio/chapter/2")
        // Watched as a desktop widget sees it: a PropertiesChanged signal carrying the new title.
        #expect(Self.eventually { monitor.outputLines.joined(separator: "\n").contains("string \"The lamp goes out\"") },
                "PropertiesChanged with the new title; monitor saw: \(monitor.outputLines.suffix(40).joined(separator: "\n"))")
        let text = monitor.outputLines.joined(separator: "\n")
        #expect(text.contains("member=PropertiesChanged"))
        #expect(!text.contains("string \"Position\""), "Position is never in PropertiesChanged")
        // Next is a jump: Seeked to the start of the new track.
        #expect(Self.eventually { Self.seekedPositions(monitor).contains { $0 >= 0 && $0 < 1_000_000 } }, "\(Self.seekedPositions(monitor))")
    }

    @Test func setPositionAndSeekMoveTheLocatorAndSignalSeeked() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let monitor = try bus.start("dbus-monitor", ["--address", bus.address, "type='signal',member='Seeked'"])
        defer { monitor.signal(SIGTERM); _ = monitor.finish(timeout: 2) }
        let (running, _) = try Self.play(on: bus)
        defer { Self.quit(running) }
        // Paused, so that positions are exact.
        _ = try Self.playerctl(bus, "pause")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"state\":\"paused\"") })

        _ = try Self.playerctl(bus, "position", "10")
        #expect(Self.eventually { Self.lastTime(running).map { abs($0 - 10) < 0.05 } == true }, "SetPosition 10 s: at \(String(describing: Self.lastTime(running)))")
        #expect(Self.eventually { Self.seekedPositions(monitor).contains { abs($0 - 10_000_000) < 50_000 } }, "\(Self.seekedPositions(monitor))")
        #expect(Self.eventually { (try? Self.playerctl(bus, "position")).flatMap(Double.init).map { abs($0 - 10) < 0.05 } == true })

        _ = try Self.playerctl(bus, "position", "3+")
        #expect(Self.eventually { Self.lastTime(running).map { abs($0 - 13) < 0.05 } == true }, "Seek +3 s: at \(String(describing: Self.lastTime(running)))")
        #expect(Self.eventually { Self.seekedPositions(monitor).contains { abs($0 - 13_000_000) < 50_000 } }, "\(Self.seekedPositions(monitor))")

        // Past the track's end (15.26 s): ignored, as the spec says.
        let acks = running.outputLines.filter { $0.contains("\"command\":\"seek\"") }.count
        _ = try Self.playerctl(bus, "position", "20")
        Thread.sleep(forTimeInterval: 1)
        #expect(running.outputLines.filter { $0.contains("\"command\":\"seek\"") }.count == acks, "SetPosition past the track is ignored")
        #expect(Self.lastTime(running).map { abs($0 - 13) < 0.05 } == true)
    }

    @Test func volumeAndRateSetThroughPropertiesAreSettingsEvents() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let (running, name) = try Self.play(on: bus)
        defer { Self.quit(running) }
        let set = { (property: String, value: String) throws -> ProcessResult in
            try bus.run("busctl", ["--user", "set-property", name, Self.path, Self.player, property, "d", value])
        }
        let get = { (property: String) -> String? in
            try? bus.run("busctl", ["--user", "get-property", name, Self.path, Self.player, property]).standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try set("Volume", "0.5").status == 0)
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"settings\"") && $0.contains("\"volume\":0.5") })
        #expect(try set("Rate", "1.5").status == 0)
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"settings\"") && $0.contains("\"speed\":1.5") })
        #expect(Self.eventually { get("Volume") == "d 0.5" && get("Rate") == "d 1.5" }, "\(String(describing: get("Volume"))) \(String(describing: get("Rate")))")
        // Out of range: kept in the player's range.
        #expect(try set("Volume", "5").status == 0)
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"settings\"") && $0.contains("\"volume\":2") })
        // Read-only properties refuse.
        let readOnly = try bus.run("busctl", ["--user", "set-property", name, Self.path, Self.player, "MinimumRate", "d", "1"])
        #expect(readOnly.status != 0 && readOnly.standardError.contains("read-only"), "\(readOnly.standardError)")
        #expect(get("MinimumRate") == "d 0.5" && get("MaximumRate") == "d 3")
        #expect(get("CanSeek") == "b true" && get("CanControl") == "b true")
    }

    @Test func introspectionDescribesWhatTheObjectAnswers() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let (running, name) = try Self.play(on: bus)
        defer { Self.quit(running) }
        let result = try bus.run("gdbus", ["introspect", "--session", "--dest", name, "--object-path", Self.path, "--xml"])
        #expect(result.status == 0, "\(result.standardError)")
        let collector = IntrospectionCollector()
        let parser = XMLParser(data: Data(result.standardOutput.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "the introspection XML parses: \(String(describing: parser.parserError))")
        for interface in ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties", "org.mpris.MediaPlayer2", Self.player] {
            #expect(collector.interfaces.contains(interface), "\(interface) is introspected")
        }
        #expect(Set(collector.methods[Self.player] ?? []) == ["Next", "Previous", "Pause", "PlayPause", "Stop", "Play", "Seek", "SetPosition", "OpenUri"])
        // Every property GetAll returns is introspected, and the other way round.
        let all = try bus.run("gdbus", ["call", "--session", "--dest", name, "--object-path", Self.path,
                                        "--method", "org.freedesktop.DBus.Properties.GetAll", Self.player]).standardOutput
        let introspected = collector.properties[Self.player] ?? []
        #expect(introspected.count == 13)
        for property in introspected { #expect(all.contains("'\(property)'"), "GetAll has \(property)") }
        // OpenUri is refused as the spec allows.
        let openURI = try bus.run("busctl", ["--user", "call", name, Self.path, Self.player, "OpenUri", "s", "file:///tmp/x.mp3"])
        #expect(openURI.status != 0)
    }

    @Test func quitThroughMPRISEndsTheSessionAndReleasesTheName() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let (running, name) = try Self.play(on: bus)
        let call = try bus.run("busctl", ["--user", "call", name, Self.path, "org.mpris.MediaPlayer2", "Quit"])
        #expect(call.status == 0, "\(call.standardError)")
        #expect(running.finish(timeout: 10), "raudio exits after Quit")
        #expect(running.process.terminationStatus == 0)
        #expect(running.outputLines.contains { $0.contains("\"type\":\"ack\"") && $0.contains("\"command\":\"quit\"") })
        #expect(!(try bus.run("busctl", ["--user", "list"]).standardOutput.contains(name)), "the name is gone")
    }

    /// The cover goes to `$XDG_RUNTIME_DIR/raudio/cover-<pid>.png` (mode 0600) for `mpris:artUrl`, and away at the end.
    @Test func theCoverIsAFileURLRemovedAtTheEnd() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let folder = try TemporaryDirectory()
        let book = folder.path("book")
        let unzip = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-q", PlayCommandTests.sampleBook, "-d", book])
        try #require(unzip.status == 0, "\(unzip.standardError)")
        let cover = Data((0..<64).map { UInt8($0) })
        try cover.write(to: URL(fileURLWithPath: "\(book)/cover.png"))
        let manifestURL = URL(fileURLWithPath: "\(book)/manifest.json")
        var manifest = try #require(try JSONParser.parse(String(decoding: Data(contentsOf: manifestURL), as: UTF8.self)).objectValue)
        manifest["resources"] = .array([.object(["href": .string("cover.png"), "type": .string("image/png"), "rel": .string("cover")])])
        try Data(JSONValue.object(manifest).serialized().utf8).write(to: manifestURL)

        let running = try RunningProcess(ProcessRunner.raudioExecutable, ["play", book, "--output", "null", "--realtime", "--json", "--no-state"],
                                         environment: bus.environment)
        let expected = "\(bus.environment["XDG_RUNTIME_DIR"]!)/raudio/cover-\(running.process.processIdentifier).png"
        #expect(Self.eventually { (try? Self.playerctl(bus, "metadata", "mpris:artUrl")) == "file://\(expected)" },
                "\(String(describing: try? Self.playerctl(bus, "metadata")))")
        #expect(FileManager.default.contents(atPath: expected) == cover)
        let permissions = try FileManager.default.attributesOfItem(atPath: expected)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        Self.quit(running)
        #expect(!FileManager.default.fileExists(atPath: expected), "removed when the session ends")
    }

    /// `raudio speak`: the track is the navigation entry (no length), no seeking, Next moves by entry.
    @Test func speechOffersChaptersWithoutSeeking() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["speak", SpeakCommandTests.sampleEPUB, "--output", "null", "--realtime", "--json", "--no-state"],
                                         environment: bus.environment)
        defer { Self.quit(running) }
        let name = "org.mpris.MediaPlayer2.raudio.instance\(running.process.processIdentifier)"
        #expect(running.waitForLine(timeout: 20) { $0.contains("\"type\":\"chapter\"") })
        let first = try #require(try ChapterTests.events(running, "chapter").first?["title"]?.stringValue)
        #expect(Self.eventually { (try? Self.playerctl(bus, "metadata", "xesam:title")) == first })
        #expect(try bus.run("busctl", ["--user", "get-property", name, Self.path, Self.player, "CanSeek"]).standardOutput.contains("b false"))
        #expect(try Self.playerctl(bus, "metadata", "mpris:length").isEmpty, "no length in speech")
        _ = try Self.playerctl(bus, "next")
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"type\":\"chapter\"") && $0.contains("\"index\":2") })
        let second = try #require(try ChapterTests.events(running, "chapter").last?["title"]?.stringValue)
        #expect(Self.eventually { (try? Self.playerctl(bus, "metadata", "xesam:title")) == second })
    }

    @Test func noMprisOwnsNoName() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--json", "--no-state", "--no-mpris"],
                                         environment: bus.environment)
        #expect(running.waitForLine(timeout: 10) { $0.contains("\"state\":\"playing\"") })
        Thread.sleep(forTimeInterval: 0.5)
        let names = try bus.run("busctl", ["--user", "list", "--acquired"]).standardOutput
        #expect(names.contains("org.freedesktop.DBus") && !names.contains("org.mpris.MediaPlayer2"), "\(names)")
        #expect(try bus.run("playerctl", ["-l"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        Self.quit(running)
    }

    /// Rendering faster than real time is no player to control: nothing is offered to the desktop.
    @Test func aFastRenderOwnsNoName() throws {
        let bus = try DBusSessionDaemon()
        defer { bus.stop() }
        let folder = try TemporaryDirectory()
        let running = try RunningProcess(ProcessRunner.raudioExecutable,
                                         ["play", PlayCommandTests.sampleBook, "--output", "wav:\(folder.path("out.wav"))", "--json", "--no-state", "--keep-open"],
                                         environment: bus.environment)
        #expect(running.waitForLine(timeout: 30) { $0.contains("\"state\":\"ended\"") })
        let names = try bus.run("busctl", ["--user", "list", "--acquired"]).standardOutput
        #expect(names.contains("org.freedesktop.DBus") && !names.contains("org.mpris.MediaPlayer2"), "\(names)")
        Self.quit(running)
    }

    /// No session bus at all: raudio plays as always, and says nothing about D-Bus.
    @Test func withoutASessionBusPlaybackIsUnaffected() throws {
        let folder = try TemporaryDirectory()
        let result = try ProcessRunner.raudio(
            ["play", PlayCommandTests.sampleBook, "--output", "null", "--realtime", "--json", "--no-state", "--duration", "3"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.path("no-bus"))", "XDG_RUNTIME_DIR": folder.url.path],
            timeout: 60)
        #expect(result.status == 0)
        #expect(!result.timedOut)
        #expect(!result.standardError.lowercased().contains("bus") && !result.standardError.lowercased().contains("mpris"), "\(result.standardError)")
        #expect(result.outputLines.contains { $0.contains("\"state\":\"playing\"") })
        #expect(!result.outputLines.contains { $0.contains("\"type\":\"error\"") })
    }
}

/// Collects the interfaces, methods and properties of an introspection document.
private final class IntrospectionCollector: NSObject, XMLParserDelegate {
    var interfaces: [String] = []
    var methods: [String: [String]] = [:]
    var properties: [String: [String]] = [:]
    private var current: String?

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        guard let name = attributes["name"] else { return }
        switch element {
        case "interface":
            interfaces.append(name)
            current = name
        case "method":
            if let current { methods[current, default: []].append(name) }
        case "property":
            if let current { properties[current, default: []].append(name) }
        default:
            break
        }
    }
}
