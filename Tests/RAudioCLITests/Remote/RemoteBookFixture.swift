// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioTestSupport
import ReadiumShared
import Testing

/// The sample audiobook (`samples/gull-rock`) on a real nginx, with manifests rewritten per test and a
/// fault-injecting proxy in front where a test needs one.
final class RemoteBookFixture {
    static let sampleFolder = Corpus.projectRoot.appendingPathComponent("samples/gull-rock")
    static let tracks = ["01-the-storm.mp3", "02-the-ship.ogg", "03-le-matin.mp3"]

    let server: NginxServer
    let folder: TemporaryDirectory
    private(set) var proxy: FaultProxy?

    /// Starts nginx serving the sample book at `/gull-rock/`.
    init() throws {
        server = try NginxServer()
        folder = try TemporaryDirectory()
        for name in Self.tracks + ["manifest.json"] {
            try server.add(Self.sampleFolder.appendingPathComponent(name), as: "gull-rock/\(name)")
        }
    }

    deinit {
        proxy?.stop()
        server.stop()
    }

    /// A proxy in front of nginx (made once).
    func faultProxy() throws -> FaultProxy {
        if let proxy { return proxy }
        let made = try FaultProxy(upstreamPort: server.port)
        proxy = made
        return made
    }

    /// The sample's manifest with each reading-order href replaced by `hrefs` (same count or fewer:
    /// the rest are dropped), as JSON text.
    static func manifest(hrefs: [String]) throws -> String {
        let data = try Data(contentsOf: sampleFolder.appendingPathComponent("manifest.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var readingOrder = try #require(object["readingOrder"] as? [[String: Any]])
        readingOrder = Array(readingOrder.prefix(hrefs.count))
        for index in readingOrder.indices { readingOrder[index]["href"] = hrefs[index] }
        object["readingOrder"] = readingOrder
        // The table of contents names the original tracks; this test is about the reading order.
        object["toc"] = nil
        var metadata = try #require(object["metadata"] as? [String: Any])
        metadata["duration"] = nil
        object["metadata"] = metadata
        let json = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .withoutEscapingSlashes])
        return String(decoding: json, as: UTF8.self)
    }

    /// Renders the local book made of `tracks` (sample file names) to a WAV; returns its path.
    func localRendering(of tracks: [String]) throws -> String {
        let book = folder.url.appendingPathComponent("local-\(tracks.joined(separator: "+"))")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        for track in tracks {
            try? FileManager.default.copyItem(at: Self.sampleFolder.appendingPathComponent(track), to: book.appendingPathComponent(track))
        }
        try Self.manifest(hrefs: tracks).write(to: book.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        let wav = book.path + ".wav"
        let result = try ProcessRunner.raudio(["play", book.appendingPathComponent("manifest.json").path, "--output", "wav:\(wav)"], timeout: 120)
        try #require(result.status == 0, "the local rendering failed: \(result.standardError)")
        return wav
    }

    /// Plays `target` (a URL or path) to a WAV; returns the result and the WAV's path.
    func play(_ target: String, environment: [String: String] = [:], timeout: TimeInterval = 120) throws -> (ProcessResult, String) {
        let wav = folder.path("remote-\(UUID().uuidString).wav")
        var environment = environment
        environment["RAUDIO_RETRY_DELAYS"] = environment["RAUDIO_RETRY_DELAYS"] ?? "0.05,0.1,0.2"
        environment["XDG_CACHE_HOME"] = environment["XDG_CACHE_HOME"] ?? folder.path("cache-\(UUID().uuidString)")
        let result = try ProcessRunner.raudio(["play", target, "--output", "wav:\(wav)"], environment: environment, timeout: timeout)
        return (result, wav)
    }

    /// The events of `result` of `type`.
    static func events(_ result: ProcessResult, type: String) -> [JSONObject] {
        result.outputLines.compactMap { try? JSONParser.parse($0).objectValue }.filter { $0["type"]?.stringValue == type }
    }

    /// Whether the two files hold the same bytes; a message saying how they differ otherwise.
    static func compare(_ path: String, _ reference: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return "\(path) was not written" }
        guard let expected = FileManager.default.contents(atPath: reference) else { return "\(reference) was not written" }
        if data == expected { return nil }
        let firstDifference = zip(data, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        return "\(data.count) bytes vs \(expected.count) expected; first difference at byte \(firstDifference.map(String.init) ?? "none (one is a prefix)")"
    }
}
